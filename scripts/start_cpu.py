"""A sandboxed trivial bot's start-to-ready CPU (its cgroup's cpu.stat), for side-by-side runs.

Run from a checkout with its own venv; it uses only what the sandbox has offered since
issue 19 (so it measures an older checkout as well), e.g. today's main beside a branch:

    git worktree add --detach /tmp/base 1a932df && (cd /tmp/base && make build)
    for i in 1 2 3; do for tree in /tmp/base .; do
        (cd $tree && .venv/bin/python /path/to/scripts/start_cpu.py 8); done; done

Prints the median (and each start) in core-milliseconds, after one untimed start.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from workers.sandbox import Sandbox, build_environment
from workers.sandbox.bench import BOT_SOURCE


def main(starts: int) -> None:
    sandbox = Sandbox()
    with tempfile.TemporaryDirectory(prefix="start-cpu-") as folder:
        root = Path(folder)
        root.chmod(0o755)
        (root / "upload").mkdir()
        (root / "upload" / "bot.py").write_text(BOT_SOURCE)
        env = build_environment(
            root / "upload", root / "env", runtime_root=root / "state", offline=True
        )
        used: list[float] = []
        for index in range(starts + 1):
            bot = sandbox.start(env, seat=0)
            try:
                if not bot.wait_ready(60):
                    raise SystemExit(f"the bot did not start: {bot.exit_reason()}")
                cpu = bot.cpu_seconds()
            finally:
                bot.stop()
            if cpu is None:
                raise SystemExit("no cgroup CPU accounting on this machine")
            if index:
                used.append(cpu * 1e3)
    print(
        f"{Path.cwd()}: start-to-ready CPU median {statistics.median(used):.1f} ms "
        f"({', '.join(f'{value:.0f}' for value in used)})"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
