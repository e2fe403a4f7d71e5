"""`BotSocket`: the bot's Unix socket, pinned so that the bot cannot redirect the runner.

The socket lives in a private tmpfs inside the sandbox (/run/bot), which the runner
reaches through the sandbox's root (``/proc/<init>/root``), walking each component with
``O_PATH | O_NOFOLLOW``: a symbolic link anywhere on the way is refused, never followed
(an absolute link there would otherwise resolve in the runner's own filesystem). The last
component must be a socket owned by the bot's uid. The runner then dials
``unix:/proc/self/fd/<fd>``, which names that very inode: replacing, renaming or
re-linking the path afterwards changes nothing about where the runner connects.
"""

from __future__ import annotations

import contextlib
import os
import stat

_DIR_FLAGS = os.O_PATH | os.O_NOFOLLOW | os.O_DIRECTORY | os.O_CLOEXEC
_FILE_FLAGS = os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC


class SocketRefusedError(Exception):
    """The bot's socket path is not a socket of the bot's own (the bot's fault).

    `final` when what stands there can only be the bot's doing (a link, a file, a socket
    of another owner, a path that is not a plain directory): no honest server leaves it
    there on its way to listening, so waiting for it to change would only hold the match
    up. A missing socket is not final: a server may say it is ready a moment before its
    socket exists."""

    def __init__(self, message: str, *, final: bool = False) -> None:
        super().__init__(message)
        self.final = final


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    return "not a socket"


class BotSocket:
    """An ``O_PATH`` descriptor of a verified socket; `address` dials exactly it."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.address = f"unix:/proc/self/fd/{fd}"
        """The gRPC target; valid in this process while the socket is open."""

    def close(self) -> None:
        """Close the descriptor (idempotent); `address` is then useless."""
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1


def open_socket(root_fd: int, relative: str, owner: int) -> BotSocket:
    """Pin the socket at `relative` (e.g. ``run/bot/bot.sock``) under the directory
    `root_fd`, never following a link. Raises SocketRefusedError naming what is there
    instead of a socket owned by uid `owner` (FileNotFoundError-like cases included)."""
    parts = [part for part in relative.split("/") if part]
    if not parts or any(part in (".", "..") for part in parts):
        raise ValueError(f"bad socket path {relative!r}")
    fds: list[int] = []
    where = ""
    try:
        current = root_fd
        for part in parts[:-1]:
            where += "/" + part
            try:
                current = os.open(part, _DIR_FLAGS, dir_fd=current)
            except FileNotFoundError:
                raise SocketRefusedError(f"{where} does not exist") from None
            except OSError as error:
                raise SocketRefusedError(
                    f"{where} is not a plain directory ({error.strerror})", final=True
                ) from None
            fds.append(current)
        where += "/" + parts[-1]
        try:
            fd = os.open(parts[-1], _FILE_FLAGS, dir_fd=current)
        except FileNotFoundError:
            raise SocketRefusedError(f"no socket at {where}") from None
        except OSError as error:
            raise SocketRefusedError(f"cannot open {where}: {error.strerror}") from None
        info = os.fstat(fd)
        if not stat.S_ISSOCK(info.st_mode) or info.st_uid != owner:
            os.close(fd)
            if not stat.S_ISSOCK(info.st_mode):
                raise SocketRefusedError(
                    f"{where} is {_kind(info.st_mode)}, not a socket", final=True
                )
            raise SocketRefusedError(
                f"{where} is owned by uid {info.st_uid}, not the bot's {owner}", final=True
            )
        return BotSocket(fd)
    finally:
        for opened in fds:
            os.close(opened)
