"""The SDK's transport defaults: gRPC's polling engine and the event loop (hearts_bot.transport)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest
from hearts_bot import transport

PRINT_EXPERIMENTS = "import hearts_bot, os; print(os.environ.get('GRPC_EXPERIMENTS'))"


def _run(code: str, **env: str) -> str:
    environment = {k: v for k, v in os.environ.items() if k != "GRPC_EXPERIMENTS"}
    environment.update(env)
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_the_sdk_chooses_the_measured_polling_engine() -> None:
    assert _run(PRINT_EXPERIMENTS) == transport.GRPC_EXPERIMENTS


def test_an_experiments_setting_of_the_users_own_is_kept() -> None:
    assert _run(PRINT_EXPERIMENTS, GRPC_EXPERIMENTS="") == ""
    assert _run(PRINT_EXPERIMENTS, GRPC_EXPERIMENTS="-event_engine_client") == (
        "-event_engine_client"
    )


def test_importing_the_arena_sets_it_before_grpc_loads() -> None:
    code = (
        "import sys, os; import arena; assert 'grpc' not in sys.modules or "
        "os.environ['GRPC_EXPERIMENTS']; print(os.environ['GRPC_EXPERIMENTS'])"
    )
    assert _run(code) == transport.GRPC_EXPERIMENTS


def test_run_uses_uvloop_when_installed_and_asyncio_on_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    uvloop = pytest.importorskip("uvloop")

    async def loop_type() -> type:
        return type(asyncio.get_running_loop())

    monkeypatch.delenv("HEARTS_BOT_LOOP", raising=False)
    assert transport.run(loop_type()) is uvloop.Loop
    monkeypatch.setenv("HEARTS_BOT_LOOP", "asyncio")
    assert transport.run(loop_type()) is not uvloop.Loop
    assert transport.loop_factory() is None
