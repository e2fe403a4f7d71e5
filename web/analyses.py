"""The analysis of a match on the site (issue 33; docs/analysis.md): asked for from the
match page, run by a worker on the "analysis" queue, shown beside the replay viewer (each
judged decision's loss, the best answer, every answer's evaluation), summed up on the bot
page.

Who may ask: the owner of a bot in the match and admins, and anyone signed in when the
match's season has `public_analyses`; each ask of a new analysis counts against the
asker's quota (`quotas.check_analysis`), an analysis already made is served from the
store. Anyone who may see the match may read its analysis: it holds what the replay
already shows, judged from each seat's own view.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, url_for
from werkzeug.wrappers import Response

from arena.analysis import Settings
from arena.analysis.review import ANALYSIS_VERSION
from arena.engine import Rules
from arena.store import analyses
from arena.store.models import AnalysisStatus, Match, MatchAnalysis, MatchStatus, User

from . import analysis_labels as labels
from . import database, quotas
from .auth import current_user
from .loaders import load_match

bp = Blueprint("analyses", __name__)

DEFAULT = Settings(hindsight=True)
"""The depth the site analyses at: `arena.analysis`'s default, with the "all hands known"
hindsight of every play (always: it adds a few per cent to an analysis's cost,
docs/benchmarks.md), shown apart from the fair view and only for a finished match."""

HINDSIGHT_ABOUT = (
    "Hindsight: each answer played out on the real deal, with every hand known, which no "
    "seat could know. It is not a judgement of the decision: a large loss here with a "
    "small fair one is bad luck, not a mistake."
)
"""The one line that says what the hindsight view is (the viewer and the API show it)."""


def may_request(match: Match, user: User | None) -> bool:
    """Whether `user` may ask for the match's analysis (see the module's docstring)."""
    if user is None or match.status is not MatchStatus.DONE:
        return False
    if user.is_admin or (match.season is not None and match.season.public_analyses):
        return True
    return user.id in analyses.owner_ids(database.session(), match.id)


def state(match: Match, user: User | None = None) -> dict[str, Any]:
    """The match's analysis as the page and the API show it: status, progress, result,
    and whether `user` (by default the signed-in user) may ask for it.

    The site's depth holds the hindsight view; a finished analysis made before the site
    asked for it (`hindsight` false in its depth key) is served for its fair view, which
    asking for hindsight does not change, with no hindsight (`with_hindsight` false)."""
    db = database.session()
    depth = (match.id, DEFAULT.samples, DEFAULT.playouts, DEFAULT.seed)
    row = analyses.find(db, *depth, hindsight=True)
    if row is None:
        older = analyses.find(db, *depth, hindsight=False)
        if older is not None and older.status is AnalysisStatus.DONE:
            row = older
    return describe(match, row, current_user() if user is None else user)


def describe(match: Match, row: MatchAnalysis | None, user: User | None) -> dict[str, Any]:
    """`row` (or none) as JSON, with whether `user` may ask for it: the fair analysis under
    `analysis`, its hindsight apart under `hindsight` (see `hindsight_of`)."""
    body: dict[str, Any] = {
        "match_id": match.id,
        "status": "none" if row is None else row.status.value,
        "may_request": may_request(match, user),
        "hindsight": None,
    }
    if row is not None:
        result = row.result if row.status is AnalysisStatus.DONE else None
        body.update(
            {
                "id": row.id,
                "done": row.done,
                "total": row.total,
                "samples": row.samples,
                "playouts": row.playouts,
                "seed": row.seed,
                "with_hindsight": row.hindsight,
                "version": (result or {}).get("version"),
                "outdated": analyses.is_outdated(row, ANALYSIS_VERSION),
                "asked_at": row.created_at.isoformat(),
                "finished_at": row.finished_at.isoformat() if row.finished_at else None,
                "error": row.error,
                "analysis": fair_of(result),
                "hindsight": hindsight_of(match, row, result),
            }
        )
    return body


def fair_of(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """The stored result without the hindsight of its decisions: the fair view alone."""
    if result is None:
        return None
    decisions = [
        {k: v for k, v in d.items() if k != "hindsight"} for d in result.get("decisions", [])
    ]
    return {**result, "decisions": decisions}


def hindsight_of(
    match: Match, row: MatchAnalysis, result: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The "all hands known" view of a finished match's analysis made with it: `about`
    (what it is, in one line) and, per decision that has one (a play, a pass, every kind
    judged on worlds: arena/analysis/hindsight.py), where it was, the answer chosen, the
    best answer in hindsight, the chosen answer's loss, every answer's value on the real
    deal and the playouts per answer. None for a match not finished (it shows every
    hand), or an analysis without it."""
    if match.status is not MatchStatus.DONE or not row.hindsight or result is None:
        return None
    place = (
        "game",
        "hand",
        "action",
        "seat",
        "entrant",
        "kind",
        "trick",
        "position",
        "order",
        "phase",
        "chosen",
    )
    decisions = [
        {**{k: d.get(k) for k in place}, **d["hindsight"]}
        for d in result.get("decisions", [])
        if d.get("hindsight")
    ]
    return {"about": HINDSIGHT_ABOUT, "decisions": decisions}


def ask(match: Match, user: User) -> tuple[MatchAnalysis, bool]:
    """Ask for the match's analysis at the site's depth on behalf of `user` (403 when they
    may not, 429 over their quota when it is a new one); the row and whether it is new."""
    if not may_request(match, user):
        abort(403, "Only the owners of the bots in a finished match may ask for its analysis.")
    row: MatchAnalysis | None = None
    asked = False
    for attempt in database.conflict_retries():  # two asks at once: one row
        with attempt as db:
            existing = analyses.find(
                db, match.id, DEFAULT.samples, DEFAULT.playouts, DEFAULT.seed, DEFAULT.hindsight
            )
            if (
                existing is None
                or existing.status is AnalysisStatus.FAILED
                or analyses.is_outdated(existing, ANALYSIS_VERSION)
            ):
                quotas.check_analysis(db, user)
            row, asked = analyses.request(
                db,
                match.id,
                user.id,
                samples=DEFAULT.samples,
                playouts=DEFAULT.playouts,
                seed=DEFAULT.seed,
                hindsight=DEFAULT.hindsight,
                version=ANALYSIS_VERSION,
            )
    assert row is not None
    return row, asked


def page_data(body: dict[str, Any], rules: Rules | None = None) -> dict[str, Any]:
    """What the match page hands the viewer's box (web/static/js/analysis.js): the fair
    analysis and the hindsight apart, each decision `present`ed under the match's `rules`
    (its words and the viewer step that shows it), so the script keeps no table of its
    own."""

    def presented(part: dict[str, Any] | None) -> dict[str, Any] | None:
        if part is None:
            return None
        return {**part, "decisions": [labels.present(d, rules) for d in part["decisions"]]}

    return {"fair": presented(body.get("analysis")), "hindsight": presented(body.get("hindsight"))}


@bp.post("/matches/<int:match_id>/analysis")
def request_analysis(match_id: int) -> Response:
    """Ask for the match's analysis (the page's button); back to the match page."""
    match = load_match(match_id)
    user = current_user()
    if user is None:
        abort(401, "Sign in to ask for a match's analysis.")
    _, asked = ask(match, user)
    flash(
        "Analysis asked for: a worker judges every decision; this page shows its progress."
        if asked
        else "This match's analysis was asked for already.",
        "success",
    )
    return redirect(url_for("matches.show", match_id=match.id) + "#analysis")


@bp.get("/matches/<int:match_id>/analysis.json")
def analysis_json(match_id: int) -> Response:
    """The match's analysis: its status and progress, and once done its result."""
    response = jsonify(state(load_match(match_id)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_context_processor
def _helpers() -> dict[str, Any]:
    """`analysis_of(match)` for the match page's panel, `bot_analysis(bot_id)` for the
    bot page's summary, and `analysis_words`: the labels of kinds and phases
    (web/analysis_labels.py)."""

    def bot_analysis(bot_id: int) -> dict[str, Any]:
        return analyses.bot_summary(database.session(), bot_id)

    def analysis_of(match: Match) -> dict[str, Any]:
        return state(match)

    return {
        "analysis_of": analysis_of,
        "analysis_page_data": page_data,
        "bot_analysis": bot_analysis,
        "analysis_words": labels,
    }
