"""The expert bot: legal on every preset, its model of the other seats, and its evaluation."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from arena.bots import HOUSE_BOTS, ExpertBot, HouseBot, RandomBot
from arena.bots.belief import Belief
from arena.bots.descriptions import HOUSE_DESCRIPTIONS, describe_house_bot
from arena.bots.expert import _plans, evaluate, evaluates, representatives, search_plays
from arena.bots.inference import DUMP, FOLLOW, LEAD, PlayModel
from arena.bots.moon import moon_open
from arena.bots.pass_evaluation import wide_candidates
from arena.bots.strong import POLICIES
from arena.engine import CARDS, PRESETS, Card, CardSet, Hand, preset
from tests.bots.tables import play_hand


def quick(seed: int = 0, samples: int = 4) -> ExpertBot:
    return ExpertBot(seed, time_per_move=None, max_samples=samples)


def masks(*hands: str) -> tuple[int, ...]:
    """Deal masks (each seat's cards now, the kitty last) from card texts."""
    return tuple(CardSet(h.split()).mask for h in hands)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_expert_plays_a_hand_of_every_preset_legally(name):
    # play_hand goes through the checked API: an illegal answer of any kind raises.
    rules = preset(name)
    n = rules.players
    bots: list[HouseBot] = [quick(s) if s % 2 == 0 else RandomBot(s) for s in range(n)]
    hand = play_hand(rules, 500 + len(name), bots)
    assert hand.is_over


def test_expert_is_deterministic_given_a_seed_and_a_sample_count():
    rules = preset("standard")

    def cards_played(seed: int) -> list[str]:
        bots: list[HouseBot] = [quick(seed, 10), RandomBot(1), quick(seed + 1, 10), RandomBot(2)]
        hand = play_hand(rules, 91, bots)
        return [str(card) for trick in hand.tricks() for _, card in trick.plays]

    assert cards_played(5) == cards_played(5)


def test_the_expert_is_the_top_named_house_bot():
    bot = HOUSE_BOTS["expert"](3)
    assert isinstance(bot, ExpertBot)
    assert bot.name == "expert"
    assert set(HOUSE_DESCRIPTIONS) == set(HOUSE_BOTS)
    # what the page claims is what was measured: level with strong, not above it
    assert "level with the strong bot" in describe_house_bot("expert-2")
    assert describe_house_bot("alice-bot") == ""


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"resample": 0}, "resample"),
        ({"epsilon": (0.0, 0.5, 0.5)}, "epsilon"),
        ({"pass_delta": 1.5}, "pass_delta"),
        ({"time_per_move": None, "max_samples": None}, "needs"),
    ],
)
def test_a_bad_configuration_is_refused(options, message):
    with pytest.raises(ValueError, match=message):
        ExpertBot(1, **options)


def _two_tricks() -> Hand:
    """Two tricks of a standard hand with no pass. Trick 1: 2C, 9C, KC (both forced) and
    seat 3's 3C, under the KC while it holds the QC (the model's duck is the QC). Trick 2:
    seat 2 leads the AS, seat 3 (void) dumps the AH, seat 0 the KD, seat 1 follows 2S."""
    hand = Hand.from_cards(
        preset("standard"),
        [
            "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
            "9C AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
            "KC KS AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
            "3C 4C 5C 6C 7C 8C TC JC QC AC QH KH AH",
        ],
    )
    for card in ("2C", "9C", "KC", "3C", "AS", "AH", "KD", "2S"):
        hand.play(card)
    return hand


SEAT0 = "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD"
TRUTH = masks(
    SEAT0,
    "AD 3S 4S 5S 6S 7S 8S 9S TS JS QS",
    "KS 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
    "4C 5C 6C 7C 8C TC JC QC AC QH KH",
    "",
)


def test_the_model_reads_each_play_as_a_lead_a_follow_or_a_dump():
    model = PlayModel.from_view(_two_tricks().view(0))
    kinds = [(event[0], event[2]) for event in model.events]  # seat 0's own plays: none
    assert kinds == [(1, FOLLOW), (2, FOLLOW), (3, FOLLOW), (2, LEAD), (3, DUMP), (1, FOLLOW)]
    # what the greedy player would have played, in the true deal
    expected = ["9C", "KC", "QC", "KS", "AH", "QS"]
    got = [model.greedy(event, TRUTH)[0] for event in model.events]
    assert got == [Card.from_str(c).mask for c in expected]


def test_a_seat_that_did_not_duck_high_makes_deals_where_it_could_not_likelier():
    model = PlayModel.from_view(_two_tricks().view(0))
    duck = model.events[2]  # seat 3's 3C under the KC
    # Had seat 3 held no club between the 3C and the KC, the 3C was the greedy duck.
    no_higher_duck = masks(SEAT0, "", "", "AC AD 7S 8S 9S TS JS QS QH KH", "")
    assert model.greedy(duck, no_higher_duck)[0] == Card.from_str("3C").mask
    assert model.greedy(duck, TRUTH)[0] == Card.from_str("QC").mask
    one = PlayModel(
        (duck,),
        *dataclasses.astuple(model)[1:],  # the same model, the duck alone
    )
    assert one.weight(no_higher_duck) > 3 * one.weight(TRUTH)


def test_a_dump_of_a_heart_makes_the_queen_with_the_dumper_unlikely():
    model = PlayModel.from_view(_two_tricks().view(0))
    queen_with_seat3 = masks(
        SEAT0,
        "AD 3S 4S 5S 6S 7S 8S 9S TS JS 4C",
        "KS 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
        "QS 5C 6C 7C 8C TC JC QC AC QH KH",
        "",
    )
    # seat 3 would have dumped the QS (13 points) before the AH (1 point)
    assert model.weight(queen_with_seat3) * 3 < model.weight(TRUTH)


def test_the_pass_received_says_what_the_passer_kept():
    hand = Hand.from_cards(
        preset("standard"),
        [
            "2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D 5D",
            "JC QC KC AC 6D 7D 8D 9D TD JD AS KS AH",
            "QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS",
            "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        ],
        pass_direction="left",
    )
    passes = {0: "TC 9C 8C", 1: "AS KS AH", 2: "JS TS 9S", 3: "KH QH JH"}
    for seat, cards in passes.items():
        hand.apply_pass(seat, cards.split())
    model = PlayModel.from_view(hand.view(2))  # seat 2 received the AS, KS, AH from seat 1
    assert model.passer == 1
    queen = Card.from_str("QS").mask
    # a seat that passes the AS and KS would have passed the QS first, had it held it
    assert model.pass_factor((0, queen, 0, 0, 0)) < 0.5
    assert model.pass_factor((0, Card.from_str("2H").mask, 0, 0, 0)) == 1.0
    # seat 0 received from seat 3 (its KH, QH, JH), which kept... nothing more dangerous
    # than a KH among the cards the signal reads but the QS and AH
    seat0 = PlayModel.from_view(hand.view(0))
    assert seat0.passer == 3
    assert seat0.pass_factor((0, 0, 0, queen, 0)) < 0.5


def test_evaluation_gives_every_legal_play_its_expected_points_from_one_seed():
    view = _two_tricks().view(2)  # seat 2 won the AS and leads
    assert evaluates(view)
    legal = list(view.legal)
    points = evaluate(view, legal, seed=1, samples=30)
    assert len(points) == len(legal)
    assert all(0.0 <= p <= 26.0 for p in points)
    assert points == evaluate(view, legal, seed=1, samples=30)
    with pytest.raises(ValueError, match="not a legal play"):
        evaluate(view, [Card.from_str("2D")], samples=2)


def test_evaluation_sees_that_dumping_the_queen_on_anothers_trick_saves_points():
    hand = Hand.from_cards(
        preset("standard"),
        [
            "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D",
            "5S 6S 7S 8S 9S 2H 3H 4H 5H 6H 7H 8H 9H",
            "QS 2S 3S 4S TS JS KS AS TH JH QH KH AH",
        ],
    )
    for card in ("2C", "AC", "5S", "2S", "KC", "6S"):  # seat 1 wins, leads the KC
        hand.play(card)
    view = hand.view(3)  # void in clubs: the QS can go on seat 1's KC
    queen, small = evaluate(view, [Card.from_str("QS"), Card.from_str("3S")], seed=2, samples=40)
    assert queen + 1.0 < small


def test_passes_are_evaluated_and_wrong_ones_refused():
    view = Hand.deal(preset("standard"), 4, pass_direction="left").view(0)
    cards = sorted(view.hand, key=lambda c: c.index)
    points = evaluate(view, [tuple(cards[:3]), tuple(cards[-3:])], seed=3, samples=20)
    assert len(points) == 2 and all(0.0 <= p <= 26.0 for p in points)
    assert points == evaluate(view, [tuple(cards[:3]), tuple(cards[-3:])], seed=3, samples=20)
    others = tuple(c for c in CARDS if c not in view.hand)[:3]
    with pytest.raises(ValueError, match="does not hold"):
        evaluate(view, [others], samples=2)
    mixed: list[Any] = [cards[0], tuple(cards[:3])]
    with pytest.raises(ValueError, match="mix"):
        evaluate(view, mixed, samples=2)
    with pytest.raises(ValueError, match="no answers"):
        evaluate(view, [])


def test_equivalent_cards_are_searched_once():
    view = _two_tricks().view(2)  # seat 2 leads: the KS, or any of its 2H-JH
    legal = [card.index for card in view.legal]
    kept = representatives(view, legal)
    assert [CARDS[c] for c in kept] == [Card.from_str("KS"), Card.from_str("2H")]
    # with the 8H elsewhere, the 7H and the 9H are no longer equivalent
    hand = Hand.from_cards(
        preset("standard"),
        [
            "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
            "9C AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS 8H",
            "KC KS AS 2H 3H 4H 5H 6H 7H QS 9H TH JH",
            "3C 4C 5C 6C 7C 8C TC JC QC AC QH KH AH",
        ],
    )
    for card in ("2C", "9C", "KC", "3C", "AS", "AH", "KD", "2S"):
        hand.play(card)
    view = hand.view(2)
    kept = representatives(view, [card.index for card in view.legal])
    assert [str(CARDS[c]) for c in kept] == ["QS", "KS", "2H", "9H"]  # the QS is worth more


def test_a_pruned_search_still_finds_the_card_a_full_search_finds():
    hand = _two_tricks()
    view = hand.view(2)
    pruned = ExpertBot(4, time_per_move=None, max_samples=40, prune=True, group=False)
    full = ExpertBot(4, time_per_move=None, max_samples=40, prune=False, group=False)
    assert pruned.play_card(view) == full.play_card(view)


def test_the_pass_race_weighs_more_passes_and_returns_one_of_them():
    rules = preset("standard")
    hand = Hand.from_cards(
        rules,
        [
            "2C 3D QS AS KS 9H TH 4C 5C 6C 7C 8C 9C",
            "TC JC QC KC AC 2D 4D 5D 6D 7D 8D 9D TD",
            "JD QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S TS",
            "JS 2H 3H 4H 5H 6H 7H 8H JH QH KH AH 3C",
        ],
        pass_direction="left",
    )
    view = hand.view(0)
    cfg = rules.core_config()
    candidates = wide_candidates(view.hand.mask, 3, cfg)
    assert len(candidates) >= 35  # every three of the seven most dangerous, and the voids
    diamond = Card.from_str("3D").index
    assert any(diamond in c for c in candidates)  # the lone 3D: a void in diamonds
    chosen = ExpertBot(2, time_per_move=None, max_samples=30).pass_cards(view, 3)
    assert len(set(chosen)) == 3 and all(card in view.hand for card in chosen)
    again = ExpertBot(2, time_per_move=None, max_samples=30).pass_cards(view, 3)
    assert chosen == again


def test_the_served_expert_is_house_expert():
    from arena.bots.served import Expert

    assert Expert().name == "house:expert"


def test_the_model_calibration_counts_plays_of_each_kind():
    from arena.benchmarks.expert_model import calibrate

    figures, passes, kept = calibrate(hands=3, samples=3)
    assert set(figures) == {"lead", "follow", "dump"}
    assert sum(kind.plays for kind in figures.values()) > 20
    for kind in figures.values():
        assert 0.0 <= kind.agreement <= 1.0 and 0.0 <= kind.epsilon <= 1.0
    assert passes == 3 and 0 <= kept <= 3 * 6  # hands 0-2 pass left, right, across


def _moon_search(hand: Hand, shoot: bool) -> list[float]:
    view = hand.view(0)
    candidates = [card.index for card in view.legal]
    margins, _, _ = search_plays(
        view,
        Belief.from_view(view),
        PlayModel.from_view(view),
        candidates,
        random.Random(5),
        float("inf"),
        24,
        2,
        POLICIES["mixed"],
        1,
        shoot=shoot,
    )
    return margins


def _moon_hand() -> Hand:
    """Seat 0 holds the top of four suits, the QS and the two lowest hearts."""
    mine = CardSet(["AC", "KC", "AD", "KD", "AS", "KS", "QS", "AH", "KH", "QH", "JH", "3H", "2H"])
    rest = [card for card in CARDS[:52] if card not in mine]
    hands = [mine, *(CardSet(rest[s::3]) for s in range(3))]
    return Hand.from_cards(preset("standard"), hands)


def test_the_moon_plan_finds_the_moon_a_greedy_plan_never_tries():
    # 004 'Shooting the moon': with this hand the seat can take every penalty card; its
    # greedy playouts dodge points instead, so only the shooter's plan sees the moon.
    hand = _moon_hand()
    while (seat := hand.to_play) != 0:
        assert seat is not None
        hand.play(min(hand.view(seat).legal, key=lambda card: card.index))
    plain, moon = _moon_search(hand, False), _moon_search(hand, True)
    # the moon gives each other seat 26: a margin near -78, far beyond anything dodging
    # gives, so the search follows the moon plan (MOON_EDGE) and its best card is better
    assert min(moon) < -60 < min(plain)
    assert moon != plain


def test_the_moon_plan_is_not_played_once_another_seat_took_points():
    rest = _moon_hand()
    # every seat plays its lowest card until another seat than 0 has taken points
    while not any(rest.view(0).points_taken[1:]) or rest.to_play != 0:
        seat = rest.to_play
        assert seat is not None
        rest.play(min(rest.view(seat).legal, key=lambda card: card.index))
    assert not moon_open(rest.view(0))
    assert _moon_search(rest, True) == _moon_search(rest, False)


def test_the_moon_plan_is_followed_only_when_clearly_better():
    greedy = [-10.0, -4.0]
    assert _plans(greedy, [-12.0, 5.0], [0, 1], 8.0) == greedy  # 2 better: within the edge
    assert _plans(greedy, [-30.0, 5.0], [0, 1], 8.0) == [-30.0, 5.0]
    assert _plans(greedy, [-30.0, 5.0], [1], 8.0) == greedy  # pruned cards do not count
