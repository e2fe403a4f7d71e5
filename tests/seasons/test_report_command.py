"""`arena season-report`: a season measured on its own games, from the command line."""

from __future__ import annotations

import json

from click.testing import CliRunner
from sqlalchemy import URL
from sqlalchemy.orm import Session, sessionmaker

from arena.commands.ratings import season_report
from arena.store import record_match_result
from arena.store.models import Season
from tests.store.factories import queued_match, result_for, running_season


def test_the_report_prints_the_pairs_and_stores_on_request(
    db_url: URL, sessions: sessionmaker[Session]
) -> None:
    with sessions() as session:
        season, versions = running_season(session, 4, house_bots=False)
        ids = [v.id for v in versions]
        for scores in ([10, 20, 30, 40], [40, 10, 20, 30], [20, 30, 10, 40]):
            match = queued_match(session, season, versions)
            record_match_result(session, match.id, result_for(ids, scores))
        season_id = season.id
    url = db_url.render_as_string(hide_password=False)
    shown = CliRunner().invoke(season_report, [str(season_id), "--url", url, "--json"])
    assert shown.exit_code == 0, shown.output
    body = json.loads(shown.output)
    assert len(body["owner_pairs"]) == 6  # four owners, every pair met
    assert body["evidence"]["games"] == 0  # the factory's results carry no replay hands
    stored = CliRunner().invoke(season_report, [str(season_id), "--url", url, "--store"])
    assert stored.exit_code == 0 and "owner pairs that met: 6" in stored.output
    with sessions() as session:
        report = session.get(Season, season_id)
        assert report is not None and report.final_report is not None
        assert report.final_report["evidence"]["summary"] == "no recorded games to measure"
    missing = CliRunner().invoke(season_report, ["999", "--url", url])
    assert missing.exit_code == 1 and "no season 999" in missing.output
