"""docker-compose.yml, checked without a Docker engine: it parses, every service's command
is a real entry point of ours, and the environment it sets is the one our configuration
reads (and gives valid settings)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import click
import pytest
import yaml

from workers.config import ENVIRONMENT, Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
OURS = "hearts-arena:latest"


def compose() -> dict[str, Any]:
    document = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(document, dict)
    return document


def services() -> dict[str, dict[str, Any]]:
    found = compose()["services"]
    assert isinstance(found, dict)
    return found


def our_services() -> dict[str, dict[str, Any]]:
    return {name: s for name, s in services().items() if s.get("image") == OURS}


def arena_commands() -> dict[str, click.Command]:
    """Every `arena` subcommand: those registered in arena.cli, and ours to register."""
    from arena.cli import main
    from arena.commands import operations, platform

    context = click.Context(main)
    commands = {
        name: command
        for name in main.list_commands(context)
        if (command := main.get_command(context, name)) is not None
    }
    for command in (*platform.COMMANDS, *operations.COMMANDS):
        commands.setdefault(command.name or "", command)
    return commands


def substitute(value: str) -> str:
    """Compose's ${NAME:-default} / ${NAME:?message} with nothing set: a stand-in value."""
    value = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)
    return re.sub(r"\$\{[A-Z_]+:\?[^}]*\}", "from-the-operator", value)


def test_it_parses_with_the_services_of_a_deployment() -> None:
    names = set(services())
    assert {"redis", "postgres", "migrate", "web", "worker", "worker-default", "beat"} <= names
    assert {"db-data", "redis-data", "arena-data"} <= set(compose()["volumes"])


def test_every_service_has_a_health_check_or_is_a_one_off_step() -> None:
    for name, service in services().items():
        check = service.get("healthcheck", {})
        if name == "migrate":
            assert service.get("restart") == "no"
            continue
        assert check.get("test"), f"{name} has no health check"


@pytest.mark.parametrize("name", sorted(our_services()))
def test_every_command_is_a_real_entry_point_of_ours(name: str) -> None:
    command = our_services()[name]["command"]
    argv = command if isinstance(command, list) else shlex.split(command)
    assert argv[0] == "arena", f"{name}: {argv}"
    commands = arena_commands()
    assert argv[1] in commands, f"{name}: arena has no command {argv[1]!r}"
    chosen = commands[argv[1]]
    # Parse the options exactly as click would at start-up (unknown options fail here).
    with chosen.make_context(f"arena {argv[1]}", list(argv[2:])) as context:
        assert context.params is not None


def test_the_image_is_built_from_our_dockerfile_with_the_arena_script() -> None:
    for service in our_services().values():
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
    text = DOCKERFILE.read_text()
    for source in re.findall(r"^COPY (\S+)", text, flags=re.MULTILINE):
        assert (ROOT / source).exists(), f"the Dockerfile copies {source}, which is missing"
    assert 'arena = "arena.cli:main"' in (ROOT / "pyproject.toml").read_text()


def read_by_web() -> set[str]:
    """The ARENA_* variables the web site's code names (read without importing it)."""
    names: set[str] = set()
    for path in (ROOT / "web").rglob("*.py"):
        names.update(re.findall(r"\bARENA_[A-Z_]+\b", path.read_text()))
    return names


def test_the_environment_it_sets_is_the_one_our_configuration_reads() -> None:
    readers = set(ENVIRONMENT) | read_by_web()
    for name, service in our_services().items():
        env = service["environment"]
        unknown = {key for key in env if key.startswith("ARENA_")} - readers
        assert not unknown, f"{name} sets {unknown}, which nothing of ours reads"
        for required in ("ARENA_DATABASE_URL", "ARENA_BROKER_URL", "ARENA_DATA_DIR"):
            assert required in env, f"{name} does not set {required}"
        settings = Settings.from_environ({k: substitute(str(v)) for k, v in env.items()})
        assert settings.broker_is_redis
        assert settings.database_url.startswith("postgresql://")
        assert settings.result_backend == "redis://redis:6379/1"
        assert settings.secret_key == "from-the-operator"
        assert settings.visibility_timeout > settings.match_hard_limit


def test_workers_that_run_bots_keep_their_environments_and_may_sandbox() -> None:
    worker = services()["worker"]
    assert worker.get("privileged") is True
    assert any(volume.startswith("arena-data:") for volume in worker["volumes"])
    queues = worker["command"][worker["command"].index("--queues") + 1]
    assert set(queues.split(",")) == {"matches", "validate"}
    assert "default" in services()["worker-default"]["command"]


def test_the_app_services_start_after_the_migration_step() -> None:
    for name in ("web", "worker", "worker-default", "beat"):
        depends = services()[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["redis"]["condition"] == "service_healthy"
