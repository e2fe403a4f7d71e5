"""Per-bot cgroups, on cgroup v1 (a hierarchy per controller), v2 (unified), or both.

`CgroupDriver.detect()` reads /proc/self/mountinfo and /proc/self/cgroup once and
decides, controller by controller, where a per-bot group can live: under this process's
own cgroup, in a ``hearts-arena`` folder. A controller v2 offers is used there; one v1
offers is used otherwise (a hybrid machine, like ours, mixes them). The v2 hierarchy, even
with no controller, still gives membership, ``cgroup.kill`` and CPU accounting.

`BotCgroup` is one bot's group: limits written at creation, the bot attached before it
runs, usage and kill counters read afterwards, and everything killed and removed at the end.

In the v2 hierarchy the group has one child, ``bot`` (`BOT_LEAF`): the bot's own processes
live there and only there is frozen off-turn, while the sandbox's bubblewrap and init stay
in the group itself. The freezer's cost is per task it stops and wakes (two writes, and
each task woken into and out of the freezer, twice a decision), and those two never run
the bot's code. The limits, the CPU accounting and ``cgroup.kill`` are the group's and
cover the child too (v2 counts and limits a subtree as one); no controller is enabled
for the child, so the group may keep processes of its own beside it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

FOLDER = "hearts-arena"
"""The folder, under this process's own cgroup, that holds the per-bot groups."""
BOT_LEAF = "bot"
"""The v2 child of a bot's group that holds the bot's processes (the group frozen off-turn)."""
LIMITED = ("memory", "pids", "cpu")
CFS_PERIOD_US = 100_000


@dataclasses.dataclass(frozen=True)
class Hierarchy:
    """One mounted cgroup hierarchy and this process's folder in it."""

    version: int
    mount: Path
    controllers: frozenset[str]
    """v1: the controllers bound to this hierarchy; v2: those enabled for our groups."""
    base: Path
    """``<mount>/<our cgroup>/hearts-arena``: where per-bot groups are made."""


@dataclasses.dataclass(frozen=True)
class CgroupLimits:
    """What a per-bot group enforces."""

    memory_bytes: int
    max_processes: int
    cpu_cores: float


def _read(path: Path) -> str:
    return path.read_text()


def _write(path: Path, value: str) -> None:
    with open(path, "w") as stream:
        stream.write(value)


def _keyed(path: Path) -> dict[str, int]:
    """A ``key value`` file (memory.events, pids.events, cpu.stat, oom_control) as a dict."""
    values: dict[str, int] = {}
    with contextlib.suppress(OSError):
        for line in _read(path).splitlines():
            key, _, value = line.partition(" ")
            with contextlib.suppress(ValueError):
                values[key] = int(value)
    return values


def _own_paths(proc: Path) -> tuple[dict[str, str], str | None]:
    """This process's cgroup path per v1 controller, and its v2 path (None without v2)."""
    v1: dict[str, str] = {}
    v2: str | None = None
    for line in _read(proc / "self" / "cgroup").splitlines():
        hierarchy_id, controllers, path = line.split(":", 2)
        if hierarchy_id == "0" and controllers == "":
            v2 = path
        for controller in controllers.split(","):
            if controller:
                v1[controller] = path
    return v1, v2


def _mounts(proc: Path) -> Iterator[tuple[str, Path, str, set[str]]]:
    """(fstype, mount point, mount root, super options) of each cgroup mount."""
    for line in _read(proc / "self" / "mountinfo").splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        mount_point = Path(fields[4].replace("\\040", " "))
        yield tail[0], mount_point, fields[3], set(tail[2].split(","))


def _under(mount: Path, root: str, path: str) -> Path:
    """The directory of cgroup `path` in a hierarchy mounted at `mount` (whose root is `root`)."""
    if root != "/" and (path == root or path.startswith(root + "/")):
        path = path[len(root) :]
    return mount / path.lstrip("/")


def _enable_v2(own: Path, base: Path) -> frozenset[str]:
    """Enable what we can of LIMITED for the groups under `base`; the ones that took."""
    try:
        available = set(_read(own / "cgroup.controllers").split())
    except OSError:
        return frozenset()
    enabled: set[str] = set()
    for controller in LIMITED:
        if controller not in available:
            continue
        try:
            if controller not in _read(own / "cgroup.subtree_control").split():
                # Fails with EBUSY when our own group holds processes and is not the root
                # (cgroup v2's "no internal processes" rule): give the worker a delegated
                # subtree with its own process in a leaf to use v2 controllers then.
                _write(own / "cgroup.subtree_control", f"+{controller}")
            _write(base / "cgroup.subtree_control", f"+{controller}")
        except OSError:
            continue
        enabled.add(controller)
    return frozenset(enabled)


class CgroupDriver:
    """Where this process can make per-bot cgroups, and with which controllers."""

    def __init__(self, hierarchies: list[Hierarchy], problems: list[str]) -> None:
        self.hierarchies = hierarchies
        self.problems = problems
        """Why some controllers are missing (for messages and docs)."""

    @classmethod
    def detect(cls, proc: Path = Path("/proc")) -> CgroupDriver:
        """Inspect the mounts and this process's groups; never raises (problems are listed)."""
        problems: list[str] = []
        try:
            v1_paths, v2_path = _own_paths(proc)
            mounts = list(_mounts(proc))
        except OSError as error:
            return cls([], [f"cannot read this process's cgroups: {error}"])
        hierarchies: list[Hierarchy] = []
        covered: set[str] = set()
        for fstype, mount, root, _ in mounts:
            if fstype != "cgroup2" or v2_path is None:
                continue
            own = _under(mount, root, v2_path)
            base = own / FOLDER
            try:
                base.mkdir(exist_ok=True)
            except OSError as error:
                problems.append(f"cgroup v2 at {mount} is not writable: {error}")
                break
            enabled = _enable_v2(own, base)
            hierarchies.append(Hierarchy(2, mount, enabled, base))
            covered |= enabled | {"cpuacct"}  # cpu.stat is in every v2 group
            break
        for fstype, mount, root, options in mounts:
            if fstype != "cgroup":
                continue
            wanted = (options & {*LIMITED, "cpuacct"}) - covered
            if not wanted:
                continue
            controller = next(iter(sorted(wanted)))
            if controller not in v1_paths:
                continue
            base = _under(mount, root, v1_paths[controller]) / FOLDER
            try:
                base.mkdir(exist_ok=True)
            except OSError as error:
                problems.append(f"cgroup v1 {','.join(sorted(wanted))} is not writable: {error}")
                continue
            bound = frozenset(options & {*LIMITED, "cpuacct"})
            hierarchies.append(Hierarchy(1, mount, bound, base))
            covered |= wanted
        for controller in LIMITED:
            if controller not in covered:
                problems.append(f"no writable cgroup {controller} controller")
        return cls(hierarchies, problems)

    @property
    def controllers(self) -> frozenset[str]:
        """The limiting controllers available (a subset of memory, pids, cpu)."""
        found: set[str] = set()
        for hierarchy in self.hierarchies:
            found |= hierarchy.controllers & set(LIMITED)
        return frozenset(found)

    @property
    def usable(self) -> bool:
        """Whether per-bot groups can be made at all."""
        return bool(self.hierarchies)

    def describe(self) -> str:
        """One line: what is used where (``memory:v1 pids:v1 cpu:v1 kill:v2``)."""
        parts = []
        for controller in (*LIMITED, "cpuacct"):
            for hierarchy in self.hierarchies:
                if controller in hierarchy.controllers:
                    parts.append(f"{controller}:v{hierarchy.version}")
                    break
        if any(h.version == 2 for h in self.hierarchies):
            if not any(p.startswith("cpuacct:") for p in parts):
                parts.append("cpuacct:v2")
            parts.append("membership:v2")
        return " ".join(parts) or "none"

    def create(self, name: str, limits: CgroupLimits) -> BotCgroup:
        """Make the group `name` in every hierarchy and write the limits.

        Raises OSError if a directory or a limit cannot be written (the group is then
        removed again).
        """
        group = BotCgroup([])
        try:
            assigned: set[str] = set()
            for hierarchy in self.hierarchies:
                path = hierarchy.base / name
                path.mkdir()
                roles = set(hierarchy.controllers) - assigned
                leaf = None
                if hierarchy.version == 2:
                    roles.add("cpuacct")  # cpu.stat is in every v2 group
                    roles.add("kill")
                    leaf = path / BOT_LEAF
                assigned |= roles
                group.nodes.append(_Node(hierarchy.version, path, frozenset(roles), leaf))
                if leaf is not None:
                    leaf.mkdir()
            for node in group.nodes:
                node.limit(limits)
        except BaseException:
            group.remove()
            raise
        return group

    def reap_stale(self) -> list[str]:
        """Kill and remove groups left by dead workers (named ``<pid>-…``); their names."""
        reaped = []
        for hierarchy in self.hierarchies:
            with contextlib.suppress(OSError):
                for entry in hierarchy.base.iterdir():
                    owner = entry.name.partition("-")[0]
                    if not entry.is_dir() or not owner.isdigit() or Path(f"/proc/{owner}").exists():
                        continue
                    leaf = entry / BOT_LEAF if (entry / BOT_LEAF).is_dir() else None
                    stale = BotCgroup([_Node(hierarchy.version, entry, frozenset({"kill"}), leaf)])
                    stale.kill()
                    if stale.remove():
                        reaped.append(entry.name)
        return reaped


@dataclasses.dataclass
class _Node:
    """A bot's directory in one hierarchy and the roles it plays there."""

    version: int
    path: Path
    roles: frozenset[str]
    leaf: Path | None = None
    """The v2 child holding the bot's own processes (`BOT_LEAF`); None in v1."""

    @property
    def bot_path(self) -> Path:
        """Where the bot's own processes are in this hierarchy (the leaf, or the group)."""
        return self.leaf if self.leaf is not None else self.path

    def limit(self, limits: CgroupLimits) -> None:
        if "memory" in self.roles:
            if self.version == 2:
                _write(self.path / "memory.max", str(limits.memory_bytes))
                for name, value in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
                    if (self.path / name).exists():
                        _write(self.path / name, value)
            else:
                _write(self.path / "memory.limit_in_bytes", str(limits.memory_bytes))
                if (self.path / "memory.memsw.limit_in_bytes").exists():
                    _write(self.path / "memory.memsw.limit_in_bytes", str(limits.memory_bytes))
        if "pids" in self.roles:
            _write(self.path / "pids.max", str(limits.max_processes))
        if "cpu" in self.roles:
            quota = max(1000, round(limits.cpu_cores * CFS_PERIOD_US))
            if self.version == 2:
                _write(self.path / "cpu.max", f"{quota} {CFS_PERIOD_US}")
            else:
                _write(self.path / "cpu.cfs_period_us", str(CFS_PERIOD_US))
                _write(self.path / "cpu.cfs_quota_us", str(quota))


class BotCgroup:
    """One bot's group across the hierarchies (each method tolerates a missing controller)."""

    def __init__(self, nodes: list[_Node]) -> None:
        self.nodes = nodes
        self._freeze_fd: int | None = None

    @property
    def can_freeze(self) -> bool:
        """Whether the bot's processes can be frozen (cgroup v2's ``cgroup.freeze``,
        Linux >= 5.2)."""
        node = self._node("kill")
        return node is not None and (node.bot_path / "cgroup.freeze").exists()

    def freeze(self, frozen: bool) -> None:
        """Freeze (True) or thaw (False) every process of the bot (its v2 leaf: not the
        sandbox's bubblewrap and init); raises OSError.

        Freezing returns at once (the kernel stops each task at its next return to user
        space, even in a system call); thawing wakes them before it returns. The file is
        kept open: this runs twice per decision.
        """
        if self._freeze_fd is None:
            node = self._node("kill")
            if node is None:
                raise FileNotFoundError("the group has no cgroup v2 node to freeze")
            self._freeze_fd = os.open(node.bot_path / "cgroup.freeze", os.O_WRONLY | os.O_CLOEXEC)
        os.write(self._freeze_fd, b"1" if frozen else b"0")

    def frozen(self) -> bool | None:
        """Whether every task of the bot is frozen now (``cgroup.events`` of its leaf);
        None without a v2 node."""
        node = self._node("kill")
        if node is None:
            return None
        return _keyed(node.bot_path / "cgroup.events").get("frozen") == 1

    def _node(self, role: str) -> _Node | None:
        return next((node for node in self.nodes if role in node.roles), None)

    @property
    def controllers(self) -> frozenset[str]:
        """The limiting controllers this group has."""
        found: set[str] = set()
        for node in self.nodes:
            found |= node.roles & set(LIMITED)
        return frozenset(found)

    def procs_files(self) -> list[Path]:
        """The ``cgroup.procs`` files a bot's process is written to, one per hierarchy: the
        v2 leaf's, the group's in v1 (`attach_bot`; the warm start's child does it from
        the descriptors it is given)."""
        return [node.bot_path / "cgroup.procs" for node in self.nodes]

    def bot_procs_file(self) -> Path | None:
        """The v2 leaf's ``cgroup.procs`` (None without a v2 node): a cold start's launch
        script moves itself there before it runs the bot; in v1 it inherits the group
        from bubblewrap."""
        node = self._node("kill")
        return None if node is None or node.leaf is None else node.leaf / "cgroup.procs"

    def attach(self, pid: int) -> None:
        """Move process `pid` into the group in every hierarchy, beside the bot's leaf:
        the sandbox's own processes (raises OSError)."""
        for node in self.nodes:
            _write(node.path / "cgroup.procs", str(pid))

    def attach_bot(self, pid: int) -> None:
        """Move process `pid` where the bot's processes are (`procs_files`; raises OSError)."""
        for path in self.procs_files():
            _write(path, str(pid))

    def processes(self) -> set[int]:
        """The processes in the group and its leaf (in any hierarchy)."""
        found: set[int] = set()
        for node in self.nodes:
            for path in {node.path, node.bot_path}:
                with contextlib.suppress(OSError):
                    found |= {int(pid) for pid in _read(path / "cgroup.procs").split()}
        return found

    def cpu_seconds(self) -> float | None:
        """CPU time used by the group so far (None without accounting)."""
        node = self._node("cpuacct")
        if node is None:
            return None
        try:
            if node.version == 2:
                return _keyed(node.path / "cpu.stat")["usage_usec"] / 1e6
            return int(_read(node.path / "cpuacct.usage")) / 1e9
        except (OSError, KeyError, ValueError):
            return None

    def oom_kills(self) -> int:
        """How many processes the kernel killed for the group's memory limit."""
        node = self._node("memory")
        if node is None:
            return 0
        name = "memory.events" if node.version == 2 else "memory.oom_control"
        return _keyed(node.path / name).get("oom_kill", 0)

    def memory_peak(self) -> int | None:
        """The most memory the group held (bytes), where the kernel reports it."""
        node = self._node("memory")
        if node is None:
            return None
        name = "memory.peak" if node.version == 2 else "memory.max_usage_in_bytes"
        try:
            return int(_read(node.path / name))
        except (OSError, ValueError):
            return None

    def memory_current(self) -> int | None:
        """The memory the group holds now (bytes)."""
        node = self._node("memory")
        if node is None:
            return None
        name = "memory.current" if node.version == 2 else "memory.usage_in_bytes"
        try:
            return int(_read(node.path / name))
        except (OSError, ValueError):
            return None

    def pids_limit_hits(self) -> int:
        """How many forks the process limit refused."""
        node = self._node("pids")
        return 0 if node is None else _keyed(node.path / "pids.events").get("max", 0)

    def kill(self, timeout: float = 2.0) -> bool:
        """SIGKILL everything in the group; True once it is empty."""
        node = self._node("kill")
        if node is not None and (node.path / "cgroup.kill").exists():
            with contextlib.suppress(OSError):
                _write(node.path / "cgroup.kill", "1")
        deadline = time.monotonic() + timeout
        while True:
            pids = self.processes()
            if not pids:
                return True
            if time.monotonic() > deadline:
                return False
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)

    def remove(self, timeout: float = 2.0) -> bool:
        """Remove the group's directories (waiting for exiting processes); True if gone."""
        if self._freeze_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._freeze_fd)
            self._freeze_fd = None
        deadline = time.monotonic() + timeout
        remaining = [node.leaf for node in self.nodes if node.leaf is not None]
        remaining += [node.path for node in self.nodes]  # a group after its leaf
        while remaining:
            for path in list(remaining):
                try:
                    path.rmdir()
                    remaining.remove(path)
                except FileNotFoundError:
                    remaining.remove(path)
                except OSError as error:
                    if error.errno != errno.EBUSY:
                        raise
            if not remaining:
                break
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True
