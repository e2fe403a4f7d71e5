"""A replay as one self-contained HTML page, drawn by the site's own replay viewer.

`arena replay view` writes this page: the site's stylesheet and `replay.js` inlined, the
replay embedded as JSON, so it opens from disk (file://) with no server, no network and
no port to free afterwards, and it can be mailed or attached to a bug report as it is.
(A small local server was the other choice; it needs a process to stop, and a file does
everything a reader of one replay needs.)

The viewer's files belong to the `web` package, which this module must not import: importing
`web` runs its `__init__`, which imports Flask (import-linter forbids it here, and a light
install need not have it). `importlib.util.find_spec("web")` locates the package's folder
without executing it, and the files are read from there.
"""

from __future__ import annotations

import html
import importlib.util
import json
from pathlib import Path
from typing import Any, Final

from .replay_view import readable
from .sentences import with_words

STYLESHEET: Final = Path("static/css/arena.css")
SCRIPT: Final = Path("static/js/replay.js")


class ViewerAssetsError(LookupError):
    """The site's viewer files (web/static) cannot be found in this installation."""


def asset_folder() -> Path:
    """The `web` package's folder, found without importing it.

    Raises ViewerAssetsError when there is no `web` package with the viewer's files.
    """
    spec = importlib.util.find_spec("web")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        folder = Path(location)
        if (folder / SCRIPT).is_file() and (folder / STYLESHEET).is_file():
            return folder
    raise ViewerAssetsError(
        "the replay viewer's files (web/static/js/replay.js, web/static/css/arena.css) "
        "are not installed: install hearts-arena with its web package"
    )


def _script_safe(text: str) -> str:
    """`text` made safe inside a <script> or <style> element (no closing tag in it)."""
    return text.replace("</", "<\\/")


def _json_for_script(document: dict[str, Any]) -> str:
    """JSON that cannot end its <script> element early, whatever strings it holds.

    >>> _json_for_script({"note": "</script><b>"})
    '{"note":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e"}'
    """
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    for raw, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


def _title(document: dict[str, Any]) -> str:
    entrants = document.get("entrants") or []
    names = " · ".join(str(e.get("name", "?")) for e in entrants if isinstance(e, dict))
    rules = document.get("rules") or {}
    name = rules.get("name", "") if isinstance(rules, dict) else ""
    return f"Replay: {names}" + (f" ({name})" if name else "")


def render_page(document: dict[str, Any], folder: Path | None = None) -> str:
    """The HTML page that shows `document` (a replay of either version) in the site's viewer.

    Raises ViewerAssetsError when the viewer's files cannot be found, and
    arena.match.replay.ReplayError for a v2 document that does not re-play.
    """
    # The viewer draws v1's layout (a v2 one is re-played) and each decision's sentence
    # as the server says it (`sentences.with_words`).
    document = with_words(readable(document))
    folder = folder or asset_folder()
    css = (folder / STYLESHEET).read_text(encoding="utf-8")
    script = (folder / SCRIPT).read_text(encoding="utf-8")
    seats = [
        {"seat": i, "label": str(e.get("name", f"entrant {i}"))}
        for i, e in enumerate(document.get("entrants") or [])
        if isinstance(e, dict)
    ]
    title = html.escape(_title(document))
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{_script_safe(css)}
</style>
</head>
<body>
<main id="main">
<h1>{title} <small>match {html.escape(str(document.get("match_id", "")))}</small></h1>
<section class="panel viewer-panel">
<h2 id="viewer-title">Replay</h2>
<div id="viewer" class="viewer" data-replay-inline="replay-data"
 data-seats="{html.escape(json.dumps(seats), quote=True)}" aria-labelledby="viewer-title">
<p class="hint">The viewer needs JavaScript.</p>
</div>
</section>
<p class="hint">Written by <code>arena replay view</code> (docs/replay.md).</p>
</main>
<script type="application/json" id="replay-data">{_json_for_script(document)}</script>
<script>
{_script_safe(script)}
</script>
</body>
</html>
"""


def write_page(document: dict[str, Any], out: Path) -> Path:
    """Write the viewer page of `document` to `out`; return its absolute path.

    Raises ViewerAssetsError (no viewer files) and OSError (cannot write `out`).
    """
    out.write_text(render_page(document), encoding="utf-8")
    return out.resolve()
