"""A small `arena bench rehearsal`, end to end: the three kits built, eight entrants uploaded
over HTTP to the real site, validated and played by real worker processes in the sandbox,
one of them crashing at every play from a match's third hand (so faults are certain),
one uploading a second version half way; the season finished, its top four playing a
final (a round robin of duplicate sets), and the report's invariants checked (nothing
lost, faults counted by kind and entrant, tau against the known order)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from arena.benchmarks.rehearsal import kendall_tau, plan_entrants, true_order
from tests.workers.conftest import sandbox_or_skip
from workers import rehearsal_entrants
from workers.embedded_broker import EmbeddedBrokerError, server_binary
from workers.metrics import multiprocess_registry
from workers.rehearsal import run_rehearsal
from workers.rehearsal_entrants import BuiltKits, KitBuildError, cached_kits, check_tools
from workers.scratch_servers import ScratchServerError, postgres_binaries, redis_binary

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]


@pytest.fixture(scope="module")
def kit_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache of the kits, built once for this module (the C++ and TypeScript builds
    side by side), and taken from there the second time without a build."""
    missing = check_tools()
    if missing is not None:
        pytest.skip(f"the starter kits cannot be built here: {missing}")
    root = tmp_path_factory.mktemp("kits")
    try:
        built, cached = cached_kits(root / "kits", root / "cache")
    except KitBuildError as error:
        pytest.fail(str(error))
    assert not cached and {"python", "cpp", "typescript"} == set(built.files)
    assert set(built.seconds) == {"cpp", "typescript"}
    assert built.files["cpp"]["bot"][:4] == b"\x7fELF"
    again, cached = cached_kits(root / "kits-again", root / "cache")
    assert cached and again.files == built.files and not (root / "kits-again").exists()
    return root / "cache"


@pytest.fixture(scope="module")
def kits(kit_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> BuiltKits:
    """The module's kits, from its cache."""
    built, cached = cached_kits(tmp_path_factory.mktemp("unused"), kit_cache)
    assert cached
    return built


def test_a_small_rehearsal_loses_nothing_and_judges_the_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kits: BuiltKits
) -> None:
    sandbox_or_skip()
    try:
        server_binary()
    except EmbeddedBrokerError as error:
        pytest.skip(str(error))
    # every play from the third hand on is the fault: the crash is certain, not "now and then"
    monkeypatch.setitem(rehearsal_entrants.FAULT_RATE, "crash", 1.0)
    plans = plan_entrants(8, broken=1, updaters=1)
    broken = next(plan for plan in plans if plan.fault)
    updater = next(plan for plan in plans if plan.updates)
    assert broken.fault == "crash" and {plan.kind for plan in plans} >= {"cpp", "typescript"}

    said: list[str] = []
    figures = run_rehearsal(
        plans,
        workers=2,
        rounds=2,
        root=tmp_path / "run",
        hands=3,
        kits=kits,
        finalists=4,
        metrics_port=0,
        progress=said.append,
    )

    assert figures.nothing_lost, (figures.duplicates, figures.replay_failures, figures.statuses)
    # the workers' metrics were served for a Prometheus to watch, and count every match
    assert any("the workers' metrics on http://127.0.0.1:" in line for line in said), said
    finished = [
        sample.value
        for metric in multiprocess_registry(tmp_path / "run" / "data" / "metrics").collect()
        if metric.name == "arena_matches_finished"
        for sample in metric.samples
        if sample.name == "arena_matches_finished_total"
    ]
    assert sum(finished) == 4 + 6, finished
    assert figures.scheduled == figures.recorded == 4  # 2 tables x 2 rounds
    assert figures.final_matches == 6  # the balanced design of four: 6 duplicate sets
    assert figures.replays_verified == 4 + 6
    assert figures.statuses == {"done": 4}
    assert len(figures.round_seconds) == 2 and min(figures.round_seconds) > 0
    assert figures.per_minute > 0
    assert figures.cpu_per_match["total"] > 0 and figures.cpu_per_match["sandboxed"] == 4
    # the broken entrant played both rounds (every entrant sits at a table each round) and
    # crashed in its third hand each time (and in every final table, if it got there): its
    # faults, and only its, are counted by kind
    in_final = broken.name in {row.name for row in figures.final}
    assert set(figures.faults_by_entrant) == {broken.name}
    assert figures.faulted_matches.get("crash") == 2 + (6 if in_final else 0)
    assert sum(figures.faults.values()) == figures.faults_by_entrant[broken.name]
    assert sum(figures.faults.values()) >= 2
    # the season's standings: every entrant, the updater with its second version
    assert {row.name for row in figures.standings} == {plan.name for plan in plans}
    versions = {row.name: row.version for row in figures.standings}
    assert versions[updater.name] == 2
    assert all(v == 1 for name, v in versions.items() if name != updater.name)
    # the final: the season's top four by place, in places 1-4
    top = [row.name for row in figures.standings if row.rank is not None][:4]
    assert sorted(row.name for row in figures.final) == sorted(top)
    assert sorted(row.rank or 0 for row in figures.final) == [1, 2, 3, 4]
    # the agreement is computed over the sound entrants that the fit ranked, in the true order
    judged = figures.agreement
    assert judged is not None
    ranked = [row.name for row in figures.standings if row.low is not None and not row.fault]
    truth = [name for name in true_order(plans) if name in ranked]
    assert judged.entrants == len(truth) >= 2
    assert judged.tau == pytest.approx(kendall_tau(truth, ranked))
    assert 0 <= judged.adjacent_right <= judged.adjacent
    assert judged.separated_wrong <= judged.pairs_separated


def test_a_small_rehearsal_on_its_own_redis_and_postgresql_loses_nothing(
    tmp_path: Path, kit_cache: Path
) -> None:
    """`arena bench rehearsal --broker redis --database postgresql`: the production kinds
    of broker and database, servers of the run's own on free ports of 127.0.0.1 (never the
    machine's), every match and final table recorded once and verifying, the faults
    attributed, and both servers gone at the end. The kits come as the command takes
    them: from the cache, in the background while the Python entrants are uploaded."""
    sandbox_or_skip()
    for missing in _missing_servers():
        if os.environ.get("CI"):
            pytest.fail(f"{missing} (CI is set, so this rehearsal must run)")
        pytest.skip(missing)
    plans = plan_entrants(8, broken=1, updaters=1)
    broken = next(plan for plan in plans if plan.fault)
    said: list[str] = []
    figures = run_rehearsal(
        plans,
        workers=2,
        rounds=2,
        root=tmp_path / "run",
        broker="redis",
        database="postgresql",
        hands=3,
        kit_cache=kit_cache,
        finalists=4,
        progress=said.append,
    )

    assert figures.nothing_lost, (figures.duplicates, figures.replay_failures, figures.statuses)
    assert figures.broker == "redis (a server of its own)"
    assert figures.database == "postgresql (a server of its own)"
    assert figures.scheduled == figures.recorded == 4 and figures.statuses == {"done": 4}
    assert figures.final_matches == 6 and figures.replays_verified == 4 + 6
    assert figures.cpu_per_match["sandboxed"] == 4
    assert set(figures.faults_by_entrant) <= {broken.name}
    assert {row.name for row in figures.standings} == {plan.name for plan in plans}
    assert sorted(row.rank or 0 for row in figures.final) == [1, 2, 3, 4]
    assert figures.kits_cached and set(figures.build_seconds) == {"cpp", "typescript"}
    stages = ["start", "kits waited for", "uploads to ready", "season", "final", "checks"]
    assert list(figures.stages) == stages
    assert sum(figures.stages.values()) <= figures.wall_seconds
    # the servers it started listened on 127.0.0.1, and are gone
    urls = [line.rsplit(": ", 1)[1] for line in said if "server of the rehearsal's own" in line]
    assert [url.split("://")[0] for url in urls] == ["redis", "postgresql+psycopg"], said
    for url in urls:
        host, port = url.split("@")[-1].split("://")[-1].split("/")[0].split(":")
        assert host == "127.0.0.1"
        with socket.socket() as probe:
            assert probe.connect_ex((host, int(port))) != 0, f"{url} still answers"


def _missing_servers() -> list[str]:
    """What this machine lacks to start the rehearsal's own Redis and PostgreSQL."""
    missing = []
    for start in (redis_binary, postgres_binaries):
        try:
            start()
        except ScratchServerError as error:
            missing.append(str(error))
    return missing


def _scores(folder: Path, command: list[str], out: Path) -> list[int]:
    """The seats' scores of a seeded local match of the bot in `folder` against three house
    heuristics (`hearts-bot play`, the bot a plain local process)."""
    hearts_bot = Path(sys.executable).with_name("hearts-bot")
    env = {**os.environ, "PATH": f"{hearts_bot.parent}{os.pathsep}{os.environ['PATH']}"}
    played = subprocess.run(
        [
            str(hearts_bot),
            "play",
            *command,
            "--vs",
            "heuristic",
            "--hands",
            "30",
            "--seed",
            "4",
            "--out",
            str(out),
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert played.returncode == 0, played.stdout + played.stderr
    replay = json.loads(out.read_text())
    return [entrant["score"] for entrant in replay["result"]["entrants"]]


def test_the_three_kinds_play_the_same_cards_at_the_same_handicap(
    tmp_path: Path, kits: BuiltKits
) -> None:
    """The known order rests on this: at p = 0 the Python example, the C++ kit and the
    TypeScript kit answer the same hands with the same cards (the same seeded match ends
    with the same scores), and p = 1 plays otherwise."""
    scores = {}
    for kind, command in (
        ("python", ["bot.py"]),
        ("cpp", ["--command", "./bot"]),
        ("typescript", ["--command", "node dist/bot.js"]),
    ):
        folder = tmp_path / kind
        for name, content in kits.files[kind].items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(content)
        if kind == "cpp":
            (folder / "bot").chmod(0o755)
        (folder / "handicap.txt").write_text("0\n")
        scores[kind] = _scores(folder, command, tmp_path / f"{kind}.json")
    assert scores["python"] == scores["cpp"] == scores["typescript"], scores
    (tmp_path / "python" / "handicap.txt").write_text("1\n")
    assert _scores(tmp_path / "python", ["bot.py"], tmp_path / "random.json") != scores["python"]
