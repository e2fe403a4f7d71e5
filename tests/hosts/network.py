"""Hosts of the test's own: network namespaces joined by veth pairs through a bridge.

Every namespace, link and address is made here and exists only on this machine: the
namespaces are named after this process (`arena<pid>-<role>`), the addresses come from
a /28 of 198.51.100.0/24 (TEST-NET-2, a documentation range: never a private range, and
no route leads off the machine), and `close()` deletes everything, whatever happened.
The test process itself reaches the hosts through one veth of its own in the root
namespace. Making namespaces needs root and iproute2; `namespaces_or_skip()` says why
they cannot be made here.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator

import pytest

DOCUMENTATION_RANGE = ipaddress.IPv4Network("198.51.100.0/24")
BRIDGE = "br0"


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run an `ip`/`tc` command; raise CalledProcessError (with its stderr) on failure."""
    try:
        return subprocess.run(command, check=check, capture_output=True, text=True, timeout=30)
    except subprocess.CalledProcessError as error:
        raise subprocess.CalledProcessError(
            error.returncode, error.cmd, error.stdout, f"{' '.join(command)}: {error.stderr}"
        ) from None


def namespaces_or_skip() -> None:
    """Skip the calling test, with the reason, where network namespaces cannot be made."""
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root (CI runs as root)")
    if shutil.which("ip") is None:
        pytest.skip("iproute2's `ip` is not installed (apt-get install -y iproute2)")
    probe = f"arena{os.getpid()}-probe"
    try:
        run("ip", "netns", "add", probe)
        run("ip", "-n", probe, "link", "add", BRIDGE, "type", "bridge")
    except subprocess.CalledProcessError as error:
        pytest.skip(f"a network namespace with a bridge cannot be made here: {error.stderr}")
    finally:
        run("ip", "netns", "del", probe, check=False)


def free_subnet() -> ipaddress.IPv4Network:
    """A /28 of the documentation range that no address or route of this machine uses
    (two runs at once, say a developer's and CI's, each take their own)."""
    listed = run("ip", "-4", "-o", "addr").stdout + run("ip", "-4", "route").stdout
    taken: list[ipaddress.IPv4Network] = []
    for word in listed.split():
        with contextlib.suppress(ValueError):
            taken.append(ipaddress.IPv4Network(word, strict=False))
    subnets = list(DOCUMENTATION_RANGE.subnets(new_prefix=28))
    start = os.getpid() % len(subnets)
    for subnet in subnets[start:] + subnets[:start]:
        if not any(subnet.overlaps(other) for other in taken):
            return subnet
    pytest.skip("every /28 of 198.51.100.0/24 is in use on this machine")
    raise AssertionError("unreachable")


class Network:
    """A bridge namespace, one namespace per host role, and this process's own link.

    `address(role)` is a host's address; `cut(role)` takes its link down at the bridge
    (its packets vanish: no reset reaches either side, as when a cable is pulled) and
    `heal(role)` brings it back; `netem(role, ...)` adds latency and loss both ways.
    """

    def __init__(self, roles: tuple[str, ...]) -> None:
        self.tag = f"arena{os.getpid()}"
        self.subnet = free_subnet()
        hosts = list(self.subnet.hosts())
        self.own_address = str(hosts[0])
        self.addresses = {role: str(hosts[i + 1]) for i, role in enumerate(roles)}
        self.made: list[str] = []
        self.own_link = f"ah{os.getpid()}r"
        try:
            self._build(roles)
        except BaseException:
            self.close()
            raise

    def namespace(self, role: str) -> str:
        return f"{self.tag}-{role}"

    def address(self, role: str) -> str:
        return self.addresses[role]

    def _add_namespace(self, role: str) -> str:
        name = self.namespace(role)
        run("ip", "netns", "add", name)
        self.made.append(name)
        run("ip", "-n", name, "link", "set", "lo", "up")
        return name

    def _build(self, roles: tuple[str, ...]) -> None:
        bridge = self._add_namespace("bridge")
        run("ip", "-n", bridge, "link", "add", BRIDGE, "type", "bridge")
        run("ip", "-n", bridge, "link", "set", BRIDGE, "up")
        prefix = self.subnet.prefixlen
        for index, role in enumerate(roles):
            host = self._add_namespace(role)
            inner, outer = f"ah{os.getpid()}i{index}", f"ah{os.getpid()}o{index}"
            run("ip", "link", "add", inner, "type", "veth", "peer", "name", outer)
            run("ip", "link", "set", inner, "netns", host)
            run("ip", "-n", host, "link", "set", inner, "name", "eth0")
            run("ip", "-n", host, "addr", "add", f"{self.address(role)}/{prefix}", "dev", "eth0")
            run("ip", "-n", host, "link", "set", "eth0", "up")
            self._attach(outer, f"to-{role}")
        run("ip", "link", "add", self.own_link, "type", "veth", "peer", "name", f"{self.own_link}b")
        self._attach(f"{self.own_link}b", "to-test")
        run("ip", "addr", "add", f"{self.own_address}/{prefix}", "dev", self.own_link)
        run("ip", "link", "set", self.own_link, "up")

    def _attach(self, link: str, port: str) -> None:
        bridge = self.namespace("bridge")
        run("ip", "link", "set", link, "netns", bridge)
        run("ip", "-n", bridge, "link", "set", link, "name", port)
        run("ip", "-n", bridge, "link", "set", port, "master", BRIDGE)
        run("ip", "-n", bridge, "link", "set", port, "up")

    def cut(self, role: str) -> None:
        run("ip", "-n", self.namespace("bridge"), "link", "set", f"to-{role}", "down")

    def heal(self, role: str) -> None:
        run("ip", "-n", self.namespace("bridge"), "link", "set", f"to-{role}", "up")

    def netem(self, role: str, *options: str) -> None:
        """Add `tc netem` with `options` on both ends of `role`'s link (netem shapes what
        leaves an interface, so both ends make it both ways); CalledProcessError when the
        kernel has no sch_netem."""
        host_end = ("-n", self.namespace(role), "qdisc", "add", "dev", "eth0")
        bridge_end = ("-n", self.namespace("bridge"), "qdisc", "add", "dev", f"to-{role}")
        for end in (host_end, bridge_end):
            run("tc", *end, "root", "netem", *options)

    def netem_statistics(self, role: str) -> str:
        return run("tc", "-s", "-n", self.namespace(role), "qdisc", "show", "dev", "eth0").stdout

    def command(self, role: str, *command: str) -> list[str]:
        """`command` run inside `role`'s namespace."""
        return ["ip", "netns", "exec", self.namespace(role), *command]

    def close(self) -> None:
        """Kill what still runs in the namespaces (ours, all of it), delete them and our link."""
        for name in self.made:
            pids = run("ip", "netns", "pids", name, check=False).stdout.split()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, ValueError):
                    os.kill(int(pid), signal.SIGKILL)
        run("ip", "link", "del", self.own_link, check=False)
        for name in reversed(self.made):
            run("ip", "netns", "del", name, check=False)
        self.made.clear()


@contextlib.contextmanager
def network_of(*roles: str) -> Iterator[Network]:
    """A `Network` of `roles`, deleted when the block ends."""
    network = Network(roles)
    try:
        yield network
    finally:
        network.close()
