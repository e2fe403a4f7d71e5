"""The starter kits, end to end (docs/languages.md): each is built from source once per
run, passes the conformance check (`hearts-bot check --command`), is uploaded through the
API to a test platform (the site on a test database, the workers' tasks in this
process), validated in the sandbox, and plays a sandboxed match against a Python bot and
a house bot; the replay verifies. Its stubs match proto/ (scripts/gen_kit_stubs.sh).
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from arena.match import replay as replay_io
from arena.match import replay_view
from arena.match.replay_v2 import ReplayV2, verify_v2
from arena.match.verify import verify
from arena.store.accounts import create_user, issue_token
from arena.store.bots import ensure_house_bots
from arena.store.database import write_transaction
from arena.store.models import Match, MatchStatus, Replay
from tests.web.conftest import make_app
from tests.workers import bots
from tests.workers.conftest import sandbox_or_skip
from web.database import dispose
from workers import matches as match_tasks
from workers import validation
from workers.config import Settings

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[2]
KITS = ROOT / "sdk" / "starters"
BIN = Path(sys.executable).parent
UPLOADS = {  # what each kit's upload holds (its README's pack command)
    "cpp": ["hearts-bot.toml", "bot"],
    "typescript": ["hearts-bot.toml", "dist/bot.js", "proto"],
}
COMMANDS = {"cpp": "./bot", "typescript": "node dist/bot.js"}


def _missing(tool_hint: str) -> None:
    """Skip where the kit's tools are not installed, except under CI (.ci/run installs them)."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must provide {tool_hint} (see .ci/run)")
    pytest.skip(f"{tool_hint} is not installed here")


def _run(command: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="session")
def built_kits() -> dict[str, Path]:
    """Both kits built from source, once per run (about a minute for the C++ one)."""
    if shutil.which("make") is None or shutil.which("pkg-config") is None:
        _missing("make and pkg-config")
    if _run(["pkg-config", "--exists", "grpc++", "protobuf"], ROOT).returncode != 0:
        _missing("Debian's libgrpc++-dev")
    if shutil.which("npm") is None or shutil.which("node") is None:
        _missing("Node.js and npm")
    typescript = KITS / "typescript"
    if not (typescript / "node_modules" / "@grpc" / "grpc-js").is_dir():
        installed = _run(["npm", "ci", "--no-audit", "--no-fund"], typescript)
        assert installed.returncode == 0, installed.stdout + installed.stderr
    cpp = _run(["make", "bot"], KITS / "cpp")
    assert cpp.returncode == 0, cpp.stdout + cpp.stderr
    built = _run(["npm", "run", "build"], typescript)
    assert built.returncode == 0, built.stdout + built.stderr
    return {"cpp": KITS / "cpp", "typescript": typescript}


def pack(kit: Path, names: list[str]) -> bytes:
    """The kit's upload: a .tar.gz of `names` (as the README's pack command makes it)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name in names:
            archive.add(kit / name, arcname=name)
    return buffer.getvalue()


def test_the_kits_stubs_match_the_proto_files(built_kits: dict[str, Path]) -> None:
    result = _run(["bash", str(ROOT / "scripts" / "gen_kit_stubs.sh"), "--check"], ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "up to date" in result.stdout


def test_stub_drift_is_caught(built_kits: dict[str, Path], tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    for part in ("proto", "scripts"):
        shutil.copytree(ROOT / part, copy / part)
    shutil.copytree(KITS, copy / "sdk" / "starters", symlinks=True)
    proto = copy / "proto" / "hearts" / "v1" / "bot.proto"
    proto.write_text(proto.read_text().replace("string note = 15;", "string remark = 15;"))
    result = _run(["bash", str(copy / "scripts" / "gen_kit_stubs.sh"), "--check"], copy)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "drift" in result.stderr


@pytest.mark.parametrize("kit", ["cpp", "typescript"])
def test_the_kit_passes_the_conformance_check(built_kits: dict[str, Path], kit: str) -> None:
    result = _run(["hearts-bot", "check", "--command", COMMANDS[kit]], built_kits[kit])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "passed" in result.stdout
    assert "malformed and out-of-order requests refused" in result.stdout
    # 002's extra cards: the kit lists the rule in MatchStartAnswer.reads and plays a first
    # trick of more cards than players (an SDK that does not list it is kept out).
    extra = ["hearts-bot", "check", "--command", COMMANDS[kit], "--rules", "extra_cards"]
    result = _run(extra, built_kits[kit])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "passed" in result.stdout


def _api(client: Any, method: str, path: str, token: str, **kwargs: Any) -> Any:
    response = getattr(client, method)(path, headers={"Authorization": f"Bearer {token}"}, **kwargs)
    return response


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("kit", ["cpp", "typescript"])
def test_the_kit_is_uploaded_validated_and_plays_a_sandboxed_match(
    built_kits: dict[str, Path],
    kit: str,
    settings: Settings,
    sessions: sessionmaker[Session],
) -> None:
    sandbox_or_skip()
    with sessions() as session, write_transaction(session):
        ensure_house_bots(session, per_kind=1)
        contestant = create_user(session, "polyglot", None)
        _row, token = issue_token(session, contestant, "ci")
        rival = create_user(session, "pythonista", None)
        _row, rival_token = issue_token(session, rival, "ci")
    app = make_app(settings.database_url)
    try:
        client = app.test_client()
        bad = _api(
            client,
            "post",
            "/api/v1/bots/broken/versions",
            token,
            data={"file": (io.BytesIO(pack_bad_manifest()), "broken.tar.gz")},
            content_type="multipart/form-data",
        )
        assert bad.status_code == 422, bad.get_json()
        assert "kind 'cobol'" in bad.get_json()["error"]["message"]

        uploaded = _api(
            client,
            "post",
            f"/api/v1/bots/{kit}-bot/versions",
            token,
            data={"file": (io.BytesIO(pack(built_kits[kit], UPLOADS[kit])), "bot.tar.gz")},
            content_type="multipart/form-data",
        )
        assert uploaded.status_code == 201, uploaded.get_json()
        python = _api(
            client,
            "post",
            "/api/v1/bots/plain/versions",
            rival_token,
            data={"file": (io.BytesIO(bots.zipped({"bot.py": bots.FIRST_LEGAL})), "p.zip")},
            content_type="multipart/form-data",
        )
        assert python.status_code == 201, python.get_json()
        for version in (uploaded.get_json(), python.get_json()):
            result = validation.execute_validation(version["id"])
            assert result.status == "ready", result

        challenge = _api(
            client,
            "post",
            "/api/v1/challenges",
            token,
            json={
                "version": uploaded.get_json()["id"],
                "opponents": ["pythonista/plain", "house/heuristic-1", "house/random-1"],
                "hands": 2,
            },
        )
        assert challenge.status_code == 201, challenge.get_json()
        match_id = challenge.get_json()["id"]
    finally:
        dispose(app)

    summary = match_tasks.execute_match(match_id)
    assert (summary.action, summary.status) == ("recorded", "done"), summary
    with sessions() as session:
        match = session.get(Match, match_id)
        assert match is not None and match.status is MatchStatus.DONE
        content = session.scalar(select(Replay.content).where(Replay.match_id == match_id))
    assert content is not None
    replay = replay_io.loads(content, (2,))  # the runner writes replay v2
    assert verify_v2(ReplayV2.from_dict(replay)).hands == 2
    assert verify(replay_view.readable(replay)).hands == 2
    assert replay["faults"] == [], replay["faults"]


def pack_bad_manifest() -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        data = b'kind = "cobol"\nentry = "bot"\nprotocol = "hearts.v1"\n'
        info = tarfile.TarInfo("hearts-bot.toml")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()
