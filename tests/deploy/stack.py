"""A compose stack of the real deployment, run by the end-to-end test: its own project
name (a random suffix), its own ports on 127.0.0.1, host networking, torn down with its
volumes (`down -v`) at the end; the images stay cached for the next run."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
from pathlib import Path
from typing import Any

from arena.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
FILES = ("docker-compose.yml", "deploy/compose.offline.yml", "deploy/compose.test.yml")


class DockerUnavailableError(RuntimeError):
    """No Docker engine or compose command answers here."""


def compose_command() -> list[str]:
    """`docker compose` (the v2 plugin) when there is one, else Debian's `docker-compose`.

    Raises DockerUnavailableError when neither runs, or the engine does not answer.
    """
    if shutil.which("docker") is None:
        raise DockerUnavailableError("no docker command (apt-get install docker.io)")
    info = subprocess.run(
        ["docker", "info", "--format", "{{.ServerVersion}}"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    if info.returncode != 0:
        raise DockerUnavailableError(f"the Docker engine does not answer: {info.stderr.strip()}")
    for candidate in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(candidate[0]) is None:
            continue
        probe = subprocess.run(
            [*candidate, "version"], capture_output=True, check=False, timeout=60
        )
        if probe.returncode == 0:
            return candidate
    raise DockerUnavailableError("no compose command (apt-get install docker-compose)")


class Stack:
    """One compose project of docker-compose.yml + the offline and test overrides.

    `targets` is the folder of Prometheus's file discovery (deploy/prometheus.test.yml):
    the site's target is written there now, the workers' by `write_worker_targets`."""

    def __init__(self, compose: list[str], targets: Path) -> None:
        self.compose = compose
        self.project = f"hearts-e2e-{secrets.token_hex(4)}"
        self.password = secrets.token_hex(12)
        self.metrics_token = secrets.token_hex(16)
        self.ports = {
            "ARENA_E2E_REDIS_PORT": free_port(),
            "ARENA_E2E_POSTGRES_PORT": free_port(),
            "ARENA_E2E_WEB_PORT": free_port(),
            "ARENA_E2E_PROMETHEUS_PORT": free_port(),
        }
        self.targets = targets
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("ARENA_")},
            **{name: str(port) for name, port in self.ports.items()},
            "ARENA_SECRET_KEY": secrets.token_hex(32),
            "ARENA_METRICS_TOKEN": self.metrics_token,
            "ARENA_E2E_PROMETHEUS_TARGETS": str(targets),
            "POSTGRES_PASSWORD": self.password,
            "COMPOSE_PROJECT_NAME": self.project,
        }
        # Prometheus reads the folder as its own user (a bind mount: only the folder's
        # own mode counts, not its parents')
        targets.chmod(0o755)
        self._write_targets("site", [f"127.0.0.1:{self.ports['ARENA_E2E_WEB_PORT']}"])

    @property
    def prometheus(self) -> str:
        return f"http://127.0.0.1:{self.ports['ARENA_E2E_PROMETHEUS_PORT']}"

    def write_worker_targets(self, addresses: list[str]) -> None:
        """The workers' metrics addresses (host:port) for Prometheus to scrape."""
        self._write_targets("workers", addresses)

    def _write_targets(self, name: str, addresses: list[str]) -> None:
        part = self.targets / f".{name}.json"  # renamed into place: never read half written
        part.write_text(json.dumps([{"targets": addresses}]))
        part.chmod(0o644)
        part.replace(self.targets / f"{name}.json")

    @property
    def web(self) -> str:
        return f"http://127.0.0.1:{self.ports['ARENA_E2E_WEB_PORT']}"

    @property
    def database_url(self) -> str:
        port = self.ports["ARENA_E2E_POSTGRES_PORT"]
        return f"postgresql+psycopg://arena:{self.password}@127.0.0.1:{port}/arena"

    def run(self, *args: str, timeout: float = 900, check: bool = True) -> str:
        """`compose -p PROJECT -f ... ARGS`; its output (stdout and stderr)."""
        argv = [*self.compose, "-p", self.project]
        for name in FILES:
            argv += ["-f", str(ROOT / name)]
        done = subprocess.run(
            [*argv, *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
            timeout=timeout,
        )
        if check and done.returncode != 0:
            raise AssertionError(
                f"compose {' '.join(args)} exited {done.returncode}:\n"
                f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
            )
        return done.stdout + done.stderr

    def containers(self, service: str) -> list[str]:
        """The ids of a service's containers, running or not."""
        found = subprocess.run(
            [
                "docker",
                "ps",
                "-aq",
                "--filter",
                f"label=com.docker.compose.project={self.project}",
                "--filter",
                f"label=com.docker.compose.service={service}",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        return found.stdout.split()

    def running(self, container: str) -> bool:
        state = docker("inspect", "--format", "{{.State.Running}}", container)
        return state.strip() == "true"

    def logs(self, container: str) -> str:
        return docker("logs", container)

    def log_entries(self, container: str) -> list[dict[str, Any]]:
        """The container's JSON log lines (ARENA_LOG_FORMAT=json), others skipped."""
        entries = []
        for line in self.logs(container).splitlines():
            if line.startswith("{"):
                try:
                    entries.append(json.loads(line))
                except ValueError:
                    continue
        return entries

    def volumes(self) -> list[str]:
        """The volumes the project's containers mount: each must be one of its own named
        volumes (an anonymous one would outlive `down`)."""
        ids = [c for service in self.services() for c in self.containers(service)]
        if not ids:
            return []
        found = docker("inspect", "--format", "{{range .Mounts}}{{.Name}} {{end}}", *ids)
        return sorted(set(found.split()))

    def services(self) -> list[str]:
        listed = self.run("config", "--services").split()
        return [name for name in listed if name.replace("-", "").isalnum()]

    def down(self, *extra: str) -> None:
        self.run("down", "--timeout", "20", *extra, check=False)


def docker(*args: str, timeout: float = 300) -> str:
    """`docker ARGS`; stdout and stderr together. Raises on failure."""
    done = subprocess.run(
        ["docker", *args], capture_output=True, text=True, check=False, timeout=timeout
    )
    if done.returncode != 0:
        raise AssertionError(f"docker {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done.stdout + done.stderr
