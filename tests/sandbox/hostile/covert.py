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
* ``pidfs``: every process and thread made on the machine takes the next number of one
  counter, the inode number of its pidfd. The receiver reads it by making a child and
  getting a pidfd of it four ways (``pidfd_open``, ``clone(CLONE_PIDFD)``, a socket's
  ``SO_PEERPIDFD`` and an ``SCM_PIDFD`` message); the sender makes `SPACING` throwaway
  processes for a 1 and none for a 0 between two readings.
* ``inodes``: the same with the inode numbers of new pipes (the kernel's ``get_next_ino``,
  which sockets and /proc's inodes share) and of new memfds (shmem's internal mount,
  which SysV shared memory and shared anonymous mappings share): the sender makes
  `SPACING` of each for a 1. Both counters are per CPU in batches of 1024, so with
  ``pin`` both halves first move to CPU 0.
* ``cookie``: the same with the cookies of new sockets (``SO_COOKIE``, per CPU in
  batches of 4096): the sender asks `SPACING` new sockets for theirs for a 1.

The same file runs without the sandbox as a plain process (``python covert.py PARAMS``,
one step number per line on stdin): the tests' positive control.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import fcntl
import itertools
import json
import os
import shutil
import socket
import struct
import sys
import time
from collections.abc import Callable
from typing import Any

FILL_BYTES = 32 * 1024 * 1024
SPACING = 32
"""How far the sender moves a counter for a 1: the receiver reads a 1 from a move of
SPACING / 2 or more, so a few processes or files made meanwhile by others do not flip it."""
CLONE_PIDFD = 0x1000
SIGCHLD = 17
SO_PASSPIDFD = 76
SO_PEERPIDFD = 77
SO_COOKIE = 57
SCM_PIDFD = 4
PIDFD_READERS = ("pidfd_open", "clone_pidfd", "peer_pidfd", "scm_pidfd")
TRUE = shutil.which("true", path="/usr/bin:/bin") or "/bin/true"
SOCKET_CHILD = (
    "import socket; mine, theirs = socket.socketpair(); "
    "socket.send_fds(socket.socket(fileno=3), [b'm'], [theirs.fileno()])"
)
"""What the child of `Half._from_child` runs (``python -S -c``), descriptor 3 its socket."""
Reading = tuple[int, int] | str
"""One reading of a counter: (inode number, what the half had made itself by then), or
``refused:<errno>``."""
LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
PYLIBC = ctypes.PyDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
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
        self.pin: bool = params.get("pin", False)
        self.made = 0  # processes (or inodes of a counter) the half made itself so far
        self.marks: list[dict[str, Reading]] = []

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

    # -- counters of inode numbers -------------------------------------------------------

    def _pidfs_send(self, number: int) -> str:
        """Step i: bit i, SPACING throwaway processes for a 1."""
        count = SPACING if self.bits[number] == "1" else 0
        start = time.perf_counter()
        for _ in range(count):
            os.waitpid(self._spawn([TRUE]), 0)
        return f"made {count} processes in {(time.perf_counter() - start) * 1e3:.1f} ms"

    def _pidfs_recv(self, number: int) -> str:
        """Step i: read the counter each way; the last step (bits) also decodes."""
        mark: dict[str, Reading] = {}
        for reader in PIDFD_READERS:
            try:
                inode = getattr(self, f"_read_{reader}")()
                mark[reader] = (inode, self.made)
            except OSError as error:
                mark[reader] = f"refused:{_errno_name(error)}"
        return self._mark(mark, number, PIDFD_READERS)

    def _counters_send(self, number: int) -> str:
        """Step i: bit i, each of the channel's counters moved by SPACING for a 1."""
        if self.pin:
            os.sched_setaffinity(0, {0})
        names = CHANNEL_COUNTERS[self.channel]
        count = SPACING if self.bits[number] == "1" else 0
        start = time.perf_counter()
        for _ in range(count):
            for name in names:
                COUNTERS[name]()
        elapsed = (time.perf_counter() - start) * 1e3
        return f"moved {','.join(names)} by {count} in {elapsed:.2f} ms"

    def _counters_recv(self, number: int) -> str:
        """Step i: read each counter (moving it by one); the last step also decodes."""
        if self.pin:
            os.sched_setaffinity(0, {0})
        names = CHANNEL_COUNTERS[self.channel]
        mark: dict[str, Reading] = {}
        self.made += 1  # each reading takes one number of its counter
        for name in names:
            try:
                mark[name] = (COUNTERS[name](), self.made)
            except OSError as error:
                mark[name] = f"refused:{_errno_name(error)}"
        return self._mark(mark, number, names)

    _inodes_send = _cookie_send = _counters_send
    _inodes_recv = _cookie_recv = _counters_recv

    def _mark(self, mark: dict[str, Reading], number: int, names: tuple[str, ...]) -> str:
        """Keep a reading and show it (``name=<inode>`` or ``name=refused:<errno>`` per
        way); on the last step (as many as bits) decode them all: ``name=<bits>``."""
        self.marks.append(mark)
        if number < len(self.files):
            shown = {name: mark[name] for name in names}
            return " ".join(
                f"{name}={value if isinstance(value, str) else value[0]}"
                for name, value in shown.items()
            )
        return " ".join(f"{name}={self._decode(name)}" for name in names)

    def _decode(self, name: str) -> str:
        """Bit i: how far others moved the counter between readings i and i + 1 (what the
        receiver made itself taken off), SPACING / 2 or more for a 1; ``x`` if refused."""
        bits = []
        for before, after in itertools.pairwise(self.marks):
            first, second = before[name], after[name]
            if isinstance(first, str) or isinstance(second, str):
                bits.append("x")
                continue
            moved = (second[0] - first[0]) - (second[1] - first[1])
            bits.append("1" if moved >= SPACING // 2 else "0")
        return "".join(bits)

    def _spawn(self, argv: list[str], fd3: int | None = None) -> int:
        """Start `argv` (with `fd3` as its descriptor 3) the way subprocess does, without
        running this process's fork handlers (gRPC's would, in the bot); its pid."""
        actions = [] if fd3 is None else [(os.POSIX_SPAWN_DUP2, fd3, 3)]
        pid = os.posix_spawn(argv[0], argv, {}, file_actions=actions)
        self.made += 1
        return pid

    def _read_pidfd_open(self) -> int:
        pid = self._spawn([TRUE])
        try:
            return _inode_of(os.pidfd_open(pid))
        finally:
            os.waitpid(pid, 0)

    def _read_clone_pidfd(self) -> int:
        """clone(CLONE_PIDFD) as a fork, called with the GIL held (PyDLL) so the child,
        which runs nothing but _exit, never waits for it."""
        pidfd = ctypes.c_int(-1)
        PYLIBC.syscall.restype = ctypes.c_long
        pid = PYLIBC.syscall(
            ctypes.c_long(56),  # clone
            ctypes.c_long(CLONE_PIDFD | SIGCHLD),
            ctypes.c_long(0),
            ctypes.byref(pidfd),
            ctypes.c_long(0),
            ctypes.c_long(0),
        )
        if pid == 0:
            os._exit(0)
        if pid < 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code))
        self.made += 1
        try:
            return _inode_of(pidfd.value)
        finally:
            os.waitpid(pid, 0)

    def _from_child(self, pass_pidfd: bool) -> dict[int, int]:
        """A child makes a socket pair and sends one end here, over a socket that carries
        a pidfd of each message's sender with `pass_pidfd`; the descriptors received, by
        kind of control message (``SCM_RIGHTS``, ``SCM_PIDFD``)."""
        here, there = socket.socketpair()
        try:
            if pass_pidfd:
                here.setsockopt(socket.SOL_SOCKET, SO_PASSPIDFD, 1)
            pid = self._spawn([sys.executable, "-S", "-c", SOCKET_CHILD], there.fileno())
            there.close()  # so that a child that sends nothing ends the wait
            try:
                _, ancillary, _, _ = here.recvmsg(1, 2 * socket.CMSG_SPACE(4))
            finally:
                os.waitpid(pid, 0)
        finally:
            here.close()
            there.close()
        return {kind: int.from_bytes(data[:4], "little") for _, kind, data in ancillary}

    def _read_peer_pidfd(self) -> int:
        """SO_PEERPIDFD on the end the child sent: its peer is the child, which made it."""
        received = self._from_child(pass_pidfd=False)
        if socket.SCM_RIGHTS not in received:
            raise OSError(errno.ENOMSG, "the child sent no socket")
        with socket.socket(fileno=received[socket.SCM_RIGHTS]) as end:
            raw = end.getsockopt(socket.SOL_SOCKET, SO_PEERPIDFD, 4)
        return _inode_of(int.from_bytes(raw, "little"))

    def _read_scm_pidfd(self) -> int:
        """The SCM_PIDFD of the child's message: a pidfd of the child, its sender."""
        received = self._from_child(pass_pidfd=True)
        if socket.SCM_RIGHTS in received:
            os.close(received[socket.SCM_RIGHTS])
        if SCM_PIDFD not in received:
            raise OSError(errno.ENOMSG, "no SCM_PIDFD in the message")
        return _inode_of(received[SCM_PIDFD])


def _inode_of(fd: int) -> int:
    """The inode number of `fd`, which is closed."""
    try:
        return os.fstat(fd).st_ino
    finally:
        os.close(fd)


def _pipe_inode() -> int:
    read_end, write_end = os.pipe()
    os.close(write_end)
    return _inode_of(read_end)


def _memfd_inode() -> int:
    return _inode_of(os.memfd_create("covert"))


def _socket_cookie() -> int:
    """The cookie of a new socket: the kernel numbers them in the order they are asked."""
    mine, theirs = socket.socketpair()
    with mine, theirs:
        return int.from_bytes(mine.getsockopt(socket.SOL_SOCKET, SO_COOKIE, 8), "little")


COUNTERS: dict[str, Callable[[], int]] = {
    "pipe": _pipe_inode,
    "memfd": _memfd_inode,
    "cookie": _socket_cookie,
}
"""Each counter, read by taking its next number."""
CHANNEL_COUNTERS = {"inodes": ("pipe", "memfd"), "cookie": ("cookie",)}


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
