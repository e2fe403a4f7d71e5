"""Not an attack: says on its first decision which event loop serves it (``LOOP
<module>.<class>`` on stderr), then plays like the SDK's random bot
(tests/sandbox/test_runtime.py)."""

import asyncio
import sys

from hearts_bot import PlayView
from hearts_bot.starters.random_bot import RandomBot


class LoopReport(RandomBot):
    said = False

    def play_card(self, view: PlayView) -> str:
        if not self.said:
            loop = type(asyncio.get_running_loop())
            print(f"LOOP {loop.__module__}.{loop.__qualname__}", file=sys.stderr, flush=True)
            self.said = True
        return super().play_card(view)
