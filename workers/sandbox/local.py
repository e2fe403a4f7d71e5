"""Bots run on a developer's machine: `start_bot_file` (sandboxed, for ``arena match run
--sandbox``) and `start_unsandboxed` (the explicit, developer-only mode without a sandbox).

`start_bot_file` gives the match runner's `BotHost` shape (``address``, ``wait_ready``,
``exit_reason`` as text, ``log_excerpt``, ``stop``) over a `BotProcess`. The file's
folder is the upload (its regular files, without hidden folders, caches or virtual
environments); its environment is built in a temporary folder, with the runtime cached
in the user's own private folder (`private.local_cache`: under ``~/.cache``, made safely,
never one another user could have planted).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .environment import build_environment
from .errors import EnvironmentBuildError
from .launcher import SOCKET_NAME, Sandbox, find_tool, rlimit_args, serve_command, spawn
from .policy import SandboxPolicy
from .private import local_cache
from .process import BotProcess, remove_tree

log = logging.getLogger(__name__)

SKIPPED_FOLDERS = ("__pycache__", "node_modules", "venv", "env")
MAX_UPLOAD_BYTES = 64 * 1024 * 1024

_SANDBOX: list[Sandbox] = []
_SANDBOX_LOCK = threading.Lock()


def shared_sandbox() -> Sandbox:
    """This process's `Sandbox` (made on first use). Raises SandboxUnavailableError."""
    with _SANDBOX_LOCK:
        if not _SANDBOX:
            _SANDBOX.append(Sandbox())
        return _SANDBOX[0]


def _copy_folder(source: Path, destination: Path) -> None:
    """Copy `source`'s files for an upload, leaving out what is not the bot's."""
    total = 0
    for folder, subfolders, files in os.walk(source):
        subfolders[:] = [
            name
            for name in subfolders
            if not name.startswith(".")
            and name not in SKIPPED_FOLDERS
            and not (Path(folder) / name / "pyvenv.cfg").exists()
        ]
        target = destination / Path(folder).relative_to(source)
        target.mkdir(parents=True, exist_ok=True)
        for name in files:
            path = Path(folder) / name
            if path.is_symlink() or not path.is_file() or name.startswith("."):
                continue
            total += path.stat().st_size
            if total > MAX_UPLOAD_BYTES:
                raise EnvironmentBuildError(
                    f"{source} holds over {MAX_UPLOAD_BYTES >> 20} MiB: put the bot in a folder "
                    "of its own"
                )
            shutil.copyfile(path, target / name)


class SandboxedBotFile:
    """A bot file running in the sandbox, as the match runner's `BotHost`."""

    def __init__(self, process: BotProcess, folder: Path) -> None:
        self.process = process
        self.address = process.address
        self._folder = folder

    def wait_ready(self, timeout: float) -> bool:
        """True once the bot listens on its own socket (see `BotProcess.wait_ready`)."""
        return self.process.wait_ready(timeout)

    def exit_reason(self) -> str | None:
        """Why the bot ended (a specific message), or None while it runs."""
        reason = self.process.exit_reason()
        return None if reason is None else reason.message

    def log_excerpt(self) -> str:
        """The bot's capped stdout and stderr."""
        return self.process.log_excerpt()

    def thaw(self) -> None:
        """The runner is about to ask (or tell) the bot something: let it run."""
        self.process.thaw()

    def freeze(self) -> None:
        """The bot has answered: stop it until its next turn (see `BotProcess.freeze`)."""
        self.process.freeze()

    def stop(self) -> None:
        """Stop the bot and remove its environment (idempotent)."""
        self.process.stop()
        shutil.rmtree(self._folder, ignore_errors=True)


def start_bot_file(
    path: Path, *, seat: int, policy: SandboxPolicy | None = None
) -> SandboxedBotFile:
    """Build an environment for the bot file `path` (its folder is the upload) and start
    it in the sandbox. Raises SandboxUnavailableError where the sandbox cannot run, and
    EnvironmentBuildError for a folder or requirements.txt that cannot be used, and
    UnsafeFolderError when the user's cache folder could be changed by someone else."""
    sandbox = shared_sandbox()
    cache = local_cache()  # 0700: bwrap (root) binds what a bot needs from it
    folder = Path(tempfile.mkdtemp(prefix="bot-", dir=cache))
    try:
        folder.chmod(0o755)
        _copy_folder(path.parent, folder / "upload")
        env = build_environment(
            folder / "upload", folder / "env", runtime_root=cache, entry=path.name
        )
        process = sandbox.start(env, seat=seat, policy=policy)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return SandboxedBotFile(process, folder)


def start_unsandboxed(
    bot_file: Path,
    *,
    seat: int,
    policy: SandboxPolicy | None = None,
    python: Path | str | None = None,
) -> BotProcess:
    """Start a bot file as a plain process, WITHOUT the sandbox: for a developer's own
    bots on their own machine only (``arena match run --unsandboxed``).

    The bot runs as the current user with the rlimits of `policy`, in its own session,
    with its socket in a private 0700 folder; nothing else of the sandbox applies. Never
    use it for code you did not write. `python` defaults to this interpreter, which must
    have the SDK installed.
    """
    policy = policy or SandboxPolicy()
    log.warning("starting %s WITHOUT the sandbox (developer mode)", bot_file)
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="hearts-bot-"))
    try:
        out_r, out_w = os.pipe2(os.O_CLOEXEC)
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        command = [
            find_tool("prlimit", "util-linux"),
            *rlimit_args(policy, with_cgroup=False),
            "--",
            *serve_command(python or sys.executable, str(bot_file), str(folder / SOCKET_NAME)),
        ]
        env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
        try:
            popen = spawn(
                lambda: subprocess.Popen(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=out_w,
                    stderr=err_w,
                    env=env,
                    start_new_session=True,
                    cwd=bot_file.parent,
                )
            )
        finally:
            os.close(out_w)
            os.close(err_w)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return BotProcess(
        seat=seat,
        policy=policy,
        popen=popen,
        stdout_fd=out_r,
        stderr_fd=err_r,
        root=lambda: os.open(folder, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC),
        socket_path=SOCKET_NAME,
        owner_uid=os.getuid(),
        sandboxed=False,
        cleanup=remove_tree(folder),
        started=started,
    )
