"""The dress rehearsal's uploads: the three starter kits built once, then packed per entrant
with its handicap (`arena.benchmarks.rehearsal` plans them; `workers.rehearsal` uploads).

- python: `sdk/examples/handicap_bot.py` as the upload's `bot.py`, beside `handicap.txt`;
  a broken entrant's `bot.py` is `BROKEN_BOT` (the example, breaking now and then) with
  the example beside it as `handicap_bot.py`.
- cpp: `sdk/starters/cpp` copied into a scratch folder and built there once (`make bot`);
  each upload is the kit's own pack (`bot`, `hearts-bot.toml`) plus `handicap.txt`.
- typescript: `sdk/starters/typescript` copied likewise (its `node_modules` linked, as
  `npm ci` installed it in the checkout) and built once (`npm run build`); each upload
  is `hearts-bot.toml`, `dist/bot.js`, `proto/` plus `handicap.txt`.

The checkout's kits are never built in place: other work may be building them.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import io
import json
import shutil
import subprocess
import tarfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final

from arena.benchmarks.rehearsal import EntrantPlan

ROOT: Final = Path(__file__).resolve().parents[1]
SDK: Final = ROOT / "sdk"
EXAMPLE: Final = SDK / "examples" / "handicap_bot.py"

FAULT_RATE: Final = {"crash": 0.004, "timeout": 0.003, "illegal": 0.006}
"""Per play, from a match's third hand on: about 0.35 to 0.7 chances of a fault in a match
of ten hands (13 plays a hand, about 115 from the third on). A timeout costs its match
the bot's whole bank (11 s of wall time), so it is the rarest; a crash ends the bot's
match (its later decisions fault too, and three faults disqualify it)."""

BROKEN_BOT: Final = '''"""A rehearsal entrant that breaks on purpose now and then.

`arena bench rehearsal` uploaded it. It plays as the handicap example beside it, but from
a match's third hand on (the platform's validation plays two, so the upload is accepted,
as a bot that breaks only in long matches is) each play is, with probability RATE, a
{fault} instead.
"""

import os
import time

from handicap_bot import HandicapBot

FAULT = "{fault}"
RATE = {rate}


class BrokenBot(HandicapBot):
    def play_card(self, view):
        if view.hand_number >= 2 and self.rng.random() < RATE:
            if FAULT == "crash":
                os._exit(3)
            if FAULT == "timeout":
                time.sleep(11.5)  # past the decision's second and the whole 10 s bank
            if FAULT == "illegal":
                wrong = [card for card in view.hand if card not in view.legal]
                if wrong:
                    return wrong[0]
        return super().play_card(view)


if __name__ == "__main__":
    from hearts_bot import run

    run(BrokenBot())
'''


class KitBuildError(RuntimeError):
    """A starter kit could not be built here; the message says what is missing."""


@dataclasses.dataclass(frozen=True)
class BuiltKits:
    """Each kind's files as uploaded (without the handicap), and the build's seconds."""

    files: dict[str, dict[str, bytes]]
    seconds: dict[str, float]


def _run(command: list[str], cwd: Path, what: str) -> None:
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=900, check=False
        )
    except FileNotFoundError as error:
        raise KitBuildError(f"{what}: {command[0]} is not installed ({error})") from None
    if done.returncode != 0:
        tail = (done.stdout + done.stderr)[-2000:]
        raise KitBuildError(f"{what} failed ({' '.join(command)}):\n{tail}")


def kits_digest() -> str:
    """A hash of everything the built kits come from (their sources, the TypeScript kit's
    lockfile, the Python example): a cached build is reused only while it is the same."""
    digest = hashlib.sha256()
    sources = [EXAMPLE]
    for kit in ("cpp", "typescript"):
        folder = SDK / "starters" / kit
        sources += [
            path
            for path in sorted(folder.rglob("*"))
            if path.is_file()
            and not {"node_modules", "dist"} & set(path.relative_to(folder).parts)
            and path.name not in ("bot", "upload.tar.gz", "handicap.txt")
        ]
    for path in sources:
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def cached_kits(scratch: Path, cache: Path | None) -> tuple[BuiltKits, bool]:
    """The kits from `cache` when a build of the same sources is there (and whether they
    were), else `build_kits` and the build stored there. Raises KitBuildError."""
    if cache is None:
        return build_kits(scratch), False
    stored = cache / f"kits-{kits_digest()}.json"
    if stored.is_file():
        data = json.loads(stored.read_text())
        files = {
            kind: {name: base64.b64decode(text) for name, text in kit.items()}
            for kind, kit in data["files"].items()
        }
        return BuiltKits(files, {kind: float(v) for kind, v in data["seconds"].items()}), True
    kits = build_kits(scratch)
    cache.mkdir(parents=True, exist_ok=True)
    encoded = {
        kind: {name: base64.b64encode(content).decode() for name, content in kit.items()}
        for kind, kit in kits.files.items()
    }
    part = stored.with_suffix(".part")
    part.write_text(json.dumps({"files": encoded, "seconds": kits.seconds}))
    part.replace(stored)
    return kits, False


def python_kit() -> BuiltKits:
    """The Python kit alone: the example, read (nothing to build)."""
    return BuiltKits({"python": {"bot.py": EXAMPLE.read_bytes()}}, {})


def build_kits(scratch: Path) -> BuiltKits:
    """Build the C++ and TypeScript kits once in `scratch` (copies of the checkout's), at
    the same time (two subprocesses: the C++ compile is one g++ process, so a second core
    takes the TypeScript one), and read the Python example. Raises KitBuildError naming
    what is missing (the C++ kit's error first when both fail)."""
    with ThreadPoolExecutor(2, thread_name_prefix="kit") as pool:
        cpp = pool.submit(_timed, _build_cpp, scratch)
        typescript = pool.submit(_timed, _build_typescript, scratch)
        built = {"cpp": cpp.result(), "typescript": typescript.result()}
    files = {**python_kit().files, **{kind: kit for kind, (kit, _) in built.items()}}
    return BuiltKits(files, {kind: seconds for kind, (_, seconds) in built.items()})


def _timed(
    build: Callable[[Path], dict[str, bytes]], scratch: Path
) -> tuple[dict[str, bytes], float]:
    started = time.perf_counter()
    return build(scratch), time.perf_counter() - started


def _build_cpp(scratch: Path) -> dict[str, bytes]:
    cpp = scratch / "cpp"
    shutil.copytree(SDK / "starters" / "cpp", cpp, ignore=shutil.ignore_patterns("bot", "*.tar.gz"))
    _run(["make", "bot"], cpp, "building the C++ kit (needs g++, make, libgrpc++-dev)")
    return {
        "hearts-bot.toml": (cpp / "hearts-bot.toml").read_bytes(),
        "bot": (cpp / "bot").read_bytes(),
    }


def _build_typescript(scratch: Path) -> dict[str, bytes]:
    kit = SDK / "starters" / "typescript"
    modules = kit / "node_modules"
    if not (modules / "@grpc" / "grpc-js").is_dir():
        raise KitBuildError(
            f"the TypeScript kit's modules are not installed: run `npm ci` in {kit} (.ci/run does)"
        )
    typescript = scratch / "typescript"
    shutil.copytree(
        kit, typescript, ignore=shutil.ignore_patterns("node_modules", "dist", "*.tar.gz")
    )
    (typescript / "node_modules").symlink_to(modules, target_is_directory=True)
    _run(["npm", "run", "build"], typescript, "building the TypeScript kit (needs node, npm)")
    ts_files = {
        "hearts-bot.toml": (typescript / "hearts-bot.toml").read_bytes(),
        "dist/bot.js": (typescript / "dist" / "bot.js").read_bytes(),
    }
    for path in sorted((typescript / "proto").rglob("*")):
        if path.is_file():
            ts_files[path.relative_to(typescript).as_posix()] = path.read_bytes()
    return ts_files


def upload_files(plan: EntrantPlan, kits: BuiltKits, handicap: float) -> dict[str, bytes]:
    """The files of `plan`'s upload at handicap `handicap`."""
    files = dict(kits.files[plan.kind])
    if plan.fault is not None:
        files["handicap_bot.py"] = files.pop("bot.py")
        source = BROKEN_BOT.format(fault=plan.fault, rate=FAULT_RATE[plan.fault])
        files["bot.py"] = source.encode()
    files["handicap.txt"] = f"{handicap:.4f}\n".encode()
    return files


def pack(files: dict[str, bytes]) -> bytes:
    """A .tar.gz of `files` (an executable `bot` keeps its mode)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, content in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.size = len(content)
            info.mode = 0o755 if name == "bot" else 0o644
            info.mtime = 0
            archive.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


def check_tools() -> str | None:
    """What is missing to build the kits here, or None."""
    for tool in ("make", "g++", "pkg-config", "node", "npm"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    found = subprocess.run(["pkg-config", "--exists", "grpc++", "protobuf"], check=False)
    if found.returncode != 0:
        return "Debian's libgrpc++-dev is not installed"
    return None
