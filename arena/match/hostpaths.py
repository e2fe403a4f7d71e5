"""Host paths out of what a bot's owner reads: its output named as the sandbox names it.

In the sandbox a bot's files are at ``/bot``, but its venv, the SDK runtime and the base
interpreter are mounted read-only at the host's own paths, and an archive is unpacked
and its requirements installed in the worker's data folder. A traceback or a pip error
therefore names folders of the worker's machine (``/srv/arena/var/versions/<sha>/venv/…``,
``/srv/arena/var/tmp/upload-x1y2/upload/requirements.txt``). The owner learns nothing
from them, and the platform should not show its layout: `PathScrubber` rewrites each
known host folder to a short sandbox-style name (``/venv/…``, ``requirements.txt``).

>>> scrub = PathScrubber.of({"/srv/var/versions/ab/venv": "/venv", "/srv/var": "<data>"})
>>> scrub('File "/srv/var/versions/ab/venv/lib/x.py", line 3; /srv/var/other')
'File "/venv/lib/x.py", line 3; <data>/other'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import PurePath

UPLOAD_SCRATCH = re.compile(r"(?:/[^\s\"':]*)?/upload-[A-Za-z0-9_]+/upload/")
"""Where an upload is unpacked while its environment is built (`tempfile` names)."""
VERSION_FOLDER = re.compile(r"(?:/[^\s\"':]*)?/versions/[0-9a-f]{64}/(bot|venv)(?=[/\s\"':]|$)")
"""A built version's folders under any data folder (`<data>/versions/<sha256>/bot`)."""


@dataclasses.dataclass(frozen=True)
class PathScrubber:
    """Rewrites host folders to the names shown to a bot's owner (longest folder first)."""

    rules: tuple[tuple[re.Pattern[str], str], ...]

    @classmethod
    def of(cls, folders: Mapping[str | PurePath, str]) -> PathScrubber:
        """A scrubber for these (host folder → shown name) pairs, plus the upload scratch
        folders and version folders of any data folder. The root folder is ignored."""
        pairs = sorted(
            ((str(folder).rstrip("/"), name) for folder, name in folders.items()),
            key=lambda pair: -len(pair[0]),
        )
        rules = [(UPLOAD_SCRATCH, ""), (VERSION_FOLDER, r"/\1")]
        rules += [
            (re.compile(re.escape(folder) + r"(?=[/\s\"':]|$)"), name.replace("\\", r"\\"))
            for folder, name in pairs
            if folder
        ]
        return cls(tuple(rules))

    def __call__(self, text: str) -> str:
        """`text` with every known host folder replaced."""
        for pattern, name in self.rules:
            text = pattern.sub(name, text)
        return text
