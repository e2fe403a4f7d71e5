"""Uploaded bots: a single `.py` file, or a zip or tar holding a bot module, checked safely.

The one reader of an upload's bytes: the site checks an upload with it before storing it
(`inspect_upload`, `UPLOAD_LIMITS`), the workers unpack a stored one with it before
building its environment (`unpack`, `STORED_LIMITS`). Same forms, same refusals, one
`UploadError`; only the caps differ, and why is written at `STORED_LIMITS`.

What an upload may be (docs/api.md, "Bot uploads"):

- a Python file (`mybot.py`), unpacked as `bot.py`;
- a zip, or a tar (plain, gzip, bzip2 or xz), holding `bot.py` at its top level (or inside
  one top-level folder), other modules and data beside it, and an optional
  `requirements.txt` of plain requirement lines (no options, no URLs);
- a zip or a tar holding a `hearts-bot.toml` manifest (`arena.match.manifest`) beside a
  bot in another language: a native Linux x86-64 executable or a Node.js program
  (docs/languages.md). The manifest and its entry are checked; the rest is the sandbox's.

The checks run on the bytes in memory, before anything touches a disk: a size cap on the
upload, on each file and on the whole unpacked tree; a member count; a compression-ratio
limit and a bounded decompression (a member is read at most to its limit, whatever its
header claims); only regular files and folders (no symbolic or hard links, devices or
FIFOs); names that are relative, without `..`, backslashes or NUL, not too deep; no name
twice. Then the bot module must be UTF-8 Python that parses and defines a bot (a class
deriving from a `…Bot` class, or a module-level `bot`). Running it is the workers' job.

`extract` writes a checked upload into an empty folder, refusing to follow any link.
No Flask, no Celery: the site and the workers both import it (ARCHITECTURE.md).
"""

from __future__ import annotations

import ast
import bz2
import dataclasses
import io
import lzma
import os
import stat
import tarfile
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import Final

from packaging.requirements import InvalidRequirement, Requirement

from arena.match.manifest import MANIFEST_NAME, ManifestError, check_entry, parse_manifest

BOT_MODULE: Final = "bot.py"
REQUIREMENTS: Final = "requirements.txt"
MANIFEST_TOO_DEEP: Final = (
    f"{MANIFEST_NAME} nests arrays or tables too deeply to be read: it holds three strings, "
    "kind, entry and protocol, and an [env] table of strings (docs/languages.md)"
)
"""Why a manifest nested hundreds of levels deep is refused (the parser ran out of stack:
a 500 on the site and an error in the workers, where it is now the owner's message)."""


class UploadError(ValueError):
    """An upload we refuse; `reason` is one of too_large, unsafe, not_a_bot, bad_archive."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclasses.dataclass(frozen=True)
class Limits:
    """The caps an upload must stay within."""

    upload_bytes: int = 1024 * 1024
    unpacked_bytes: int = 8 * 1024 * 1024
    file_bytes: int = 4 * 1024 * 1024
    members: int = 256
    ratio: int = 100  # uncompressed / compressed, per member and overall
    depth: int = 8
    name_length: int = 200


DEFAULT_LIMITS: Final = Limits()
UPLOAD_LIMITS: Final = DEFAULT_LIMITS  # what the site accepts today

# A stored version was checked against the caps of the day it was uploaded; caps may
# tighten later, and a version that was accepted must still build and play. The workers
# therefore unpack with generous caps that still bound a hostile archive's cost (the
# same forms, links, names and ratio checks apply).
STORED_LIMITS: Final = Limits(
    upload_bytes=64 * 1024 * 1024,
    unpacked_bytes=64 * 1024 * 1024,
    file_bytes=64 * 1024 * 1024,
    members=2000,
)


@dataclasses.dataclass(frozen=True)
class BotPackage:
    """A checked upload: its kind, its files (path → bytes), and the bot module's path."""

    kind: str  # "file", "zip" or "tar"
    module: str
    files: dict[str, bytes] = dataclasses.field(repr=False)
    requirements: tuple[str, ...] = ()
    bot_kind: str = "python"  # the manifest's kind: "python", "native" or "node"

    @property
    def size(self) -> int:
        """Bytes once unpacked."""
        return sum(len(content) for content in self.files.values())


def _check_name(name: str, limits: Limits) -> str | None:
    """The normalised relative path of a member (None for the archive's root itself)."""
    if "\x00" in name or "\\" in name:
        raise UploadError("unsafe", f"the name {name!r} holds a backslash or NUL")
    if len(name) > limits.name_length:
        raise UploadError("unsafe", f"the name {name[:40]!r}… is too long")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise UploadError("unsafe", f"{name!r} is an absolute path")
    parts = [part for part in PurePosixPath(name).parts if part not in ("", ".")]
    if ".." in parts:
        raise UploadError("unsafe", f"{name!r} climbs out of the archive with '..'")
    if len(parts) > limits.depth:
        raise UploadError("unsafe", f"{name!r} is nested more than {limits.depth} folders deep")
    return "/".join(parts) or None


class _Budget:
    """Counts members and bytes against the limits as an archive is read."""

    def __init__(self, limits: Limits, compressed: int) -> None:
        self.limits = limits
        self.compressed = max(compressed, 1)
        self.members = 0
        self.total = 0

    def member(self) -> None:
        self.members += 1
        if self.members > self.limits.members:
            raise UploadError(
                "too_large", f"the archive has more than {self.limits.members} entries"
            )

    def add(self, name: str, size: int) -> None:
        if size > self.limits.file_bytes:
            raise UploadError(
                "too_large", f"{name} is larger than {self.limits.file_bytes // 1024} KiB"
            )
        self.total += size
        if self.total > self.limits.unpacked_bytes:
            raise UploadError(
                "too_large",
                f"the archive unpacks to more than {self.limits.unpacked_bytes // 1024} KiB",
            )
        if self.total > 1024 * 1024 and self.total > self.limits.ratio * self.compressed:
            raise UploadError(
                "too_large", f"the archive expands more than {self.limits.ratio} times (a bomb?)"
            )


def _read_zip(data: bytes, limits: Limits) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as error:
        raise UploadError("bad_archive", f"not a readable zip file: {error}") from None
    budget = _Budget(limits, len(data))
    infos = archive.infolist()
    if len(infos) > limits.members:
        raise UploadError("too_large", f"the archive has more than {limits.members} entries")
    files: dict[str, bytes] = {}
    for info in infos:
        budget.member()
        mode = info.external_attr >> 16
        kind = stat.S_IFMT(mode)
        if kind == stat.S_IFLNK:
            raise UploadError("unsafe", f"{info.filename!r} is a symbolic link")
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise UploadError("unsafe", f"{info.filename!r} is not a regular file or folder")
        if info.flag_bits & 0x1:
            raise UploadError("bad_archive", f"{info.filename!r} is encrypted")
        name = _check_name(info.filename, limits)
        if info.is_dir() or kind == stat.S_IFDIR or name is None:
            continue
        if info.file_size > limits.ratio * max(info.compress_size, 1) and info.file_size > 65536:
            raise UploadError("too_large", f"{name} expands more than {limits.ratio} times")
        budget.add(name, info.file_size)
        try:
            with archive.open(info) as member:
                content = member.read(limits.file_bytes + 1)
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError, EOFError) as error:
            raise UploadError("bad_archive", f"{name} cannot be read: {error}") from None
        if len(content) != info.file_size:
            raise UploadError("bad_archive", f"{name} is not the size its header says")
        _add(files, name, content)
    return files


def _decompress(data: bytes, limit: int) -> bytes:
    """A compressed tar's bytes, uncompressed, never more than `limit` (else too_large)."""
    decompressor: zlib._Decompress | bz2.BZ2Decompressor | lzma.LZMADecompressor
    if data[:2] == b"\x1f\x8b":
        decompressor = zlib.decompressobj(wbits=31)
    elif data[:3] == b"BZh":
        decompressor = bz2.BZ2Decompressor()
    elif data[:6] == b"\xfd7zXZ\x00":
        decompressor = lzma.LZMADecompressor()
    else:
        return data
    try:
        out = decompressor.decompress(data, limit + 1)
    except (zlib.error, OSError, EOFError, lzma.LZMAError, ValueError) as error:
        raise UploadError("bad_archive", f"the compressed data is corrupt: {error}") from None
    if len(out) > limit:
        raise UploadError("too_large", "the archive unpacks to more than the limit (a bomb?)")
    return out


def _read_tar(data: bytes, limits: Limits) -> dict[str, bytes]:
    overhead = (limits.members + 4) * 1536 + 10240  # headers, padding and end blocks
    raw = _decompress(data, limits.unpacked_bytes + overhead)
    budget = _Budget(limits, len(data))
    files: dict[str, bytes] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as archive:
            for info in archive:
                budget.member()
                if info.issym() or info.islnk():
                    raise UploadError("unsafe", f"{info.name!r} is a link")
                if not (info.isreg() or info.isdir()):
                    raise UploadError("unsafe", f"{info.name!r} is not a regular file or folder")
                name = _check_name(info.name, limits)
                if info.isdir() or name is None:
                    continue
                budget.add(name, info.size)
                member = archive.extractfile(info)
                content = b"" if member is None else member.read(limits.file_bytes + 1)
                if len(content) != info.size:
                    raise UploadError("bad_archive", f"{name} is cut short")
                _add(files, name, content)
    except (tarfile.TarError, OSError, EOFError) as error:
        raise UploadError("bad_archive", f"not a readable tar file: {error}") from None
    return files


def _add(files: dict[str, bytes], name: str, content: bytes) -> None:
    if name in files or any(other.startswith(name + "/") for other in files):
        raise UploadError("unsafe", f"{name} appears twice in the archive")
    if any(name.startswith(other + "/") for other in files):
        raise UploadError("unsafe", f"{name} is inside a file of the archive")
    files[name] = content


def _ignored(top: str) -> bool:
    """Top-level names archivers add that are not part of the bot (macOS, dotfiles)."""
    return top.startswith(("__MACOSX", "."))


def _strip_top_folder(files: dict[str, bytes]) -> dict[str, bytes]:
    """Files of an archive made from one folder, moved up out of it (as the workers do)."""
    if BOT_MODULE in files or MANIFEST_NAME in files or not files:
        return files
    kept = {name: content for name, content in files.items() if not _ignored(name.split("/")[0])}
    tops = {name.split("/", 1)[0] for name in kept}
    if len(tops) == 1 and kept and all("/" in name for name in kept):
        top = tops.pop() + "/"
        return {name.removeprefix(top): content for name, content in kept.items()}
    return files


def _entry(files: dict[str, bytes]) -> str:
    """The bot module: bot.py at the top, else the only .py file at the top."""
    if BOT_MODULE in files:
        return BOT_MODULE
    candidates = sorted(name for name in files if "/" not in name and name.endswith(".py"))
    if len(candidates) == 1:
        return candidates[0]
    found = ", ".join(candidates) or "none"
    raise UploadError(
        "not_a_bot",
        f"cannot tell which file is the bot: put it in {BOT_MODULE} at the top of the archive "
        f"(.py files at the top: {found})",
    )


def _defines_bot(tree: ast.Module, local_modules: set[str]) -> bool:
    def named_bot(node: ast.expr) -> bool:
        name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")
        return isinstance(name, str) and name.endswith("Bot")

    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(named_bot(base) for base in node.bases):
            return True
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "bot" for t in targets):
                return True
        if (
            isinstance(node, ast.ImportFrom)
            and (node.module or "").split(".")[0] in local_modules
            and any(alias.name.endswith("Bot") or alias.name == "bot" for alias in node.names)
        ):
            return True
    return False


def _check_module(name: str, source: bytes, files: dict[str, bytes]) -> None:
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError:
        raise UploadError("not_a_bot", f"{name} is not UTF-8 text") from None
    try:
        tree = ast.parse(text, filename=name)
    except SyntaxError as error:
        raise UploadError(
            "not_a_bot", f"{name} is not valid Python: {error.msg} (line {error.lineno})"
        ) from None
    except (ValueError, RecursionError, MemoryError):
        raise UploadError("not_a_bot", f"{name} is not valid Python") from None
    local = {n.split("/", 1)[0].removesuffix(".py") for n in files}
    if not _defines_bot(tree, local):
        raise UploadError(
            "not_a_bot",
            f"{name} defines no bot: subclass hearts_bot.Bot (or set a module-level `bot`)",
        )


def _requirements(content: bytes) -> tuple[str, ...]:
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        raise UploadError("not_a_bot", "requirements.txt is not UTF-8 text") from None
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-"):
            raise UploadError(
                "not_a_bot",
                f"requirements.txt line {number}: options such as {line.split()[0]!r} "
                "are not allowed",
            )
        try:
            requirement = Requirement(line)
        except InvalidRequirement as error:
            raise UploadError("not_a_bot", f"requirements.txt line {number}: {error}") from None
        if requirement.url:
            raise UploadError("not_a_bot", f"requirements.txt line {number}: URLs are not allowed")
        lines.append(str(requirement))
    return tuple(lines)


def archive_kind(data: bytes) -> str:
    """What stored upload bytes are: `zip`, `tar` or `file` (how the workers unpack them)."""
    if data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06":
        return "zip"
    if data[:2] == b"\x1f\x8b" or data[:3] == b"BZh" or data[:6] == b"\xfd7zXZ\x00":
        return "tar"
    if len(data) >= 262 and data[257:262] == b"ustar":
        return "tar"
    return "file"


def inspect_upload(filename: str, data: bytes, limits: Limits = DEFAULT_LIMITS) -> BotPackage:
    """Check an upload (see the module docstring) and return its files.

    Raises UploadError, whose `reason` says which check failed.
    """
    if len(data) > limits.upload_bytes:
        raise UploadError(
            "too_large", f"the upload is larger than {limits.upload_bytes // 1024} KiB"
        )
    if not data:
        raise UploadError("not_a_bot", "the upload is empty")
    kind = archive_kind(data)
    if kind == "file":
        if not filename.lower().endswith(".py"):
            raise UploadError(
                "not_a_bot", "upload a Python file (.py), a .zip, or a .tar, .tar.gz, .tgz"
            )
        files = {BOT_MODULE: data}
    else:
        files = _strip_top_folder(
            _read_zip(data, limits) if kind == "zip" else _read_tar(data, limits)
        )
    if MANIFEST_NAME in files:
        try:
            manifest = parse_manifest(files[MANIFEST_NAME])
            check_entry(manifest, files.get(manifest.entry))
        except ManifestError as error:
            raise UploadError("not_a_bot", str(error)) from None
        except RecursionError:  # tomllib reads nested arrays and tables by recursion
            raise UploadError("not_a_bot", MANIFEST_TOO_DEEP) from None
        if manifest.kind != "python":
            return BotPackage(kind, manifest.entry, files, (), manifest.kind)
        module = manifest.entry
    else:
        module = _entry(files)
    _check_module(module, files[module], files)
    requirements = _requirements(files[REQUIREMENTS]) if REQUIREMENTS in files else ()
    return BotPackage(kind, module, files, requirements)


def extract(data: bytes, destination: Path, limits: Limits = DEFAULT_LIMITS) -> BotPackage:
    """Check `data` (`inspect_upload`) and write its files into the empty folder `destination`.

    Files are created new (`O_EXCL`) and never through a link (`O_NOFOLLOW`), folders are
    made by us, and every path is confirmed inside `destination`. Raises UploadError, or
    FileExistsError when `destination` is not empty.
    """
    package = inspect_upload(BOT_MODULE, data, limits)
    root = destination.resolve()
    root.mkdir(parents=True, exist_ok=True)
    if any(root.iterdir()):
        raise FileExistsError(f"{root} is not empty")
    for name, content in package.files.items():
        target = root.joinpath(*name.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.parent.resolve().is_relative_to(root):
            raise UploadError("unsafe", f"{name} would land outside {root}")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        descriptor = os.open(target, flags, 0o644)
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
    return package


def unpack(content: bytes, destination: Path, limits: Limits = STORED_LIMITS) -> str:
    """Unpack a stored upload into the new folder `destination`; the bot's entry there.

    The workers' side of `extract`: the entry is the manifest's, `bot.py`, or the only
    module at the top. Raises UploadError with a message for the bot's owner.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp()) / "bot"
    >>> unpack(b"from hearts_bot import Bot\\nclass MyBot(Bot): pass\\n", folder)
    'bot.py'
    """
    return extract(content, destination, limits).module
