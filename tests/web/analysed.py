"""A match built so that one decision is a known blunder, recorded in the site's store
(alice's bot in the blunderer's seat), and the real analysis task run on it: what the
analysis tests of the site and the browser read."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import update

from arena.engine import Rules, preset
from arena.match import replay as replay_io
from arena.store import write_transaction
from arena.store.bots import ensure_house_bots
from arena.store.models import Replay
from tests.analysis.built import BLUNDER_SEAT, SEED, built_match
from tests.web.factories import World
from web.bench import add_match, play_and_record
from web.database import sessions

BUILT_RULES = preset("standard").replace(target_score=None, max_hands=1)


def record_built_match(app: Flask, world: World) -> tuple[int, int, str]:
    """An unrated match of bob's bot, house bots and alice's bot in the blunderer's seat,
    played and recorded, its replay then the built match's (the same rules and seed);
    its id, the blunder's trick and card."""
    replay, (trick, card) = built_match()

    def seats(house: list[int]) -> list[int]:
        chosen = [world.bob_version_id, house[0], house[1], house[3]]
        chosen[BLUNDER_SEAT] = world.alice_version_id
        return chosen

    return record_replay(app, replay, BUILT_RULES, SEED, seats), trick, str(card)


def record_replay(
    app: Flask,
    replay: dict[str, Any],
    rules: Rules,
    seed: int,
    seats: Callable[[list[int]], list[int]],
) -> int:
    """An unrated match under `rules` and `seed` of the bot versions `seats` chooses (given
    the house bots' versions), played and recorded, its replay then `replay` (a match played
    elsewhere under the same rules and seed: a hand the test needs, such as a blunder or a
    moon shot); its id."""
    with sessions(app)() as db:
        with write_transaction(db):
            house = [bot.id for bot in ensure_house_bots(db)]
            match_id = add_match(
                db, season_id=None, version_ids=seats(house), rules=rules, seed=seed
            )
        play_and_record(db, match_id)
        content = replay_io.dumps(replay)
        with write_transaction(db):
            db.execute(
                update(Replay)
                .where(Replay.match_id == match_id)
                .values(
                    content=content,
                    sha256=hashlib.sha256(content).hexdigest(),
                    size=len(content),
                )
            )
    return match_id


@contextmanager
def analysis_worker(database: str, data_dir: Path) -> Iterator[None]:
    """This process's workers configured on the site's database (an in-memory broker), so
    that the real task (`workers.analysis.analyse_match`) can run here."""
    from workers.app import app as celery
    from workers.app import configure
    from workers.config import Settings

    configure(
        celery,
        Settings(
            data_dir=data_dir,
            database_url=database,
            broker_url="memory://",
            result_backend=None,
        ),
    )
    try:
        yield
    finally:
        configure(celery, Settings.from_environ())


def run_analysis(analysis_id: int) -> str:
    """Run the analysis task on `analysis_id` in this process; its status."""
    from workers.analysis import analyse_match

    status: str = analyse_match.apply(args=(analysis_id,)).get()["status"]
    return status
