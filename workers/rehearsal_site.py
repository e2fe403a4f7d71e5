"""The rehearsal's site: `arena web` started as a process of its own, and the entrants'
uploads to its API, made as `arena bot upload` makes them (a real HTTP multipart POST,
so the site's own checks judge every upload)."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .rehearsal_errors import RehearsalError


def start_site(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    """`arena web` on 127.0.0.1:`port` in its own session, its output appended to `log`."""
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "arena.commands.platform", "web", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )


def site_up(base: str) -> bool:
    """Whether the site answers (any HTTP status: it serves)."""
    try:
        with urllib.request.urlopen(f"{base}/api/v1/me", timeout=5):
            return True
    except urllib.error.HTTPError:
        return True
    except (urllib.error.URLError, OSError):
        return False


def upload(base: str, token: str, name: str, archive: bytes) -> dict[str, Any]:
    """POST one upload to the site's API as `arena bot upload` does; its JSON answer.
    Raises RehearsalError when the site refuses it."""
    boundary = "rehearsal-" + secrets.token_hex(12)
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{name}.tar.gz"\r\nContent-Type: application/octet-stream\r\n\r\n'
        ).encode()
        + archive
        + f"\r\n--{boundary}--\r\n".encode()
    )
    request = urllib.request.Request(
        f"{base}/api/v1/bots/{name}/versions",
        data=body,
        method="POST",
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Accept": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            data: dict[str, Any] = json.loads(answer.read())
    except urllib.error.HTTPError as error:
        text = error.read()[:500].decode(errors="replace")
        raise RehearsalError(f"the site refused {name}'s upload: {error.code} {text}") from None
    return data
