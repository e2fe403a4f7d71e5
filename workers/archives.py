"""Unpacking an uploaded bot version's archive, safely, into a folder of plain files.

An upload is one of:

* a **zip** or a **tar** archive (plain, gzip, bz2 or xz) holding the bot file and, if
  it needs more, its other modules and a ``requirements.txt``;
* a **single Python file** (the bot itself, as text).

The bot file (the entry) is ``bot.py`` at the top, else the only ``.py`` file at the top;
an archive whose members all sit in one folder is read as if that folder were the top.
An archive with a ``hearts-bot.toml`` manifest names its own entry and kind (a native or
node bot, or Python): `arena.match.manifest` checks both.
Only regular files and folders are unpacked: no links, devices, absolute paths or ``..``;
at most `MAX_FILES` files and `MAX_BYTES` bytes unpacked. Every refusal is an
`UploadError` whose message is for the bot's owner.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> unpack(b"from hearts_bot import Bot\\n", folder)
'bot.py'
"""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
from pathlib import Path, PurePosixPath
from typing import Final

from arena.match.manifest import MANIFEST_NAME, ManifestError, check_entry, parse_manifest

MAX_FILES: Final = 2000
MAX_BYTES: Final = 64 * 1024 * 1024
ENTRY: Final = "bot.py"


class UploadError(ValueError):
    """An upload we cannot use; the message says why, for its owner."""


def _member_path(name: str) -> PurePosixPath:
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise UploadError(f"the archive holds {name!r}: only relative paths inside it")
    return path


def _write(dest: Path, path: PurePosixPath, data: bytes) -> None:
    target = dest.joinpath(*path.parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def _unzip(content: bytes, dest: Path) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
    except zipfile.BadZipFile as error:
        raise UploadError(f"not a readable zip archive: {error}") from None
    infos = archive.infolist()
    if len(infos) > MAX_FILES:
        raise UploadError(f"the archive holds {len(infos)} entries; at most {MAX_FILES}")
    total = 0
    with archive:
        for info in infos:
            path = _member_path(info.filename)
            mode = info.external_attr >> 16
            if info.is_dir():
                dest.joinpath(*path.parts).mkdir(parents=True, exist_ok=True)
                continue
            if stat.S_IFMT(mode) and not stat.S_ISREG(mode):
                raise UploadError(f"{info.filename!r} is not a regular file")
            total += info.file_size
            if total > MAX_BYTES:
                raise UploadError(f"the archive unpacks to over {MAX_BYTES >> 20} MiB")
            try:
                data = archive.read(info)
            except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as error:
                raise UploadError(f"cannot read {info.filename!r}: {error}") from None
            if len(data) != info.file_size:
                raise UploadError(f"{info.filename!r} is not the size the archive says")
            _write(dest, path, data)


def _untar(content: bytes, dest: Path) -> None:
    total = count = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(content), mode="r:*") as archive:
            for member in archive:
                count += 1
                if count > MAX_FILES:
                    raise UploadError(f"the archive holds over {MAX_FILES} entries")
                path = _member_path(member.name)
                if member.isdir():
                    dest.joinpath(*path.parts).mkdir(parents=True, exist_ok=True)
                    continue
                if not member.isfile():
                    raise UploadError(f"{member.name!r} is not a regular file")
                total += member.size
                if total > MAX_BYTES:
                    raise UploadError(f"the archive unpacks to over {MAX_BYTES >> 20} MiB")
                stream = archive.extractfile(member)
                if stream is None:
                    raise UploadError(f"cannot read {member.name!r}")
                _write(dest, path, stream.read(MAX_BYTES + 1))
    except (tarfile.TarError, OSError, EOFError) as error:
        raise UploadError(f"not a readable tar archive: {error}") from None


def _find_entry(dest: Path) -> str:
    top = [p for p in dest.iterdir() if not p.name.startswith(("__MACOSX", "."))]
    if len(top) == 1 and top[0].is_dir():
        # Everything sits in one folder: treat that folder as the top.
        for child in list(top[0].iterdir()):
            child.rename(dest / child.name)
        top[0].rmdir()
    if (dest / MANIFEST_NAME).is_file():
        return _manifest_entry(dest)
    if (dest / ENTRY).is_file():
        return ENTRY
    candidates = sorted(p.name for p in dest.glob("*.py") if p.is_file())
    if len(candidates) == 1:
        return candidates[0]
    found = ", ".join(candidates) or "none"
    raise UploadError(
        f"cannot tell which file is the bot: put it in {ENTRY} at the top of the archive "
        f"(.py files at the top: {found})"
    )


def _manifest_entry(dest: Path) -> str:
    """The entry the manifest names, checked against its kind."""
    try:
        manifest = parse_manifest((dest / MANIFEST_NAME).read_bytes())
        entry = dest / manifest.entry
        check_entry(manifest, entry.read_bytes() if entry.is_file() else None)
    except ManifestError as error:
        raise UploadError(str(error)) from None
    return manifest.entry


def unpack(content: bytes, dest: Path) -> str:
    """Unpack the upload `content` into the empty folder `dest`; the entry's name there.

    Raises UploadError for anything we cannot use.
    """
    dest.mkdir(parents=True, exist_ok=True)
    if len(content) > MAX_BYTES:
        raise UploadError(f"the upload is over {MAX_BYTES >> 20} MiB")
    if content[:4] == b"PK\x03\x04":
        _unzip(content, dest)
    elif _is_tar(content):
        _untar(content, dest)
    else:
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            raise UploadError(
                "the upload is neither a zip or tar archive nor a Python file (UTF-8 text)"
            ) from None
        if "\x00" in text:
            raise UploadError("the upload is not a Python file (it holds NUL bytes)")
        (dest / ENTRY).write_text(text)
        return ENTRY
    return _find_entry(dest)


def _is_tar(content: bytes) -> bool:
    if content[:2] in (b"\x1f\x8b", b"BZ") or content[:6] == b"\xfd7zXZ\x00":
        return True
    return len(content) > 262 and content[257:262] == b"ustar"
