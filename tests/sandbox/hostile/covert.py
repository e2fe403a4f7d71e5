"""Two colluding bots at one table, one half of a covert channel each: a sender that holds a
bit pattern and a receiver that reads it back through a kernel object both can reach.

The channel and the role come from params.json (``channel``, ``role``, ``files``: shared
read-only files, one per bit, ``bits``, ``fill_dir``). The test drives both halves step
by step (a play each, in an agreed order), so no clock is needed to line them up. After
each step the half prints ``COVERT <role> <step> <result>`` on stderr; a receiver's last
result is the pattern it read: ``1``/``0`` per bit, ``x`` for a bit the kernel refused
to tell.

Channels:
* ``locks``: the sender holds ``flock`` and an fcntl read lock on the files of its 1 bits;
  the receiver tests each (flock ``LOCK_EX|LOCK_NB``, fcntl ``F_GETLK``).
* ``inotify``: the receiver watches every file for opens; the sender opens those of its
  1 bits; the receiver reads the events.
* ``pagecache``: the sender evicts (``POSIX_FADV_DONTNEED``) the files of its 0 bits and
  reads those of its 1 bits; the receiver probes each with ``preadv2(RWF_NOWAIT)``.
* ``counter``: for each bit, the sender fills (1) or leaves empty (0) a 32 MiB file in its
  private tmpfs, then empties it; the receiver reads ``Shmem`` in /proc/meminfo after each.

The same file runs without the sandbox as a plain process (``python covert.py PARAMS``,
one step number per line on stdin): the tests' positive control.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import fcntl
import json
import os
import struct
import sys
from typing import Any

FILL_BYTES = 32 * 1024 * 1024
LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
IN_OPEN = 0x20
IN_NONBLOCK = os.O_NONBLOCK


def _errno_name(error: OSError) -> str:
    return errno.errorcode.get(error.errno or 0, str(error.errno))


class Half:
    """One half of a channel; `step(n)` does the n-th step and returns its result."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.channel: str = params["channel"]
        self.role: str = params["role"]
        self.files: list[str] = params["files"]
        self.bits: str = params.get("bits", "")
        self.fill_dir: str = params.get("fill_dir", "/tmp")
        self.held: list[int] = []
        self.inotify = -1
        self.watches: dict[int, int] = {}
        self.readings: list[int] = []

    def step(self, number: int) -> str:
        try:
            return str(getattr(self, f"_{self.channel}_{self.role}")(number))
        except OSError as error:
            return f"refused:{_errno_name(error)}"

    # -- locks -------------------------------------------------------------------------

    def _locks_send(self, number: int) -> str:
        done = []
        for path, bit in zip(self.files, self.bits, strict=True):
            if bit != "1":
                continue
            for kind in ("flock", "posix"):
                fd = os.open(path, os.O_RDONLY)
                self.held.append(fd)
                try:
                    if kind == "flock":
                        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                    else:
                        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                    done.append(kind)
                except OSError as error:
                    done.append(f"{kind}-refused:{_errno_name(error)}")
        return ",".join(sorted(set(done)))

    def _locks_recv(self, number: int) -> str:
        by_flock, by_posix = [], []
        for path in self.files:
            fd = os.open(path, os.O_RDONLY)
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    fcntl.flock(fd, fcntl.LOCK_UN)
                    by_flock.append("0")
                except OSError as error:
                    by_flock.append("1" if error.errno == errno.EWOULDBLOCK else "x")
                query = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
                try:
                    answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
                    by_posix.append(
                        "0" if struct.unpack("hhqqi", answer)[0] == fcntl.F_UNLCK else "1"
                    )
                except OSError:
                    by_posix.append("x")
            finally:
                os.close(fd)
        return f"flock={''.join(by_flock)} posix={''.join(by_posix)}"

    # -- inotify -----------------------------------------------------------------------

    def _inotify_recv(self, number: int) -> str:
        if number == 0:
            fd = LIBC.inotify_init1(IN_NONBLOCK | os.O_CLOEXEC)
            if fd < 0:
                raise OSError(ctypes.get_errno(), "inotify_init1")
            self.inotify = fd
            for index, path in enumerate(self.files):
                wd = LIBC.inotify_add_watch(fd, path.encode(), IN_OPEN)
                if wd < 0:
                    raise OSError(ctypes.get_errno(), "inotify_add_watch")
                self.watches[wd] = index
            return "watching"
        if self.inotify < 0:
            return "x" * len(self.files)
        fired: set[int] = set()
        try:
            while data := os.read(self.inotify, 65536):
                offset = 0
                while offset < len(data):
                    wd, _, _, length = struct.unpack_from("iIII", data, offset)
                    fired.add(self.watches.get(wd, -1))
                    offset += 16 + length
        except BlockingIOError:
            pass
        return "".join("1" if index in fired else "0" for index in range(len(self.files)))

    def _inotify_send(self, number: int) -> str:
        for path, bit in zip(self.files, self.bits, strict=True):
            if bit == "1":
                os.close(os.open(path, os.O_RDONLY))
        return "opened"

    # -- page cache --------------------------------------------------------------------

    def _pagecache_send(self, number: int) -> str:
        outcomes = set()
        for path, bit in zip(self.files, self.bits, strict=True):
            fd = os.open(path, os.O_RDONLY)
            try:
                if bit == "1":
                    os.read(fd, 1 << 20)
                    outcomes.add("warmed")
                else:
                    try:
                        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                        outcomes.add("evicted")
                    except OSError as error:
                        outcomes.add(f"evict-refused:{_errno_name(error)}")
            finally:
                os.close(fd)
        return ",".join(sorted(outcomes))

    def _pagecache_recv(self, number: int) -> str:
        bits = []
        for path in self.files:
            fd = os.open(path, os.O_RDONLY)
            try:
                os.preadv(fd, [bytearray(4096)], 0, os.RWF_NOWAIT)
                bits.append("1")
            except BlockingIOError:
                bits.append("0")
            except OSError:
                bits.append("x")
            finally:
                os.close(fd)
        return "".join(bits)

    # -- a global counter ----------------------------------------------------------------

    def _counter_send(self, number: int) -> str:
        """Step 2i: bit i (fill for a 1); step 2i+1: empty again."""
        path = os.path.join(self.fill_dir, "covert-fill")
        bit = self.bits[number // 2]
        if number % 2 == 0 and bit == "1":
            with open(path, "wb") as file:
                chunk = b"\x5a" * (1 << 20)
                for _ in range(FILL_BYTES >> 20):
                    file.write(chunk)
            return "filled"
        if os.path.exists(path):
            os.unlink(path)
        return "empty"

    def _counter_recv(self, number: int) -> str:
        """Step 2i: read after bit i was set; step 2i+1: after it was cleared. The last
        step (2 x bits) decodes."""
        if number < 2 * len(self.files):
            self.readings.append(_shmem_kib())
            return str(self.readings[-1])
        bits = []
        for index in range(len(self.files)):
            high, low = self.readings[2 * index], self.readings[2 * index + 1]
            bits.append("1" if (high - low) * 1024 > FILL_BYTES // 2 else "0")
        return "".join(bits)


def _shmem_kib() -> int:
    with open("/proc/meminfo") as file:
        for line in file:
            if line.startswith("Shmem:"):
                return int(line.split()[1])
    return 0


def _plain(params_path: str) -> None:
    """Run as a plain process: a step number per line in, its result per line out."""
    with open(params_path) as file:
        half = Half(json.load(file))
    for line in sys.stdin:
        print(half.step(int(line)), flush=True)


if __name__ == "__main__":
    _plain(sys.argv[1])
else:
    from hearts_bot import Bot, PassView, PlayView

    PARAMS: dict[str, Any] = {}
    if os.path.exists("/bot/params.json"):
        with open("/bot/params.json") as _file:
            PARAMS = json.load(_file)

    class CovertBot(Bot):
        """Each play runs the half's next step and reports its result on stderr."""

        half = Half(PARAMS) if PARAMS else None
        steps = 0

        def pass_cards(self, view: PassView) -> list[str]:
            return list(view.hand[: view.count])

        def play_card(self, view: PlayView) -> str:
            if self.half is not None:
                result = self.half.step(self.steps)
                print(f"COVERT {self.half.role} {self.steps} {result}", file=sys.stderr, flush=True)
                self.steps += 1
            return view.legal[0]
