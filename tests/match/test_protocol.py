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
from arena.engine.decisions import DecisionKind
from arena.match import protocol
from arena.match.protocol import regular_tricks
from arena.match.seats import DecisionContext


def play_games(rules, seed, on_play, hands=6):
    """Deal and play `hands` hands with random legal cards; `on_play(hand, seat, number,
    scores)` is called before every play."""
    rng = random.Random(seed)
    game = Game(rules, seed)
    for _ in range(hands):
        if game.is_over:
            break
        hand = game.hand
        if hand.calls_pending:  # the dealer calls a pass at random
            hand.apply_call(rng.choice(hand.call_options))
        count = rules.pass_size(hand.pass_direction)
        for passer in hand.passes_pending:
            hand.apply_pass(passer, rng.sample(list(hand.passable(passer)), count))
        while (due := hand.queen_pending) is not None:  # Rickety Kate: refuse half the time
            if due[0] is DecisionKind.REFUSE_QUEEN:
                hand.apply_queen_refusal(due[1], rng.random() < 0.5)
            else:
                decision = hand.pending()
                assert decision is not None
                hand.apply_replacement(due[1], rng.choice(list(decision.legal)))
        for revealer in hand.reveals_pending:  # Heartless: a random face-down card
            hand.apply_reveal(revealer, rng.choice(list(hand.hand_of(revealer))))
        while hand.bids_pending:  # Auction Hearts: a pass or the least bid allowed
            auction = hand.auction
            assert auction is not None
            low = auction.lowest_bid
            bid = rng.choice([None, low if low <= hand.rules.max_bid else None])
            hand.apply_bid(hand.bids_pending[0], bid)
        for declarer in hand.names_pending:
            hand.apply_naming(declarer, rng.choice("CDSH"))
        while not hand.is_over:
            seat = hand.to_play
            on_play(hand, seat, game.hand_number, tuple(game.totals))
            hand.play(rng.choice(list(hand.legal_plays())), seat=seat)
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
