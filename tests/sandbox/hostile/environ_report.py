"""Not an attack: writes its environment to stderr once loaded (``ENVIRON <json>``), then
plays like the SDK's random bot (tests/sandbox/test_bot_environ.py)."""

import json
import os
import sys

from hearts_bot.starters.random_bot import RandomBot

print("ENVIRON " + json.dumps(dict(os.environ), sort_keys=True), file=sys.stderr, flush=True)


class EnvironReport(RandomBot):
    pass
