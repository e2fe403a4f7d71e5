"""Reads what /proc says of the host and of the machine: pid 1's command line (bwrap's, with
every host path it binds), and the global counters another bot can move (memory, load,
forks, pressure, open files, locks, ...)."""

import functools
import os

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt, read, report

GLOBAL_FILES = [
    "/proc/vmstat",
    "/proc/zoneinfo",
    "/proc/buddyinfo",
    "/proc/diskstats",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/schedstat",
    "/proc/locks",
    "/proc/key-users",
    "/proc/swaps",
    "/proc/cmdline",
    "/proc/pressure/cpu",
    "/proc/pressure/memory",
    "/proc/sys/fs/file-nr",
    "/proc/sys/fs/inode-nr",
    "/proc/sys/kernel/random/entropy_avail",
]
FIXED_FILES = ["/proc/meminfo", "/proc/loadavg", "/proc/stat", "/proc/uptime", "/proc/cpuinfo"]


def host_path_in(text: str) -> str:
    """`text` if it names a host path we know of (else raises: nothing of the host)."""
    for path in PARAMS["host_paths"]:
        if path in text:
            return text
    if "--ro-bind" in text or "--seccomp" in text:
        return text
    raise LookupError(f"nothing of the host in {text!r}")


def content(path: str) -> object:
    """What `path` holds; nothing at all is a block: raises."""
    text = read(path)
    if not text:
        raise LookupError(f"{path} is empty")
    return text


def moved(path: str, first: object) -> object:
    """`path`'s new content if it changed since `first` (else raises: it is fixed)."""
    now = read(path)
    if now == first:
        raise LookupError(f"{path} did not change")
    return now


class ProcGlobalBot(AttackBot):
    def attack(self) -> None:
        cmdline = read("/proc/1/cmdline", "rb")
        assert isinstance(cmdline, bytes)
        report("INFO", f"/proc/1/cmdline: {cmdline!r}")
        attempt("host paths in /proc/1/cmdline", lambda: host_path_in(cmdline.decode()))
        for path in GLOBAL_FILES:
            attempt(f"read {path}", functools.partial(content, path))
        for path in FIXED_FILES:
            first = read(path)
            report("INFO", f"{path}: {str(first)[:200]!r}")
            os.fork() or os._exit(0)  # a fork: moves /proc/stat's counters on a real /proc
            with open("/tmp/fill", "wb") as file:  # moves Shmem on a real /proc
                file.write(b"x" * (1 << 20))
            attempt(f"see {path} move", functools.partial(moved, path, first))
            os.unlink("/tmp/fill")
        listing = sorted(os.listdir("/proc/sys")) + sorted(os.listdir("/proc/pressure"))
        attempt("list /proc/sys and /proc/pressure", lambda: listing or 1 / 0)
