"""`arena replay view`: the site's viewer as one self-contained page, found without
importing the site (no Flask), with the replay embedded so no string in it can break out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.match.viewer import ViewerAssetsError, asset_folder, render_page

ROOT = Path(__file__).resolve().parents[2]


def _replay() -> dict[str, Any]:
    return {
        "format": "hearts-arena-replay",
        "version": 1,
        "match_id": "m1",
        "rules": {"name": "standard"},
        "entrants": [{"index": 0, "name": "</script><script>alert(1)</script>"}],
        "games": [],
        "note": "a & b < c \u2028",
    }


def test_the_page_inlines_the_viewer_and_no_string_can_close_its_script():
    page = render_page(_replay())
    assert page.count("</script>") == 2  # the data and the viewer, nothing injected
    assert "</script><script>alert(1)" not in page
    assert '"use strict"' in page  # replay.js itself
    assert ".table-felt" in page  # arena.css itself
    data = page.split('<script type="application/json" id="replay-data">')[1].split("</script>")[0]
    assert json.loads(data) == _replay()


def test_the_assets_are_found_without_importing_flask_or_the_site():
    code = (
        "import sys\n"
        "from arena.match.viewer import asset_folder\n"
        "import arena.commands.replay\n"
        "asset_folder()\n"
        "assert 'flask' not in sys.modules, 'flask imported'\n"
        "assert 'web' not in sys.modules, 'web imported'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr


def test_a_folder_without_the_viewer_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        render_page(_replay(), folder=tmp_path)
    assert (asset_folder() / "static" / "js" / "replay.js").is_file()


def test_no_web_package_is_a_clear_error(monkeypatch):
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(ViewerAssetsError, match="install hearts-arena"):
        asset_folder()


def test_the_command_writes_the_page_and_refuses_what_is_not_a_replay(tmp_path):
    source = tmp_path / "match.json"
    source.write_text(json.dumps(_replay()))
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", "replay", "view", str(source), "--no-open"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    written = Path(done.stdout.strip().splitlines()[0])
    assert written == (tmp_path / "match.html").resolve()
    assert 'data-replay-inline="replay-data"' in written.read_text()
    (tmp_path / "bad.json").write_text("{}")
    refused = subprocess.run(
        [sys.executable, "-m", "arena.cli", "replay", "view", str(tmp_path / "bad.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert refused.returncode == 2
    assert "not a Hearts Arena replay" in refused.stderr
    assert "Traceback" not in refused.stderr
