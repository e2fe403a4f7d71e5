"""Whole hands over real gRPC, each bot in its own process: the 20-line example bot, a
bot from `hearts-bot new`, and the starters, driven by the SDK's load generator (the
platform's match runner plays them through `hearts-bot play` once it exists)."""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from arena.benchmarks.protocol import BotStream, HandDriver, match_start_message

from .conftest import BOTS, SDK

EXAMPLE = SDK / "examples" / "low_bot.py"


async def play_hands(addresses: list[str], hands: int) -> HandDriver:
    streams = [BotStream(address) for address in addresses]
    try:
        for seat, stream in enumerate(streams):
            await stream.start(match_start_message(seat))
        driver = HandDriver(streams, seed=11)
        for hand_number in range(hands):
            await driver.play_hand(hand_number)
        return driver
    finally:
        for stream in streams:
            await stream.close()


@pytest.mark.timeout(120)
def test_the_example_bot_is_about_twenty_lines():
    assert len(EXAMPLE.read_text().splitlines()) <= 22


@pytest.mark.timeout(120)
def test_the_example_bot_plays_whole_hands_against_the_starters(start_bot):
    bots = [
        start_bot(spec)
        for spec in (
            str(EXAMPLE),
            "starter:random",
            "starter:heuristic",
            str(BOTS / "recording_bot.py"),
        )
    ]
    driver = asyncio.run(play_hands([bot.address for bot in bots], hands=4))
    assert driver.decisions == 4 * 52 + 3 * 4  # three passing hands and one hold hand
    for bot in bots:
        assert bot.process.poll() is None
        assert "warning" not in bot.stderr  # every answer was legal
    # The last notifications are written just before the stream closes, and the bot logs
    # them as it reads them: wait (boundedly) for it to have read them all.
    deadline = time.monotonic() + 20.0
    while bots[3].stderr.count("EVENT hand_end") < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    events = bots[3].stderr
    assert events.count("EVENT trick_end") == 4 * 13 and events.count("EVENT hand_end") == 4


@pytest.mark.timeout(120)
def test_a_new_bot_plays_as_written(start_bot, tmp_path):
    import subprocess

    subprocess.run(
        [sys.executable, "-m", "hearts_bot", "new", "fresh", "--dir", str(tmp_path)],
        check=True,
        timeout=60,
        capture_output=True,
    )
    bots = [start_bot(str(tmp_path / "fresh.py"))]
    bots += [start_bot("starter:heuristic") for _ in range(3)]
    driver = asyncio.run(play_hands([bot.address for bot in bots], hands=2))
    assert driver.decisions == 2 * 52 + 8
    assert all("warning" not in bot.stderr for bot in bots)
