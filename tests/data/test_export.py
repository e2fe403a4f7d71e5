"""A season's open data: written from a season played by the real runner and stored by the
store, read back, every replay verified, checksums checked, notes published only where
their owners opted in, a running season refused and a month exported on its own."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pyarrow.parquet as pq
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from arena.data.check import DumpError, check_dump, check_sums, read_lines
from arena.data.export import (
    HANDS_FILE,
    MATCHES_FILE,
    SUMS_FILE,
    ExportError,
    export_season,
    line_schema,
)
from arena.data.played import play_season
from arena.data.record import HIDDEN_DETAIL
from arena.match import replay as replay_io
from arena.match.replay_v2 import ReplayV2, verify_v2
from arena.store import write_transaction
from arena.store.models import Bot, BotVersion, DataExport, Match, MatchSeat, MatchStatus, Replay

STRENGTHS = (0.0, 0.3, 0.6, 1.0, 0.2, 0.8)


def clock(start: datetime, step: timedelta) -> Callable[[], datetime]:
    """A clock that moves `step` at every reading."""
    times: Iterator[datetime] = (start + i * step for i in range(10**6))
    return lambda: next(times)


def test_a_dump_reads_back_and_every_replay_verifies(session: Session, tmp_path: Path) -> None:
    played = play_season(session, name="open", strengths=STRENGTHS, matches=10)
    dump = export_season(session, played.season_id, tmp_path)
    folder = tmp_path / dump.folder
    rated = session.scalar(
        select(func.count()).select_from(Match).where(Match.rating_seq.is_not(None))
    )
    hands = session.scalar(select(func.sum(Match.hands_played)).where(Match.status == "done"))
    assert dump.matches == rated == played.matches
    assert dump.hands == hands == played.hands

    checked = check_dump(folder)
    assert checked.schema_checked
    assert (checked.matches, checked.hands, checked.table_rows) == (rated, hands, hands)

    validator = jsonschema.Draft202012Validator(json.loads((folder / "schema.json").read_text()))
    verified = 0
    for line in read_lines(folder):
        validator.validate(line)
        verify_v2(ReplayV2.from_dict(line["replay"]))
        entrants = {e["bot_version_id"] for e in line["entrants"]}
        assert entrants <= set(played.strengths)
        assert all(len(e["archive_sha256"]) == 64 for e in line["entrants"])
        first_hand = line["seat_views"][0][0]
        assert sorted(c for seat in first_hand for c in seat["dealt"]) == sorted(
            {c for seat in first_hand for c in seat["dealt"]}
        )  # a deal of one pack: every card once
        assert sum(len(seat["dealt"]) for seat in first_hand) == 52
        verified += 1
    assert verified == rated

    table = pq.read_table(folder / HANDS_FILE)
    assert table.num_rows == hands
    assert set(table.column("match_id").to_pylist()) == set(
        session.scalars(select(Match.id).where(Match.rating_seq.is_not(None)))
    )
    assert session.scalar(select(func.count()).select_from(DataExport)) == 1


def test_a_changed_byte_fails_the_checksums(session: Session, tmp_path: Path) -> None:
    played = play_season(session, name="sums", strengths=STRENGTHS, matches=3)
    folder = tmp_path / export_season(session, played.season_id, tmp_path).folder
    assert check_sums(folder) == 6
    data = bytearray((folder / HANDS_FILE).read_bytes())
    data[len(data) // 2] ^= 0x01
    (folder / HANDS_FILE).write_bytes(bytes(data))
    with pytest.raises(DumpError, match=r"hands\.parquet: SHA-256"):
        check_dump(folder)


def _add_notes_and_faults(session: Session, match_ids: list[int]) -> None:
    """Give every decision a note naming its entrant, a fault text and logs (as a bot
    that writes them would leave the stored replay)."""
    session.rollback()
    with write_transaction(session):
        for row in session.scalars(select(Replay).where(Replay.match_id.in_(match_ids))):
            replay = replay_io.loads(row.content)
            for game in replay["games"]:
                for hand in game["hands"]:
                    for action in hand["actions"]:
                        if "ms" in action:
                            action["note"] = f"entrant {game['seating'][action['seat']]} thinks"
            replay["logs"] = [f"secret log {i}" for i in range(len(replay["entrants"]))]
            replay["notes"] = [{"kept": 1, "dropped": 0} for _ in replay["entrants"]]
            row.content = replay_io.dumps(replay)


def test_notes_are_published_only_where_their_owner_opted_in(
    session: Session, tmp_path: Path
) -> None:
    played = play_season(session, name="notes", strengths=STRENGTHS, matches=4)
    match_ids = list(session.scalars(select(Match.id).where(Match.status == MatchStatus.DONE)))
    _add_notes_and_faults(session, match_ids)
    opted = min(played.strengths)
    session.rollback()
    with write_transaction(session):
        bot = session.scalars(
            select(Bot).join(BotVersion, BotVersion.bot_id == Bot.id).where(BotVersion.id == opted)
        ).one()
        bot.notes_public = True
    folder = tmp_path / export_season(session, played.season_id, tmp_path).folder
    check_dump(folder)  # notes out, the replays still verify
    seen_opted = 0
    for line in read_lines(folder):
        replay = line["replay"]
        opted_entrants = {e["entrant"] for e in line["entrants"] if e["notes_published"]}
        assert opted_entrants == {
            e["entrant"] for e in line["entrants"] if e["bot_version_id"] == opted
        }
        notes = {
            action["note"].split()[1]
            for game in replay["games"]
            for hand in game["hands"]
            for action in hand["actions"]
            if "note" in action
        }
        assert notes == {str(e) for e in opted_entrants}
        seen_opted += bool(opted_entrants)
        assert all(log == "" for log in replay["logs"])
        assert all(f["detail"] == HIDDEN_DETAIL for f in replay["faults"] if "detail" in f)
        assert "secret log" not in json.dumps(line)
    in_matches = session.scalar(
        select(func.count()).select_from(MatchSeat).where(MatchSeat.bot_version_id == opted)
    )
    assert seen_opted == in_matches


def test_a_season_is_exported_once_finished_and_a_month_once_over(
    session: Session, tmp_path: Path
) -> None:
    start = datetime(2026, 9, 30, 12, tzinfo=UTC)
    played = play_season(
        session,
        name="ladder",
        strengths=STRENGTHS,
        matches=12,
        finish=False,
        now=clock(start, timedelta(hours=4)),
    )
    with pytest.raises(ExportError, match="is running"):
        export_season(session, played.season_id, tmp_path)
    with pytest.raises(ExportError, match="not over"):
        export_season(session, played.season_id, tmp_path, month="2026-10", now=start)
    with pytest.raises(ExportError, match="YYYY-MM"):
        export_season(session, played.season_id, tmp_path, month="October")
    months = {"2026-09": 0, "2026-10": 0}
    for finished in session.scalars(select(Match.finished_at).where(Match.status == "done")):
        assert finished is not None
        months[finished.astimezone(UTC).strftime("%Y-%m")] += 1
    assert all(months.values())  # the clock put matches in both months
    for month, count in months.items():
        dump = export_season(session, played.season_id, tmp_path, month=month)
        assert dump.folder == f"season-{played.season_id}-{month}"
        assert dump.matches == count
        assert check_dump(tmp_path / dump.folder).matches == count
    again = export_season(session, played.season_id, tmp_path, month="2026-09")
    assert again.matches == months["2026-09"]  # the same period's row, replaced
    assert session.scalar(select(func.count()).select_from(DataExport)) == 2


def test_a_duplicate_season_exports_every_rotation(session: Session, tmp_path: Path) -> None:
    played = play_season(session, name="dup", strengths=STRENGTHS, matches=2, duplicate_sets=True)
    folder = tmp_path / export_season(session, played.season_id, tmp_path).folder
    checked = check_dump(folder)
    with gzip.open(folder / MATCHES_FILE, "rt") as lines:
        first = json.loads(next(lines))
    assert first["match"]["format"] == "duplicate"
    assert len(first["replay"]["games"]) == 4  # one game per seat rotation
    assert len(first["seat_views"]) == 4
    assert checked.table_rows == played.hands
    assert (folder / SUMS_FILE).read_text().count("\n") == 6


def test_the_line_schema_embeds_replay_v2() -> None:
    schema = line_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$defs"]["replay"]["$id"] == schema["properties"]["replay"]["$ref"]


def test_small_pages_and_row_groups_write_the_same_dump(
    session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What bounds the export's memory: pages of CHUNK matches and row groups of
    # ROW_GROUP hands. Tiny ones must give the same lines and rows.
    from arena.data import export

    played = play_season(session, name="pages", strengths=STRENGTHS, matches=6)
    whole = tmp_path / "whole"
    export_season(session, played.season_id, whole)
    monkeypatch.setattr(export, "CHUNK", 2)
    monkeypatch.setattr(export, "ROW_GROUP", 16)
    small = tmp_path / "small"
    dump = export_season(session, played.season_id, small)
    checked = check_dump(small / dump.folder)
    assert checked.row_groups >= played.hands // 16
    assert list(read_lines(small / dump.folder)) == list(read_lines(whole / dump.folder))
    assert pq.read_table(small / dump.folder / HANDS_FILE).equals(
        pq.read_table(whole / dump.folder / HANDS_FILE)
    )


def test_a_faults_text_and_the_logs_are_never_published() -> None:
    from arena.data.record import public_replay

    stored: dict[str, Any] = {
        "version": 2,
        "games": [],
        "logs": ["Traceback: my secret strategy", ""],
        "faults": [{"entrant": 0, "kind": "error", "detail": "ValueError: secret", "hand": 3}],
    }
    published = public_replay(stored, notes_from={0, 1})
    assert published["logs"] == ["", ""]
    assert published["faults"] == [
        {"entrant": 0, "kind": "error", "detail": HIDDEN_DETAIL, "hand": 3}
    ]
    assert stored["faults"][0]["detail"] == "ValueError: secret"  # the stored one kept
    with pytest.raises(ValueError, match="v2"):
        public_replay({"version": 1, "games": []}, notes_from=set())
