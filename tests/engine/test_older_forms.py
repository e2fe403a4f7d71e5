"""004's older forms of Hearts and two named relatives, each scored by the hearts core:
Slobberhannes (the first trick, the last trick and the QC), Four Jacks (Polignac), Gong
Zhu (Pagat's Chinese Hearts: the pig, the sheep, the transformer, "all reds") and Rickety
Kate (Matthew Kerwin's rules). Hand-built deals, played card by card; the suite runs on
both cores (ARENA_PUREPYTHON=1 for the reference)."""

from __future__ import annotations

import pytest

from arena.engine import CardSet, Game, Hand, Rules, preset
from arena.engine.rules import RulesError


def play(hand: Hand, cards: str) -> None:
    expose_none(hand)
    for card in cards.split():
        hand.play(card)


def expose_none(hand: Hand) -> None:
    """Gong Zhu asks every seat which cards it exposes before play: these tests expose none
    (tests/engine/test_gong_zhu_exposures.py exposes them)."""
    for _ in range(hand.players):
        for seat in hand.exposures_pending:
            hand.apply_exposure(seat, ())


def play_out(hand: Hand) -> None:
    expose_none(hand)
    while not hand.is_over:
        hand.play(hand.legal_plays().first())


def small(rules: Rules, deal: list[str], dealer: int = 0) -> Hand:
    """A hand of `rules` on a deck cut down to the cards of `deal` (the values of the
    cards taken out go with them)."""
    held = CardSet.parse(" ".join(deal))
    removed = rules.deck - held
    values = {card: value for card, value in rules.card_values.items() if card in held}
    cut = rules.replace(removed_cards=rules.removed_cards | removed, card_values=values)
    return Hand.from_cards(cut, deal, dealer=dealer)


# --- Slobberhannes (004 'Slobberhannes') ------------------------------------------------

# Each seat one suit of the euchre pack: seat 1 (left of dealer 0) leads clubs and, the
# others void, takes every trick: the first, the last and the one with the QC.
ONE_SUIT_EACH = [
    "AS KS QS JS TS 9S 8S 7S",
    "AC KC QC JC TC 9C 8C 7C",
    "AD KD QD JD TD 9D 8D 7D",
    "AH KH QH JH TH 9H 8H 7H",
]

# Seat 1 leads the QC; seat 0 must follow and takes it with the AC (first trick and QC),
# wins the club tricks that follow, and leads the 7D to the last trick, which seat 1 wins.
SPLIT = [
    "AC KC JC TC 9C 8C 7C 7D",
    "QC AD KD QD JD TD 9D 8D",
    "AS KS QS JS TS 9S 8S 7S",
    "AH KH QH JH TH 9H 8H 7H",
]


def test_slobberhannes_uses_the_euchre_pack_of_thirty_two_cards():
    rules = preset("slobberhannes")
    assert len(rules.deck) == 32 and rules.hand_size == 8
    assert {str(card)[0] for card in rules.deck} == set("789TJQKA")
    assert rules.card_values == {CardSet.parse("QC").first(): 1}


def test_slobberhannes_three_penalties_on_one_player_cost_four():
    hand = Hand.from_cards(preset("slobberhannes"), ONE_SUIT_EACH, dealer=0)
    assert hand.to_play == 1
    play_out(hand)
    assert hand.tricks()[0].winner == hand.tricks()[-1].winner == 1
    assert hand.points() == (0, 4, 0, 0)


def test_slobberhannes_first_trick_queen_of_clubs_and_last_trick_one_counter_each():
    hand = Hand.from_cards(preset("slobberhannes"), SPLIT, dealer=0)
    play(hand, "QC 7S 7H AC")
    assert hand.tricks()[0].winner == 0
    play_out(hand)
    assert hand.tricks()[-1].winner == 1
    assert hand.points() == (2, 1, 0, 0)


def test_slobberhannes_counts_one_counter_each_for_every_random_hand():
    rules = preset("slobberhannes")
    for seed in range(20):
        hand = Hand.deal(rules, seed, pass_direction="hold")
        play_out(hand)
        tricks = hand.tricks()
        expected = [0, 0, 0, 0]
        expected[tricks[0].winner] += 1
        expected[tricks[-1].winner] += 1
        queen = next(t.winner for t in tricks if any(str(c) == "QC" for _, c in t.plays))
        expected[queen] += 1
        if tricks[0].winner == tricks[-1].winner == queen:
            expected[queen] += 1
        assert hand.points() == tuple(expected), seed
        assert sum(hand.points()) in (3, 4)


def test_slobberhannes_game_ends_when_a_player_has_forfeited_his_ten_counters():
    game = Game(preset("slobberhannes"), seed=11)
    highest = []
    while not game.is_over:
        play_out(game.hand)
        game.finish_hand()
        highest.append(max(game.totals))
    assert highest[-1] >= 10 and all(total < 10 for total in highest[:-1])
    lowest = min(game.totals)
    assert list(game.winners()) == [seat for seat in range(4) if game.totals[seat] == lowest]


def test_slobberhannes_and_four_jacks_are_for_four_players_only():
    for name in ("slobberhannes", "four_jacks"):
        with pytest.raises(RulesError, match="4"):
            preset(name, players=3)


def test_every_penalty_extra_needs_the_first_or_last_trick_to_count():
    with pytest.raises(RulesError, match="every_penalty_extra"):
        preset("standard").replace(every_penalty_extra=1)


# --- Four Jacks (004 'Four Jacks') ------------------------------------------------------


def test_four_jacks_each_knave_one_and_polignac_two():
    rules = preset("four_jacks")
    assert len(rules.deck) == 32
    assert {str(card): value for card, value in rules.card_values.items()} == {
        "JC": 1,
        "JD": 1,
        "JS": 2,
        "JH": 1,
    }


def test_four_jacks_two_jacks_in_one_trick_count_each_by_the_per_jack_reading():
    deal = [
        "AS KS QS TS 9S 8S 7S JH",
        "JS AC KC QC JC TC 9C 8C",
        "AD KD QD JD TD 9D 8D 7D",
        "AH KH QH TH 9H 8H 7H 7C",
    ]
    hand = Hand.from_cards(preset("four_jacks"), deal, dealer=0)
    play(hand, "JS JD 7C AS")  # seat 0 takes Polignac and the JD in one trick: 3, not 1
    assert hand.tricks()[0].winner == 0
    play_out(hand)
    worth = {"JC": 1, "JD": 1, "JH": 1, "JS": 2}
    expected = tuple(sum(worth.get(str(card), 0) for card in hand.taken(seat)) for seat in range(4))
    assert hand.points() == expected and expected[0] >= 3 and sum(expected) == 5


# --- Gong Zhu (Pagat, https://www.pagat.com/reverse/gongzhu.html) ------------------------


def test_gong_zhu_values_negated_pig_sheep_and_hearts():
    rules = preset("gong_zhu")
    worth = {str(card): value for card, value in rules.card_values.items()}
    assert worth["QS"] == 100 and worth["JD"] == -100
    assert [rules.value_of(rank + "H") for rank in "23456789TJQKA"] == [
        0, 0, 0, 10, 10, 10, 10, 10, 10, 20, 30, 40, 50,
    ]  # fmt: skip
    assert sum(rules.value_of(rank + "H") for rank in "23456789TJQKA") == 200


def test_gong_zhu_five_players_take_out_the_two_of_clubs_and_of_diamonds():
    rules = preset("gong_zhu", 5)
    assert str(rules.removed_cards) == "2C 2D" and rules.hand_size == 10


def test_gong_zhu_the_two_of_spades_leads_and_any_card_may_be_led_after():
    hand = Hand.deal(preset("gong_zhu"), seed=4, pass_direction="hold")
    assert hand.pass_direction.value == "hold"
    expose_none(hand)
    assert hand.to_play == hand.seat_holding("2S")
    assert hand.legal_plays() == CardSet.parse("2S")


def test_gong_zhu_taking_all_sixteen_scoring_cards_scores_minus_eight_hundred():
    # The holder of every spade leads the 2S and, the others void, takes all 52 cards:
    # hearts -200 (reversed), the pig -100 (reversed), the sheep -100, doubled.
    deal = [
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    ]
    hand = Hand.from_cards(preset("gong_zhu"), deal, dealer=3)
    play_out(hand)
    assert hand.points() == (-800, 0, 0, 0)


# Seat 0 leads the 2S, seat 1 wins it with the AS, then leads both hearts and the 4D,
# which seat 2 wins with the 6D, taking the TC and (in ALL_REDS_NO_PIG) the pig.
SMALL = [
    "2S QS 2C 3C",
    "AS 2H AH 4D",
    "2D 3D 5D 6D",
    "4C 5C 6C TC",
]
ALL_REDS_NO_PIG = "2S AS 2D 4C  2H 3D 5C 2C  AH 5D 6C 3C  4D 6D TC QS"
ALL_REDS_AND_PIG = "2S AS 2D 4C  2H 3D 5C QS  AH 5D 6C 2C  4D 6D TC 3C"


def test_gong_zhu_all_reds_score_minus_their_value_and_the_pig_stays_with_its_taker():
    hand = small(preset("gong_zhu"), SMALL)
    play(hand, ALL_REDS_NO_PIG)
    # seat 1: every heart in play (2H AH, 50) reversed; seat 2: the TC doubles the QS.
    assert hand.points() == (0, -50, 200, 0)


def test_gong_zhu_all_reds_with_the_pig_reverse_the_pig_too():
    hand = small(preset("gong_zhu"), SMALL)
    play(hand, ALL_REDS_AND_PIG)
    # seat 1: hearts -50 and the pig -100; seat 2: the transformer alone, -50.
    assert hand.points() == (0, -150, -50, 0)
    keep_pig = small(preset("gong_zhu").replace(all_hearts_reverse_queen=False), SMALL)
    play(keep_pig, ALL_REDS_AND_PIG)
    assert keep_pig.points() == (0, 50, -50, 0)


def test_gong_zhu_the_transformer_alone_counts_minus_fifty_and_a_zero_heart_is_a_scoring_card():
    deal = ["2S 3S 4S 7D", "2C 3C 4C 8D", "2D 3D 4D TC", "5C 3H AH 2H"]  # no QS
    no_pig = preset("gong_zhu").replace(all_hearts_reverse_queen=False, dealer_rule="rotate")
    hand = small(no_pig, deal)
    play(hand, "2S 2C 2D 5C  3S 3C 3D 3H  4S 4C 4D AH  7D 8D TC 2H")
    # seat 1 took the TC with the 2H, a scoring card worth 0: twice 0, not -50.
    assert hand.points() == (50, 0, 0, 0)
    plain = small(no_pig.replace(all_hearts_reversed=False), deal)
    play(plain, "2S 2C 2D 5C  3S 3C 3D 3H  4S 4C 4D AH  7D 8D TC 2H")
    # without all reds a heart worth 0 scores nothing: the TC is alone.
    assert plain.points() == (50, -50, 0, 0)


def test_gong_zhu_options_need_what_they_speak_of():
    with pytest.raises(RulesError, match="needs a doubler"):
        preset("gong_zhu").replace(doubler=None)
    with pytest.raises(RulesError, match="needs all_hearts_reversed"):
        preset("gong_zhu").replace(all_hearts_reversed=False)
    with pytest.raises(RulesError, match="jokers"):
        preset("joker").replace(all_hearts_reversed=True)


def test_gong_zhu_game_ends_past_a_thousand():
    rules = preset("gong_zhu")
    assert rules.target_score == 1001 and rules.moon.value == "none"
    assert rules.to_dict()["all_hearts_reversed"] is True
    assert "first_trick_points" not in rules.to_dict()  # written only when set
    assert Rules.from_json(rules.to_json()) == rules


# --- Rickety Kate (https://matthew.kerwin.net.au/games/rickety-kate.html) ----------------


def test_rickety_kate_deals_until_no_more_cards_than_players_are_left():
    for players, (hand_size, kitty) in {
        3: (17, 1),
        4: (12, 4),
        5: (10, 2),
        6: (8, 4),
        7: (7, 3),
    }.items():
        rules = preset("rickety_kate", players)
        assert (rules.hand_size, rules.kitty_size) == (hand_size, kitty)
        assert rules.kitty_size <= players and rules.penalty_total == 46


def test_rickety_kate_passes_two_cards_to_the_left_and_the_dealers_left_leads_anything():
    rules = preset("rickety_kate")
    hand = Hand.deal(rules, seed=3, dealer=0)
    assert hand.pass_direction.value == "left" and rules.pass_count == 2
    for seat in range(4):
        hand.apply_pass(seat, list(hand.hand_of(seat))[:2])
    assert hand.to_play == 1 and hand.legal_plays() == hand.hand_of(1)


# Seat 1 holds twelve clubs and leads them; the others, void, discard everything; the
# kitty (the AC, 2D, 2S, 2H) goes to the first trick's winner.
KITTY = "AC 2D 2S 2H"
ALL_TO_ONE = [
    "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
]


def test_rickety_kate_forty_six_all_to_one_seat_score_nought_and_forty_six_to_the_others():
    rules = preset("rickety_kate")
    hand = Hand.from_cards(rules, ALL_TO_ONE, dealer=0, kitty=KITTY, pass_direction="hold")
    play_out(hand)
    assert hand.kitty_owner == 1
    assert hand.points() == (46, 0, 46, 46)


def test_rickety_kate_the_kitty_goes_with_the_first_trick_and_counts():
    rules = preset("rickety_kate")
    hand = Hand.from_cards(rules, ALL_TO_ONE, dealer=0, kitty=KITTY, pass_direction="hold")
    play(hand, "2C 3S 3H 3D")  # seat 1 wins, taking the 3H and the kitty's 2H
    assert hand.kitty_owner == 1
    assert {"2H", "3H", "AC"} <= {str(card) for card in hand.taken(1)}


def test_gong_zhu_the_pigs_taker_leads_any_card_to_the_next_hand():
    game = Game(preset("gong_zhu"), seed=21)
    first = game.hand
    expose_none(first)
    assert first.rules.opening.value == "lowest_spade"
    assert first.to_play == first.seat_holding("2S")
    play_out(first)
    taker = next(seat for seat in range(4) if "QS" in {str(c) for c in first.taken(seat)})
    game.finish_hand()
    second = game.hand
    expose_none(second)
    assert second.dealer == (taker - 1) % 4
    assert second.to_play == taker
    assert second.rules.opening.value == "left_of_dealer"
    assert second.legal_plays() == second.hand_of(taker)  # "Any card may be led"
    assert game.rules.rules_for_hand(5) is game.rules.rules_for_hand(1)


def test_the_pig_leads_rule_needs_the_queen_of_spades_dealt():
    with pytest.raises(RulesError, match="queen_of_spades_taker_leads"):
        preset("gong_zhu").replace(
            removed_cards="QS", card_values={"QS": 0, "AH": 50}, all_hearts_reverse_queen=False
        )
