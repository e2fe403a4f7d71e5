"""Environments of bots that are not Python: a native executable, or a Node.js program.

An upload with a ``hearts-bot.toml`` manifest (`arena.match.manifest`) of kind
``native`` or ``node`` gets a `KindEnvironment` instead of a Python `BotEnvironment`: a
read-only copy of the upload's regular files (``bot/``), and nothing else of ours. In
the sandbox it is mounted at ``/bot`` beside the image's ``/usr`` (for the C library,
libstdc++, and the libraries a dynamically linked bot may use: docs/languages.md); the
Python interpreter, the SDK runtime and any Python installed under ``/usr`` are not
there. A Node bot is run by the worker's ``node`` (found on PATH at build time; its
installation is mounted read-only too when it lives outside ``/usr``), with the npm
modules it vendored in its upload: no install step ever runs on the worker.

Started as ``/bot/<entry> --address unix:/run/bot/bot.sock`` (native) or
``<node> /bot/<entry> --address ...`` (node), which must print the readiness line.
"""

from __future__ import annotations

import dataclasses
import functools
import glob
import json
import os
import shutil
from pathlib import Path

from arena.match.manifest import Manifest

from .environment import (
    MANIFEST,
    BotEnvironment,
    _copy_upload,
    _is_within,
    _locked,
    _make_readable,
    platform_paths,
)
from .errors import EnvironmentBuildError

NODE_ENV = "HEARTS_ARENA_NODE"
"""The Node.js executable to run node bots with (default: ``node`` on PATH)."""
PYTHON_UNDER_USR = ("/usr/lib/python3*", "/usr/local/lib/python3*", "/usr/share/python3*")
"""Python installations under /usr that a bot of another kind does not get."""


@dataclasses.dataclass(frozen=True)
class KindEnvironment:
    """A built native or node bot version: its files and how to start it."""

    root: Path
    bot_dir: Path
    kind: str
    entry: str
    node: Path | None = None
    """The Node.js executable (node bots), resolved on the host."""

    def host_mounts(self) -> list[Path]:
        """Host folders the sandbox mirrors read-only (besides /usr): node's installation
        when it lives outside /usr, nothing for a native bot."""
        if self.node is None:
            return []
        prefix = self.node.parent.parent  # <prefix>/bin/node
        return [] if _is_within(prefix, Path("/usr")) else [prefix]

    def hidden_paths(self) -> list[Path]:
        """Folders under /usr (and node's prefix) covered by an empty tmpfs: the
        platform's (`platform_paths`) and every Python installation."""
        mounted = [Path("/usr"), *self.host_mounts()]
        python = [Path(path) for pattern in PYTHON_UNDER_USR for path in glob.glob(pattern)]
        found = {
            Path(os.path.realpath(path))
            for path in [*platform_paths(), *python]
            if any(_is_within(Path(os.path.realpath(path)), root) for root in mounted)
        }
        ordered = sorted(found)
        return [path for path in ordered if not any(p in path.parents for p in ordered)]

    def serve_argv(self, bot_dir: str, socket_path: str) -> list[str]:
        """The command that starts the bot in the sandbox (`bot_dir` is where its files are)."""
        address = ["--address", f"unix:{socket_path}"]
        if self.kind == "node":
            assert self.node is not None
            # The sandbox has no /etc/ssl: node would refuse to start without its file.
            entry = f"{bot_dir}/{self.entry}"
            return [str(self.node), "--openssl-config=/dev/null", entry, *address]
        return [f"{bot_dir}/{self.entry}", *address]

    @classmethod
    def load(cls, root: Path) -> KindEnvironment:
        """The environment built at `root`. Raises EnvironmentBuildError if none is."""
        try:
            manifest = json.loads((root / MANIFEST).read_text())
            node = manifest.get("node")
            return cls(
                root,
                root / "bot",
                manifest["kind"],
                manifest["entry"],
                Path(node) if node else None,
            )
        except (OSError, ValueError, KeyError) as error:
            raise EnvironmentBuildError(f"no complete bot environment at {root}: {error}") from None


AnyEnvironment = BotEnvironment | KindEnvironment


def load_environment(root: Path) -> AnyEnvironment:
    """The environment built at `root`, of whichever kind. Raises EnvironmentBuildError."""
    try:
        kind = json.loads((root / MANIFEST).read_text()).get("kind", "python")
    except (OSError, ValueError, AttributeError) as error:
        raise EnvironmentBuildError(f"no complete bot environment at {root}: {error}") from None
    if kind == "python":
        return BotEnvironment.load(root)
    return KindEnvironment.load(root)


@functools.cache
def find_node() -> Path:
    """The worker's Node.js (``$HEARTS_ARENA_NODE`` or ``node`` on PATH), resolved.

    Raises EnvironmentBuildError when there is none: this platform then runs no node bot.
    """
    found = shutil.which(os.environ.get(NODE_ENV) or "node")
    if found is None:
        raise EnvironmentBuildError(
            "this platform has no Node.js runtime, so it cannot run node bots "
            "(its operators install Debian's nodejs)"
        )
    return Path(os.path.realpath(found))


def build_kind_environment(upload: Path, destination: Path, manifest: Manifest) -> KindEnvironment:
    """Build (once) the environment of the unpacked `upload` of a native or node kind.

    Returns the existing environment if `destination` is complete already. Raises
    EnvironmentBuildError (for the bot's owner) when the entry is missing or no runtime
    for its kind is here.
    """
    if manifest.kind not in ("native", "node"):
        raise EnvironmentBuildError(f"a {manifest.kind} bot is not built here")
    source = upload / manifest.entry
    if source.is_symlink() or not source.is_file():
        raise EnvironmentBuildError(f"the upload has no entry file {manifest.entry}")
    node = find_node() if manifest.kind == "node" else None
    with _locked(destination.parent / f".{destination.name}.lock"):
        if (destination / MANIFEST).exists():
            return KindEnvironment.load(destination)
        if destination.exists():
            shutil.rmtree(destination)
        destination.mkdir(parents=True)
        env = KindEnvironment(destination, destination / "bot", manifest.kind, manifest.entry, node)
        skipped = _copy_upload(upload, env.bot_dir)
        if manifest.kind == "native":
            os.chmod(env.bot_dir / manifest.entry, 0o755)  # archives carry no modes here
        _make_readable(destination)
        (destination / MANIFEST).write_text(
            json.dumps(
                {
                    "kind": manifest.kind,
                    "entry": manifest.entry,
                    "node": str(node) if node else None,
                    "protocol": manifest.protocol,
                    "skipped": skipped,
                },
                indent=2,
            )
        )
        return env
