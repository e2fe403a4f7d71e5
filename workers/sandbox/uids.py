"""`UidPool`: a distinct unprivileged uid for each running bot on this machine.

Each uid of the range has a lock file; a bot holds its uid's ``flock`` from start to
stop, so two bots never share one, whichever worker process started them. A crashed
worker's locks are released by the kernel, and its bots die with it (die-with-parent).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
from pathlib import Path

from .errors import SandboxError

DEFAULT_BASE = 1_900_000_000
"""First uid handed to bots: far above login accounts and the usual subordinate ranges."""
DEFAULT_COUNT = 4096


class Uid:
    """A held uid (and gid of the same number); `release()` gives it back."""

    def __init__(self, value: int, lock_fd: int) -> None:
        self.value = value
        self._fd: int | None = lock_fd

    def release(self) -> None:
        """Give the uid back (idempotent)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


class UidPool:
    """Uids `base` .. `base + count - 1`, locked through files in `lock_dir`."""

    def __init__(
        self, lock_dir: Path, base: int = DEFAULT_BASE, count: int = DEFAULT_COUNT
    ) -> None:
        if base < 1000 or base + count > 2**32 - 2:
            raise ValueError(f"uid range {base}..{base + count - 1} is not a range for bots")
        self.lock_dir = lock_dir
        self.base = base
        self.count = count
        lock_dir.mkdir(mode=0o700, parents=True, exist_ok=True)

    def acquire(self) -> Uid:
        """A uid no other running bot holds. Raises SandboxError when all are taken."""
        start = random.randrange(self.count)
        for offset in range(self.count):
            value = self.base + (start + offset) % self.count
            fd = os.open(self.lock_dir / str(value), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            except BaseException:
                with contextlib.suppress(OSError):
                    os.close(fd)
                raise
            return Uid(value, fd)
        raise SandboxError(f"all {self.count} bot uids from {self.base} are in use")
