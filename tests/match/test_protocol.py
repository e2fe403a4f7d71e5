"""The arena's protocol messages: the in-place play requests equal ones built from scratch.

`PlayRequests` patches one message per seat instead of rebuilding it for every decision;
these tests hold it to `play_query` (the plain construction) for every decision of whole
games, under rules with a kitty, a scatter pass and changing clocks and scores, and check
that the SDK reads the result back as the view the engine gave.
"""

import random

import pytest
from hearts_bot.convert import play_view_from_proto

from arena.engine import Game, KittyVisibility, preset
from arena.engine.decisions import Action, DecisionKind
from arena.match import protocol
from arena.match.protocol import regular_tricks
from arena.match.seats import DecisionContext
from tests.engine.test_decisions import random_answer


def play_games(rules, seed, on_play, hands=6):
    """Deal and play `hands` hands by the one loop (`Hand.pending`), every decision
    answered at random among its legal answers (`random_answer`); `on_play(hand, seat,
    number, scores)` is called before every play."""
    rng = random.Random(seed)
    game = Game(rules, seed)
    for _ in range(hands):
        if game.is_over:
            break
        hand = game.hand
        while (decision := hand.pending()) is not None:
            if decision.kind is DecisionKind.PLAY:
                on_play(hand, decision.seat, game.hand_number, tuple(game.totals))
            hand.apply(Action(decision.kind, decision.seat, random_answer(decision, rng)))
        game.finish_hand()


@pytest.mark.parametrize(
    ("name", "players", "kitty"),
    [
        ("standard", 4, None),
        ("midwest", 5, None),
        ("omnibus", 4, None),
        ("black_maria", 3, None),
        ("black_maria", 3, KittyVisibility.AFTER_FIRST_TRICK),
        ("black_maria", 5, KittyVisibility.TAKER_ONLY),
        ("heartless", 4, None),  # the rules change with each hand's scoring suit
        ("heartless", 5, None),
        ("sweepstakes", 4, None),  # a pot in the state
        ("star", 5, None),
        ("royal", 4, None),
        ("dealer_calls", 4, None),
        ("auction", 4, None),  # bids and a declarer in the state
        ("danger", 4, None),  # lives in the state
        ("cancellation", 8, None),  # two packs: cards twice, tricks nobody won
        ("cancellation", 9, None),  # a widow, seen by its taker only
        ("cancellation_four", 4, None),
        ("extra_cards", 3, None),  # 002: the first trick's extra cards and their seats
        ("extra_cards", 5, None),
    ],
)
def test_every_play_request_equals_one_built_from_scratch(name, players, kitty):
    rules = preset(name, players)
    if kitty is not None:
        rules = rules.replace(kitty_visibility=kitty)
    builders = [protocol.PlayRequests() for _ in range(players)]
    shared = protocol.PlayRequests()  # one builder for every seat: all fields move
    rng = random.Random(7)
    checked = 0

    def check(hand, seat, number, scores):
        nonlocal checked
        view = hand.view(seat)
        bank = rng.choice([10.0, 10.0, 9.75, 3.5, 0.0])
        lives = tuple(rng.choice([3, 3, 2, 0]) for _ in range(players)) if rules.lives else ()
        context = DecisionContext(number, scores, 1.0, bank, rng.choice([0, 0, 3, 17]), lives)
        expected = protocol.play_query(view, context)
        for builder in (builders[seat], shared):
            request = builder(view, context)
            assert request.WhichOneof("kind") == "play_card"
            assert request.play_card == expected
            assert request.play_card.SerializeToString() == expected.SerializeToString()
        sdk_view = play_view_from_proto(request.play_card)
        assert sdk_view.hand == tuple(str(c) for c in view.hand)
        assert sdk_view.legal == tuple(str(c) for c in view.legal)
        assert len(sdk_view.tricks) == len(view.tricks)
        # Who played each card (002's extra cards: the first trick names a seat twice).
        assert [t.seats for t in sdk_view.tricks] == [
            tuple(s for s, _ in t.plays) for t in regular_tricks(view)
        ]
        assert sdk_view.current_trick.seats == tuple(s for s, _ in view.current_trick)
        assert sdk_view.extra_card_seats == view.extra_card_seats
        # The hand's own values (Heartless: its revealed suit), and the suit itself.
        assert dict(sdk_view.rules.card_values) == {
            str(c): v for c, v in view.rules.card_values.items() if v
        }
        suit = view.scoring_suit
        assert sdk_view.scoring_suit == (suit.letter if suit is not None else None)
        checked += 1

    play_games(rules, 11, check)
    assert checked > 100


def test_a_new_game_or_a_replayed_hand_rebuilds_the_finished_tricks():
    rules = preset("standard")
    builder = protocol.PlayRequests()
    views = []
    play_games(rules, 3, lambda hand, seat, number, scores: views.append((hand.view(seat), number)))
    play_games(rules, 4, lambda hand, seat, number, scores: views.append((hand.view(seat), number)))
    random.Random(5).shuffle(views)
    for view, number in views[:400]:
        context = DecisionContext(number, (0,) * 4, 1.0, 10.0)
        assert builder(view, context).play_card == protocol.play_query(view, context)
