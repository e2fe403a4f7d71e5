"""The committed stubs match proto/ (scripts/gen_protos.sh --check), the .proto files pass
buf lint, and the check really fails on drift."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "gen_protos.sh"
PINNED = {"grpcio-tools": "1.85.1", "mypy-protobuf": "5.1.0"}


def _tools_missing() -> str | None:
    for name, version in PINNED.items():
        try:
            found = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return f"{name} is not installed (pip install -e './sdk[dev]')"
        if found != version:
            return f"{name} {found} is installed, the script pins {version}"
    if shutil.which("buf", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"):
        return None
    return "buf is not installed (pip install buf-bin)"


pytestmark = pytest.mark.skipif(_tools_missing() is not None, reason=str(_tools_missing()))


def check(root: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHON=sys.executable)
    return subprocess.run(
        ["bash", str(root / "scripts" / "gen_protos.sh"), "--check"],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        check=False,
    )


@pytest.mark.timeout(300)
def test_the_committed_stubs_match_the_proto_and_the_lint_is_clean():
    done = check(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "stubs up to date" in done.stdout


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The parts of the repository the script reads, copied so the test may change them."""
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    shutil.copytree(ROOT / "scripts", tmp_path / "scripts")
    shutil.copytree(
        ROOT / "sdk" / "src" / "hearts_bot" / "proto",
        tmp_path / "sdk" / "src" / "hearts_bot" / "proto",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return tmp_path


@pytest.mark.timeout(300)
def test_a_changed_proto_without_regenerating_is_drift(copy: Path):
    bot = copy / "proto" / "hearts" / "v1" / "bot.proto"
    bot.write_text(
        bot.read_text().replace(
            "  string sdk_version = 2;\n",
            "  string sdk_version = 2;\n  // The bot's author.\n  string author = 3;\n",
        )
    )
    done = check(copy)
    assert done.returncode == 1
    assert "drift" in done.stderr


@pytest.mark.timeout(300)
def test_an_undocumented_field_or_a_bad_enum_fails_the_lint(copy: Path):
    rules = copy / "proto" / "hearts" / "v1" / "rules.proto"
    rules.write_text(
        rules.read_text()
        .replace("  // Cards left undealt in the kitty (0 for none).\n", "")
        .replace("OPENING_UNSPECIFIED = 0", "OPENING_NONE = 0")
    )
    done = check(copy)
    assert done.returncode == 1
    assert 'Field "kitty_size" should have a non-empty comment' in done.stdout + done.stderr
    assert 'should be suffixed with "_UNSPECIFIED"' in done.stdout + done.stderr


@pytest.mark.timeout(300)
def test_removing_a_published_field_is_a_breaking_change(copy: Path, tmp_path: Path):
    published = tmp_path / "published"
    shutil.copytree(copy / "proto", published)
    game = copy / "proto" / "hearts" / "v1" / "game.proto"
    game.write_text(
        game.read_text().replace(
            "  // Whether the lead restriction of rules.lead_rule has been lifted this hand.\n"
            "  bool broken = 12;\n",
            "",
        )
    )
    env = dict(os.environ, PYTHON=sys.executable)
    script = str(copy / "scripts" / "gen_protos.sh")
    broken = subprocess.run(
        ["bash", script, "--breaking", str(published)],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        check=False,
        cwd=copy,
    )
    assert broken.returncode != 0
    assert 'Previously present field "12" with name "broken"' in broken.stdout + broken.stderr
    unchanged = subprocess.run(
        ["bash", str(ROOT / "scripts" / "gen_protos.sh"), "--breaking", str(ROOT / "proto")],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        check=False,
    )
    assert unchanged.returncode == 0, unchanged.stdout + unchanged.stderr
