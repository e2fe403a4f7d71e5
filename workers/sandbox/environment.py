"""The read-only environments bots run in: one shared runtime, one per bot version.

* The **runtime** holds what every bot imports from us: the SDK (``hearts_bot``), grpcio,
  protobuf and uvloop (the SDK's event loop when importable: a tenth off a decision's
  CPU in the bot), and what they require, copied from this interpreter's environment into
  ``<root>/runtime/<key>/site-packages`` (built once per set of versions; nothing else of
  the worker's environment, and none of its code, is there).
* A **version environment** (``build_environment``, at validation time) is a copy of the
  unpacked upload (regular files and folders only) and a venv whose site-packages
  reaches the runtime through a ``.pth`` file and holds the bot's own requirements.
  Requirements are plain names and versions only (no options, URLs or paths) and are
  installed as wheels only, so installing them runs none of their code on the worker.

Both are mounted read-only into the sandbox at the same paths as on the host.
"""

from __future__ import annotations

import compileall
import contextlib
import dataclasses
import fcntl
import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import py_compile
import re
import shutil
import stat
import subprocess
import sys
import sysconfig
import urllib.error
import urllib.request
import venv
from collections.abc import Iterator
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from .errors import EnvironmentBuildError, PackageIndexUnavailableError

RUNTIME_DISTRIBUTIONS = ("hearts-bot-sdk", "grpcio", "protobuf", "uvloop")
"""What every bot gets (with their requirements); a bot's own needs go in requirements.txt."""
MANIFEST = "environment.json"
REQUIREMENTS = "requirements.txt"
PTH_NAME = "_hearts_arena_runtime.pth"
PIP_TIMEOUT_SECONDS = 600.0
PIP_LOG_BYTES = 16_384
INDEX_TROUBLE = re.compile(
    r"NewConnectionError|ConnectTimeoutError|ReadTimeoutError|ProtocolError|ProxyError"
    r"|Max retries exceeded|Temporary failure in name resolution|Name or service not known"
    r"|Connection refused|Connection reset|Could not fetch URL|HTTP error 5\d\d"
    r"|\b5\d\d Server Error|Read timed out"
)
"""What pip prints when the index, not the requirement, is at fault (it still ends with
"No matching distribution found", as for a name that does not exist)."""


@dataclasses.dataclass(frozen=True)
class BotEnvironment:
    """A built bot version: where its files, venv and runtime are, and what to run."""

    root: Path
    bot_dir: Path
    venv: Path
    runtime: Path
    entry: str
    """The bot file, relative to `bot_dir` (what ``hearts_bot serve`` loads)."""

    @property
    def python(self) -> Path:
        """The venv's interpreter."""
        return self.venv / "bin" / "python"

    @property
    def interpreter_prefix(self) -> Path:
        """The base interpreter's installation (mounted read-only beside the venv)."""
        return Path(os.path.realpath(sys.base_prefix))

    def host_mounts(self) -> list[Path]:
        """Host folders the sandbox mirrors read-only at the same path (besides /usr)."""
        mounts = [self.interpreter_prefix, self.runtime, self.venv]
        return [path for path in mounts if not _is_within(path, Path("/usr"))]

    def hidden_paths(self) -> list[Path]:
        """Folders inside the mounts (/usr and `host_mounts`) that the sandbox covers with
        an empty tmpfs: see `platform_paths`."""
        mounted = [Path("/usr"), *self.host_mounts()]
        keep = [self.runtime, self.venv]
        return [
            path
            for path in platform_paths()
            if any(_is_within(path, root) for root in mounted)
            and not any(_is_within(kept, path) for kept in keep)
        ]

    @classmethod
    def load(cls, root: Path) -> BotEnvironment:
        """The environment built at `root`. Raises EnvironmentBuildError if none is complete."""
        try:
            manifest = json.loads((root / MANIFEST).read_text())
        except (OSError, ValueError) as error:
            raise EnvironmentBuildError(f"no complete bot environment at {root}: {error}") from None
        return cls(root, root / "bot", root / "venv", Path(manifest["runtime"]), manifest["entry"])


def _is_within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


PLATFORM_PACKAGES = ("arena", "workers", "web")


@functools.cache
def platform_paths() -> tuple[Path, ...]:
    """Where the platform and the interpreter's installed packages are on this host: the
    base interpreter's site-packages (and Debian's dist-packages), the worker's own
    environment when it is a venv, and the platform's package folders.

    The sandbox mounts the interpreter's installation (for its standard library) and
    /usr (for the C libraries); in an image where the platform was installed into the
    base interpreter, or into /usr/local, that would bring the platform's code and every
    dependency of it (Flask, SQLAlchemy, Celery, ...) into every bot's reach. A bot
    needs none of them: its packages come from the runtime and its own venv. Computed
    once per process (about 1.5 ms).
    """
    found: set[Path] = set()
    base = os.path.realpath(sys.base_prefix)
    for key in ("purelib", "platlib"):
        found.add(Path(sysconfig.get_path(key, vars={"base": base, "platbase": base})))
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for root in ("/usr/lib", "/usr/local/lib"):
        found.add(Path(root) / "python3" / "dist-packages")
        found.add(Path(root) / version / "dist-packages")
        found.add(Path(root) / version / "site-packages")
    if sys.prefix != sys.base_prefix:
        found.add(Path(sys.prefix))
    for name in PLATFORM_PACKAGES:
        spec = importlib.util.find_spec(name)
        for location in (spec.submodule_search_locations or []) if spec else []:
            found.add(Path(location))
    resolved = sorted({Path(os.path.realpath(path)) for path in found if path.is_dir()})
    return tuple(path for path in resolved if not any(p in path.parents for p in resolved))


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


# -- the runtime -----------------------------------------------------------------------------


def _closure(names: tuple[str, ...]) -> list[importlib.metadata.Distribution]:
    """The installed distributions `names` and everything they require (no extras)."""
    found: dict[str, importlib.metadata.Distribution] = {}
    pending = list(names)
    while pending:
        name = canonicalize_name(pending.pop())
        if name in found:
            continue
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            raise EnvironmentBuildError(
                f"{name} is not installed in the worker's environment ({sys.prefix}); "
                "the bot runtime is copied from it"
            ) from None
        found[name] = dist
        for text in dist.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                pending.append(requirement.name)
    return [found[name] for name in sorted(found)]


def _editable(dist: importlib.metadata.Distribution) -> bool:
    text = dist.read_text("direct_url.json")
    if not text:
        return False
    return bool(json.loads(text).get("dir_info", {}).get("editable"))


def _top_level_sources(dist: importlib.metadata.Distribution) -> list[Path]:
    """The package folders or modules of an editable distribution (found by import)."""
    sources: list[Path] = []
    for name in (dist.read_text("top_level.txt") or "").split():
        spec = importlib.util.find_spec(name)
        if spec is None:
            raise EnvironmentBuildError(f"cannot find {name}, of {dist.metadata['Name']}")
        if spec.submodule_search_locations:
            sources.extend(Path(p) for p in spec.submodule_search_locations)
        elif spec.origin:
            sources.append(Path(spec.origin))
    return sources


def _dist_files(dist: importlib.metadata.Distribution, site: Path) -> list[tuple[Path, Path]]:
    """(source, path relative to site-packages) for what `dist` installed there."""
    pairs = []
    for entry in dist.files or []:
        source = Path(str(dist.locate_file(entry))).resolve()
        if _is_within(source, site) and source.is_file() and not source.name.endswith(".pth"):
            pairs.append((source, source.relative_to(site)))
    return pairs


def _runtime_key(dists: list[importlib.metadata.Distribution]) -> str:
    digest = hashlib.sha256(sys.version.encode())
    for dist in dists:
        digest.update(f"{dist.metadata['Name']}=={dist.version}\n".encode())
        if _editable(dist):  # a checkout being edited: key on its files' sizes and times
            for source in _top_level_sources(dist):
                for path in sorted(source.rglob("*.py")) if source.is_dir() else [source]:
                    info = path.stat()
                    digest.update(f"{path}:{info.st_size}:{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def build_runtime(root: Path) -> Path:
    """The runtime site-packages for this worker's versions (built under `root` if needed).

    Raises EnvironmentBuildError if a runtime distribution is not installed here.
    """
    dists = _closure(RUNTIME_DISTRIBUTIONS)
    target = root / "runtime" / _runtime_key(dists)
    site_packages = target / "site-packages"
    if (target / MANIFEST).exists():
        return site_packages
    with _locked(root / "runtime" / ".lock"):
        if (target / MANIFEST).exists():
            return site_packages
        if target.exists():
            shutil.rmtree(target)
        site = Path(sysconfig.get_paths()["purelib"]).resolve()
        for dist in dists:
            if _editable(dist):
                for source in _top_level_sources(dist):
                    destination = site_packages / source.name
                    if source.is_dir():
                        shutil.copytree(
                            source,
                            destination,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                        )
                    else:
                        shutil.copy2(source, destination)
                for source, relative in _dist_files(dist, site):
                    if ".dist-info" in relative.parts[0]:
                        (site_packages / relative).parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(source, site_packages / relative)
            else:
                for source, relative in _dist_files(dist, site):
                    (site_packages / relative).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(source, site_packages / relative)
        compile_runtime(site_packages)
        _make_readable(target)
        (target / MANIFEST).write_text(
            json.dumps({"distributions": {d.metadata["Name"]: d.version for d in dists}}, indent=2)
        )
    return site_packages


def compile_runtime(site_packages: Path) -> None:
    """Compile every module of the runtime once, when it is built.

    The sandbox mounts the runtime read-only and bots run with ``-B``: a module without
    valid bytecode would be compiled again in every bot at every start. Unchecked-hash
    bytecode is used as it is, whatever the sources' times say (the runtime never
    changes once built, even if a copy of it loses its times), and saves the check.
    """
    compileall.compile_dir(
        site_packages,
        quiet=1,
        workers=1,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )


# -- a bot version's environment ----------------------------------------------------------


def parse_requirements(text: str) -> list[str]:
    """The requirement specifiers of a requirements.txt, refusing anything else.

    >>> parse_requirements("# deps\\nnumpy>=1.26  # arrays\\n\\nsix\\n")
    ['numpy>=1.26', 'six']
    >>> parse_requirements("--index-url http://example.invalid/")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workers.sandbox.errors.EnvironmentBuildError: requirements.txt line 1: ... is not a plain...
    """
    requirements = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        refusal = EnvironmentBuildError(
            f"{REQUIREMENTS} line {number}: {line!r} is not a plain requirement "
            "(name and versions only: no options, URLs or paths)"
        )
        if line.startswith("-") or "/" in line or "\\" in line:
            raise refusal
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            raise refusal from None
        if requirement.url:
            raise refusal
        requirements.append(str(requirement))
    return requirements


def _copy_upload(upload: Path, destination: Path) -> list[str]:
    """Copy regular files and folders (not links, devices, ...); the skipped paths."""
    skipped = []
    for folder, subfolders, files in os.walk(upload, followlinks=False):
        here = Path(folder)
        relative = here.relative_to(upload)
        (destination / relative).mkdir(parents=True, exist_ok=True)
        for name in list(subfolders):
            if (here / name).is_symlink():
                skipped.append(str(relative / name))
                subfolders.remove(name)
        for name in files:
            source = here / name
            info = source.lstat()
            if not stat.S_ISREG(info.st_mode):
                skipped.append(str(relative / name))
                continue
            shutil.copyfile(source, destination / relative / name, follow_symlinks=False)
    return skipped


def _make_readable(root: Path) -> None:
    """Folders 0755, files 0644 (0755 if executable): readable by bots, writable by none
    of them (the tree is owned by the worker's user)."""
    for folder, _, files in os.walk(root):
        os.chmod(folder, 0o755)
        for name in files:
            path = Path(folder) / name
            if not path.is_symlink():
                executable = path.stat().st_mode & 0o111
                os.chmod(path, 0o755 if executable else 0o644)


def _pip_env() -> dict[str, str]:
    keep = (
        "PATH",
        "LANG",
        "HOME",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "HTTPS_PROXY",
        "HTTP_PROXY",
        "NO_PROXY",
        "https_proxy",
        "http_proxy",
        "no_proxy",
    )
    env = {key: value for key, value in os.environ.items() if key in keep or key.startswith("PIP_")}
    env["PIP_NO_INPUT"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def unanswered_indexes(pip_log: str, timeout: float = 10.0) -> list[str]:
    """The http(s) indexes pip says it looked in ("Looking in indexes: ...") that do not
    answer now, each with why: a refused or timed-out connection, or a 5xx.

    pip says "No matching distribution found" both for a name no index has and for an
    index it could not reach, and with few retries it prints nothing of the connection:
    asking the index ourselves tells the bot's mistake from our outage.
    """
    found = re.search(r"^Looking in indexes: (.+)$", pip_log, re.MULTILINE)
    if found is None:
        return []
    down = []
    for url in (part.strip() for part in found.group(1).split(",")):
        if not url.startswith(("http://", "https://")) or "****" in url:  # pip hid a password
            continue
        try:
            with urllib.request.urlopen(url, timeout=timeout):
                pass
        except urllib.error.HTTPError as error:
            if error.code >= 500:
                down.append(f"{url} answered HTTP {error.code}")
        except (OSError, ValueError) as error:
            reason = getattr(error, "reason", error)
            down.append(f"{url} did not answer: {reason}")
    return down


def _install(
    env: BotEnvironment, requirements: list[str], *, offline: bool, index_url: str | None
) -> None:
    command = [
        sys.executable,
        "-m",
        "pip",
        "--python",
        str(env.python),
        "install",
        "--only-binary=:all:",
        "--no-warn-script-location",
        "--progress-bar=off",
    ]
    if offline:
        command.append("--no-index")
    if index_url:
        command += ["--index-url", index_url]
    command += ["--", *requirements]
    try:
        result = subprocess.run(
            command,
            capture_output=True,
            text=True,
            env=_pip_env(),
            timeout=PIP_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise PackageIndexUnavailableError(
            f"installing the requirements took over {PIP_TIMEOUT_SECONDS:.0f} s"
        ) from None
    if result.returncode != 0:
        log = (result.stdout + result.stderr)[-PIP_LOG_BYTES:]
        trouble = [line.strip() for line in log.splitlines() if INDEX_TROUBLE.search(line)]
        trouble += unanswered_indexes(log)
        if trouble:
            said = "\n".join(line[:400] for line in trouble[-3:])
            raise PackageIndexUnavailableError(
                f"the package index did not answer while installing the requirements:\n{said}"
            )
        raise EnvironmentBuildError(f"installing the requirements failed:\n{log}")


def build_environment(
    upload: Path,
    destination: Path,
    *,
    runtime_root: Path,
    entry: str = "bot.py",
    offline: bool = False,
    index_url: str | None = None,
) -> BotEnvironment:
    """Build (once) the environment of the unpacked upload `upload` at `destination`.

    `entry` is the bot file in the upload; its requirements.txt, if any, is installed as
    wheels (from `index_url`, pip's default or configuration otherwise; none with
    `offline`). A requirement the runtime already satisfies is not installed again.
    Returns the existing environment if `destination` is complete already.
    Raises EnvironmentBuildError for a bad upload or requirements (the message is for the
    bot's owner).
    """
    entry_path = Path(entry)
    if entry_path.is_absolute() or ".." in entry_path.parts or entry_path.suffix != ".py":
        raise EnvironmentBuildError(f"the bot file {entry!r} must be a .py path inside the upload")
    source = upload / entry_path
    if source.is_symlink() or not source.is_file():
        raise EnvironmentBuildError(f"the upload has no bot file {entry}")
    with _locked(destination.parent / f".{destination.name}.lock"):
        if (destination / MANIFEST).exists():
            return BotEnvironment.load(destination)
        if destination.exists():
            shutil.rmtree(destination)
        runtime = build_runtime(runtime_root)
        requirements_file = upload / REQUIREMENTS
        requirements: list[str] = []
        if requirements_file.is_file() and not requirements_file.is_symlink():
            requirements = parse_requirements(requirements_file.read_text(errors="replace"))
        destination.mkdir(parents=True)
        env = BotEnvironment(
            destination, destination / "bot", destination / "venv", runtime, entry_path.as_posix()
        )
        skipped = _copy_upload(upload, env.bot_dir)
        venv.EnvBuilder(symlinks=True, with_pip=False).create(env.venv)
        site_packages = next((env.venv / "lib").glob("python3*/site-packages"))
        (site_packages / PTH_NAME).write_text(f"{runtime}\n")
        if requirements:
            _install(env, requirements, offline=offline, index_url=index_url)
        _make_readable(destination)
        (destination / MANIFEST).write_text(
            json.dumps(
                {
                    "entry": env.entry,
                    "runtime": str(runtime),
                    "requirements": requirements,
                    "skipped": skipped,
                    "python": sys.version.split()[0],
                },
                indent=2,
            )
        )
        return env
