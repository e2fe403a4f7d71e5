"""The upload manifest, ``hearts-bot.toml``: which kind of bot an archive holds and how to
start it (docs/languages.md).

A Python upload needs no manifest (``bot.py`` is found as it always was). A bot in any
other language says what it is:

    kind = "native"        # "native" (a Linux x86-64 executable), "node" or "python"
    entry = "bot"          # the file to run, relative to the archive's top
    protocol = "hearts.v1" # the protocol package it serves

    [env]                  # optional: environment variables the bot is started with
    SEARCH_DEPTH = "3"

Both the site (refusing a bad upload with a 4xx) and the workers (rejecting a version)
read it with `parse_manifest` and check the entry with `check_entry`, so an owner gets
the same message from either. The ``[env]`` table holds the bot's own settings, literal
strings written in the manifest (never read from anywhere else, so nothing of the
platform's environment can reach a bot through it); `check_env` bounds it and refuses
the names the loader, the shell, the runtimes and the platform read (`RESERVED_NAMES`,
`RESERVED_PREFIXES`). `manifest_environ` reads it from a bot's folder (the sandbox and
the local runs pass it to the bot). Stdlib only.

>>> parse_manifest(b'kind = "node"\\nentry = "dist/bot.js"\\nprotocol = "hearts.v1"\\n')
Manifest(kind='node', entry='dist/bot.js', protocol='hearts.v1', env=())
>>> parse_manifest(b'kind = "java"\\nentry = "bot.jar"\\nprotocol = "hearts.v1"\\n')
Traceback (most recent call last):
...
arena.match.manifest.ManifestError: hearts-bot.toml: kind 'java' is not one of native, node, python
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path, PurePosixPath
from typing import Final

MANIFEST_NAME: Final = "hearts-bot.toml"
KINDS: Final = ("native", "node", "python")
PROTOCOLS: Final = ("hearts.v1",)
NODE_SUFFIXES: Final = (".js", ".cjs", ".mjs")
ELF_MAGIC: Final = b"\x7fELF"
_ELFCLASS64: Final = 2
_ELFDATA2LSB: Final = 1
_EM_X86_64: Final = 62
_ET_EXEC, _ET_DYN = 2, 3
_LINUX_ABIS: Final = {0: "System V", 3: "GNU/Linux"}  # EI_OSABI values Linux runs
_OTHER_ABIS: Final = {
    1: "HP-UX",
    2: "NetBSD",
    6: "Solaris",
    9: "FreeBSD",
    12: "OpenBSD",
    255: "standalone",
}
MANIFEST_MAX_BYTES: Final = 4096
ENV_MAX_VARIABLES: Final = 32
ENV_MAX_NAME: Final = 64
ENV_MAX_VALUE: Final = 1024
ENV_NAME: Final = re.compile(r"[A-Z_][A-Z0-9_]*")
RESERVED_NAMES: Final = frozenset(
    {
        # set by the platform, or the shell's and the system's
        "PATH", "HOME", "PWD", "OLDPWD", "SHELL", "USER", "LOGNAME", "HOSTNAME", "TMPDIR",
        "IFS", "ENV", "BASH_ENV", "CDPATH", "LANG", "LANGUAGE",
        # read by the C library's loader and resolver
        "GCONV_PATH", "LOCPATH", "NLSPATH", "HOSTALIASES", "LOCALDOMAIN", "RES_OPTIONS",
        "TZDIR",
    }
)  # fmt: skip
"""Variable names a manifest may not set: the platform sets them (``PWD``, ``HOME``
locally), or the shell, the loader or the resolver read them."""
RESERVED_PREFIXES: Final = (
    "LD_", "MALLOC_", "GLIBC_", "LC_",  # the loader, the allocator, the locale (C.UTF-8)
    "PYTHON", "NODE_", "NPM_", "GRPC_", "SSL_", "OPENSSL_",  # the runtimes and their libraries
    "HEARTS_", "ARENA_",  # the platform's own
)  # fmt: skip
"""Prefixes of the names a manifest may not set: they change how the runtime under the bot
behaves (and a warm start's runtime is loaded before the bot's variables are set)."""


class ManifestError(ValueError):
    """A manifest or entry we cannot use; the message names the field and says why."""


@dataclasses.dataclass(frozen=True)
class Manifest:
    """A parsed ``hearts-bot.toml``."""

    kind: str
    entry: str
    protocol: str
    env: tuple[tuple[str, str], ...] = ()
    """The ``[env]`` table's variables, in the manifest's order (`check_env`)."""


def parse_manifest(content: bytes) -> Manifest:
    """The manifest in `content`. Raises ManifestError naming what is wrong."""
    if len(content) > MANIFEST_MAX_BYTES:
        raise ManifestError(f"{MANIFEST_NAME} is larger than {MANIFEST_MAX_BYTES} bytes")
    try:
        data = tomllib.loads(content.decode("utf-8"))
    except UnicodeDecodeError:
        raise ManifestError(f"{MANIFEST_NAME} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ManifestError(f"{MANIFEST_NAME} is not valid TOML: {error}") from None
    unknown = sorted(set(data) - {"kind", "entry", "protocol", "env"})
    if unknown:
        raise ManifestError(
            f"{MANIFEST_NAME}: unknown key {unknown[0]!r} (the keys are kind, entry, protocol "
            "and the [env] table)"
        )
    env = check_env(data.get("env", {}))
    for key in ("kind", "entry", "protocol"):
        if key not in data:
            raise ManifestError(f"{MANIFEST_NAME}: {key} is missing")
        if not isinstance(data[key], str):
            raise ManifestError(f"{MANIFEST_NAME}: {key} must be a string")
    kind, entry, protocol = data["kind"], data["entry"], data["protocol"]
    if kind not in KINDS:
        raise ManifestError(f"{MANIFEST_NAME}: kind {kind!r} is not one of {', '.join(KINDS)}")
    if protocol not in PROTOCOLS:
        raise ManifestError(
            f"{MANIFEST_NAME}: protocol {protocol!r} is not served here "
            f"(this platform speaks {', '.join(PROTOCOLS)})"
        )
    path = PurePosixPath(entry)
    if not entry or path.is_absolute() or ".." in path.parts or "\\" in entry or "\x00" in entry:
        raise ManifestError(f"{MANIFEST_NAME}: entry {entry!r} must be a path inside the archive")
    normal = "/".join(part for part in path.parts if part != ".")
    if kind == "node" and not normal.endswith(NODE_SUFFIXES):
        raise ManifestError(
            f"{MANIFEST_NAME}: entry {entry!r} of a node bot must be JavaScript "
            f"({', '.join(NODE_SUFFIXES)}): compile TypeScript to JavaScript first"
        )
    if kind == "python" and not normal.endswith(".py"):
        raise ManifestError(f"{MANIFEST_NAME}: entry {entry!r} of a python bot must be a .py file")
    return Manifest(kind, normal, protocol, env)


def check_env(table: object) -> tuple[tuple[str, str], ...]:
    """The ``[env]`` table's variables; ManifestError names the first one refused.

    >>> check_env({"SEARCH_DEPTH": "3", "MODE": "careful"})
    (('SEARCH_DEPTH', '3'), ('MODE', 'careful'))
    >>> check_env({"LD_PRELOAD": "/bot/hook.so"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    arena.match.manifest.ManifestError: hearts-bot.toml: [env] may not set LD_PRELOAD: ...
    """
    where = f"{MANIFEST_NAME}: [env]"
    if not isinstance(table, dict):
        raise ManifestError(f'{where} must be a table of NAME = "value" lines')
    if len(table) > ENV_MAX_VARIABLES:
        raise ManifestError(f"{where} sets {len(table)} variables (at most {ENV_MAX_VARIABLES})")
    variables = []
    for name, value in table.items():
        if len(name) > ENV_MAX_NAME or not ENV_NAME.fullmatch(name):
            raise ManifestError(
                f"{where}: {name[:ENV_MAX_NAME]!r} is not a variable name (capitals, digits and "
                f"_, not starting with a digit, at most {ENV_MAX_NAME} characters)"
            )
        if name in RESERVED_NAMES:
            raise ManifestError(
                f"{where} may not set {name}: the platform, the shell or the loader sets or "
                "reads it"
            )
        prefix = next((p for p in RESERVED_PREFIXES if name.startswith(p)), None)
        if prefix is not None:
            raise ManifestError(
                f"{where} may not set {name}: names starting {prefix} are the loader's, the "
                "runtimes' or the platform's"
            )
        if not isinstance(value, str):
            raise ManifestError(f'{where}: {name} must be a string (quote it: {name} = "…")')
        if len(value) > ENV_MAX_VALUE:
            raise ManifestError(
                f"{where}: {name} is {len(value)} characters long (at most {ENV_MAX_VALUE})"
            )
        if "\x00" in value:
            raise ManifestError(f"{where}: {name} holds a NUL character")
        variables.append((name, value))
    return tuple(variables)


def manifest_environ(folder: Path) -> dict[str, str]:
    """The ``[env]`` variables of the manifest in `folder` ({} without one): what a bot
    started from that folder gets besides the platform's own. Raises ManifestError for a
    manifest that cannot be used (as an upload of it would be refused)."""
    path = folder / MANIFEST_NAME
    if not path.is_file():
        return {}
    try:
        return dict(parse_manifest(path.read_bytes()).env)
    except RecursionError:  # tomllib reads nested tables by recursion
        raise ManifestError(f"{MANIFEST_NAME} nests tables too deeply to be read") from None


def check_entry(manifest: Manifest, content: bytes | None) -> None:
    """Check the entry file's bytes (None: not in the archive) against its kind.

    A native entry must be an ELF executable for Linux x86-64 (64-bit, little-endian, OS
    ABI System V or GNU/Linux, machine x86-64, an executable or position-independent
    executable). Raises ManifestError.

    >>> check_entry(Manifest("native", "bot", "hearts.v1"), b"#!/bin/sh\\n")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    arena.match.manifest.ManifestError: bot is not a Linux executable (no ELF header): ...
    """
    if content is None:
        raise ManifestError(f"the archive has no {manifest.entry}, the entry {MANIFEST_NAME} names")
    if manifest.kind != "native":
        return
    if content[:4] != ELF_MAGIC or len(content) < 20:
        raise ManifestError(
            f"{manifest.entry} is not a Linux executable (no ELF header): a native bot is a "
            "compiled x86-64 program (scripts need their interpreter: not offered)"
        )
    if content[4] != _ELFCLASS64 or content[5] != _ELFDATA2LSB:
        raise ManifestError(f"{manifest.entry} is not a 64-bit little-endian ELF executable")
    if content[7] not in _LINUX_ABIS:
        system = _OTHER_ABIS.get(content[7], "not Linux")
        raise ManifestError(
            f"{manifest.entry} is built for OS ABI {content[7]} ({system}), not Linux "
            "(System V 0 or GNU/Linux 3)"
        )
    kind = int.from_bytes(content[16:18], "little")
    machine = int.from_bytes(content[18:20], "little")
    if machine != _EM_X86_64:
        raise ManifestError(f"{manifest.entry} is built for ELF machine {machine}, not x86-64 (62)")
    if kind not in (_ET_EXEC, _ET_DYN):
        raise ManifestError(f"{manifest.entry} is an ELF object, not an executable")
