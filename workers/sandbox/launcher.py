"""`Sandbox`: starts bot versions inside bubblewrap; and the developer-only unsandboxed mode.

The command line of one sandboxed bot, outermost first::

    prlimit (rlimits, inherited by all below)
      bwrap   as root: new mount, PID, network, IPC, UTS and cgroup namespaces, no user
              namespace; read-only /usr, interpreter, runtime, venv and bot; tmpfs /tmp
              and /run/bot (size-capped); fresh /proc and /dev; only the bot's variables
              (variables.bot_environ: nothing of the worker's environment);
              die-with-parent; new session; waits on --block-fd until we have put it in
              its cgroup; installs the seccomp filter last
        setpriv  drops to the bot's own uid/gid, clears groups and every capability
          python -m hearts_bot serve /bot/<entry> --address unix:/run/bot/bot.sock

bwrap runs as root (no user namespace) so that it can read the interpreter wherever it
is installed and so that the bot's uid is a real, unprivileged uid on the host: files,
signals, ``RLIMIT_NPROC`` and /proc all see a different user for each running bot.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import logging
import os
import secrets
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from . import variables
from .cgroups import BotCgroup, CgroupDriver, CgroupLimits
from .environment import BotEnvironment
from .errors import SandboxError, SandboxUnavailableError
from .kinds import AnyEnvironment, KindEnvironment
from .policy import SandboxPolicy
from .process import BotProcess, ProcessHandle
from .procfs import cover_args, synthetic_files
from .seccomp import build_filter
from .uids import DEFAULT_BASE, DEFAULT_COUNT, Uid, UidPool
from .warm import Template, TemplateError, Templates, WarmChild, shadowed

log = logging.getLogger(__name__)

DEFAULT_STATE_DIR = Path("/run/hearts-arena")
SOCKET_DIR = "/run/bot"
SOCKET_NAME = "bot.sock"
LAUNCH_PATH = "/run/launch"
"""The script (inside the sandbox) that drops privileges and starts the bot's server."""
BOT_DIR = variables.BOT_DIR
SETUP_TIMEOUT = 10.0
SYSTEM_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime")

_T = TypeVar("_T")
# Bubblewrap's die-with-parent is tied to the *thread* that forked it (PR_SET_PDEATHSIG):
# start every sandbox from one long-lived thread, so a bot never dies because the thread
# that happened to start it ended.
_SPAWNER = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="sandbox-spawn")


def spawn(function: Callable[[], _T]) -> _T:
    """Run `function` (which starts a process) on the long-lived spawner thread."""
    if threading.current_thread().name.startswith("sandbox-spawn"):
        return function()
    return _SPAWNER.submit(function).result()


# -- availability ------------------------------------------------------------------------------

_PROBED: dict[str, str | None] = {}


def find_tool(name: str, package: str) -> str:
    """The path of the program `name`; SandboxUnavailableError names its package if none."""
    found = shutil.which(name, path=os.environ.get("PATH", "") + ":/usr/bin:/bin:/usr/sbin:/sbin")
    if found is None:
        raise SandboxUnavailableError(f"{name} is not installed (Debian package {package})")
    return found


def check_available(bwrap: str | None = None) -> str:
    """The bwrap to use, after checking once that this machine can run the sandbox.

    Raises SandboxUnavailableError naming what is missing: bubblewrap, root (to give each
    bot its own uid), setpriv or prlimit (util-linux), seccomp in the kernel, or a
    namespace bubblewrap could not create (its own message is quoted).
    """
    path = bwrap or find_tool("bwrap", "bubblewrap")
    if path in _PROBED:
        problem = _PROBED[path]
        if problem:
            raise SandboxUnavailableError(problem)
        return path
    try:
        _probe(path)
    except SandboxUnavailableError as error:
        _PROBED[path] = str(error)
        raise
    _PROBED[path] = None
    return path


def _probe(bwrap: str) -> None:
    if os.geteuid() != 0:
        raise SandboxUnavailableError(
            f"the sandbox gives each bot its own uid, which needs root (this is uid {os.geteuid()})"
        )
    find_tool("setpriv", "util-linux")
    find_tool("prlimit", "util-linux")
    with open("/proc/self/status") as status:
        if "Seccomp:" not in status.read():
            raise SandboxUnavailableError("the kernel has no seccomp support (CONFIG_SECCOMP)")
    program = build_filter()
    read_end, write_end = os.pipe()
    os.write(write_end, program)
    os.close(write_end)
    command = [
        bwrap,
        *_NAMESPACES,
        "--ro-bind",
        "/usr",
        "/usr",
        *_system_links(),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        "65536",
        "--tmpfs",
        "/tmp",
        "--remount-ro",
        "/",
        "--seccomp",
        str(read_end),
        "--",
        "/usr/bin/true",
    ]
    try:
        result = spawn(
            lambda: subprocess.run(
                command,
                capture_output=True,
                text=True,
                env={},
                pass_fds=(read_end,),
                timeout=30,
                check=False,
            )
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SandboxUnavailableError(f"bubblewrap ({bwrap}) could not be run: {error}") from None
    finally:
        os.close(read_end)
    if result.returncode != 0:
        message = result.stderr.strip() or f"exit status {result.returncode}"
        raise SandboxUnavailableError(
            f"bubblewrap cannot build the sandbox on this machine: {message}"
        )


_NAMESPACES = (
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-uts",
    "--unshare-cgroup",
    "--die-with-parent",
    "--new-session",
    "--clearenv",
)


def _system_links() -> list[str]:
    """/bin, /lib, ...: links into /usr as on the host, or read-only binds if folders."""
    args: list[str] = []
    for name in SYSTEM_LINKS:
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    return args


# -- the sandbox -------------------------------------------------------------------------------


def _mirror(paths: Sequence[Path]) -> list[str]:
    """Read-only binds of `paths` at the same place, with 0755 folders leading to them."""
    args: list[str] = []
    made: set[Path] = set()
    for path in paths:
        for parent in reversed(path.parents):
            if parent != Path("/") and parent not in made:
                args += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
        args += ["--ro-bind", str(path), str(path)]
        made.add(path)
    return args


def rlimits(policy: SandboxPolicy, *, with_cgroup: bool) -> dict[str, tuple[int, int]]:
    """The rlimits of a bot under `policy`, by prlimit's name: (soft, hard)."""
    cpu = int(policy.cpu_seconds) + 1 + (1 if with_cgroup else 0)  # the watchdog acts first
    data = policy.data_limit(with_cgroup=with_cgroup)
    return {
        "data": (data, data),
        "nproc": (policy.max_processes, policy.max_processes),
        "cpu": (cpu, cpu + 1),
        "fsize": (policy.file_size_bytes, policy.file_size_bytes),
        "nofile": (policy.open_files, policy.open_files),
        "core": (0, 0),
        "memlock": (0, 0),
        "msgqueue": (0, 0),
    }


RESOURCE_NAMES = {
    "data": "RLIMIT_DATA",
    "nproc": "RLIMIT_NPROC",
    "cpu": "RLIMIT_CPU",
    "fsize": "RLIMIT_FSIZE",
    "nofile": "RLIMIT_NOFILE",
    "core": "RLIMIT_CORE",
    "memlock": "RLIMIT_MEMLOCK",
    "msgqueue": "RLIMIT_MSGQUEUE",
}
"""prlimit's names of the limits, as the `resource` module names them (the warm start
sets them itself)."""


def rlimit_args(policy: SandboxPolicy, *, with_cgroup: bool) -> list[str]:
    """prlimit's options for `policy`."""
    return [
        f"--{name}={soft}:{hard}"
        for name, (soft, hard) in rlimits(policy, with_cgroup=with_cgroup).items()
    ]


def serve_args(bot_file: str, socket_path: str) -> list[str]:
    """The arguments of ``hearts-bot`` that serve `bot_file` (cold and warm alike)."""
    return ["serve", bot_file, "--address", f"unix:{socket_path}"]


def serve_command(python: Path | str, bot_file: str, socket_path: str) -> list[str]:
    """The SDK's serving command (the same sandboxed and not)."""
    return [str(python), "-B", "-m", "hearts_bot", *serve_args(bot_file, socket_path)]


def _serve_argv(env: AnyEnvironment) -> list[str]:
    """What starts `env`'s bot in the sandbox: the SDK's server for a Python bot, the
    kind's own command for a native or node bot (`kinds.KindEnvironment`)."""
    socket_path = f"{SOCKET_DIR}/{SOCKET_NAME}"
    if isinstance(env, KindEnvironment):
        return env.serve_argv(BOT_DIR, socket_path)
    return serve_command(env.python, f"{BOT_DIR}/{env.entry}", socket_path)


class Sandbox:
    """Starts bots in bubblewrap; one per worker process is enough (it is thread-safe).

    Raises SandboxUnavailableError when this machine cannot sandbox (see
    `check_available`).
    """

    def __init__(
        self,
        state_dir: Path = DEFAULT_STATE_DIR,
        *,
        bwrap: str | None = None,
        uid_base: int = DEFAULT_BASE,
        uid_count: int = DEFAULT_COUNT,
        cgroups: CgroupDriver | None = None,
        warm: bool | None = None,
    ) -> None:
        self.bwrap = check_available(bwrap)
        self.setpriv = find_tool("setpriv", "util-linux")
        self.prlimit = find_tool("prlimit", "util-linux")
        self.uids = UidPool(state_dir / "uids", uid_base, uid_count)
        self.cgroups = cgroups if cgroups is not None else CgroupDriver.detect()
        for name in self.cgroups.reap_stale():
            log.warning("removed the stale bot cgroup %s", name)
        self._filter = build_filter()
        self._counter = 0
        self._lock = threading.Lock()
        if warm is None:
            warm = os.environ.get(WARM_ENV, "1") != "0"
        self.templates: Templates | None = Templates() if warm else None
        """The warm templates of Python bots (None: every start is cold)."""

    def close(self) -> None:
        """Stop the warm templates (running bots are not affected)."""
        if self.templates is not None:
            self.templates.close()

    def start(
        self, env: AnyEnvironment, *, seat: int, policy: SandboxPolicy | None = None
    ) -> BotProcess:
        """Start `env`'s bot for `seat`; returns at once (then call `wait_ready`).

        Raises SandboxUnavailableError if the policy requires a cgroup and none can be
        made, and SandboxError if bubblewrap fails to set the sandbox up (our fault, not
        the bot's: the bot has not run yet).
        """
        policy = policy or SandboxPolicy()
        started = time.perf_counter()
        with self._lock:
            self._counter += 1
            name = f"{os.getpid()}-{self._counter}-seat{seat}-{secrets.token_hex(3)}"
        uid = self.uids.acquire()
        cgroup: BotCgroup | None = None
        try:
            cgroup = self._make_cgroup(name, policy)
            return spawn(lambda: self._start(env, seat, policy, uid, cgroup, started))
        except BaseException:
            if cgroup is not None:
                cgroup.kill()
                cgroup.remove()
            uid.release()
            raise

    def _start(
        self,
        env: AnyEnvironment,
        seat: int,
        policy: SandboxPolicy,
        uid: Uid,
        cgroup: BotCgroup | None,
        started: float,
    ) -> BotProcess:
        """Warm when a template can start `env`'s bot, cold otherwise (with the reason)."""
        reason = self._cold_reason(env)
        if reason is None:
            assert self.templates is not None
            assert isinstance(env, BotEnvironment)
            try:
                template = self.templates.get(env.runtime)
                shadows = shadowed(env, template.modules)
                if shadows:
                    reason = f"its venv ships its own {', '.join(shadows)}"
                else:
                    return self._launch(
                        env, seat, policy, uid, cgroup=cgroup, started=started, warm=template
                    )
            except TemplateError as error:
                reason = str(error)
                log.warning("seat %s starts cold: %s", seat, reason)
                if cgroup is not None:
                    cgroup.kill()  # the placeholder of the warm attempt, if it got that far
        bot = self._launch(env, seat, policy, uid, cgroup=cgroup, started=started, warm=None)
        bot.cold_reason = reason
        return bot

    def _cold_reason(self, env: AnyEnvironment) -> str | None:
        """Why `env`'s bot cannot start warm, or None if it can try."""
        if self.templates is None:
            return f"warm starts are off ({WARM_ENV}=0)"
        if not isinstance(env, BotEnvironment):
            return f"a {env.kind} bot has no template"
        return None

    def _make_cgroup(self, name: str, policy: SandboxPolicy) -> BotCgroup | None:
        problem = "; ".join(self.cgroups.problems) or "no cgroup hierarchy is mounted"
        if self.cgroups.usable:
            try:
                group = self.cgroups.create(
                    name, CgroupLimits(policy.memory_bytes, policy.max_processes, policy.cpu_cores)
                )
                if not policy.require_cgroup or {"memory", "pids"} <= group.controllers:
                    return group
                group.remove()
                problem = f"the cgroup lacks {sorted({'memory', 'pids'} - group.controllers)}"
            except OSError as error:
                problem = f"cannot create a cgroup: {error}"
        if policy.require_cgroup:
            raise SandboxUnavailableError(f"the policy requires a cgroup, but {problem}")
        log.warning("running a bot without a cgroup (rlimits only): %s", problem)
        return None

    def command(
        self,
        env: AnyEnvironment,
        uid: int,
        policy: SandboxPolicy,
        *,
        with_cgroup: bool,
        info_fd: int,
        block_fd: int,
        seccomp_fd: int,
        proc_fds: Sequence[int] = (),
        launch_fd: int | None = None,
        as_pid_1: bool = False,
        environ: Mapping[str, str] | None = None,
    ) -> list[str]:
        """The full command line (see the module's docstring). `proc_fds` hold the
        contents of `procfs.synthetic_files`, in order (without them, the global /proc
        counters are covered but not replaced). With `launch_fd` (holding
        `launch_script`), bwrap runs that script instead of `inner_command` directly, so
        that its own command line, which the sandbox's pid 1 shows, names no host path."""
        synthetic = [path for path, _ in synthetic_files(policy)]
        inner = ["/bin/sh", LAUNCH_PATH] if launch_fd is not None else self.inner_command(env, uid)
        launch = (
            []
            if launch_fd is None
            else ["--perms", "0444", "--ro-bind-data", str(launch_fd), LAUNCH_PATH]
        )
        return [
            self.prlimit,
            *rlimit_args(policy, with_cgroup=with_cgroup),
            "--",
            self.bwrap,
            *_NAMESPACES,
            *(["--as-pid-1"] if as_pid_1 else []),
            "--hostname",
            "bot",
            "--cap-drop",
            "ALL",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
            "--cap-add",
            "CAP_SETPCAP",
            "--ro-bind",
            "/usr",
            "/usr",
            *_system_links(),
            *[
                arg
                for path in SYSTEM_FILES
                if os.path.exists(path)
                for arg in ("--ro-bind", path, path)
            ],
            "--perms",
            "1777",
            "--size",
            str(policy.tmp_bytes),
            "--tmpfs",
            "/tmp",
            "--perms",
            "1777",
            "--size",
            str(policy.socket_dir_bytes),
            "--tmpfs",
            SOCKET_DIR,
            *_mirror(env.host_mounts()),
            *[
                arg
                for path in env.hidden_paths()
                for arg in ("--size", "4096", "--tmpfs", str(path))
            ],
            "--ro-bind",
            str(env.bot_dir),
            BOT_DIR,
            "--proc",
            "/proc",
            *cover_args(),
            *[
                arg
                for fd, path in zip(proc_fds, synthetic, strict=False)
                for arg in ("--perms", "0444", "--ro-bind-data", str(fd), path)
            ],
            "--dev",
            "/dev",
            *launch,
            "--remount-ro",
            "/",
            "--chdir",
            BOT_DIR,
            *[arg for name, value in (environ or {}).items() for arg in ("--setenv", name, value)],
            "--info-fd",
            str(info_fd),
            "--block-fd",
            str(block_fd),
            "--seccomp",
            str(seccomp_fd),
            "--",
            *inner,
        ]

    def _dropped(self, uid: int, argv: Sequence[str]) -> list[str]:
        """`argv` under setpriv dropping to `uid` with no capability left."""
        return [
            self.setpriv,
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--bounding-set=-all",
            "--inh-caps=-all",
            "--",
            *argv,
        ]

    def inner_command(self, env: AnyEnvironment, uid: int) -> list[str]:
        """What bwrap runs: setpriv dropping to `uid`, then the SDK's server."""
        return self._dropped(uid, _serve_argv(env))

    def launch_script(self, env: AnyEnvironment, uid: int, *, into_leaf: bool = False) -> bytes:
        """The script bwrap runs (at LAUNCH_PATH, read-only): exec of `inner_command`.

        With `into_leaf`, its standard input is the ``cgroup.procs`` of the bot's v2 leaf
        (`BotCgroup.bot_procs_file`, opened by the worker): the script first moves itself
        there (``0`` is the writer), so the bot's process and all it starts are in the
        group that is frozen off-turn, while bubblewrap and the sandbox's init stay in its
        parent; it exits without running the bot if the move fails, then takes the
        sandbox's /dev/null as the bot's standard input (dash redirects descriptors 0-9
        only, hence standard input)."""
        command = f"exec {shlex.join(self.inner_command(env, uid))}\n"
        if not into_leaf:
            return command.encode()
        return (f"echo 0 >&0 || exit {LEAF_FAILED}\nexec </dev/null\n" + command).encode()

    def placeholder_script(self) -> bytes:
        """The script of a warm start's sandbox: it says the sandbox is built, then holds
        it (it is the pid namespace's init: ``--as-pid-1``) while the template's child
        brings the bot in and for as long as the bot runs. So the bot sees what a cold
        start shows it: an init it cannot signal, and itself. The placeholder keeps uid
        0 with every capability gone (an empty bounding set, under the same filter and
        no_new_privs): another uid than the bot's, so the bot can neither signal it nor
        read its /proc entries. Unlike bubblewrap's init it reaps no orphan: a process
        the bot orphans stays a zombie, in its process count, until the bot stops."""
        argv = [
            self.setpriv,
            "--clear-groups",
            "--bounding-set=-all",
            "--inh-caps=-all",
            "--",
            *PLACEHOLDER_ARGV,
        ]
        return f"exec {shlex.join(argv)}\n".encode()

    def _launch(
        self,
        env: AnyEnvironment,
        seat: int,
        policy: SandboxPolicy,
        uid: Uid,
        *,
        cgroup: BotCgroup | None,
        started: float,
        warm: Template | None,
    ) -> BotProcess:
        """Build the sandbox and start the bot in it: bwrap runs the bot's server (cold),
        or a placeholder while `warm`'s child brings the bot in (raises TemplateError if
        that fails, with everything it started stopped)."""
        uid_value = uid.value
        environ = variables.bot_environ(env)  # the bot's, cold (--setenv) or warm alike
        ours: list[int] = []  # descriptors to close whatever happens
        theirs: list[int] = []  # the child's ends, closed once it has them
        try:
            info_r, info_w = os.pipe2(os.O_CLOEXEC)
            block_r, block_w = os.pipe2(os.O_CLOEXEC)
            seccomp_r, seccomp_w = os.pipe2(os.O_CLOEXEC)
            out_r, out_w = os.pipe2(os.O_CLOEXEC)
            err_r, err_w = os.pipe2(os.O_CLOEXEC)
            ours += [info_r, block_w, seccomp_w, out_r, err_r]
            theirs += [info_w, block_r, seccomp_r, out_w, err_w]
            os.write(seccomp_w, self._filter)  # < 64 KiB: fits the pipe
            os.close(seccomp_w)
            ours.remove(seccomp_w)
            proc_fds = [_data_fd(content) for _, content in synthetic_files(policy)]
            theirs += proc_fds
            leaf_procs = cgroup.bot_procs_file() if cgroup is not None else None
            shell_in: int = subprocess.DEVNULL
            if warm is None:
                launch_fd = _data_fd(
                    self.launch_script(env, uid_value, into_leaf=leaf_procs is not None)
                )
                shell_out = out_w
                if leaf_procs is not None:
                    shell_in = os.open(leaf_procs, os.O_WRONLY | os.O_CLOEXEC)
                    theirs.append(shell_in)
            else:  # bwrap's stdout says when the placeholder runs; the bot's is out_w
                launch_fd = _data_fd(self.placeholder_script())
                up_r, shell_out = os.pipe2(os.O_CLOEXEC)
                ours.append(up_r)
                theirs.append(shell_out)
            theirs.append(launch_fd)
            command = self.command(
                env,
                uid_value,
                policy,
                with_cgroup=cgroup is not None,
                info_fd=info_w,
                block_fd=block_r,
                seccomp_fd=seccomp_r,
                proc_fds=proc_fds,
                launch_fd=launch_fd,
                as_pid_1=warm is not None,
                environ=environ if warm is None else None,  # a warm bot's comes in its request
            )
            # The sandbox's pid 1 is bwrap: its /proc/1/cmdline would show every host path
            # bound in. Its options go in through a descriptor, the command (the launch
            # script) stays on the command line, as bwrap wants it there.
            start = command.index(self.bwrap) + 1
            end = len(command) - 3  # "--", "/bin/sh", LAUNCH_PATH
            options = b"".join(arg.encode() + b"\0" for arg in command[start:end])
            args_fd = _data_fd(options)
            theirs.append(args_fd)
            popen = subprocess.Popen(
                [*command[:start], "--args", str(args_fd), *command[end:]],
                stdin=shell_in,
                stdout=shell_out,
                stderr=err_w,
                env={},
                pass_fds=(info_w, block_r, seccomp_r, args_fd, launch_fd, *proc_fds),
                start_new_session=True,
                cwd="/",
            )
            bot_streams = [out_w, err_w]
            for fd in theirs:
                if warm is None or fd not in bot_streams:  # the template's child needs them
                    os.close(fd)
            theirs = [fd for fd in theirs if fd in bot_streams] if warm is not None else []
            try:
                init_pid = _read_child_pid(info_r, popen, err_r)
                init_pidfd = os.pidfd_open(init_pid)
            except BaseException:
                popen.kill()
                popen.wait()
                raise
            try:
                if cgroup is not None:
                    cgroup.attach(popen.pid)
                    cgroup.attach(init_pid)
                os.write(block_w, b"go")
            except BaseException:
                with contextlib.suppress(OSError):
                    os.close(init_pidfd)
                popen.kill()
                popen.wait()
                raise
            os.close(block_w)
            os.close(info_r)
            ours = [fd for fd in ours if fd not in (block_w, info_r)]
            process: ProcessHandle = popen
            cleanup = None
            if warm is not None:
                try:
                    process = self._bring_in(
                        env,
                        policy,
                        uid_value,
                        warm,
                        popen,
                        init_pid,
                        init_pidfd,
                        up_r,
                        cgroup=cgroup,
                        streams=(out_w, err_w),
                        environ=environ,
                    )
                except BaseException:
                    with contextlib.suppress(ProcessLookupError, OSError):
                        signal.pidfd_send_signal(init_pidfd, signal.SIGKILL)
                    os.close(init_pidfd)
                    popen.kill()
                    popen.wait()
                    raise
                cleanup = _reaper(popen)
            bot = BotProcess(
                seat=seat,
                policy=policy,
                popen=process,
                stdout_fd=out_r,
                stderr_fd=err_r,
                root=_sandbox_root(init_pid, init_pidfd),
                socket_path=f"{SOCKET_DIR}/{SOCKET_NAME}".lstrip("/"),
                owner_uid=uid_value,
                sandboxed=True,
                init_pidfd=init_pidfd,
                init_pid=init_pid,
                cgroup=cgroup,
                uid=uid,
                cleanup=cleanup,
                started=started,
            )
            ours.clear()  # the BotProcess owns out_r and err_r now
            return bot
        finally:
            for fd in ours + theirs:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def _bring_in(
        self,
        env: AnyEnvironment,
        policy: SandboxPolicy,
        uid: int,
        template: Template,
        shell: subprocess.Popen[bytes],
        init_pid: int,
        init_pidfd: int,
        up_fd: int,
        *,
        cgroup: BotCgroup | None,
        streams: tuple[int, int],
        environ: Mapping[str, str],
    ) -> WarmChild:
        """Once the placeholder says the sandbox is built, have the template's child join
        it and start the bot there. Raises TemplateError (the template is discarded when
        it is at fault) or SandboxError (bubblewrap could not build the sandbox)."""
        assert isinstance(env, BotEnvironment)
        line = _read_line(up_fd, SETUP_TIMEOUT)
        if line != PLACEHOLDER_LINE:
            with contextlib.suppress(subprocess.TimeoutExpired):
                shell.wait(1.0)
            raise SandboxError(
                f"bubblewrap failed to set up the sandbox (status {shell.poll()})"
                + (f": the placeholder said {line!r}" if line else "")
            )
        opened: list[int] = []
        try:
            opened.append(os.open("/dev/null", os.O_RDONLY | os.O_CLOEXEC))
            for path in cgroup.procs_files() if cgroup is not None else []:
                opened.append(os.open(path, os.O_WRONLY | os.O_CLOEXEC))
            version = f"python{sys.version_info.major}.{sys.version_info.minor}"
            request = {
                "init_pid": init_pid,
                "uid": uid,
                "rlimits": {
                    RESOURCE_NAMES[name]: limits
                    for name, limits in rlimits(policy, with_cgroup=cgroup is not None).items()
                },
                "seccomp": self._filter.hex(),
                "cwd": BOT_DIR,
                "environ": dict(environ),
                "venv": str(env.venv),
                "site": [str(env.venv / "lib" / version / "site-packages")],
                "argv": serve_args(f"{BOT_DIR}/{env.entry}", f"{SOCKET_DIR}/{SOCKET_NAME}"),
            }
            fds = [init_pidfd, opened[0], *streams, *opened[1:]]
            try:
                return template.spawn(request, fds)
            except TemplateError as error:
                if self.templates is not None:
                    self.templates.discard(template, str(error))
                raise
        finally:
            for fd in opened:
                os.close(fd)


LEAF_FAILED = 125
"""The launch script's status when it could not move itself into the bot's leaf."""
PLACEHOLDER_LINE = "sandbox built"
PLACEHOLDER_ARGV = ("/bin/sh", "-c", f"echo '{PLACEHOLDER_LINE}' && exec sleep infinity")
"""What a warm start's sandbox runs until the bot is in (see `Sandbox.placeholder_script`)."""
WARM_ENV = "ARENA_WARM_STARTS"
"""Set to 0 to start every bot cold (a fresh interpreter in its sandbox)."""


def _read_line(fd: int, timeout: float) -> str:
    """The first line written on `fd` within `timeout` seconds ('' at its end or none)."""
    data = b""
    deadline = time.monotonic() + timeout
    while b"\n" not in data and len(data) < 4096:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        data += chunk
    return data.partition(b"\n")[0].decode("utf-8", "replace")


def _reaper(shell: subprocess.Popen[bytes]) -> Callable[[], None]:
    """Reaps a warm start's bubblewrap once its sandbox was killed with the bot."""

    def reap() -> None:
        try:
            shell.wait(timeout=5)
        except subprocess.TimeoutExpired:
            shell.kill()
            shell.wait(timeout=5)

    return reap


def _data_fd(content: bytes) -> int:
    """A descriptor positioned at the start of `content` (for bwrap's --args and
    --ro-bind-data, which read to the end: a pipe could not hold more than 64 KiB)."""
    fd = os.memfd_create("bwrap-data", os.MFD_CLOEXEC)
    try:
        os.write(fd, content)
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _sandbox_root(init_pid: int, init_pidfd: int) -> Callable[[], int]:
    """Opens the sandbox's root through its init's /proc entry (once set-up is over: the
    root changes during it), checking through the pidfd that the pid was still ours."""

    def open_root() -> int:
        fd = os.open(f"/proc/{init_pid}/root", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        if select.select([init_pidfd], [], [], 0)[0]:
            os.close(fd)
            raise ProcessLookupError(f"the sandbox's init {init_pid} has exited")
        return fd

    return open_root


def _drain(fd: int) -> str:
    chunks = []
    with contextlib.suppress(OSError):
        while select.select([fd], [], [], 0.2)[0]:
            data = os.read(fd, 65536)
            if not data:
                break
            chunks.append(data)
    return b"".join(chunks).decode("utf-8", "replace").strip()[-2000:]


def _read_child_pid(info_fd: int, popen: subprocess.Popen[bytes], err_fd: int) -> int:
    """The sandbox init's host pid, from bubblewrap's --info-fd JSON."""
    data = b""
    deadline = time.monotonic() + SETUP_TIMEOUT
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise SandboxError(f"bubblewrap gave no info in {SETUP_TIMEOUT:g} s")
        if not select.select([info_fd], [], [], left)[0]:
            continue
        chunk = os.read(info_fd, 4096)
        if not chunk:
            break
        data += chunk
        with contextlib.suppress(ValueError):
            return int(json.loads(data)["child-pid"])
    popen.wait(timeout=SETUP_TIMEOUT)
    raise SandboxError(
        f"bubblewrap failed to set up the sandbox (status {popen.returncode}): " + _drain(err_fd)
    )
