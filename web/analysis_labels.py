"""How the site names the decisions of an analysis (docs/analysis.md, "On the site"): one
table of the decision kinds (the verb, the heading of their answers, where the replay
viewer shows them) and one of the phases, each with a fallback for a name it does not
know, so that a kind or phase new to `arena.analysis` renders before anyone words it here.

The match page's panel, the viewer's box (web/static/js/analysis.js, which is handed the
decisions `present`ed, never a table of its own) and the bot page's summary all read them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from markupsafe import Markup, escape

from arena.analysis.review import PHASES
from arena.engine import Rules

from .templating import JOKERS, RANKS, SUITS, card_html


@dataclasses.dataclass(frozen=True)
class KindLabel:
    """What the site says of one kind of decision."""

    verb: str
    """What the seat did: "alice's bot *played* QS"."""
    answers: str
    """The heading of the column of its answers."""
    when: str
    """Where the replay viewer shows it: "trick" (the card's own step), "round" (a
    four-penny multi-round: the analysis numbers a penny-round card's trick as the opening
    tricks plus the pennies finished, gives its place in its penny's pile as `position`
    and, from ANALYSIS_VERSION 3, its place in the round's order of play as `order`: the
    card's own step; an older analysis without it, any step of the round), "deal" (the
    deal, where the dealer's call is shown), "before" (the step before the first trick:
    the pass, the auction, the reveals and the decisions made before play) or "end" (the
    hand's last step: the shooter's choice)."""


KINDS: dict[str, KindLabel] = {
    "play": KindLabel("played", "Card", "trick"),
    "penny_play": KindLabel("played", "Penny and card", "round"),
    "pass": KindLabel("passed", "Pass", "before"),
    "call": KindLabel("called", "Call", "deal"),
    "bid": KindLabel("bid", "Bid", "before"),
    "naming": KindLabel("named", "Suit", "before"),
    "reveal": KindLabel("laid face down", "Card", "before"),
    "pledge": KindLabel("pledged no hearts:", "Pledge", "before"),
    "refuse_queen": KindLabel("refused the ♠Q passed to it:", "Refuse", "before"),
    "replace_pass": KindLabel("passed in the refused ♠Q's place", "Card", "before"),
    "expose": KindLabel("exposed", "Exposed", "before"),
    "moon_choice": KindLabel("shot the moon and chose", "Choice", "end"),
}
"""The decision kinds by their replay names (`arena.engine.decisions.DecisionKind`); the
answers as the analysis names them (`arena.analysis.answers`: "QS", "left 2", "pass",
"true", "2 QS", "none", "add")."""

PHASE_NAMES: dict[str, str] = {
    "pass": "Pass",
    "lead": "Lead",
    "follow": "Follow",
    "discard": "Discard",
    "call": "Call",
    "auction": "Auction",
    "reveal": "Face-down card",
    "pledge": "Pledge",
    "expose": "Exposure",
    "queen_refusal": "♠Q refusal",
    "moon_choice": "Moon choice",
}
"""The summary's phases (`arena.analysis.review.PHASES`) by name."""


def humanised(name: str) -> str:
    """A name the tables do not know, for people: "penny_round" → "Penny round"."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else "?"


def kind_label(kind: str | None, trick: int | None = None) -> KindLabel:
    """The kind's label; for a kind the table does not know, a plain one shown at its
    trick when it has one, else before the first trick."""
    known = KINDS.get(kind or "")
    if known is not None:
        return known
    return KindLabel("answered", "Answer", "trick" if trick is not None else "before")


def phase_name(phase: str) -> str:
    """The phase's name for people (the table's, else the name `humanised`)."""
    return PHASE_NAMES.get(phase) or humanised(phase)


def phases_of(
    summaries: Iterable[Mapping[str, Any]], judged: Iterable[str] | None = None
) -> list[str]:
    """The phases worth a column: those in which a decision was judged (`judged`, when
    given) or a summary lost points, in `PHASES`' order, then any other by name."""
    seen = {p for s in summaries for p, loss in (s.get("phases") or {}).items() if loss} | set(
        judged or ()
    )
    return [p for p in PHASES if p in seen] + sorted(seen - set(PHASES))


def _kind_of(decision: Mapping[str, Any]) -> str | None:
    """The decision's kind; a summary's worst decision may name only its phase."""
    kind = decision.get("kind")
    if kind:
        return str(kind)
    phase = str(decision.get("phase") or "")
    if phase in ("lead", "follow", "discard"):
        return "play"
    return phase or None


def _round(trick: int, rules: Rules | None) -> int:
    """The viewer's trick (from 1) of a penny-round card whose analysis says `trick` (003
    'FOUR-PENNY HEARTS': the opening tricks, then multi-rounds of `players` pennies, each
    counted as a trick once the round is over)."""
    if rules is None:
        return trick + 1
    openings = rules.penny_openings
    return openings + (trick - openings) // rules.players + 1


def _order(decision: Mapping[str, Any]) -> int | None:
    """A penny-round card's place in its round's order of play, where the analysis says
    it (`order`, ANALYSIS_VERSION 3)."""
    order = decision.get("order")
    return order if isinstance(order, int) and not isinstance(order, bool) else None


def step(decision: Mapping[str, Any], rules: Rules | None = None) -> tuple[int, int] | None:
    """The viewer's step of a decision (trick from 1, card from 1; trick 0 is the deal
    (card 0) and what comes before the first trick (card 1)); None for the hand's end. A
    multi-round's card (its round found with the match's `rules`): its own step, the
    round's card `order` + 1; the round's first step when the analysis does not say."""
    trick = decision.get("trick")
    when = kind_label(_kind_of(decision), trick).when
    if trick is not None and when == "round":
        order = _order(decision)
        return _round(trick, rules), 1 if order is None else order + 1
    if trick is not None and when == "trick":
        return trick + 1, (decision.get("position") or 0) + 1
    if when == "end":
        return None
    return (0, 0) if when == "deal" else (0, 1)


LAST = 99
"""A trick and card past any hand's end: the viewer's link to them opens the hand's last
step (the viewer goes to the last step at or before the one asked)."""


def jump(decision: Mapping[str, Any], rules: Rules | None = None) -> str:
    """The viewer's link to the step that shows the decision ("#g=1&h=2&t=5&c=3")."""
    at = step(decision, rules) or (LAST, LAST)
    g, h = decision["game"] + 1, decision["hand"] + 1
    return f"#g={g}&h={h}&t={at[0]}&c={at[1]}"


def key(decision: Mapping[str, Any], rules: Rules | None = None) -> str:
    """The viewer's `data-step` at which the decision is shown ("1-2-5-3"); "1-2-end" for
    the hand's last step (the viewer marks it `data-hand-end`), "1-2-3-*" for any step of
    a multi-round (a penny-round card of an analysis that does not give its `order`)."""
    at = step(decision, rules)
    g, h = decision["game"] + 1, decision["hand"] + 1
    if at is None:
        return f"{g}-{h}-end"
    when = kind_label(_kind_of(decision), decision.get("trick")).when
    if when == "round" and _order(decision) is None:
        return f"{g}-{h}-{at[0]}-*"
    return f"{g}-{h}-{at[0]}-{at[1]}"


def place(decision: Mapping[str, Any], rules: Rules | None = None) -> str:
    """Where the decision was in its hand, for people: "trick 5", "the pass"."""
    kind = _kind_of(decision)
    trick = decision.get("trick")
    when = kind_label(kind, trick).when
    if trick is not None and when == "round" and rules is not None:
        order = _order(decision)
        card = "" if order is None else f", card {order + 1}"
        return f"multi-round {_round(trick, rules) - rules.penny_openings}{card}"
    if trick is not None and when in ("trick", "round"):
        return f"trick {trick + 1}"
    if when == "deal":
        return "the deal"
    if when == "end":
        return "the hand's end"
    return "the pass" if kind == "pass" else "before the first trick"


def _is_card(text: str) -> bool:
    return text in JOKERS or (len(text) == 2 and text[0] in RANKS and text[1] in SUITS)


def answer_html(text: str) -> Markup:
    """An answer as the page shows it: its cards as cards ("QS KH", the "QS" of a
    penny-round's "2 QS"), its other words (a bid, a pledge, a choice) as words."""
    tokens = str(text).split()
    if not any(_is_card(t) for t in tokens):
        return escape(text)
    return Markup(" ").join(card_html(t) if _is_card(t) else escape(t) for t in tokens)


def present(decision: Mapping[str, Any], rules: Rules | None = None) -> dict[str, Any]:
    """A judged decision with the words the viewer's box shows (`label`): its verb, the
    heading of its answers, its phase's name, its place and the viewer step showing it
    (under the match's `rules`)."""
    label = kind_label(_kind_of(decision), decision.get("trick"))
    return {
        **decision,
        "label": {
            "verb": label.verb,
            "answers": label.answers,
            "phase": phase_name(str(decision.get("phase") or "")),
            "place": place(decision, rules),
            "key": key(decision, rules),
        },
    }
