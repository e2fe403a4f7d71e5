"""Warm starts (workers/sandbox/warm.py, zygote.py): a Python bot forked from a template
that holds the SDK runtime, into the same sandbox a cold start builds.

Which path a start took is structural (`BotProcess.warm`, `cold_reason`), never inferred
from a time. The attacks on the template itself come from hostile/template_probe.py; the
rest of the hostile battery (test_hostile.py) runs warm too, as the default sandbox is.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.sandbox.client import BotClient
from tests.sandbox.conftest import HostTraps, MakeEnv, processes_of
from workers.sandbox import BotProcess, ExitKind, Sandbox
from workers.sandbox.launcher import WARM_ENV

pytestmark = pytest.mark.timeout(120)

ATTACK_TIMEOUT = 30.0
PLATFORM_MODULES = {"arena", "workers", "web", "flask", "sqlalchemy", "celery", "redis"}


@pytest.fixture
def own_sandbox() -> Iterator[Sandbox]:
    """A sandbox whose templates this test may kill or stop (not the session's)."""
    sandbox = Sandbox(warm=True)
    assert sandbox.templates is not None
    sandbox.templates.spawn_timeout = 2.0
    yield sandbox
    sandbox.close()


def probe_params(sandbox: Sandbox, traps: HostTraps, mode: str, plant: str) -> dict[str, Any]:
    """The template probe's params: the running template's pid (started if needed)."""
    templates = sandbox.templates
    assert templates is not None
    running = templates.running()
    return {
        "mode": mode,
        "template_pid": running[0].pid if running else 0,
        "secret_sha256": hashlib.sha256(traps.secret.encode()).hexdigest(),
        "plant": plant,
    }


def reports(bot: BotProcess) -> list[tuple[str, str]]:
    found = []
    for line in bot.stderr.text().splitlines():
        if line.startswith("ATTACK "):
            outcome, _, text = line.removeprefix("ATTACK ").partition(" ")
            found.append((outcome, text))
    return found


def run_probe(sandbox: Sandbox, make_env: MakeEnv, params: dict[str, Any]) -> BotProcess:
    """Start the template probe, trigger its attack with a play, wait for its report."""
    bot = sandbox.start(make_env("template_probe", params), seat=1)
    try:
        assert bot.wait_ready(30), bot.exit_reason()
        client = BotClient(bot.address)
        client.start()
        try:
            client.play(timeout=20)
        finally:
            client.close()
        deadline = time.monotonic() + ATTACK_TIMEOUT
        while "ATTACK DONE" not in bot.stderr.text():
            assert bot.alive() and time.monotonic() < deadline, bot.log_excerpt()[-3000:]
            time.sleep(0.05)
    finally:
        bot.stop()
    assert processes_of(bot.uid) == []
    return bot


def view_of(bot: BotProcess) -> dict[str, Any]:
    line = next(text for outcome, text in reports(bot) if outcome == "VIEW")
    return dict(json.loads(line))


def started_template(sandbox: Sandbox, make_env: MakeEnv) -> int:
    """Starts (and stops) one bot so that the sandbox's template runs; its pid."""
    bot = sandbox.start(make_env("honest"), seat=0)
    try:
        assert bot.wait_ready(30) and bot.warm, (bot.exit_reason(), bot.cold_reason)
    finally:
        bot.stop()
    assert sandbox.templates is not None
    (template,) = sandbox.templates.running()
    return template.pid


# -- which path a start takes -------------------------------------------------------------------


def test_a_python_bot_starts_warm(sandbox: Sandbox, make_env: MakeEnv) -> None:
    bot = sandbox.start(make_env("honest"), seat=0)
    with bot:
        assert bot.wait_ready(30), bot.exit_reason()
        assert bot.warm and bot.cold_reason is None
        assert bot.setup_cpu_outside > 0  # the fork is accounted, outside the cgroup
        assert bot.cpu_at_ready is not None and bot.cpu_at_ready > bot.setup_cpu_outside
        client = BotClient(bot.address, seat=0)
        client.start()
        try:
            card, _ = client.play(timeout=5)
        finally:
            client.close()
        assert card == "2S"
    assert bot.exit_reason() is not None and bot.exit_reason().kind is ExitKind.STOPPED  # type: ignore[union-attr]


def test_warm_starts_can_be_turned_off(make_env: MakeEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    env = make_env("honest")
    monkeypatch.setenv(WARM_ENV, "0")
    for sandbox in (Sandbox(), Sandbox(warm=False)):
        assert sandbox.templates is None
        with sandbox.start(env, seat=0) as bot:
            assert bot.wait_ready(30), bot.exit_reason()
            assert not bot.warm
            assert bot.cold_reason == f"warm starts are off ({WARM_ENV}=0)"


def test_a_version_that_ships_its_own_grpc_starts_cold(
    own_sandbox: Sandbox, make_env: MakeEnv
) -> None:
    env = make_env("honest")
    shadow = env.venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    (shadow / "site-packages" / "grpc").mkdir()
    (shadow / "site-packages" / "grpc" / "__init__.py").write_text("")
    try:
        with own_sandbox.start(env, seat=0) as bot:
            assert not bot.warm
            assert bot.cold_reason == "its venv ships its own grpc"
    finally:
        (shadow / "site-packages" / "grpc" / "__init__.py").unlink()
        (shadow / "site-packages" / "grpc").rmdir()


# -- a warm bot's sandbox is a cold bot's --------------------------------------------------------


def test_a_warm_bot_sees_what_a_cold_bot_sees(
    sandbox: Sandbox, make_env: MakeEnv, traps: HostTraps
) -> None:
    params = probe_params(sandbox, traps, "check", os.urandom(16).hex())
    warm = run_probe(sandbox, make_env, params)
    cold = run_probe(Sandbox(warm=False), make_env, params)
    assert warm.warm and not cold.warm
    warm_view, cold_view = view_of(warm), view_of(cold)
    assert warm_view.pop("uid") == warm.uid and cold_view.pop("uid") == cold.uid
    assert warm_view.pop("gid") == warm.uid and cold_view.pop("gid") == cold.uid
    # Each sees the sandbox's init and itself, nothing else.
    assert len(warm_view.pop("pids")) == len(cold_view.pop("pids")) == 2
    warm_fds, cold_fds = warm_view.pop("fds"), cold_view.pop("fds")
    assert warm_fds[:3] == cold_fds[:3] == [0, 1, 2]
    assert len(warm_fds) <= len(cold_fds) + 2, (warm_fds, cold_fds)
    assert warm_view == cold_view
    assert warm_view["caps"] == dict.fromkeys(
        ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"), "0000000000000000"
    )
    assert (warm_view["seccomp"], warm_view["no_new_privs"]) == ("2", "1")
    assert warm_view["environ"] == {
        "PWD": "/bot",
        "LC_CTYPE": "C.UTF-8",
        "GRPC_EXPERIMENTS": "-event_engine_client,-event_engine_listener",  # the SDK's
    }


# -- the template is out of a bot's reach ---------------------------------------------------------


def test_the_template_is_out_of_a_bots_reach(
    own_sandbox: Sandbox, make_env: MakeEnv, traps: HostTraps
) -> None:
    pid = started_template(own_sandbox, make_env)
    bot = run_probe(own_sandbox, make_env, probe_params(own_sandbox, traps, "check", "x" * 32))
    assert bot.warm
    found = reports(bot)
    escaped = [text for outcome, text in found if outcome == "ESCAPED"]
    assert escaped == [], escaped
    blocked = {text.split(":", 1)[0] for outcome, text in found if outcome == "BLOCKED"}
    assert blocked >= {
        "signal the template",
        "stop the template",
        "open the template's memory",
        "read the template's environ",
        "ptrace the template",
        "find the worker's secret in memory inherited from the template",
        "find a previous bot's traces",
    }, found
    assert own_sandbox.templates is not None
    assert [template.pid for template in own_sandbox.templates.running()] == [pid]
    with open(f"/proc/{pid}/status") as status:
        assert "State:\tS" in status.read()  # not stopped, not traced


def test_the_secret_scan_finds_a_secret_the_process_holds(traps: HostTraps) -> None:
    """The probe's memory scan, outside the sandbox, with the secret in its environment:
    its failure inside means the template never held it, not a blind scan."""
    params = {"secret_sha256": hashlib.sha256(traps.secret.encode()).hexdigest()}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.sandbox.hostile.template_probe",
            "--scan",
            json.dumps(params),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "HEARTS_ARENA_TEST_SECRET": traps.secret},
        cwd=Path(__file__).parents[2],
        timeout=60,
        check=False,
    )
    assert result.stdout.startswith("found at 0x"), result.stderr[-2000:]


def test_nothing_passes_from_one_warm_bot_to_the_next(
    own_sandbox: Sandbox, make_env: MakeEnv, traps: HostTraps
) -> None:
    started_template(own_sandbox, make_env)
    token = os.urandom(16).hex()
    planter = run_probe(own_sandbox, make_env, probe_params(own_sandbox, traps, "plant", token))
    checker = run_probe(own_sandbox, make_env, probe_params(own_sandbox, traps, "check", token))
    assert planter.warm and checker.warm
    planted = dict(reports(planter))
    # The planter sees its own traces (the check can find each kind)...
    selfcheck = planted["SELFCHECK"]
    for trace in ("/tmp/planted", "environment", "shared memory", "descriptor 200"):
        assert trace in selfcheck, selfcheck
    # ... and the next bot of the same template finds none of them.
    assert any(
        outcome == "BLOCKED" and text.startswith("find a previous bot's traces: LookupError")
        for outcome, text in reports(checker)
    ), reports(checker)
    # Each child's random generator is seeded anew.
    assert planted["RANDOM"] != dict(reports(checker))["RANDOM"]


def test_the_template_holds_nothing_of_the_platform(
    own_sandbox: Sandbox, make_env: MakeEnv
) -> None:
    pid = started_template(own_sandbox, make_env)
    assert own_sandbox.templates is not None
    (template,) = own_sandbox.templates.running()
    assert {"grpc", "google", "hearts_bot"} <= template.modules
    assert not template.modules & PLATFORM_MODULES
    with open(f"/proc/{pid}/environ", "rb") as environ:
        assert environ.read() == b""
    mapped = Path(f"/proc/{pid}/maps").read_text()
    assert "sqlalchemy" not in mapped and "/workers/" not in mapped
    descriptors = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
    sockets = [target for target in descriptors if target.startswith("socket:")]
    assert len(sockets) == 1, descriptors  # its control socket, and no other channel


# -- a template that dies or misbehaves ---------------------------------------------------------


def test_a_bot_outlives_its_template(own_sandbox: Sandbox, make_env: MakeEnv) -> None:
    bot = own_sandbox.start(make_env("honest"), seat=0)
    with bot:
        assert bot.wait_ready(30) and bot.warm
        assert own_sandbox.templates is not None
        (template,) = own_sandbox.templates.running()
        os.kill(template.pid, signal.SIGKILL)
        template.close()
        client = BotClient(bot.address, seat=0)
        client.start()
        try:
            card, _ = client.play(timeout=5)
        finally:
            client.close()
        assert card == "2S" and bot.alive()


def test_a_dead_template_is_replaced(own_sandbox: Sandbox, make_env: MakeEnv) -> None:
    first = started_template(own_sandbox, make_env)
    os.kill(first, signal.SIGKILL)
    time.sleep(0.1)
    with own_sandbox.start(make_env("honest"), seat=0) as bot:
        assert bot.wait_ready(30), bot.exit_reason()
        assert bot.warm, bot.cold_reason
    assert own_sandbox.templates is not None
    assert [template.pid for template in own_sandbox.templates.running()] != [first]


def test_a_stuck_template_falls_back_to_a_cold_start(
    own_sandbox: Sandbox, make_env: MakeEnv, caplog: pytest.LogCaptureFixture
) -> None:
    stuck = started_template(own_sandbox, make_env)
    os.kill(stuck, signal.SIGSTOP)
    try:
        with caplog.at_level(logging.WARNING, logger="workers.sandbox"):
            bot = own_sandbox.start(make_env("honest"), seat=0)
        with bot:
            assert bot.wait_ready(30), bot.exit_reason()  # the match gets its bot
            assert not bot.warm
            assert bot.cold_reason == "the template started no bot within 2 s"
        assert "starts cold: the template started no bot within 2 s" in caplog.text
        assert "discarding the warm template" in caplog.text
        # The stuck template was stopped, and the next start has a new one.
        assert (
            not Path(f"/proc/{stuck}").exists()
            or "State:\tZ" in Path(f"/proc/{stuck}/status").read_text()
        )
        with own_sandbox.start(make_env("honest"), seat=0) as again:
            assert again.wait_ready(30) and again.warm, again.cold_reason
    finally:
        if Path(f"/proc/{stuck}").exists():
            os.kill(stuck, signal.SIGCONT)
