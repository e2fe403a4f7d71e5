"""The site's words for an analysis's decisions (web/analysis_labels.py): every decision
kind the engine asks has its words, a kind or phase it does not know yet still renders,
and each decision is placed at the viewer step that shows it."""

from __future__ import annotations

import pytest

from arena.analysis import Settings, analyse
from arena.analysis.review import PHASES
from arena.engine.decisions import ENGINE_KINDS, DecisionKind
from tests.analysis.built import built_match
from web import analysis_labels as labels


def test_every_kind_the_engine_asks_has_words_and_a_place_in_the_viewer() -> None:
    asked = {kind.value for kind in DecisionKind} - {kind.value for kind in ENGINE_KINDS}
    assert asked <= set(labels.KINDS)
    places = {label.when for label in labels.KINDS.values()}
    assert places <= {"trick", "round", "deal", "before", "end"}
    assert set(PHASES) <= set(labels.PHASE_NAMES)


def test_a_kind_or_phase_it_does_not_know_renders_with_plain_words() -> None:
    unknown = {"game": 1, "hand": 2, "kind": "toy_bet", "trick": None, "phase": "toy_betting"}
    assert labels.kind_label("toy_bet").verb == "answered"
    assert labels.phase_name("toy_betting") == "Toy betting"
    assert labels.place(unknown) == "before the first trick"
    assert labels.key(unknown) == "2-3-0-1" and labels.jump(unknown) == "#g=2&h=3&t=0&c=1"
    during = {**unknown, "trick": 4, "position": 2}
    assert labels.place(during) == "trick 5" and labels.key(during) == "2-3-5-3"
    presented = labels.present(unknown)
    assert presented["label"]["phase"] == "Toy betting"
    assert presented["kind"] == "toy_bet"  # the decision itself is handed on whole


@pytest.mark.parametrize(
    ("decision", "place", "key", "jump"),
    [
        ({"kind": "play", "trick": 4, "position": 0}, "trick 5", "1-1-5-1", "t=5&c=1"),
        ({"kind": "pass", "trick": None}, "the pass", "1-1-0-1", "t=0&c=1"),
        ({"kind": "call", "trick": None}, "the deal", "1-1-0-0", "t=0&c=0"),
        ({"kind": "bid", "trick": None}, "before the first trick", "1-1-0-1", "t=0&c=1"),
        ({"kind": "moon_choice", "trick": None}, "the hand's end", "1-1-end", "t=99&c=99"),
        # a penny-round's card: its round (its position is in its penny's pile)
        ({"kind": "penny_play", "trick": 8, "position": 1}, "trick 9", "1-1-9-*", "t=9&c=1"),
        # a summary's worst decision names its phase only
        ({"phase": "discard", "trick": 2, "position": 3}, "trick 3", "1-1-3-4", "t=3&c=4"),
        ({"phase": "pass", "trick": None}, "the pass", "1-1-0-1", "t=0&c=1"),
    ],
)
def test_each_kind_is_placed_where_the_viewer_shows_it(
    decision: dict[str, object], place: str, key: str, jump: str
) -> None:
    decision = {"game": 0, "hand": 0, **decision}
    assert labels.place(decision) == place
    assert labels.key(decision) == key
    assert labels.jump(decision) == f"#g=1&h=1&{jump}"


def test_answers_are_cards_when_they_are_cards_and_words_otherwise() -> None:
    assert "data-card" not in labels.answer_html("QS")  # the page's cards, not the viewer's
    assert 'aria-label="queen of spades"' in labels.answer_html("QS")
    assert labels.answer_html("QS KH 2C").count('class="card') == 3
    assert 'class="card' not in labels.answer_html("subtract")
    assert str(labels.answer_html("<b>")) == "&lt;b&gt;"
    assert str(labels.answer_html("3")) == "3"
    penny = str(labels.answer_html("2 QS"))  # a penny-round's card: penny 2, the ♠Q
    assert penny.startswith("2 ") and penny.count('class="card') == 1


def test_phases_with_a_loss_or_a_judged_decision_come_in_the_analysis_order() -> None:
    summaries = [{"phases": {"discard": 0.1, "zeta": 0.0, "pass": 0.2, "lead": 0.0}}]
    assert labels.phases_of(summaries) == ["pass", "discard"]
    judged = ["lead", "zeta", "pass"]
    assert labels.phases_of(summaries, judged) == ["pass", "lead", "discard", "zeta"]


def test_a_real_analysis_presents_every_decision_at_a_viewer_step() -> None:
    replay, (trick, card) = built_match()
    result = analyse(replay, settings=Settings(samples=20, playouts=1)).to_dict()
    presented = [labels.present(d) for d in result["decisions"]]
    assert presented
    for d in presented:
        g, h, t, c = (int(part) for part in d["label"]["key"].split("-"))
        assert (g, h) == (d["game"] + 1, d["hand"] + 1)
        if d["kind"] == "play":
            assert (t, c) == (d["trick"] + 1, d["position"] + 1)
            assert d["label"]["verb"] == "played" and d["label"]["answers"] == "Card"
        else:
            assert (d["kind"], t, c) == ("pass", 0, 1) and d["label"]["place"] == "the pass"
    blunder = next(d for d in presented if d["trick"] == trick and d["chosen"] == str(card))
    assert blunder["label"]["phase"] in {"Follow", "Discard", "Lead"}


def test_a_penny_round_card_is_found_in_its_multi_round_under_the_match_rules() -> None:
    from arena.engine import preset

    rules = preset("four_penny")
    n, openings = rules.players, rules.penny_openings
    # the second multi-round: its cards count the openings and one round of n pennies
    card = {"game": 0, "hand": 0, "kind": "penny_play", "trick": openings + n, "position": 0}
    assert labels.key(card, rules) == f"1-1-{openings + 2}-*"
    assert labels.jump(card, rules) == f"#g=1&h=1&t={openings + 2}&c=1"
    assert labels.place(card, rules) == "multi-round 2"
    assert labels.present(card, rules)["label"]["key"] == f"1-1-{openings + 2}-*"
