"""The strong bot in Domino Hearts (`arena.bots.domino_search`): it searches sampled deals
from the Domino core's mid-hand positions, answers legally, and beats the heuristic bot."""

from __future__ import annotations

import random

from arena.bots import HeuristicBot, StrongBot
from arena.bots.domino_search import _sample, _unknowns
from arena.engine import CardSet, Hand, preset
from arena.engine.variants.domino import DominoHand


def test_the_strong_bot_searches_every_domino_decision_with_a_choice() -> None:
    bot = StrongBot(1, time_per_move=None, max_samples=6)
    for players in (2, 3, 5):
        hand = Hand.deal(preset("domino", players), seed=players)
        while not hand.is_over:
            seat = hand.to_play
            assert seat is not None
            view = hand.view(seat)
            card = bot.play_card(view)
            assert card in view.legal
            assert bot.last_samples == (6 if len(view.legal) > 1 else 0)
            hand.play(card)


def test_samples_give_each_seat_its_count_and_keep_known_voids() -> None:
    rules = preset("domino", 3)
    rng = random.Random(2)
    checked = 0
    for seed in range(40):
        hand = Hand.deal(rules, seed)
        assert isinstance(hand, DominoHand)
        while not hand.is_over:
            seat = hand.to_play
            assert seat is not None
            view = hand.view(seat)
            unseen, sizes, voids = _unknowns(view)
            hands, stock = _sample(view, unseen, sizes, voids, rng)
            for other in range(3):
                if other == seat:
                    assert hands[other] == view.hand.mask
                    continue
                assert CardSet.from_mask(hands[other]).mask.bit_count() == len(hand.hand_of(other))
                for suit in voids[other]:  # a seat that discarded holds none of the suit
                    assert not hand.hand_of(other).mask & (0x1FFF << (13 * suit))
            assert len(stock) == hand.stock_size
            checked += 1
            hand.play(hand.legal_plays().first())
    assert checked > 200


def test_the_strong_bot_takes_fewer_points_than_heuristic_players() -> None:
    rules = preset("domino", 4)
    strong, others = StrongBot(0, time_per_move=None, max_samples=8), HeuristicBot(1)
    mine = theirs = 0
    for seed in range(30):
        hand = Hand.deal(rules, seed, dealer=seed % 4)
        while not hand.is_over:
            seat = hand.to_play
            assert seat is not None
            bot = strong if seat == 0 else others
            hand.play(bot.play_card(hand.view(seat)))
        points = hand.points()
        mine += points[0]
        theirs += sum(points[1:])
    assert mine * 3 < theirs * 0.8  # well under the heuristic seats' average
