"""Bot sources the workers' tests upload: honest, slow, and broken ones."""

from __future__ import annotations

import io
import zipfile

FIRST_LEGAL = b'''"""The first legal card, the first cards of the hand."""

from hearts_bot import Bot


class FirstLegal(Bot):
    def pass_cards(self, view):
        return list(view.hand[: view.count])

    def play_card(self, view):
        return view.legal[0]
'''

SLOW = b'''"""Honest, but takes 40 ms over every play: a match lasts seconds."""

import time

from hearts_bot import Bot


class Slow(Bot):
    def pass_cards(self, view):
        return list(view.hand[: view.count])

    def play_card(self, view):
        time.sleep(0.04)
        return view.legal[0]
'''

CRASH_AT_IMPORT = b'''"""Raises while loading: never ready."""

import sys

from hearts_bot import Bot

print("about to fail", file=sys.stderr)
raise RuntimeError("this bot is broken on purpose")


class NeverReached(Bot):  # a bot to the upload's static check; loading fails first
    pass
'''

ILLEGAL = b'''"""Answers a card it does not hold."""

from hearts_bot import Bot


class Illegal(Bot):
    def pass_cards(self, view):
        return list(view.hand[: view.count])

    def play_card(self, view):
        return "ZZ"
'''


def zipped(files: dict[str, bytes]) -> bytes:
    """A zip archive of `files` (name → bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()
