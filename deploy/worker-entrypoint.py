"""The worker container's entry point: delegate the container's own cgroups to the
sandbox, then run the command (`arena worker ...`).

Docker mounts a container's cgroups read-only. The sandbox puts every bot in a cgroup of
its own below the worker's (memory, pids and CPU limits, `cgroup.kill`, frozen
off-turn: docs/sandbox.md, layer 4); so the cgroup mounts under /sys/fs/cgroup, which
show this container's own subtree only, are remounted read-write in the container's
mount namespace (CAP_SYS_ADMIN, which bubblewrap needs anyway). Where a remount fails the
worker still starts: the sandbox then falls back to rlimits and says so in its log.
"""

import ctypes
import os
import sys
from pathlib import Path

MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND = 2, 4, 8, 32, 4096
CGROUPS = Path("/sys/fs/cgroup")


def cgroup_mounts() -> list[str]:
    """The cgroup (v1 or v2) mount points at or under /sys/fs/cgroup."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        point, fstype = fields[4], fields[fields.index("-") + 1]
        if fstype in ("cgroup", "cgroup2") and Path(point).is_relative_to(CGROUPS):
            found.append(point)
    return found


def remount_writable(point: str) -> str | None:
    """Remount `point` read-write (nosuid, nodev, noexec kept); the error, if any."""
    libc = ctypes.CDLL(None, use_errno=True)
    flags = MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV | MS_NOEXEC
    if libc.mount(None, point.encode(), None, flags, None) != 0:
        return os.strerror(ctypes.get_errno())
    return None


def main() -> None:
    for point in cgroup_mounts():
        error = remount_writable(point)
        if error:
            print(f"worker-entrypoint: {point} stays read-only: {error}", file=sys.stderr)
    if len(sys.argv) < 2:
        sys.exit("worker-entrypoint: no command given")
    os.execvp(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    main()
