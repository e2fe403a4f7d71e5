"""The sandbox's /proc: the bot's own processes, and none of the kernel's global counters.

A fresh procfs (bubblewrap's ``--proc``) is per PID namespace for the process folders, but
most of its other entries are global: ``meminfo`` (``Shmem`` moves when any bot fills its
private /tmp), ``loadavg``, ``stat`` (every fork on the machine), ``vmstat``, ``pressure/``,
``sys/fs/file-nr``, ``locks``, ``diskstats``, ``interrupts``, ... Each is a counter one
bot can move and another can read: a covert channel between two bots at one table.

So every top-level entry that is not a process folder (or a link into one: ``self``,
``thread-self``, ``mounts``, ``net``) is covered: five by small fixed files that say what
programs look for (``meminfo`` shows the bot's memory limit, ``stat`` and ``cpuinfo`` the
number of CPUs, ``loadavg`` and ``uptime`` zeros), the rest by an unreadable node (files)
or an empty tmpfs (folders). The fixed files never change, so reading them tells nothing.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

from .policy import SandboxPolicy

KEPT = frozenset({"self", "thread-self", "mounts", "net"})
"""Links into the bot's own process folder (``net`` is its own network namespace's)."""
SYNTHETIC = ("meminfo", "stat", "cpuinfo", "loadavg", "uptime")
"""Entries replaced by a fixed file, in the order of `synthetic_files`."""


@functools.cache
def _host_entries() -> tuple[tuple[str, bool], ...]:
    """(name, is a folder) of the host's global /proc entries (the same in any procfs)."""
    entries = []
    for entry in sorted(os.scandir("/proc"), key=lambda e: e.name):
        if entry.name.isdigit() or entry.name in KEPT or entry.is_symlink():
            continue
        entries.append((entry.name, entry.is_dir(follow_symlinks=False)))
    return tuple(entries)


@functools.cache
def _cpuinfo() -> bytes:
    """The host's cpuinfo without the figures that move with load (``cpu MHz``)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return b""
    return re.sub(r"(?m)^cpu MHz\s*:.*\n", "", text).encode()


def _stat(cpus: int) -> bytes:
    zeros = " 0" * 10
    lines = [f"cpu {zeros}"] + [f"cpu{n}{zeros}" for n in range(cpus)]
    lines += ["intr 0", "ctxt 0", "btime 0", "processes 1", "procs_running 1", "procs_blocked 0"]
    return ("\n".join(lines) + "\n").encode()


def _meminfo(policy: SandboxPolicy) -> bytes:
    total = policy.memory_bytes // 1024
    fields = [
        ("MemTotal", total),
        ("MemFree", total),
        ("MemAvailable", total),
        ("Buffers", 0),
        ("Cached", 0),
        ("SwapCached", 0),
        ("SwapTotal", 0),
        ("SwapFree", 0),
        ("Shmem", 0),
    ]
    return "".join(f"{name + ':':<16}{value:>8} kB\n" for name, value in fields).encode()


def synthetic_files(policy: SandboxPolicy) -> list[tuple[str, bytes]]:
    """(/proc path, content) of the fixed files bound over the global counters."""
    cpus = os.cpu_count() or 1
    contents = {
        "meminfo": _meminfo(policy),
        "stat": _stat(cpus),
        "cpuinfo": _cpuinfo(),
        "loadavg": b"0.00 0.00 0.00 1/1 1\n",
        "uptime": b"0.00 0.00\n",
    }
    return [(f"/proc/{name}", contents[name]) for name in SYNTHETIC]


def cover_args() -> list[str]:
    """bubblewrap options (after ``--proc /proc``) that cover every other global entry."""
    args: list[str] = []
    for name, is_dir in _host_entries():
        if name in SYNTHETIC:
            continue
        if is_dir:
            args += ["--size", "4096", "--tmpfs", f"/proc/{name}"]
        else:
            # A device node on /proc (mounted nodev): opening it fails with EACCES.
            args += ["--ro-bind", "/dev/null", f"/proc/{name}"]
    return args
