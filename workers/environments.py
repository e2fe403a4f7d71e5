"""A bot version's sandbox environment on this machine, built from its stored archive.

Validation builds it first; any other worker (another machine, or a data folder that was
emptied) builds it again from the archive in the database when it first needs it. Kept
under ``<data dir>/versions/<archive sha256>``: content-addressed, like the archive.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path, PurePath

from arena.match.hostpaths import PathScrubber
from arena.match.manifest import MANIFEST_NAME, parse_manifest
from arena.uploads import unpack
from workers.sandbox import EnvironmentBuildError, build_environment
from workers.sandbox.kinds import (
    AnyEnvironment,
    KindEnvironment,
    build_kind_environment,
    load_environment,
)

from .config import Settings


def version_environment(
    settings: Settings, sha256: str, content: Callable[[], bytes]
) -> AnyEnvironment:
    """The environment of the archive `sha256`, built from `content()` if not here yet.

    Raises UploadError (the archive cannot be used) or EnvironmentBuildError (its
    requirements cannot be installed), both with a message for the bot's owner.
    """
    root = settings.versions_dir / sha256
    try:
        return load_environment(root)
    except EnvironmentBuildError:
        pass
    scratch = settings.data_dir.absolute() / "tmp"
    scratch.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="upload-", dir=scratch) as folder:
        upload = Path(folder) / "upload"
        entry = unpack(content(), upload)
        if (upload / MANIFEST_NAME).is_file():  # checked by unpack
            manifest = parse_manifest((upload / MANIFEST_NAME).read_bytes())
            if manifest.kind != "python":
                return build_kind_environment(upload, root, manifest)
        return build_environment(upload, root, runtime_root=settings.runtime_dir, entry=entry)


def host_paths(settings: Settings, env: AnyEnvironment | None = None) -> PathScrubber:
    """What hides this worker's folders from a bot's owner (`arena.match.hostpaths`):
    the environment's folders by their sandbox names, the data folder as ``<data>``."""
    folders: dict[str | PurePath, str] = {
        settings.runtime_dir: "/runtime",
        settings.data_dir.absolute(): "<data>",
    }
    if isinstance(env, KindEnvironment):
        folders.update({env.bot_dir: "/bot", env.root: "/env"})
    elif env is not None:
        folders.update(
            {
                env.bot_dir: "/bot",
                env.venv: "/venv",
                env.runtime: "/runtime",
                env.root: "/env",
                env.interpreter_prefix: "/python",
            }
        )
    return PathScrubber.of(folders)
