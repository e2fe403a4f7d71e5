"""The baseline control (arena.ratings.baseline): the adjustment on a constructed deal,
the reference's equivariance under seat rotation on generated deals, and from it the
estimator's unbiasedness: every seat's term averages exactly zero over a deal's
rotations, which a random deal takes with equal probability."""

from __future__ import annotations

import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine import Hand, PassDirection, preset
from arena.match.house import play_game
from arena.ratings.baseline import (
    adjust,
    adjusted_games,
    baseline_terms,
    measure_baseline,
    play_reference,
    play_references,
)
from arena.ratings.luck import PlayedGame

STANDARD = preset("standard")
DECK = [f"{rank}{suit}" for suit in "CDSH" for rank in "23456789TJQKA"]


def test_one_suit_each_gives_the_clubs_the_moon_and_the_adjustment_takes_it_back() -> None:
    # Seat 0 holds every club, so it leads 2C and every trick after, and wins all 13;
    # the others can only discard (000 'The Play'): it takes every heart and the QS and
    # shoots the moon (000 'Shooting the moon'), whoever plays the other seats.
    suits = [[f"{rank}{suit}" for rank in "23456789TJQKA"] for suit in "CDSH"]
    hand = Hand.from_cards(STANDARD, [" ".join(cards) for cards in suits])
    reference = play_reference(hand)
    assert reference == (0, 26, 26, 26)
    assert baseline_terms(reference) == (-19.5, 6.5, 6.5, 6.5)
    # the players' own record of that deal: the same moon, all luck
    assert adjust((0, 26, 26, 26), reference) == (19.5, 19.5, 19.5, 19.5)
    # a player in seat 0 who let a heart go took 25 where the reference took the moon:
    # it is judged against the reference's seat, not against the table
    assert adjust((25, 1, 0, 0), reference) == (44.5, -5.5, -6.5, -6.5)


def rotated(cards: list[str], by: int) -> list[str]:
    """The deal with seat s's cards given to seat s + by."""
    per_seat = [cards[13 * s : 13 * (s + 1)] for s in range(4)]
    return [" ".join(per_seat[(s - by) % 4]) for s in range(4)]


@settings(max_examples=40, deadline=None)
@given(
    deck=st.permutations(DECK),
    dealer=st.integers(0, 3),
    direction=st.sampled_from(
        [PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD]
    ),
)
def test_the_term_has_expectation_zero_at_every_seat(
    deck: list[str], dealer: int, direction: PassDirection
) -> None:
    scores = []
    for by in range(4):
        hand = Hand.from_cards(
            STANDARD, rotated(deck, by), dealer=(dealer + by) % 4, pass_direction=direction
        )
        scores.append(play_reference(hand))
    for by, points in enumerate(scores):  # the same bot in every seat: the scores rotate
        assert points == tuple(scores[0][(s - by) % 4] for s in range(4))
    for seat in range(4):  # so each seat's term sums to zero over the rotations
        assert abs(sum(baseline_terms(points)[seat] for points in scores)) < 1e-9


@settings(max_examples=20, deadline=None)
@given(
    deck=st.permutations(DECK),
    seed=st.integers(0, 2**32),
    player=st.sampled_from(["random", "heuristic"]),
)
def test_a_players_adjusted_mean_over_a_deals_rotations_is_its_raw_mean(
    deck: list[str], seed: int, player: str
) -> None:
    # One player (seat 0 of each rotation's table) against fixed opponents: whatever it
    # does, over the four rotations of a deal its adjusted points average its raw points.
    from arena.bots import HOUSE_BOTS

    raw, adjusted = [], []
    for by in range(4):
        cards = rotated(deck, by)
        played = Hand.from_cards(STANDARD, cards, dealer=by, pass_direction=PassDirection.LEFT)
        bots = [HOUSE_BOTS[player](seed)] + [HOUSE_BOTS["random"](seed + s) for s in (1, 2, 3)]
        points = _play(played, bots)
        reference = play_reference(
            Hand.from_cards(STANDARD, cards, dealer=by, pass_direction=PassDirection.LEFT)
        )
        raw.append(points[0])
        adjusted.append(adjust(points, reference)[0])
    assert abs(statistics.fmean(raw) - statistics.fmean(adjusted)) < 1e-9


def _play(hand: Hand, bots: list) -> tuple[int, ...]:  # type: ignore[type-arg]
    from arena.engine.decisions import Action, DecisionKind

    while (decision := hand.pending()) is not None:
        seat = decision.seat
        if decision.kind is DecisionKind.PASS:
            hand.apply_pass(seat, bots[seat].pass_cards(hand.view(seat), decision.size))
        elif decision.kind is DecisionKind.PLAY:
            hand.play(bots[seat].play_card(hand.view(seat)), seat=seat)
        else:
            hand.apply(Action(decision.kind, seat, decision.default))
    return tuple(hand.points())


def test_a_duplicate_sets_rotations_share_one_reference_per_deal() -> None:
    from arena.bots import HOUSE_BOTS

    games = []
    for rotation in range(4):
        seating = tuple((rotation + s) % 4 for s in range(4))
        hands: list[tuple[int, int, str, tuple[float, ...]]] = []

        def on_hand(game, scores, hands=hands):
            hand = game.hand
            hands.append((game.hand_seeds[-1], hand.dealer, hand.pass_direction.value, scores))

        bots = [HOUSE_BOTS["random"](7 + entrant) for entrant in seating]
        play_game(STANDARD, bots, 11, on_hand=on_hand)
        games.append(PlayedGame("set", seating, tuple(hands)))
    references = play_references(STANDARD, games)
    assert len(references.points) == len({h[:3] for g in games for h in g.hands})
    assert len(references.points) < sum(len(g.hands) for g in games)
    adjusted = adjusted_games(games, references.points)
    for before, after in zip(games, adjusted, strict=True):
        for (*deal, points), (*same, changed) in zip(before.hands, after.hands, strict=True):
            assert deal == same
            assert sum(changed) == sum(points)  # the terms of a hand sum to zero
    figures = measure_baseline(STANDARD, games)
    assert figures.raw.duplicate_sets == figures.adjusted.duplicate_sets == 1
    assert figures.hands == sum(len(g.hands) for g in games)
