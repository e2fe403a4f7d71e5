"""The seccomp filter: what a Python gRPC bot may ask of the kernel, as a classic BPF program.

The program is assembled here (no libseccomp) and handed to bubblewrap with
``--seccomp FD``, which installs it just before the bot's first exec. Its shape:

1. a call made through another ABI than x86_64 (i386 ``int 0x80``, x32) kills the process;
2. ``socket``/``socketpair`` are allowed for ``AF_UNIX`` only (anything else fails with
   ``EAFNOSUPPORT``); ``clone`` is refused (``EPERM``) when it asks for a new namespace
   or a pidfd (``CLONE_PIDFD``); ``ioctl`` may not push input into a terminal
   (``TIOCSTI``); ``fcntl`` may not lock, lease or watch a file, ``madvise`` may not push
   pages out, ``preadv2``/``pwritev2`` may not ask ``RWF_NOWAIT`` (which tells whether a
   page is cached): each would be a channel between two bots through the files they
   share; ``getsockopt``/``setsockopt`` may not ask a socket for a pidfd of its peer or
   of a message's sender, nor for its cookie (``SO_PEERPIDFD``, ``SO_PASSPIDFD``,
   ``SO_COOKIE``: ``ENOPROTOOPT``, what a kernel without them answers), each a reading
   of a machine-wide counter that another bot can move;
3. calls answered ``ENOSYS`` as if the kernel were older than they are (``ABSENT``), so
   that callers take the path they take there: ``clone3`` (whose flags the filter cannot
   read; glibc falls back to ``clone``) and ``pidfd_open``. A pidfd's inode number
   (``fstat``) is a machine-wide count of the processes and threads made so far, which
   one bot can set and another read, so every way to a pidfd is closed;
4. an allow list of the ordinary calls of a Python process: files, memory, threads,
   signals, time, polling, pipes and Unix sockets;
5. a deny list answered with ``EPERM``, named so that what is refused is readable here:
   tracing, keyrings, io_uring, mounting, namespaces, BPF, perf, kernel modules, and the
   calls that observe or change state shared between bots (``flock``, inotify,
   fanotify, ``fadvise64``, ``readahead``, ``mincore``);
6. anything else (including calls newer than this table) fails with ``ENOSYS``.

Allowed calls whose verdict does not depend on their arguments are cached by the kernel
(Linux >= 5.11), so the filter costs nothing on a gRPC server's hot path.
"""

from __future__ import annotations

import errno
import itertools
import platform
import struct
from collections.abc import Iterable

from .errors import SandboxUnavailableError
from .syscalls import X86_64

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000

# Classic BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_JSET_K = 0x45
_RET_K = 0x06
RET_KILL_PROCESS = 0x80000000
RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000

# Offsets into struct seccomp_data: nr, arch, instruction_pointer, args[6] (little-endian).
_NR = 0
_ARCH = 4


def _arg_low(index: int) -> int:
    return 16 + 8 * index


AF_UNIX = 1
TIOCSTI = 0x5412
TIOCLINUX = 0x541C
RWF_NOWAIT = 0x00000008
"""preadv2/pwritev2: fail instead of blocking; on a read, whether a page is cached."""
SHARED_OBJECT_FCNTLS = (
    5,  # F_GETLK
    6,  # F_SETLK
    7,  # F_SETLKW
    36,  # F_OFD_GETLK
    37,  # F_OFD_SETLK
    38,  # F_OFD_SETLKW
    1024,  # F_SETLEASE
    1025,  # F_GETLEASE
    1026,  # F_NOTIFY
)
"""fcntl commands that set or test state on a file's inode, which every bot sees read-only
(record locks, leases, directory notifications): each is a channel between bots."""
EVICTING_MADVICES = (
    20,  # MADV_COLD
    21,  # MADV_PAGEOUT
)
"""madvise advice that pushes pages out of memory (of shared files too, where allowed)."""
NAMESPACE_CLONE_FLAGS = (
    0x00020000  # CLONE_NEWNS
    | 0x02000000  # CLONE_NEWCGROUP
    | 0x04000000  # CLONE_NEWUTS
    | 0x08000000  # CLONE_NEWIPC
    | 0x10000000  # CLONE_NEWUSER
    | 0x20000000  # CLONE_NEWPID
    | 0x40000000  # CLONE_NEWNET
)
CLONE_PIDFD = 0x00001000
"""clone: put a pidfd of the child in the parent (its inode number is the pidfs count)."""
SOL_SOCKET = 1
COUNTER_SOCKET_OPTIONS = (
    57,  # SO_COOKIE: the socket's number in a machine-wide count of sockets asked for one
    76,  # SO_PASSPIDFD: every message received carries a pidfd of its sender (SCM_PIDFD)
    77,  # SO_PEERPIDFD: a pidfd of the process at the other end
)
"""SOL_SOCKET options that read a machine-wide counter which another bot can move: a pidfd
(Linux >= 6.5) of a fresh process (a child at the other end of a Unix socket) has the
pidfs count as its inode number, and a new socket's cookie is the next of the socket
cookies (docs/sandbox.md, "Shared kernel objects"). Nothing a bot needs asks for them."""


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


ALLOWED: frozenset[str] = _names(
    """
    read write readv writev pread64 pwrite64 preadv pwritev lseek
    open openat openat2 creat close close_range dup dup2 dup3 fsync fdatasync
    truncate ftruncate fallocate sendfile copy_file_range splice tee
    sync_file_range vmsplice
    stat fstat lstat newfstatat statx statfs fstatfs access faccessat faccessat2
    getdents getdents64 getcwd chdir fchdir rename renameat renameat2 mkdir mkdirat rmdir
    link linkat unlink unlinkat symlink symlinkat readlink readlinkat chmod fchmod fchmodat
    fchmodat2 chown fchown lchown fchownat umask utime utimes utimensat futimesat
    getxattr lgetxattr fgetxattr listxattr llistxattr flistxattr
    setxattr lsetxattr fsetxattr removexattr lremovexattr fremovexattr
    mmap munmap mremap mprotect msync brk mlock mlock2 munlock mlockall
    munlockall membarrier memfd_create pkey_mprotect pkey_alloc pkey_free get_mempolicy
    map_shadow_stack mseal
    pipe pipe2 poll ppoll select pselect6 epoll_create epoll_create1 epoll_ctl epoll_wait
    epoll_pwait epoll_pwait2 eventfd eventfd2 signalfd signalfd4 timerfd_create
    timerfd_settime timerfd_gettime
    connect accept accept4 bind listen shutdown getsockname getpeername
    sendto recvfrom sendmsg recvmsg sendmmsg recvmmsg
    fork vfork execve execveat exit exit_group wait4 waitid set_tid_address
    set_robust_list get_robust_list rseq futex futex_waitv futex_wake futex_wait
    futex_requeue arch_prctl prctl seccomp landlock_create_ruleset landlock_add_rule
    landlock_restrict_self
    kill tkill tgkill rt_sigaction rt_sigprocmask rt_sigreturn rt_sigpending
    rt_sigtimedwait rt_sigqueueinfo rt_tgsigqueueinfo rt_sigsuspend sigaltstack pause
    restart_syscall pidfd_send_signal
    getpid getppid gettid getuid geteuid getgid getegid getresuid getresgid getgroups
    getpgid getpgrp getsid setpgid setsid capget getcpu uname sysinfo times getrusage
    getrlimit setrlimit prlimit64 getpriority setpriority
    sched_yield sched_getaffinity sched_setaffinity sched_getparam sched_getscheduler
    sched_get_priority_max sched_get_priority_min sched_rr_get_interval sched_getattr
    nanosleep clock_nanosleep clock_gettime clock_getres gettimeofday time alarm
    getitimer setitimer timer_create timer_settime timer_gettime timer_getoverrun
    timer_delete getrandom
    semget semop semtimedop semctl shmget shmat shmdt shmctl msgget msgsnd msgrcv msgctl
    setuid setgid setreuid setregid setresuid setresgid setfsuid setfsgid setgroups capset
    """
)
"""Calls a Python gRPC server (and an ordinary bot's libraries) may make freely. The
set*id calls and capset are here because setpriv, which runs after the filter is
installed, uses them to drop to the bot's uid; the bot, without any capability, can
only lower its privileges with them."""

DENIED: frozenset[str] = _names(
    """
    ptrace process_vm_readv process_vm_writev process_madvise kcmp pidfd_getfd
    add_key request_key keyctl
    io_uring_setup io_uring_enter io_uring_register
    io_setup io_destroy io_submit io_cancel io_getevents io_pgetevents
    mount umount2 pivot_root chroot move_mount open_tree fsopen fsconfig fsmount fspick
    mount_setattr statmount listmount
    unshare setns
    bpf perf_event_open userfaultfd fanotify_init fanotify_mark
    flock inotify_init inotify_init1 inotify_add_watch inotify_rm_watch
    fadvise64 readahead mincore
    init_module finit_module delete_module kexec_load kexec_file_load reboot
    swapon swapoff acct quotactl quotactl_fd syslog vhangup iopl ioperm modify_ldt
    settimeofday clock_settime clock_adjtime adjtimex sethostname setdomainname
    name_to_handle_at open_by_handle_at lookup_dcookie uselib ustat sysfs _sysctl
    personality mknod mknodat sync syncfs
    sched_setparam sched_setscheduler sched_setattr ioprio_set
    mbind set_mempolicy set_mempolicy_home_node migrate_pages move_pages memfd_secret
    process_mrelease cachestat lsm_get_self_attr lsm_set_self_attr lsm_list_modules
    """
)
"""Calls refused with EPERM: what a bot must not do, named (everything unnamed gets ENOSYS)."""

ABSENT: frozenset[str] = _names("clone3 pidfd_open")
"""Calls answered ENOSYS, as by a kernel older than they are, so that callers take the path
they were written to take there: glibc's posix_spawn and pthread_create fall back from
clone3 to clone; Python 3.12's asyncio (can_use_pidfd) and psutil (wait_pid) probe
pidfd_open and wait for children without it when it fails. clone3 because the filter
cannot read its flags (they are in memory), pidfd_open because a pidfd's inode number is
the machine-wide pidfs count (a covert channel between bots)."""

_ARG_CHECKED = frozenset(
    {
        "socket",
        "socketpair",
        "clone",
        "ioctl",
        "fcntl",
        "madvise",
        "preadv2",
        "pwritev2",
        "getsockopt",
        "setsockopt",
    }
)


class _Program:
    """A growing list of BPF instructions."""

    def __init__(self) -> None:
        self.code: list[tuple[int, int, int, int]] = []

    def emit(self, code: int, jt: int = 0, jf: int = 0, k: int = 0) -> None:
        self.code.append((code, jt, jf, k))

    def load(self, offset: int) -> None:
        self.emit(_LD_W_ABS, k=offset)

    def ret(self, value: int) -> None:
        self.emit(_RET_K, k=value)

    def when_nr(self, nr: int, body: list[tuple[int, int, int, int]]) -> None:
        """`body` runs if the loaded syscall number is `nr`; it must reload nr if it falls
        through (it never does here: every body ends with a return)."""
        self.emit(_JEQ_K, 0, len(body), nr)
        self.code.extend(body)

    def pack(self) -> bytes:
        return b"".join(struct.pack("<HBBI", *insn) for insn in self.code)


def _errno(code: int) -> int:
    return _RET_ERRNO | (code & 0xFFFF)


def _only_arg_equal(index: int, value: int, refusal: int) -> list[tuple[int, int, int, int]]:
    """Allow when args[index] (low 32 bits) == value, else return `refusal`."""
    return [
        (_LD_W_ABS, 0, 0, _arg_low(index)),
        (_JEQ_K, 0, 1, value),
        (_RET_K, 0, 0, RET_ALLOW),
        (_RET_K, 0, 0, refusal),
    ]


def _refuse_arg_bits(index: int, mask: int, refusal: int) -> list[tuple[int, int, int, int]]:
    """Refuse when args[index] (low 32 bits) has any bit of `mask`, else allow."""
    return [
        (_LD_W_ABS, 0, 0, _arg_low(index)),
        (_JSET_K, 0, 1, mask),
        (_RET_K, 0, 0, refusal),
        (_RET_K, 0, 0, RET_ALLOW),
    ]


def _refuse_arg_values(
    index: int, values: Iterable[int], refusal: int
) -> list[tuple[int, int, int, int]]:
    """Refuse when args[index] (low 32 bits) is one of `values`, else allow."""
    values = list(values)
    body: list[tuple[int, int, int, int]] = [(_LD_W_ABS, 0, 0, _arg_low(index))]
    for position, value in enumerate(values):
        # Jump to the refusal (after the remaining comparisons and the allow).
        body.append((_JEQ_K, len(values) - position, 0, value))
    body.append((_RET_K, 0, 0, RET_ALLOW))
    body.append((_RET_K, 0, 0, refusal))
    return body


def _refuse_option(
    level: int, names: Iterable[int], refusal: int
) -> list[tuple[int, int, int, int]]:
    """getsockopt/setsockopt: refuse when args[1] (the level) is `level` and args[2] (the
    option) one of `names`, else allow."""
    by_name = _refuse_arg_values(2, names, refusal)
    # Another level jumps over the option's load and comparisons to their allow.
    return [(_LD_W_ABS, 0, 0, _arg_low(1)), (_JEQ_K, 0, len(by_name) - 2, level), *by_name]


def build_filter(table: dict[str, int] | None = None) -> bytes:
    """The filter as bytes of ``struct sock_filter`` (what ``bwrap --seccomp`` reads).

    Raises SandboxUnavailableError on a machine other than x86_64 (no table for it).
    """
    if table is None:
        machine = platform.machine()
        if machine not in ("x86_64", "AMD64"):
            raise SandboxUnavailableError(
                f"the seccomp filter has no system call table for {machine} (only x86_64)"
            )
        table = X86_64
    unknown = (ALLOWED | DENIED | ABSENT | _ARG_CHECKED) - set(table)
    if unknown:
        raise ValueError(f"system calls missing from the table: {sorted(unknown)}")
    lists = {
        "allowed": ALLOWED,
        "denied": DENIED,
        "absent": ABSENT,
        "argument-checked": _ARG_CHECKED,
    }
    for first, second in itertools.combinations(lists, 2):
        if lists[first] & lists[second]:
            both = sorted(lists[first] & lists[second])
            raise ValueError(f"calls both {first} and {second}: {both}")
    program = _Program()
    program.load(_ARCH)
    program.emit(_JEQ_K, 1, 0, AUDIT_ARCH_X86_64)
    program.ret(RET_KILL_PROCESS)
    program.load(_NR)
    program.emit(_JGE_K, 0, 1, X32_SYSCALL_BIT)
    program.ret(RET_KILL_PROCESS)
    # Argument checks first (each body ends in a return, so nr stays loaded otherwise).
    eperm = _errno(errno.EPERM)
    program.when_nr(table["socket"], _only_arg_equal(0, AF_UNIX, _errno(errno.EAFNOSUPPORT)))
    program.when_nr(table["socketpair"], _only_arg_equal(0, AF_UNIX, _errno(errno.EAFNOSUPPORT)))
    program.when_nr(table["clone"], _refuse_arg_bits(0, NAMESPACE_CLONE_FLAGS | CLONE_PIDFD, eperm))
    program.when_nr(table["ioctl"], _refuse_arg_values(1, (TIOCSTI, TIOCLINUX), eperm))
    # Channels between bots through objects they all see (docs/sandbox.md, "covert channels").
    program.when_nr(table["fcntl"], _refuse_arg_values(1, SHARED_OBJECT_FCNTLS, eperm))
    program.when_nr(table["madvise"], _refuse_arg_values(2, EVICTING_MADVICES, eperm))
    for name in ("preadv2", "pwritev2"):
        program.when_nr(table[name], _refuse_arg_bits(5, RWF_NOWAIT, eperm))
    no_option = _errno(errno.ENOPROTOOPT)
    for name in ("getsockopt", "setsockopt"):
        program.when_nr(table[name], _refuse_option(SOL_SOCKET, COUNTER_SOCKET_OPTIONS, no_option))
    for name in sorted(ABSENT, key=table.__getitem__):
        program.when_nr(table[name], [(_RET_K, 0, 0, _errno(errno.ENOSYS))])
    for name in sorted(ALLOWED, key=table.__getitem__):
        program.when_nr(table[name], [(_RET_K, 0, 0, RET_ALLOW)])
    for name in sorted(DENIED, key=table.__getitem__):
        program.when_nr(table[name], [(_RET_K, 0, 0, eperm)])
    program.ret(_errno(errno.ENOSYS))
    if len(program.code) > 4096:  # BPF_MAXINSNS
        raise ValueError(f"the filter has {len(program.code)} instructions (max 4096)")
    return program.pack()


def evaluate(
    program: bytes, nr: int, args: tuple[int, ...] = (), arch: int = AUDIT_ARCH_X86_64
) -> int:
    """Run `program` on one call the way the kernel would; the seccomp return value.

    A small interpreter of the instructions `build_filter` emits, for tests.
    """
    data = struct.pack("<iIQ6Q", nr, arch, 0, *(list(args) + [0] * (6 - len(args))))
    insns = [struct.unpack_from("<HBBI", program, i) for i in range(0, len(program), 8)]
    accumulator = 0
    pc = 0
    while True:
        code, jt, jf, k = (int(field) for field in insns[pc])
        pc += 1
        if code == _LD_W_ABS:
            accumulator = int(struct.unpack_from("<I", data, k)[0])
        elif code == _RET_K:
            return k
        elif code == _JEQ_K:
            pc += jt if accumulator == k else jf
        elif code == _JGE_K:
            pc += jt if accumulator >= k else jf
        elif code == _JSET_K:
            pc += jt if accumulator & k else jf
        else:
            raise ValueError(f"unexpected BPF instruction {code:#x} at {pc - 1}")
