"""Every decision kind and family judged: a built situation per kind with a known right and
wrong answer, every preset's match judged end to end (nothing left but forced decisions),
and the worlds never reading a hidden card."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arena.analysis import Settings, analyse
from arena.analysis.answers import candidates
from arena.analysis.families import evaluate_family_hindsight, evaluate_family_play
from arena.analysis.moon import evaluate_moon_choice
from arena.analysis.review import PHASES, _table
from arena.analysis.rollout import evaluate_on_real, evaluate_on_worlds
from arena.analysis.worlds import HIDDEN, RealDeal, seen_record
from arena.bots import HeuristicBot
from arena.bots.base import trick_size
from arena.engine import Card, Hand, Rules, preset
from arena.engine.decisions import Action, Decision, DecisionKind
from arena.engine.presets import PRESETS
from arena.engine.rules import RulesError
from arena.match.house import answer
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import DecisionContext, InProcessSeat

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

WORLDS = 24


def _drive(hand: Hand, until: DecisionKind, seat: int | None = None) -> Decision:
    """Answer as the heuristic bot until `until` is asked (of `seat`, if given)."""
    seats = [InProcessSeat(HeuristicBot(s)) for s in range(hand.players)]
    context = DecisionContext(0, tuple(hand.game_totals), 0.0, 0.0, 0)
    while (decision := hand.pending()) is not None:
        if decision.kind is until and (seat is None or decision.seat == seat):
            return decision
        value = answer(seats[decision.seat], decision, hand, context)
        hand.apply(Action(decision.kind, decision.seat, value))
    raise AssertionError(f"no {until.value} was asked")


def _judge(hand: Hand, decision: Decision, chosen: object) -> dict[str, float]:
    """Every candidate answer's score (lower is better) on sampled worlds."""
    view = hand.view(decision.seat)
    evaluation = evaluate_on_worlds(
        view,
        _table(hand, 0),
        seen_record(hand.history, view),
        decision.kind,
        candidates(decision, view, chosen),
        random.Random(1),
        samples=WORLDS,
    )
    return {a.answer: a.score for a in evaluation.answers}


def _cards(*texts: str) -> list[list[str]]:
    return [text.split() for text in texts]


def _pledge_on_top_hearts() -> list[list[str]]:
    """Seat 0 holds the six top hearts and the top cards of the other suits: a pledge on
    this hand is a known blunder, the built situation of the pledge tests."""
    return _cards(
        "AH KH QH JH TH 9H AS KS AD KD AC KC QC",
        "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2S 3S 4S",
        "7C 8C 9C TC JC 7D 8D 9D TD JD 5S 6S 7S",
        "QD 8S 9S TS JS QS 2H 3H 4H 5H 6H 7H 8H",
    )


def test_a_pledge_of_no_hearts_on_a_hand_full_of_high_hearts_is_a_blunder():
    rules = preset("pledge")
    deal = _pledge_on_top_hearts()
    hand = Hand.from_cards(rules, deal, pass_direction="hold", dealer=3)
    decision = _drive(hand, DecisionKind.PLEDGE, seat=0)
    scores = _judge(hand, decision, True)
    assert scores["true"] - scores["false"] >= 8, scores  # a broken pledge: +10 and more


def test_an_auction_bid_far_above_what_the_hand_is_worth_loses_chips():
    rules = preset("auction")
    deal = _cards(
        "AH KH QH AS KS QS AD KD QD AC KC QC JH",
        "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2S 3S 4S",
        "7C 8C 9C TC JC 7D 8D 9D TD JD 5S 6S 7S",
        "8S 9S TS JS 2H 3H 4H 5H 6H 7H 8H 9H TH",
    )
    hand = Hand.from_cards(rules, deal, pass_direction="hold", dealer=3)
    decision = _drive(hand, DecisionKind.BID, seat=0)
    highest = decision.legal[1]
    scores = _judge(hand, decision, highest)
    assert scores[str(highest)] - scores["pass"] >= 4, scores


def test_a_gong_zhu_sheep_one_is_sure_to_take_left_unexposed_is_a_blunder():
    """Pagat: "The effect of exposing a card is basically to double its value": seat 0
    holds the JD (the sheep, -100 to its taker) under the AD, KD and QD with seven
    diamonds, so it takes the sheep whatever it does, and exposing it doubles the gain."""
    rules = preset("gong_zhu")
    deal = _cards(
        "AD KD QD JD TD 9D 8D 2C 3C 4C 2S 3S 4S",
        "7D 6D 5C 6C 7C 8C 5S 6S 7S 2H 3H 4H 5H",
        "5D 4D 9C TC JC QC 8S 9S TS 6H 7H 8H 9H",
        "3D 2D KC AC QS JS KS AS TH JH QH KH AH",
    )
    hand = Hand.from_cards(rules, deal, pass_direction="hold", dealer=3)
    decision = _drive(hand, DecisionKind.EXPOSE, seat=0)
    assert list(decision.legal) == [Card.from_str("JD")]
    scores = _judge(hand, decision, ())
    assert scores["none"] - scores["JD"] >= 8, scores


def test_rickety_kate_accepting_a_queen_without_a_spade_to_guard_it_is_flagged():
    rules = preset("rickety_kate")
    # Seat 0 passes left to seat 1, whose only spades are the AS and KS: the heuristic
    # passer gives the QS, and seat 1, with no spade to play under it, should refuse it.
    deal = _cards(
        "QS 2C 3C 4C 2D 3D 4D 5D 6D 7D 2H 3H",
        "AS KS 8C 9C TC JC 8D 9D TD JD 4H 5H",
        "5C 6C 7C QC 2S 3S 4S 5S 6S JS 6H 7H",
        "KC AC QD KD AD 7S 8S 9S TS 8H 9H TH",
    )
    hand = Hand.from_cards(rules, deal, pass_direction="left", dealer=3, kitty="JH QH KH AH")
    decision = _drive(hand, DecisionKind.REFUSE_QUEEN, seat=1)
    scores = _judge(hand, decision, False)
    assert scores["false"] - scores["true"] >= 4, scores


def test_a_replacement_for_a_refused_queen_is_judged_among_the_givers_cards():
    rules = preset("rickety_kate")
    deal = _cards(
        "QS AH KH 2C 3C 4C 2D 3D 4D 5D 6D 7D",
        "AS KS QH JH TH AD KD QD AC KC 8D 9D",
        "5C 6C 7C 8C 9C TC JC JD 2S 3S 4S 5S",
        "7S 8S 9S TS JS 2H 3H 4H 5H 6H 7H 8H",
    )
    hand = Hand.from_cards(rules, deal, pass_direction="left", dealer=3, kitty="QC TD 6S 9H")
    decision = _drive(hand, DecisionKind.REPLACE_PASS, seat=0)
    scores = _judge(hand, decision, Card.from_str("2C"))
    assert "2C" in scores and len(scores) > 2
    assert min(scores, key=scores.__getitem__) != "2C"  # keeping the AH or KH costs more


def test_a_heartless_face_down_card_making_hearts_score_with_the_top_hearts_and_the_qs():
    rules = preset("heartless")
    # Seat 0's AH makes hearts score (their queen the QS): it holds the three top hearts
    # and the QS with the AS and KS; its AS would make spades score, a point a card.
    deal = _cards(
        "QS KS AS QH KH AH 2C 3C 4C 2D 3D 4D 5D",
        "JS TS 9S 5C 6C 7C 8C 6D 7D 8D 2H 3H 4H",
        "8S 7S 6S 9C TC JC QC 9D TD JD 5H 6H 7H",
        "5S 4S 3S 2S KC AC QD KD AD 8H 9H TH JH",
    )
    hand = Hand.from_cards(rules, deal, pass_direction="hold", dealer=3)
    decision = _drive(hand, DecisionKind.REVEAL, seat=0)
    scores = _judge(hand, decision, Card.from_str("AH"))
    assert scores["AH"] - scores["AS"] >= 4, scores


def test_the_dealers_call_is_judged_over_every_option():
    rules = preset("dealer_calls")
    hand = Hand.deal(rules, 5)
    decision = _drive(hand, DecisionKind.CALL)
    scores = _judge(hand, decision, decision.legal[0])
    assert len(scores) == len(decision.legal) > 1


def _moon_hand(rules: Rules) -> tuple[Hand, Decision]:
    for seed in range(2000):
        hand = Hand.deal(rules, seed)
        try:
            return hand, _drive(hand, DecisionKind.MOON_CHOICE)
        except AssertionError:
            continue
    raise AssertionError("no moon in 2000 hands")


def test_the_shooters_choice_is_judged_exactly_by_the_match():
    rules = preset("omnibus_jack")
    hand, decision = _moon_hand(rules)
    shooter = decision.seat
    # Adding ends the game with the shooter first: add is right, subtract a blunder.
    totals = tuple(0 if s == shooter else 90 for s in range(4))
    hand.game_totals = totals
    judged = evaluate_moon_choice(hand, shooter, totals, 3, "subtract")
    assert judged.answers[0].answer == "add"
    assert judged.of("subtract").score - judged.of("add").score >= 8
    # Far from the end, the two are worth the same: no loss either way.
    quiet = evaluate_moon_choice(hand, shooter, (0, 0, 0, 0), 0, "subtract")
    assert quiet.of("add").score == quiet.of("subtract").score


def test_the_worlds_never_read_a_hidden_card():
    """Two deals a seat cannot tell apart (two other seats swap a card) get the same
    evaluation of its pledge; the record hides the others' passes."""
    rules = preset("pledge")
    deal = _pledge_on_top_hearts()
    swapped = [list(cards) for cards in deal]
    swapped[1][0], swapped[2][0] = swapped[2][0], swapped[1][0]  # 2C and 7C change seats
    judged = []
    for cards in (deal, swapped):
        hand = Hand.from_cards(rules, cards, pass_direction="left", dealer=3)
        decision = _drive(hand, DecisionKind.PLEDGE, seat=0)
        view = hand.view(0)
        record = seen_record(hand.history, view)
        assert all(a.value is HIDDEN for a in record if a.kind is DecisionKind.PASS and a.seat)
        judged.append(
            evaluate_on_worlds(
                view,
                _table(hand, 0),
                record,
                decision.kind,
                candidates(decision, view, False),
                random.Random(4),
                samples=8,
            )
        )
    assert judged[0] == judged[1]


def _short(name: str) -> Rules:
    try:
        return preset(name).replace(target_score=None, max_hands=1)
    except RulesError:  # a game in chips needs its stake
        return preset(name).replace(max_hands=1)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_decision_of_a_short_match_of_every_preset_is_judged(name):
    rules = _short(name)
    entrants = [Entrant(f"h{i}", InProcessSeat(HeuristicBot(i))) for i in range(rules.players)]
    replay = MatchRunner(rules, entrants, seed=3).run().v1
    analysis = analyse(replay, settings=Settings(8, 1, hindsight=True))
    assert set(analysis.skipped) <= {"forced"}, analysis.skipped
    assert analysis.decisions
    for d in analysis.decisions:
        assert d.phase in PHASES and d.loss >= 0 and d.best == d.answers[0]["answer"]
        assert d.chosen in {a["answer"] for a in d.answers}
        # The hindsight of every kind that has one (arena/analysis/hindsight.py), over the
        # fair view's answers.
        if d.kind == "moon_choice":  # judged with every card known already
            assert d.hindsight is None, d
            continue
        assert d.hindsight is not None, d
        assert {a["answer"] for a in d.hindsight["answers"]} == {a["answer"] for a in d.answers}
        assert d.hindsight["best"] == d.hindsight["answers"][0]["answer"]
        assert d.hindsight["loss"] >= 0 and d.hindsight["playouts"] >= 1


def _last_to_a_costly_trick(name: str, kind: DecisionKind, least: int) -> tuple[Hand, Decision]:
    """A hand of preset `name` played by the heuristic bot up to a `kind` decision where
    the seat plays last to a trick (or a penny-round) worth `least` points or more,
    holding a card of the suit led below its best card (a duck) and one above it (which
    takes the points)."""
    rules = preset(name)
    for seed in range(400):
        hand = Hand.deal(rules, seed)
        seats = [InProcessSeat(HeuristicBot(s)) for s in range(hand.players)]
        context = DecisionContext(0, (0,) * hand.players, 0.0, 0.0, 0)
        while (decision := hand.pending()) is not None:
            if decision.kind is kind and _duck_or_take(hand, decision, least) is not None:
                return hand, decision
            value = answer(seats[decision.seat], decision, hand, context)
            hand.apply(Action(decision.kind, decision.seat, value))
    raise AssertionError(f"no costly last play in 400 hands of {name}")


def _duck_or_take(hand: Hand, decision: Decision, least: int) -> tuple[object, object] | None:
    view = hand.view(decision.seat)
    if decision.kind is DecisionKind.PENNY_PLAY:
        pennies = {p for p, _ in decision.legal}
        for penny in sorted(pennies):
            plays = view.pennies[penny]
            if len(plays) != hand.players - 1:
                continue
            cards = [c for p, c in decision.legal if p == penny]
            found = _split(view, plays, cards, least)
            if found is not None:
                return (penny, found[0]), (penny, found[1])
        return None
    if len(view.current_trick) != trick_size(view) - 1:
        return None
    return _split(view, view.current_trick, list(dict.fromkeys(view.legal)), least)


def _split(view, plays, cards, least):
    led = plays[0][1].suit
    played = [c for _, c in plays]
    if sum(view.rules.value_of(c) for c in played) < least:
        return None
    alive = [c.rank for c in played if c.suit is led and played.count(c) == 1]
    if not alive:
        return None
    high = max(alive)
    ducks = [c for c in cards if c.suit is led and c.rank < high and view.rules.value_of(c) <= 0]
    takes = [c for c in cards if c.suit is led and c.rank > high and c not in played]
    takes = [c for c in takes if view.rules.value_of(c) <= 0]
    if ducks and takes:
        return ducks[0], takes[0]
    return None


def test_a_two_pack_play_taking_a_costly_trick_that_could_be_ducked_is_flagged():
    """Cancellation Hearts: last to a trick worth 5 points or more (the ♠Q's 13 among them,
    often), the seat that takes it rather than ducking loses about that much."""
    hand, decision = _last_to_a_costly_trick("cancellation", DecisionKind.PLAY, 5)
    found = _duck_or_take(hand, decision, 5)
    assert found is not None
    duck, take = found
    view = hand.view(decision.seat)
    evaluation = evaluate_family_play(
        view, random.Random(2), samples=40, playouts=2, first=str(take)
    )
    assert evaluation.of(str(take)).score - evaluation.of(str(duck)).score >= 4, evaluation


def test_a_penny_round_taken_that_could_be_ducked_is_flagged():
    hand, decision = _last_to_a_costly_trick("four_penny", DecisionKind.PENNY_PLAY, 5)
    found = _duck_or_take(hand, decision, 5)
    assert found is not None
    duck, take = found
    view = hand.view(decision.seat)
    evaluation = evaluate_on_worlds(
        view,
        _table(hand, 0),
        seen_record(hand.history, view),
        decision.kind,
        [("take", take), ("duck", duck)],
        random.Random(3),
        samples=12,
    )
    assert evaluation.of("take").score - evaluation.of("duck").score >= 4, evaluation


def test_a_world_dealt_before_the_pass_never_reads_a_hidden_card():
    """The dealer's call, judged before any card moves: two deals that differ only in the
    other seats' hands get the same evaluation."""
    rules = preset("dealer_calls")
    deal = _cards(
        "AH KH QH JH TH 9H AS KS AD KD AC KC QC",
        "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2S 3S 4S",
        "7C 8C 9C TC JC 7D 8D 9D TD JD 5S 6S 7S",
        "QD 8S 9S TS JS QS 2H 3H 4H 5H 6H 7H 8H",
    )
    swapped = [list(cards) for cards in deal]
    swapped[2][-1], swapped[3][0] = swapped[3][0], swapped[2][-1]  # 7S and QD change seats
    judged = []
    for cards in (deal, swapped):
        hand = Hand.from_cards(rules, cards, pass_direction="dealer_calls", dealer=0)
        decision = _drive(hand, DecisionKind.CALL, seat=0)
        view = hand.view(0)
        judged.append(
            evaluate_on_worlds(
                view,
                _table(hand, 0),
                seen_record(hand.history, view),
                decision.kind,
                candidates(decision, view, decision.legal[0]),
                random.Random(6),
                samples=8,
            )
        )
    assert judged[0] == judged[1] and len(judged[0].answers) == len(decision.legal)


def _real(hand: Hand, decision: Decision, answers: list[tuple[str, object]], deal: RealDeal):
    """The hindsight of `decision`: `answers` on the one real world."""
    return evaluate_on_real(
        hand.view(decision.seat), _table(hand, 0), deal, hand.history, decision.kind, answers
    )


def test_the_hindsight_of_a_pledge_on_the_real_deal_sees_the_broken_pledge():
    rules = preset("pledge")
    deal = _pledge_on_top_hearts()
    hand = Hand.from_cards(rules, deal, pass_direction="hold", dealer=3)
    real = RealDeal.of(hand)
    decision = _drive(hand, DecisionKind.PLEDGE, seat=0)
    known = _real(hand, decision, [("true", True), ("false", False)], real)
    assert known.samples == 1 and known.answers[0].answer == "false"
    assert known.of("true").score - known.of("false").score >= 8, known


def test_the_hindsight_of_a_penny_round_taken_that_could_be_ducked():
    hand, decision = _last_to_a_costly_trick("four_penny", DecisionKind.PENNY_PLAY, 5)
    found = _duck_or_take(hand, decision, 5)
    assert found is not None
    duck, take = found
    # The real deal as dealt: rebuilt from the same seed, as the analysis reads it.
    for seed in range(400):
        again = Hand.deal(preset("four_penny"), seed)
        real = RealDeal.of(again)
        try:
            rebuilt = real.build(_table(hand, 0), hand.history)
        except ValueError:
            continue
        if rebuilt.pending() == decision:
            break
    else:
        raise AssertionError("the hand's deal was not found again")
    known = _real(hand, decision, [("take", take), ("duck", duck)], real)
    assert known.of("take").score - known.of("duck").score >= 4, known


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_real_deal_rebuilds_every_presets_hand(name):
    """The hindsight's one real world: the deal read at the hand's start and its record
    re-applied make the same hand (Domino's stock in its order)."""
    rules = preset(name)
    hand = Hand.deal(rules, 11)
    real = RealDeal.of(hand)
    _drive_to_end(hand)
    rebuilt = real.build(_table(hand, 0), hand.history)
    assert rebuilt.is_over and rebuilt.points() == hand.points()


def _drive_to_end(hand: Hand) -> None:
    seats = [InProcessSeat(HeuristicBot(s)) for s in range(hand.players)]
    context = DecisionContext(0, tuple(hand.game_totals), 0.0, 0.0, 0)
    while (decision := hand.pending()) is not None:
        hand.apply(
            Action(
                decision.kind, decision.seat, answer(seats[decision.seat], decision, hand, context)
            )
        )


@pytest.mark.parametrize("name", ["four_penny", "five_penny_advanced"])
def test_a_penny_round_cards_order_is_its_place_in_the_rounds_play(name):
    """Each judged penny-round card says its place in its multi-round's order of play
    (`order`), the index of its play in the replay's multi-round: the viewer's step."""
    rules = _short(name)
    entrants = [Entrant(f"h{i}", InProcessSeat(HeuristicBot(i))) for i in range(rules.players)]
    replay = MatchRunner(rules, entrants, seed=3).run().v1
    analysis = analyse(replay, settings=Settings(8, 1))
    hand = replay["games"][0]["hands"][0]
    where = {
        play["card"]: (r, i)
        for r, round_ in enumerate(hand["multi_rounds"])
        for i, play in enumerate(round_["plays"])
    }
    pennies = [d for d in analysis.decisions if d.kind == "penny_play"]
    assert pennies and {d.order for d in pennies} >= {0, 1, rules.players}
    for d in pennies:
        r, i = where[d.chosen.split()[1]]
        assert d.order == i, (d.chosen, d.order, i)
        assert d.trick is not None and (d.trick - rules.penny_openings) // rules.players == r
    assert all(d.order is None for d in analysis.decisions if d.kind != "penny_play")


def test_the_hindsight_of_a_two_pack_trick_taken_that_could_be_ducked():
    """The family's own search on the real deal (every hand now; the widow is what no seat
    holds and nobody played): taking a trick of 5 points or more costs about that much."""
    hand, decision = _last_to_a_costly_trick("cancellation", DecisionKind.PLAY, 5)
    found = _duck_or_take(hand, decision, 5)
    assert found is not None
    duck, take = found
    view = hand.view(decision.seat)
    holdings = [list(hand.hand_of(s)) for s in range(hand.players)]
    widow = Counter(view.rules.deck_copies)
    for cards in holdings:
        widow.subtract(cards)
    for trick in view.tricks:
        widow.subtract(card for _, card in trick.plays)
    widow.subtract(card for _, card in view.current_trick)
    known = evaluate_family_hindsight(
        view, holdings, list(widow.elements()), random.Random(2), playouts=16, first=str(take)
    )
    assert known.samples == 1 and {a.answer for a in known.answers} >= {str(take), str(duck)}
    assert known.of(str(take)).score - known.of(str(duck)).score >= 4, known
