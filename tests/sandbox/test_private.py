"""The local mode's cache folder: the user's own, made safely, never one planted by someone
else (another owner, a symbolic link, a folder others can write)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from workers.sandbox.private import UnsafeFolderError, cache_home, local_cache, private_folder

pytestmark = pytest.mark.timeout(30)
STRANGER = 12345


def test_a_new_folder_is_made_private(tmp_path: Path) -> None:
    made = private_folder(tmp_path / "cache" / "hearts")
    info = os.lstat(made)
    assert stat.S_ISDIR(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o700
    assert info.st_uid == os.geteuid()
    assert private_folder(tmp_path / "cache" / "hearts") == made  # reused: it is ours


@pytest.mark.skipif(os.geteuid() != 0, reason="planting a stranger's folder needs root")
def test_a_folder_planted_by_someone_else_is_refused(tmp_path: Path) -> None:
    planted = tmp_path / "hearts"
    planted.mkdir(mode=0o755)
    os.chown(planted, STRANGER, STRANGER)
    with pytest.raises(UnsafeFolderError, match=f"belongs to uid {STRANGER}, not to you"):
        private_folder(planted)


def test_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    (tmp_path / "hearts").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(UnsafeFolderError, match="is a symbolic link"):
        private_folder(tmp_path / "hearts")


def test_a_folder_others_can_write_is_refused(tmp_path: Path) -> None:
    (tmp_path / "hearts").mkdir()
    os.chmod(tmp_path / "hearts", 0o777)
    with pytest.raises(UnsafeFolderError, match="writable by others"):
        private_folder(tmp_path / "hearts")


def test_a_parent_others_can_write_is_refused_unless_sticky(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    with pytest.raises(UnsafeFolderError, match=r"writable by others .* and not sticky"):
        private_folder(shared / "hearts")
    os.chmod(shared, 0o1777)  # like /tmp: nobody can rename what is ours in it
    assert private_folder(shared / "hearts") == shared / "hearts"


@pytest.mark.skipif(os.geteuid() != 0, reason="planting a stranger's folder needs root")
def test_a_parent_owned_by_someone_else_is_refused(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, STRANGER, STRANGER)
    with pytest.raises(UnsafeFolderError, match="neither root nor you"):
        private_folder(theirs / "hearts")


def test_the_local_cache_is_under_the_users_cache_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_home() == tmp_path / "xdg"
    assert local_cache() == tmp_path / "xdg" / "hearts-arena-sandbox"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert cache_home() == Path.home() / ".cache"
