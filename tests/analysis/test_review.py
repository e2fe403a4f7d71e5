"""The analysis of a match: a built blunder found, every answer judged from the seat's view,
deterministic by seed, every kind judged (tests/analysis/test_kinds.py: each kind and
family), only forced decisions left unjudged."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from arena.analysis import BLUNDER, Settings, analyse
from arena.analysis.evaluator import evaluate_pass_hindsight, evaluate_play, real_state
from arena.bots import HeuristicBot
from arena.engine import Card, CardSet, Game, Hand, Rules, preset
from arena.engine.decisions import Action
from arena.match import replay as replay_io
from arena.match.house import answer
from arena.match.replay_v2 import from_json
from arena.match.replay_view import document
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import DecisionContext, InProcessSeat

from .built import BLUNDER_SEAT, built_match

ROOT = Path(__file__).resolve().parents[2]
FAST = Settings(samples=40, playouts=2, seed=3)


@pytest.fixture(scope="module")
def built():
    replay, (trick, card) = built_match()
    return replay, trick, card


def _the_blunder(analysis, trick):
    return next(d for d in analysis.decisions if d.seat == BLUNDER_SEAT and d.trick == trick)


def test_taking_the_queen_that_could_be_ducked_is_the_worst_decision_of_its_hand(built):
    replay, trick, card = built
    analysis = analyse(replay, seats={BLUNDER_SEAT})
    blunder = _the_blunder(analysis, trick)
    assert blunder.chosen == str(card) and blunder.mark == "blunder", blunder
    assert blunder.loss >= BLUNDER and "queen" in blunder.tags
    assert blunder.best.endswith("S") and blunder.best != str(card)  # a lower spade: duck
    same_hand = [d for d in analysis.decisions if d.hand == blunder.hand]
    assert max(same_hand, key=lambda d: d.loss) is blunder
    worst = analysis.summary()[BLUNDER_SEAT]["worst"][0]
    assert (worst["trick"], worst["chosen"], worst["mark"]) == (trick, str(card), "blunder")
    assert worst["kind"] == "play"  # the site places a worst decision by its kind


def test_the_blunder_is_flagged_whatever_the_seed_and_a_seed_repeats_exactly(built):
    replay, trick, _ = built
    first = analyse(replay, seats={BLUNDER_SEAT}, settings=FAST)
    again = analyse(replay, seats={BLUNDER_SEAT}, settings=FAST)
    other = analyse(replay, seats={BLUNDER_SEAT}, settings=Settings(40, 2, seed=4))
    assert first.to_dict() == again.to_dict()
    assert first.to_dict()["decisions"] != other.to_dict()["decisions"]
    assert _the_blunder(other, trick).mark == "blunder"


def test_every_legal_card_of_a_play_and_the_chosen_pass_are_evaluated(built):
    replay, _, _ = built
    analysis = analyse(replay, settings=FAST)
    assert {d.seat for d in analysis.decisions} == {0, 1, 2, 3}
    hand = Game(Rules.from_dict(replay["rules"]), replay["seed"]).hand
    actions = [a.to_dict() for a in document(replay).games[0].hands[0].actions]
    judged = {(d.hand, d.action): d for d in analysis.decisions}
    for index, action in enumerate(actions):
        decision = hand.pending()
        assert decision is not None
        key = (0, index)
        if decision.kind.value == "play" and len(decision.legal) > 1:
            cards = {a["answer"] for a in judged[key].answers}
            assert cards == {str(c) for c in decision.legal}
        if decision.kind.value == "pass":
            passes = [a["answer"] for a in judged[key].answers]
            assert " ".join(action["value"]) in passes and len(passes) > 1
        hand.apply(Action(decision.kind, decision.seat, from_json(decision.kind, action["value"])))


def test_two_deals_a_seat_cannot_tell_apart_get_the_same_evaluation():
    """The hidden hands never reach the judgement: swap a card between the two seats yet
    to play to the first trick, and seat 0, second to play, sees and is judged the same."""
    rules = preset("standard")
    dealt = Game(rules, 8).hand
    hands = [dealt.hand_of(s).mask for s in range(4)]
    opener = next(s for s in range(4) if hands[s] >> Card.from_str("2C").index & 1)
    rotated = [hands[(opener + 1 + k) % 4] for k in range(4)]  # the opener in seat 3
    later = [c.index for c in CardSet.from_mask(rotated[1]) if str(c) != "2C"]
    other = [c.index for c in CardSet.from_mask(rotated[2]) if str(c) != "2C"]
    swapped = list(rotated)
    swapped[1] ^= 1 << later[0] | 1 << other[0]
    swapped[2] ^= 1 << later[0] | 1 << other[0]
    views = []
    for deal in (rotated, swapped):
        hand = Hand(rules, deal, 0, dealer=2, pass_direction="hold", seed=1)
        decision = hand.pending()
        assert decision is not None
        hand.apply(Action(decision.kind, decision.seat, Card.from_str("2C")))
        views.append(hand.view(0))
    assert rotated != swapped and views[0] == views[1] and len(views[0].legal) > 1
    first, second = (
        evaluate_play(view, random.Random(5), samples=30, playouts=2) for view in views
    )
    assert first == second
    assert {a.answer for a in first.answers} == {str(c) for c in views[0].legal}


def test_the_pledges_are_judged_beside_the_plays_and_passes():
    rules = preset("pledge").replace(target_score=None, max_hands=1)
    entrants = [Entrant(f"h{i}", InProcessSeat(HeuristicBot(i))) for i in range(4)]
    replay = MatchRunner(rules, entrants, seed=2).run().v1
    analysis = analyse(replay, settings=Settings(16, 1))
    assert set(analysis.skipped) <= {"forced"}
    pledges = [d for d in analysis.decisions if d.kind == "pledge"]
    assert len(pledges) == 4 and {d.phase for d in pledges} == {"pledge"}
    for d in pledges:
        assert {a["answer"] for a in d.answers} == {"true", "false"} and d.position is None


def test_the_command_prints_the_blunder_as_the_seats_worst_and_json_on_request(built, tmp_path):
    replay, trick, card = built
    path = tmp_path / "built.json"
    replay_io.save(replay, path)

    def arena(*args):
        return subprocess.run(
            [sys.executable, "-m", "arena.cli", "replay", "analyse", str(path), *map(str, args)],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=ROOT,
            check=False,
        )

    done = arena("--seat", BLUNDER_SEAT, "--samples", 60)
    assert done.returncode == 0, done.stderr
    worst = [line for line in done.stdout.splitlines() if "worst:" in line]
    assert f"trick {trick + 1}: {card} instead of" in worst[0] and "blunder" in worst[0]
    done = arena("--seat", BLUNDER_SEAT, "--samples", 30, "--json")
    data = json.loads(done.stdout)
    assert data["summary"][str(BLUNDER_SEAT)]["worst"][0]["chosen"] == str(card)
    assert data["thresholds"] == {"blunder": 8.0, "mistake": 4.0, "inaccuracy": 1.5}
    refused = arena("--seat", 7)
    assert refused.returncode == 2 and "no seat" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_the_expert_evaluator_flags_the_built_blunder_too(built):
    replay, trick, card = built
    analysis = analyse(replay, seats={BLUNDER_SEAT}, settings=Settings(evaluator="expert"))
    assert analysis.playout == "expert:evaluate"
    blunder = _the_blunder(analysis, trick)
    assert (blunder.chosen, blunder.mark) == (str(card), "blunder")
    assert max(analysis.decisions, key=lambda d: d.loss) is blunder
    with pytest.raises(ValueError, match="unknown evaluator"):
        Settings(evaluator="oracle")


@pytest.mark.parametrize(
    "fixture", sorted((ROOT / "tests" / "match" / "fixtures").glob("v1-*.json.gz")), ids=str
)
def test_every_golden_replay_of_either_version_is_analysed_or_says_what_it_skipped(fixture):
    replay = replay_io.load(fixture, replay_io.VERSIONS)
    analysis = analyse(replay, settings=Settings(samples=4, playouts=1))
    assert set(analysis.skipped) <= {"forced", "auto"}, analysis.skipped
    assert analysis.decisions or analysis.skipped, fixture
    for d in analysis.decisions:
        assert d.loss >= 0 and d.best == d.answers[0]["answer"]
        assert d.chosen in {a["answer"] for a in d.answers}


def test_the_hindsight_view_is_kept_apart_and_changes_nothing_of_the_fair_one(built):
    replay, trick, _ = built
    fair = analyse(replay, seats={BLUNDER_SEAT}, settings=FAST)
    both = analyse(replay, seats={BLUNDER_SEAT}, settings=dataclasses.replace(FAST, hindsight=True))
    stripped = both.to_dict()
    for d in stripped["decisions"]:
        assert d.pop("hindsight") is not None or d["kind"] == "pass"
    expected = fair.to_dict()
    for d in expected["decisions"]:
        d.pop("hindsight")
    stripped["settings"].pop("hindsight")
    expected["settings"].pop("hindsight")
    assert stripped == expected  # the marks and the summary are the fair view's alone
    blunder = _the_blunder(both, trick)
    assert blunder.hindsight is not None and blunder.hindsight["loss"] >= BLUNDER
    assert {a["answer"] for a in blunder.hindsight["answers"]} == {
        a["answer"] for a in blunder.answers
    }


def test_the_hindsight_of_a_pass_plays_it_out_on_the_real_deal():
    """With every hand known, seat 0's AS KS QS as its only spades are a ♠Q it will take:
    passing them beats passing three low clubs by a blunder's loss and more, on the real
    deal with the other seats' real passes."""
    rules = preset("standard")
    deal = [
        "QS KS AS 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D",
        "8C 9C TC JC 6D 7D 8D 9D 2S 3S 4S 2H 3H",
        "QC KC AC TD JD QD KD AD 5S 6S 7S 4H 5H",
        "8S 9S TS JS 6H 7H 8H 9H TH JH QH KH AH",
    ]
    hand = Hand.from_cards(rules, deal, pass_direction="left", dealer=3)
    passes = {1: "2S 3S 4S", 2: "AD KD QD", 3: "AH KH QH"}
    known = evaluate_pass_hindsight(
        hand.view(0),
        3,
        ["2C 3C 4C", "QS KS AS"],
        [CardSet(cards).mask for cards in deal],
        0,
        {s: tuple(Card.from_str(c).index for c in p.split()) for s, p in passes.items()},
        random.Random(1),
    )
    assert known.answers[0].answer == "QS KS AS"
    assert known.of("2C 3C 4C").score - known.of("QS KS AS").score >= BLUNDER, known


@pytest.mark.parametrize(
    "name", ["first_heart_kitty", "rickety_kate", "kitty_each_trick", "two_player", "omnibus"]
)
def test_a_plays_hindsight_starts_from_the_real_deal_kitty_and_all(name):
    """The hindsight's engine state at a play (every hand now, the kitty as dealt, the
    plays so far), given the hand's real remaining plays, ends with every seat's takings
    as the hand's (the kitty to the same seat)."""
    rules = preset(name)
    hand = Hand.deal(rules, 17)
    kitty = hand.kitty.mask
    seats = [InProcessSeat(HeuristicBot(s)) for s in range(rules.players)]
    context = DecisionContext(0, (0,) * rules.players, 0.0, 0.0, 0)
    at = None
    while (decision := hand.pending()) is not None:
        if at is None and decision.kind.value == "play" and hand.trick_number == 4:
            view = hand.view(decision.seat)
            at = (view, [hand.hand_of(s).mask for s in range(rules.players)], len(hand.history))
        value = answer(seats[decision.seat], decision, hand, context)
        hand.apply(Action(decision.kind, decision.seat, value))
    assert at is not None
    view, holdings, index = at
    state = real_state(view, holdings, kitty)
    for action in hand.history[index:]:
        state.push(Card.from_str(str(action.value)).index)
    for seat in range(rules.players):  # the same cards taken, the kitty's among them
        assert state.taken(seat) == hand.taken(seat).mask, (name, seat)
    assert kitty == 0 or any(state.taken(s) & kitty for s in range(rules.players))
