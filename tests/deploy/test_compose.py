"""docker-compose.yml, checked without a Docker engine: it parses, every service's command
is a real entry point of ours, and the environment it sets is the one our configuration
reads (and gives valid settings)."""

from __future__ import annotations

import json
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
    assert {"prometheus", "grafana"} <= names
    assert {"db-data", "redis-data", "arena-data", "prometheus-data"} <= set(compose()["volumes"])


def profiled() -> set[str]:
    """Services that `docker compose up` leaves off (under a profile): Grafana's."""
    return {name for name, service in services().items() if service.get("profiles")}


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


def read_by_commands() -> set[str]:
    """The variables our commands' options read (click's `envvar`: ARENA_METRICS_PORT)."""
    names: set[str] = set()
    for command in arena_commands().values():
        for parameter in command.params:
            envvar = getattr(parameter, "envvar", None)
            names.update([envvar] if isinstance(envvar, str) else (envvar or ()))
    return names


def test_the_environment_it_sets_is_the_one_our_configuration_reads() -> None:
    readers = set(ENVIRONMENT) | read_by_web() | read_by_commands()
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


# What the sandbox needs inside the worker container, found by running it there
# (tests/deploy/test_stack.py; docs/operations.md, "What each container may do").
WORKER_CAPABILITIES = {
    "SYS_ADMIN",  # bubblewrap: new namespaces, mounts, pivot_root; the cgroup remount
    "SYS_CHROOT",  # a warm start: the template's child joins the bot's mount namespace
    "NET_ADMIN",  # bubblewrap: bring up the loopback of each bot's network namespace
    "SETUID",  # setpriv: each bot's own uid
    "SETGID",
    "SETPCAP",  # setpriv: empty the bot's bounding set
    "KILL",  # stop a bot, which runs as another uid
    "CHOWN",  # the bot's folders and socket belong to its uid
    "DAC_OVERRIDE",
    "FOWNER",
}


def test_workers_that_run_bots_keep_their_environments_and_may_sandbox() -> None:
    worker = services()["worker"]
    assert "privileged" not in worker, "the worker needs a few rights, not all of them"
    assert worker["cap_drop"] == ["ALL"]
    assert set(worker["cap_add"]) == WORKER_CAPABILITIES
    options = worker["security_opt"]
    assert "seccomp=deploy/seccomp-worker.json" in options
    assert "apparmor=unconfined" in options  # docker-default forbids mount(2)
    assert "no-new-privileges:true" in options
    assert worker["entrypoint"] == ["python", "/opt/arena/worker-entrypoint.py"]
    assert "COPY deploy/worker-entrypoint.py /opt/arena/" in DOCKERFILE.read_text()
    assert any(volume.startswith("arena-data:") for volume in worker["volumes"])
    queues = worker["command"][worker["command"].index("--queues") + 1]
    assert set(queues.split(",")) == {"matches", "validate"}
    assert "default" in services()["worker-default"]["command"]


def test_the_app_services_start_after_the_migration_step() -> None:
    for name in ("web", "worker", "worker-default", "beat"):
        depends = services()[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["redis"]["condition"] == "service_healthy"


def test_the_worker_seccomp_profile_allows_the_sandbox_and_refuses_the_rest() -> None:
    profile = json.loads((ROOT / "deploy" / "seccomp-worker.json").read_text())
    refused = {name for rule in profile["syscalls"] for name in rule["names"]}
    assert all(rule["action"] == "SCMP_ACT_ERRNO" for rule in profile["syscalls"])
    # bubblewrap's own calls stay allowed ...
    assert not refused & {"clone", "unshare", "mount", "umount2", "pivot_root", "seccomp"}
    # ... and the known ways out of a container do not.
    assert {"open_by_handle_at", "kexec_load", "init_module", "bpf", "ptrace"} <= refused
    assert profile["architectures"] == ["SCMP_ARCH_X86_64", "SCMP_ARCH_AARCH64"]


@pytest.mark.parametrize("name", ["migrate", "web", "worker-default", "beat"])
def test_the_services_that_run_no_bot_get_no_right_at_all(name: str) -> None:
    service = services()[name]
    assert "privileged" not in service
    assert "cap_add" not in service
    assert service["cap_drop"] == ["ALL"]
    assert service["security_opt"] == ["no-new-privileges:true"]


def test_the_base_image_is_an_argument_whose_default_is_the_official_one() -> None:
    text = DOCKERFILE.read_text()
    assert "ARG BASE_IMAGE=python:3.11-slim-bookworm\nFROM ${BASE_IMAGE}" in text
    assert services()["redis"]["image"].startswith("redis:")
    assert services()["postgres"]["image"].startswith("postgres:")


def override(name: str) -> dict[str, Any]:
    document = yaml.safe_load((ROOT / "deploy" / name).read_text())
    assert isinstance(document, dict)
    return document


def test_the_offline_override_changes_only_the_images() -> None:
    offline = override("compose.offline.yml")["services"]
    # Grafana has no image made from Debian's packages: its profile needs a registry.
    assert set(offline) == set(services()) - profiled()
    for name, service in offline.items():
        if name == "prometheus":
            assert set(service) == {"build"}
            assert service["build"]["dockerfile"] == services()[name]["build"]["dockerfile"]
            assert service["build"]["args"]["BASE_IMAGE"].endswith("hearts-arena/bookworm:local}")
        elif name in our_services():
            assert set(service) == {"build"}
            assert service["build"]["args"]["BASE_IMAGE"].endswith("hearts-arena/bookworm:local}")
        else:
            assert set(service) == {"image"}
            assert service["image"].startswith("hearts-arena/")


def test_the_test_override_runs_every_container_on_the_host_network_on_127_0_0_1() -> None:
    test = override("compose.test.yml")["services"]
    enabled = {name: s for name, s in test.items() if not s.get("profiles")}
    # web, live and prometheus publish ports, which the host's network cannot: off there.
    off = {"web", "live", "prometheus"}
    assert set(enabled) | off == set(services()) - profiled() | {"site", "prometheus-host"}
    assert all(test[name]["profiles"] for name in off)
    for name, service in enabled.items():
        assert service["network_mode"] == "host", name
        assert "ports" not in service, name
    assert "ports" in services()["web"] and test["web"]["profiles"]
    assert "--bind" in test["redis"]["command"]
    assert test["redis"]["command"][test["redis"]["command"].index("--bind") + 1] == "127.0.0.1"
    assert "listen_addresses=127.0.0.1" in test["postgres"]["command"]
    site = test["site"]["command"]
    assert site[site.index("--host") + 1] == "127.0.0.1"
    for name, service in enabled.items():
        for value in service.get("environment", {}).values():
            assert "@postgres:" not in str(value) and "//redis:" not in str(value), name


def merged_builds(*names: str) -> dict[str, dict[str, Any] | None]:
    """Each service's `build` once docker-compose.yml and the overrides `names` are
    merged as compose merges them (a mapping key by key, `args` too), None where it
    builds nothing."""
    layers = [compose()["services"], *(override(name)["services"] for name in names)]
    builds: dict[str, dict[str, Any] | None] = {}
    for layer in layers:
        for service, settings in layer.items():
            if "build" not in settings:
                builds.setdefault(service, None)
                continue
            build = dict(builds.get(service) or {})
            args = {**build.get("args", {}), **settings["build"].get("args", {})}
            build.update(settings["build"])
            if args:
                build["args"] = args
            builds[service] = build
    return builds


def test_the_documented_offline_test_build_builds_everything_on_the_local_base() -> None:
    # `docker-compose -f docker-compose.yml -f deploy/compose.offline.yml -f
    # deploy/compose.test.yml build` builds every service that has a build: each must get
    # the offline base, or it goes to the registry (the `site` service did, and exited 1).
    offline_base = override("compose.offline.yml")["x-offline-build"]["build"]["args"]
    builds = merged_builds("compose.offline.yml", "compose.test.yml")
    built = {name: build for name, build in builds.items() if build is not None}
    assert built
    for name, build in built.items():
        assert build.get("args") == offline_base, name
    site = override("compose.test.yml")["services"]["site"]
    assert builds["site"] is None and site["image"] == OURS
    assert site["pull_policy"] == "never"  # the image the others built, never a registry's


def test_the_readme_says_what_uploads_need_of_a_machine_with_nothing_installed() -> None:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("`make run` starts the whole platform")
    paragraph = readme[start : readme.index("\n\n", start)]
    assert "nothing to install first" in paragraph
    assert "bubblewrap" in paragraph and "apt-get install bubblewrap" in paragraph


def test_the_site_knows_the_address_people_reach_it_at() -> None:
    """Inside its container the site knows only the container's name, which the account
    page's `arena login` line would otherwise name (issue 31): the compose file names the
    published address, which an operator overrides with their proxy's."""
    web = services()["web"]
    published = {str(port).split(":")[0] for port in web["ports"]}
    site = substitute(web["environment"]["ARENA_SITE_URL"])
    assert site.startswith("http://localhost:")
    assert site.rsplit(":", 1)[1] in published
    assert "${ARENA_SITE_URL:-" in COMPOSE.read_text()  # the operator's value wins


PROMETHEUS_DOCKERFILE = ROOT / "deploy" / "prometheus.Dockerfile"


def prometheus_config() -> dict[str, Any]:
    document = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
    assert isinstance(document, dict)
    return document


def test_prometheus_is_built_from_debians_package_with_our_files() -> None:
    prometheus = services()["prometheus"]
    assert prometheus["build"] == {"context": "deploy", "dockerfile": "prometheus.Dockerfile"}
    assert prometheus["image"].startswith("hearts-arena/")  # never a registry's name
    text = PROMETHEUS_DOCKERFILE.read_text()
    assert "ARG BASE_IMAGE=debian:bookworm-slim\nFROM ${BASE_IMAGE}" in text
    assert "apt-get install -y --no-install-recommends prometheus" in text
    copies = re.findall(r"^COPY (.+) (\S+)$", text, flags=re.MULTILINE)
    for sources, _target in copies:
        for source in sources.split():
            assert (ROOT / "deploy" / source).exists(), f"it copies {source}, which is missing"
    targets = {target for _sources, target in copies}
    # The command's console folders are the ones the files are copied to.
    assert "--web.console.templates=/etc/prometheus/consoles" in text
    assert "--web.console.libraries=/etc/prometheus/console_libraries" in text
    assert {"/etc/prometheus/consoles/", "/etc/prometheus/console_libraries/"} <= targets
    assert (ROOT / "deploy" / "prometheus" / "consoles" / "arena.html").exists()


def test_prometheus_is_published_on_the_machine_itself_only_and_keeps_its_data() -> None:
    prometheus = services()["prometheus"]
    assert prometheus["ports"] == ["127.0.0.1:9090:9090"]
    assert "prometheus-data:/prometheus" in prometheus["volumes"]
    assert prometheus["cap_drop"] == ["ALL"]
    assert set(prometheus["cap_add"]) == {"CHOWN", "SETUID", "SETGID"}  # the entry point
    assert prometheus["security_opt"] == ["no-new-privileges:true"]
    assert "promtool" in prometheus["healthcheck"]["test"]


def test_prometheus_scrapes_the_site_with_the_token_the_site_is_given() -> None:
    config = prometheus_config()
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    site = jobs["arena-site"]
    token_file = site["authorization"]["credentials_file"]
    entrypoint = (ROOT / "deploy" / "prometheus" / "entrypoint.sh").read_text()
    assert f"TOKEN_FILE={token_file}\n" in entrypoint
    assert 'printf \'%s\' "${ARENA_METRICS_TOKEN:-}" > "$TOKEN_FILE"' in entrypoint
    # The same variable reaches the site (which compares it) and Prometheus (which sends it).
    assert "ARENA_METRICS_TOKEN" in services()["prometheus"]["environment"]
    assert "ARENA_METRICS_TOKEN" in services()["web"]["environment"]
    assert 'os.environ.get("ARENA_METRICS_TOKEN")' in (ROOT / "web" / "metrics.py").read_text()
    web_port = services()["web"]["command"][services()["web"]["command"].index("--port") + 1]
    assert site["static_configs"][0]["targets"] == [f"web:{web_port}"]
    assert site["metrics_path"] == "/metrics"


def test_prometheus_finds_every_worker_replica_on_the_port_the_workers_serve() -> None:
    job = {j["job_name"]: j for j in prometheus_config()["scrape_configs"]}["arena-workers"]
    (discovery,) = job["dns_sd_configs"]
    assert set(discovery["names"]) == {"worker", "worker-default"}
    for name in discovery["names"]:
        env = services()[name]["environment"]
        assert str(env["ARENA_METRICS_PORT"]) == str(discovery["port"]), name
        assert env["ARENA_METRICS_HOST"] == "0.0.0.0", name  # the compose network's address
        assert not any(str(discovery["port"]) in str(p) for p in services()[name].get("ports", []))


def test_prometheus_loads_the_alert_rules() -> None:
    assert prometheus_config()["rule_files"] == ["prometheus-alerts.yml"]
    assert "COPY prometheus.yml prometheus-alerts.yml /etc/prometheus/" in (
        PROMETHEUS_DOCKERFILE.read_text()
    )


def test_grafana_is_optional_provisioned_from_deploy_and_reads_our_prometheus() -> None:
    grafana = services()["grafana"]
    assert grafana["profiles"] == ["grafana"]  # `docker compose up` does not need its image
    assert grafana["ports"] == ["127.0.0.1:3000:3000"]
    mounts = {}
    for volume in grafana["volumes"]:
        source, target, *_ = volume.split(":")
        mounts[target] = source
        if source.startswith("./"):
            assert (ROOT / source).is_dir(), source
    assert mounts["/etc/grafana/provisioning"] == "./deploy/grafana/provisioning"
    provider = yaml.safe_load(
        (ROOT / "deploy/grafana/provisioning/dashboards/arena.yml").read_text()
    )["providers"][0]
    assert mounts[provider["options"]["path"]] == "./deploy/grafana/dashboards"
    source = yaml.safe_load(
        (ROOT / "deploy/grafana/provisioning/datasources/prometheus.yml").read_text()
    )["datasources"][0]
    published = services()["prometheus"]["ports"][0].rsplit(":", 1)[1]
    assert source["url"] == f"http://prometheus:{published}"
    dashboard = json.loads((ROOT / "deploy/grafana/dashboards/arena.json").read_text())
    uids = {p["datasource"]["uid"] for p in dashboard["panels"] if "datasource" in p}
    assert uids == {source["uid"]}
    assert "${GRAFANA_ADMIN_PASSWORD" in grafana["environment"]["GF_SECURITY_ADMIN_PASSWORD"]


def test_the_test_stacks_prometheus_is_the_deployments_on_the_hosts_network() -> None:
    """deploy/compose.test.yml's `prometheus-host` (run by tests/deploy/test_stack.py) is
    docker-compose.yml's Prometheus image and rights, on 127.0.0.1, with the deployment's
    jobs, token file and alert rules: only where the targets are found differs."""
    host = override("compose.test.yml")["services"]["prometheus-host"]
    deployed = services()["prometheus"]
    assert host["image"] == deployed["image"]
    assert host["build"]["dockerfile"] == deployed["build"]["dockerfile"]
    assert host["build"]["context"] == deployed["build"]["context"]
    for key in ("cap_drop", "cap_add", "security_opt"):
        assert host[key] == deployed[key], key
    assert host["network_mode"] == "host" and "ports" not in host
    command = host["command"]
    listen = next(a for a in command if a.startswith("--web.listen-address="))
    assert listen.startswith("--web.listen-address=127.0.0.1:")
    (config,) = [a.split("=", 1)[1] for a in command if a.startswith("--config.file=")]
    mounts = {}  # target: source (a source may hold ${VAR:?}, colon and all)
    for volume in host["volumes"]:
        found = re.fullmatch(r"(.+?):(/[^:]*)(?::ro)?", volume)
        assert found, volume
        mounts[found.group(2)] = found.group(1)
    assert mounts[config] == "./deploy/prometheus.test.yml"
    assert mounts["/prometheus"] == "prometheus-data"  # a named volume, gone with `down -v`
    assert "ARENA_METRICS_TOKEN" in host["environment"]
    test_config = yaml.safe_load((ROOT / "deploy" / "prometheus.test.yml").read_text())
    jobs = {job["job_name"]: job for job in test_config["scrape_configs"]}
    real = {job["job_name"]: job for job in prometheus_config()["scrape_configs"]}
    assert set(jobs) == set(real)
    assert jobs["arena-site"]["authorization"] == real["arena-site"]["authorization"]
    assert jobs["arena-site"]["metrics_path"] == real["arena-site"]["metrics_path"]
    for job in jobs.values():
        (discovery,) = job["file_sd_configs"]
        for path in discovery["files"]:
            assert Path(path).parent.as_posix() in mounts, path  # the test's folder
    (rules,) = test_config["rule_files"]
    assert rules == "/etc/prometheus/" + prometheus_config()["rule_files"][0]
