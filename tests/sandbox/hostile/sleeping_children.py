"""Not an attack: on its first decision starts two child processes that sleep, then plays
like the SDK's random bot (tests/sandbox/test_turns.py: the children are in the group
frozen off-turn, as the bot is)."""

import subprocess
import sys

from hearts_bot import PlayView
from hearts_bot.starters.random_bot import RandomBot


class SleepingChildren(RandomBot):
    children: tuple[subprocess.Popen[bytes], ...] = ()

    def play_card(self, view: PlayView) -> str:
        if not self.children:
            command = [sys.executable, "-c", "import time; time.sleep(600)"]
            self.children = tuple(subprocess.Popen(command) for _ in range(2))
        return super().play_card(view)
