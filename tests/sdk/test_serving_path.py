"""What a serving bot imports: only the serving path (no tooling, no package metadata).

Every sandboxed bot pays for its imports in CPU at every start of every match
(docs/benchmarks.md, "Starting a bot"); these tests keep modules that serving never
needs off that path, and the version constant that replaced the metadata look-up true.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import tomllib
from pathlib import Path

from hearts_bot.server import SDK_VERSION, sdk_version

SDK = Path(__file__).resolve().parents[2] / "sdk"
NOT_FOR_SERVING = (
    "importlib.metadata",  # the version: a constant now
    "zipfile",  # importlib.resources and importlib.metadata bring it
    "email",
    "csv",
    "platform",
    "pathlib",  # with urllib.parse, ipaddress and fnmatch: only the contestant's commands
    "shutil",
    "hearts_bot.bench",  # the benchmarks moved to arena.benchmarks.protocol
    "arena",
)


def test_the_version_constant_is_the_distributions():
    declared = tomllib.loads((SDK / "pyproject.toml").read_text())["project"]["version"]
    assert SDK_VERSION == declared == importlib.metadata.version("hearts-bot-sdk")
    python = ".".join(map(str, sys.version_info[:3]))
    assert sdk_version() == f"hearts-bot-sdk/{declared} python/{python}"


def test_the_benchmarks_are_not_in_the_sdk():
    assert not (SDK / "src" / "hearts_bot" / "bench.py").exists()


def test_serving_imports_no_tooling():
    """The modules loaded by what ``hearts-bot serve`` runs before it serves (the package,
    its command-line entry and the server), in a fresh interpreter without ``site`` (the
    sandbox's runtime is plain folders; this venv's editable installs would load pathlib
    from their finders)."""
    import grpc

    folders = [str(SDK / "src"), str(Path(grpc.__file__).parents[1])]
    code = (
        f"import sys; sys.path[:0] = {folders!r}; "
        "import json, hearts_bot, hearts_bot.cli, hearts_bot.server, hearts_bot.loader; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, check=True
    )
    loaded = json.loads(result.stdout)
    assert "grpc" in loaded and "hearts_bot.session" in loaded  # a positive control
    offending = [
        name
        for name in loaded
        for unwanted in NOT_FOR_SERVING
        if name == unwanted or name.startswith(unwanted + ".")
    ]
    assert offending == []
