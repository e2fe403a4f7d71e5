"""docs/protocol.md agrees with the protocol and its commands run (issue 31, item 8): the
framing section names every query (answered) and every notification (never answered)
that `hearts.v1` has, read from the generated descriptors; the stubs command it gives (the
include root `proto/`) generates the C++ stubs; the Node.js section's bundling is the
TypeScript kit's own build.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from hearts_bot.proto.hearts.v1 import bot_pb2

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text()


def section(title: str) -> str:
    """The text of the `## title` section."""
    start = DOC.index(f"\n## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end >= 0 else None]


def named(text: str) -> set[str]:
    return set(re.findall(r"`([a-z_]+)`", text))


def test_the_framing_names_every_query_and_notification() -> None:
    requests = {f.name for f in bot_pb2.PlayMatchRequest.DESCRIPTOR.oneofs_by_name["kind"].fields}
    answers = {f.name for f in bot_pb2.PlayMatchResponse.DESCRIPTOR.fields} - {"request_id", "note"}
    framing = section("Framing: request ids, order and late answers")
    answered, _, rest = framing.partition("The notifications are")
    notifications, _, _ = rest.partition(".")
    assert answers <= named(answered), sorted(answers - named(answered))
    assert requests - answers == named(notifications), sorted(requests - answers)
    assert "Only the three queries" not in DOC


def test_the_stubs_command_it_gives_generates_the_cpp_stubs(tmp_path: Path) -> None:
    if shutil.which("protoc") is None or shutil.which("grpc_cpp_plugin") is None:
        pytest.skip("protoc and grpc_cpp_plugin are not installed here")
    block = re.search(r"```sh\n(.*?)```", section("Stubs for your language"), re.S)
    assert block is not None
    command = block.group(1).replace("\\\n", " ").splitlines()[1].split("#")[0]
    assert "-I proto " in command
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    (tmp_path / "gen").mkdir()
    done = subprocess.run(
        ["sh", "-c", command], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, (shlex.split(command), done.stderr)
    assert (tmp_path / "gen" / "hearts" / "v1" / "bot.grpc.pb.cc").is_file()


def test_the_node_section_bundles_as_the_typescript_kit_does() -> None:
    node = section("A Node.js bot")
    kit = json.loads((ROOT / "sdk" / "starters" / "typescript" / "package.json").read_text())
    bundling = re.search(r"esbuild [^\n`]*--bundle[^\n`]*", node)
    assert bundling is not None and bundling.group(0).strip() in kit["scripts"]["build"]
    assert "256 files and 8 MiB" in node
