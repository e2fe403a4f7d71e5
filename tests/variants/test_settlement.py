"""Chip settlements (000 'Scoring Variations', 'Hearts Without Black Lady'; 004 'Scoring'):
the sources' own examples, the pot's carry-over, and whole games on every chip preset."""

from __future__ import annotations

import pytest

from arena.engine import Game, Rules, RulesError, preset
from arena.engine.rules import DealerRule, MoonRule, Settlement
from arena.engine.settlement import Settled, settle

CHIP_PRESETS = ("no_black_lady", "chips", "sweepstakes", "chip_pool")


def test_howell_example_of_000_seven_hearts_put_in_21_and_take_out_6() -> None:
    # 000 'Hearts Without Black Lady': "In a four-hand game, a player who won seven
    # hearts puts in 21 chips and takes out six" -- 15 chips paid in net.
    settled = settle(Settlement.HOWELL, (7, 3, 3, 0), (False,) * 4, 0, 13)
    assert settled.paid[0] == 21 - 6
    # The seat with no heart puts in nothing and takes out 13.
    assert settled.paid[3] == -13
    assert sum(settled.paid) == 0 and settled.pot == 0


def test_howell_counts_other_players_not_four() -> None:
    # Five players: a heart costs four chips ("as many chips as there are players besides
    # himself"); two hearts = 8 in, 11 out.
    settled = settle(Settlement.HOWELL, (2, 11, 0, 0, 0), (False,) * 5, 0, 13)
    assert settled.paid == (8 - 11, 44 - 2, -13, -13, -13)
    assert sum(settled.paid) == 0


def test_the_lowest_score_takes_the_pot_and_ties_leave_the_odd_chip() -> None:
    # 000 'Scoring Variations' 1): "Players who tie split the pot, leaving any odd chips
    # for the next deal." 26 chips in, two seats tie on 0: 13 each, nothing left over.
    assert settle(Settlement.POT_LOWEST, (13, 0, 0, 13), (False,) * 4, 0, 26) == Settled(
        (13, -13, -13, 13), 0
    )
    # Three seats tie on 0 for 26 (+1 carried) chips: 9 each, 0 left; with 26 only, 8
    # each and 2 odd chips wait.
    assert settle(Settlement.POT_LOWEST, (26, 0, 0, 0), (False,) * 4, 0, 26) == Settled(
        (26, -8, -8, -8), 2
    )
    assert settle(Settlement.POT_LOWEST, (26, 0, 0, 0), (False,) * 4, 1, 26).pot == 0


def test_sweepstakes_pays_only_a_zero_and_otherwise_carries_the_pot() -> None:
    # 000 'Scoring Variations' 2)
    alone = settle(Settlement.SWEEPSTAKES, (20, 0, 5, 1), (False,) * 4, 0, 26)
    assert alone == Settled((20, -26, 5, 1), 0)
    nobody = settle(Settlement.SWEEPSTAKES, (20, 1, 4, 1), (False,) * 4, 3, 26)
    assert nobody == Settled((20, 1, 4, 1), 29, won=False)  # "the pot remains for the next deal"
    split = settle(Settlement.SWEEPSTAKES, (26, 0, 0, 0), (False,) * 4, 29, 26)
    assert split == Settled((26, -18, -18, -18), 1)


def test_the_pool_goes_to_players_who_took_no_penalty_card() -> None:
    # 004 'Scoring': one chip each, "divided equally between those players taking no
    # penalty cards"; if all took one, the pool stays.
    assert settle(Settlement.POOL_CLEAN, (0, 0, 0, 0), (True, False, True, False), 0, 26) == (
        Settled((-1, 1, -1, 1), 0)
    )
    assert settle(Settlement.POOL_CLEAN, (5, 5, 5, 11), (False,) * 4, 2, 26) == Settled(
        (1, 1, 1, 1), 6, won=False
    )


def _play_out(rules: Rules, seed: int) -> Game:
    game = Game(rules, seed)
    while not game.is_over:
        hand = game.hand
        for seat in hand.passes_pending:
            size = rules.pass_size(hand.pass_direction)
            hand.apply_pass(seat, list(hand.hand_of(seat))[:size])
        while not hand.is_over:
            hand.play(hand.legal_plays().first())
        game.finish_hand()
        # Chips are never created or lost: what seats paid in net is what the pot holds.
        assert sum(game.totals) == game.pot
        assert game.pot >= 0
    return game


@pytest.mark.parametrize("name", CHIP_PRESETS)
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_chip_games_conserve_chips_and_end_when_someone_runs_out(name: str, players: int) -> None:
    rules = preset(name, players)
    game = _play_out(rules, seed=players)
    assert rules.target_score is not None
    assert max(game.totals) >= rules.target_score or len(game.hand_scores) == rules.max_hands
    assert game.ranking()[game.winners()[0]] == 1
    for points, paid in zip(game.hand_points, game.hand_scores, strict=True):
        if rules.settlement is Settlement.HOWELL:
            assert sum(points) == 13  # "so that there are 13 points in play"
            assert paid == tuple(players * p - 13 for p in points)


def test_no_black_lady_deals_no_pass_and_scores_only_hearts() -> None:
    rules = preset("no_black_lady")
    assert rules.pass_size(rules.pass_direction(0)) == 0
    assert rules.value_of("QS") == 0 and rules.penalty_total == 13
    assert rules.moon is MoonRule.NONE


def test_queens_are_13_each_and_the_queen_of_spades_taker_deals_next() -> None:
    rules = preset("queens")
    assert rules.penalty_total == 64 and rules.target_score == 108  # 004 'Other Variations'
    game = Game(rules, seed=11)
    while not game.is_over:
        hand = game.hand
        for seat in hand.passes_pending:
            hand.apply_pass(seat, list(hand.hand_of(seat))[:3])
        while not hand.is_over:
            hand.play(hand.legal_plays().first())
        taker = next(s for s in range(4) if "QS" in {str(c) for c in hand.taken(s)})
        game.finish_hand()
        if not game.is_over:
            assert game.hand.dealer == taker
    assert max(game.totals) >= 108


def test_rotation_is_still_the_default_dealer_rule() -> None:
    game = Game(preset("standard"), seed=3)
    assert preset("standard").dealer_rule is DealerRule.ROTATE
    assert game.hand.dealer == 0


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"settlement": "howell", "moon": "old"}, "Howell"),
        ({"settlement": "pot_lowest", "moon": "new"}, "moon"),
        ({"settlement": "sweepstakes", "target_score": None, "max_hands": 10}, "stake"),
        ({"settlement": "chips"}, "settlement"),
        ({"settlement": "pot_lowest", "exact_score_adjustments": ((100, 50),)}, "score sheet"),
    ],
)
def test_impossible_chip_rules_are_refused_with_the_reason(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        preset("standard").replace(**changes)


def test_omnibus_bonus_cards_cannot_be_paid_in_chips() -> None:
    with pytest.raises(RulesError, match="negative"):
        preset("omnibus").replace(settlement=Settlement.POT_LOWEST, moon=MoonRule.OLD)


@pytest.mark.parametrize("name", [*CHIP_PRESETS, "queens"])
def test_the_new_settings_survive_json_and_older_rules_still_load(name: str) -> None:
    rules = preset(name)
    assert Rules.from_json(rules.to_json()) == rules
    old = preset("standard").to_dict()
    for key in ("settlement", "dealer_rule", "pass_forbidden"):
        del old[key]
    assert Rules.from_dict(old) == preset("standard")
