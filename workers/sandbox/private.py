"""A folder only the current user can change, made safely: where the local mode keeps the
bot runtime it builds (the SDK every locally sandboxed bot imports).

A predictable folder under a world-writable place (/var/tmp, /tmp), reused if it exists,
would let another local user plant it first, or put a symbolic link there, and so choose
the code every bot of ours runs. So: the folder is under the user's cache
(``$XDG_CACHE_HOME`` or ``~/.cache``); every folder on the way must belong to root or to
the user and be writable by no one else (or be sticky, like /tmp); the folder itself is
made with mode 0700, or, if it exists, must be a real folder (not a link), the user's
own, writable by no one else. Nobody else can then rename or replace anything on the
path after the check.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from .errors import SandboxError

FOLDER_NAME = "hearts-arena-sandbox"


class UnsafeFolderError(SandboxError):
    """A folder on the way is not the user's to trust; the message says which and why."""


def cache_home() -> Path:
    """``$XDG_CACHE_HOME`` when it is an absolute path, else ``~/.cache``."""
    configured = os.environ.get("XDG_CACHE_HOME", "")
    if configured and os.path.isabs(configured):
        return Path(configured)
    return Path.home() / ".cache"


def _check_ancestor(path: Path, uid: int) -> None:
    info = os.stat(path)  # links on the way (/var/run -> /run) are followed: checked below
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeFolderError(f"{path} is not a folder")
    if info.st_uid not in (0, uid):
        raise UnsafeFolderError(f"{path} belongs to uid {info.st_uid}, neither root nor you")
    if info.st_mode & 0o022 and not info.st_mode & stat.S_ISVTX:
        raise UnsafeFolderError(
            f"{path} is writable by others (mode {stat.S_IMODE(info.st_mode):o}) and not sticky"
        )


def _check_own(path: Path, uid: int) -> os.stat_result:
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise UnsafeFolderError(f"{path} is a symbolic link, not a folder of yours")
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeFolderError(f"{path} is not a folder")
    if info.st_uid != uid:
        raise UnsafeFolderError(
            f"{path} belongs to uid {info.st_uid}, not to you (uid {uid}): someone else made it"
        )
    if info.st_mode & 0o022:
        raise UnsafeFolderError(
            f"{path} is writable by others (mode {stat.S_IMODE(info.st_mode):o})"
        )
    return info


def private_folder(path: Path) -> Path:
    """`path`, made (mode 0700) or checked as a folder only the current user can change.

    Its parent is made too if missing (0700). Raises UnsafeFolderError when a folder on
    the way, or `path` itself, could be changed by someone else (see the module).
    """
    uid = os.geteuid()
    real_parent = Path(os.path.realpath(path.parent))
    os.makedirs(real_parent, mode=0o700, exist_ok=True)  # checked, with its ancestors, below
    for ancestor in (*reversed(real_parent.parents), real_parent):
        _check_ancestor(ancestor, uid)
    target = real_parent / path.name
    with contextlib.suppress(FileExistsError):  # an existing one is checked instead
        os.mkdir(target, 0o700)
    info = _check_own(target, uid)
    # The same folder once opened without following links (nothing swapped it meanwhile:
    # only root and this user can write its parent).
    fd = os.open(target, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        opened = os.fstat(fd)
    finally:
        os.close(fd)
    if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino):
        raise UnsafeFolderError(f"{target} changed while it was being checked")
    return target


def local_cache() -> Path:
    """The local mode's private folder (``<cache home>/hearts-arena-sandbox``)."""
    return private_folder(cache_home() / FOLDER_NAME)
