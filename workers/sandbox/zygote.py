"""The warm template of Python bots: an interpreter that has imported the SDK runtime once
and forks one child per bot, each entering that bot's sandbox before it reads its code.

Why: a cold start pays for a fresh interpreter and its imports (grpc, protobuf, the SDK:
most of a start's CPU, docs/benchmarks.md "Starting a bot"); a fork of a process that
already holds them costs a few milliseconds. The walls stay bubblewrap's: the worker
builds the bot's sandbox as for a cold start (namespaces, mounts, /proc, tmpfs, its
cgroup), with a placeholder in it instead of the bot; the child joins that sandbox's
namespaces and root, is put in its cgroup, drops to the bot's uid with no capabilities,
sets no_new_privs and the same seccomp filter, and only then loads the bot
(docs/decisions/0008-warm-starts.md, docs/sandbox.md "Warm starts").

This file runs as a script under the runtime's interpreter (``python -I -S -B``), never
imported by the worker's code paths that matter: it imports the standard library and the
SDK runtime only, so the template holds nothing of the platform but this file (public, no
secret) and receives no secret. Its environment is empty and it holds no descriptor but
its control socket.

The protocol, on the control socket (``AF_UNIX``, ``SOCK_SEQPACKET``) from the worker:

* at start the template sends one datagram: JSON ``{"ready": true, "modules": [...]}``,
  the top-level modules it imported (a version whose own packages shadow one of them is
  started cold);
* per bot, the worker sends a one-byte datagram carrying one descriptor (``SCM_RIGHTS``):
  its end of a fresh socket pair for that bot. The template forks at once and forgets
  it; the child reads the request from it (so the template's memory never holds one
  bot's request when the next bot is forked from it).

On the bot's own socket pair the child then reads one datagram: JSON (uid, rlimits, the
SDK's argv, the version's site-packages, the seccomp program in hex) with the descriptors
``[pidfd of the sandbox's init, stdin, stdout, stderr, cgroup.procs...]``, and writes
back ``{"pid": N, "cpu": s}`` (the bot's host pid, the CPU the child spent setting it up)
once the bot runs in its cgroup, then ``{"status": W}`` (its wait status) when it ends,
or ``{"error": "..."}`` if it could not be started (nothing of the bot has run then).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import os
import resource
import select
import signal
import site
import socket
import sys
import time
from typing import NoReturn

# What every Python bot imports from us, loaded once here (hearts_bot.cli is what
# ``python -m hearts_bot serve`` runs; the rest is what a serving bot loads before its
# readiness line).
RUNTIME_IMPORTS = (
    "grpc",
    "grpc.aio",
    "google.protobuf",
    "hearts_bot",
    "hearts_bot.cli",
    "hearts_bot.server",
    "hearts_bot.session",
    "hearts_bot.convert",
    "hearts_bot.transport",
    "hearts_bot.querycache",
    "uvloop",  # the SDK's loop (hearts_bot.transport.loop_factory), in the runtime
    "grpc._utilities",
    "asyncio",
    "shutil",  # and what it loads: the SDK's server removes a stale socket with it
    "bz2",
    "lzma",
    "fnmatch",
)
MAX_REQUEST_BYTES = 1 << 20
MAX_FDS = 16

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
SANDBOX_NAMESPACES = (
    CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET
)
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_SECCOMP = 22
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
SECCOMP_MODE_FILTER = 2
LINUX_CAPABILITY_VERSION_3 = 0x20080522

_LIBC = ctypes.CDLL(None, use_errno=True)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def _check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")


def _prctl(option: int, arg: int | ctypes.c_void_p = 0, arg3: int = 0) -> None:
    _check(
        _LIBC.prctl(
            ctypes.c_int(option), arg, ctypes.c_ulong(arg3), ctypes.c_ulong(0), ctypes.c_ulong(0)
        ),
        f"prctl({option})",
    )


def _last_capability() -> int:
    with open("/proc/sys/kernel/cap_last_cap") as file:
        return int(file.read())


# -- the template ------------------------------------------------------------------------------


def main() -> int:
    """Load the runtime, announce readiness on fd `argv[1]`, then fork a child per request."""
    control = socket.socket(fileno=int(sys.argv[1]))
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the worker's end is ours
    if os.getppid() == 1:
        return 0  # the worker died before the line above
    stdlib_path = list(sys.path)
    for folder in sys.argv[2:]:
        site.addsitedir(folder)
    before = set(sys.modules)
    environ_before = dict(os.environ)
    for name in RUNTIME_IMPORTS:
        __import__(name)
    # What the imports put in the environment (the SDK's grpc tuning): a cold start's
    # bot has it too, set by the same imports.
    imported_environ = {
        key: value for key, value in os.environ.items() if environ_before.get(key) != value
    }
    loaded = sorted({name.partition(".")[0] for name in set(sys.modules) - before})
    # Out of the collector's reach: a child's collections would otherwise touch (and so
    # copy) every page of the template's objects (the serving SDK freezes its own too).
    gc.collect()
    gc.freeze()
    context = {
        "last_cap": _last_capability(),
        "stdlib_path": stdlib_path,
        "imported_environ": imported_environ,
    }
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    control.send(json.dumps({"ready": True, "modules": loaded}).encode())
    while True:
        try:
            _, fds, _, _ = socket.recv_fds(control, 1, 1)
        except (ConnectionError, OSError):
            return 0
        if not fds:
            return 0  # the worker closed its end: nothing more to start
        try:
            pid = os.fork()
        except OSError:
            os.close(fds[0])
            continue
        if pid == 0:
            control.close()
            os._exit(_child(fds[0], context))
        os.close(fds[0])


# -- one bot's child ---------------------------------------------------------------------------


def _child(channel_fd: int, context: dict[str, object]) -> int:
    """Start one bot (see the module's docstring); returns this process's exit status."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    channel = socket.socket(fileno=channel_fd)
    # No parent-death signal here: the bot outlives its template (a template replaced or
    # stopped leaves running bots alone). This process ends with the bot, and the bot with
    # its sandbox, whose bubblewrap dies with the worker.
    try:
        message, fds, _, _ = socket.recv_fds(channel, MAX_REQUEST_BYTES, MAX_FDS)
        if not message:
            return 0  # the worker gave up on this start
        request = json.loads(message)
        started = time.process_time()
        bot = _spawn(request, fds, context)
        for fd in fds:
            os.close(fd)
    except Exception as error:  # reported to the worker, which starts cold
        _send(channel, {"error": f"{type(error).__name__}: {error}"})
        return 1
    _send(channel, {"pid": bot, "cpu": time.process_time() - started})
    while True:
        try:
            _, status = os.waitpid(bot, 0)
            break
        except ChildProcessError:
            status = -1
            break
        except InterruptedError:
            continue
    _send(channel, {"status": status})
    return 0


def _send(channel: socket.socket, message: dict[str, object]) -> None:
    with contextlib.suppress(OSError):  # the worker is gone: nothing to tell
        channel.send(json.dumps(message).encode())


def _spawn(request: dict[str, object], fds: list[int], context: dict[str, object]) -> int:
    """Join the sandbox, fork the bot's process into it and put it in its cgroup."""
    init_pidfd, stdin, stdout, stderr, *procs = fds
    root = os.open(f"/proc/{int(request['init_pid'])}/root", os.O_PATH | os.O_DIRECTORY)  # type: ignore[call-overload]
    if select.select([init_pidfd], [], [], 0)[0]:  # the pid was no longer the sandbox's init
        raise ProcessLookupError("the sandbox's init has exited")
    _check(_LIBC.setns(init_pidfd, SANDBOX_NAMESPACES), "setns")
    os.fchdir(root)
    os.chroot(".")
    os.close(root)
    release_r, release_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(release_w)
        os._exit(_become_bot(request, release_r, (stdin, stdout, stderr), context))
    os.close(release_r)
    try:
        for fd in procs:
            os.write(fd, str(pid).encode())
    except OSError:
        os.kill(pid, signal.SIGKILL)
        raise
    os.write(release_w, b"go")
    os.close(release_w)
    return pid


def _become_bot(
    request: dict[str, object],
    release: int,
    streams: tuple[int, int, int],
    context: dict[str, object],
) -> int:
    """In the bot's process: wait to be in its cgroup, drop everything, run the SDK.

    Returns a status only when the bot could not be started; once the SDK runs, the
    process ends as a cold-started interpreter would (SystemExit through the template's
    frames, which hold no handler for it: atexit handlers and non-daemon threads as
    usual)."""
    try:
        if os.read(release, 2) != b"go":
            return 125  # the child could not put us in the cgroup: never run the bot
        os.close(release)
        for target, fd in enumerate(streams):
            os.dup2(fd, target)
        os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        os.setsid()
        for name, (soft, hard) in dict(request["rlimits"]).items():  # type: ignore[call-overload]
            resource.setrlimit(getattr(resource, name), (soft, hard))
        _drop_privileges(int(request["uid"]), int(context["last_cap"]))  # type: ignore[call-overload]
        _prctl(PR_SET_NO_NEW_PRIVS, 1)
        _install_filter(bytes.fromhex(str(request["seccomp"])))
    except BaseException as error:  # nothing of the bot has run
        os.write(2, f"hearts-arena: the warm start failed: {error}\n".encode())
        return 126
    return _run_sdk(request, context)


def _drop_privileges(uid: int, last_cap: int) -> None:
    """What ``setpriv --reuid --regid --clear-groups --bounding-set=-all --inh-caps=-all``
    does, in this process: no capability can come back (the bounding set is empty)."""
    for capability in range(last_cap + 1):
        _prctl(PR_CAPBSET_DROP, capability)
    _prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    header = _CapHeader(LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    _check(_LIBC.capset(ctypes.byref(header), ctypes.byref(data)), "capset")
    # A change of uid made the process undumpable (its /proc entries root's); an exec
    # would have made it dumpable again, as a cold-started bot is.
    _prctl(PR_SET_DUMPABLE, 1)


def _install_filter(program: bytes) -> None:
    if not program or len(program) % 8:
        raise ValueError("the seccomp program is not a whole number of instructions")
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    _prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog))


def _run_sdk(request: dict[str, object], context: dict[str, object]) -> NoReturn:
    """As ``<venv>/bin/python -B -m hearts_bot serve ...`` would: the same path, argv,
    working folder, environment and site-packages."""
    os.chdir(str(request["cwd"]))
    os.environ.clear()
    os.environ.update(dict(request["environ"]))  # type: ignore[call-overload]
    os.environ.update(dict(context["imported_environ"]))  # type: ignore[call-overload]
    venv = str(request["venv"])
    sys.executable = f"{venv}/bin/python"
    sys.prefix = sys.exec_prefix = venv
    # The order of a venv's interpreter: the working folder (``-m``), the standard library,
    # the venv's site-packages, then the runtime its .pth file adds.
    sys.path[:] = [str(request["cwd"]), *list(context["stdlib_path"])]  # type: ignore[call-overload]
    for folder in list(request["site"]):  # type: ignore[call-overload]
        site.addsitedir(folder)
    argv = [str(arg) for arg in request["argv"]]  # type: ignore[attr-defined]
    import hearts_bot.cli

    sys.argv = [hearts_bot.cli.__file__.replace("cli.py", "__main__.py"), *argv]
    try:
        status = hearts_bot.cli.main(argv)
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # as an uncaught exception ends python
        import traceback

        traceback.print_exc()
        status = 1
    raise SystemExit(status)


if __name__ == "__main__":
    sys.exit(main())
