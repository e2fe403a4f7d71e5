"""Enfle / Schwellen (004 'Enfle'): one test per sentence of the source and per choice we
made where it is silent (docs/rules.md 'Enfle'), and random-play invariants. They run on
the backend in use (the C core, or the reference under ARENA_PUREPYTHON=1);
tests/engine/test_enfle_differential.py compares the two.

Explicit deals give hands of any size where a rule is about a position, not the deal: the
engine takes any non-empty, disjoint hands.
"""

from __future__ import annotations

import random

import pytest

from arena.engine import CardSet, Game, Hand, IllegalPassError, IllegalPlayError, preset
from arena.engine.decisions import Action, DecisionKind, IllegalActionError
from arena.engine.rules import RulesError
from arena.engine.variants.enfle import MAX_TRICKS, EnfleHand

# Seat 3 deals, so seat 0 leads. Trick 1: 7C 8C 9C TC, seat 3 wins; trick 2: 7S AS KS QS,
# seat 0 wins; trick 3: 9H TH JH, and seat 3 holds no heart.
FOUR = ["7C 8D 9H AS", "8C 9D TH KS", "9C TD JH QS", "TC JD 7S 8S"]
TO_THE_PICKUP = "7C 8C 9C TC 7S AS KS QS 9H TH JH"


def enfle(hands: list[str], *, dealer: int | None = None) -> EnfleHand:
    n = len(hands)
    hand = Hand.from_cards(preset("enfle", n), hands, dealer=n - 1 if dealer is None else dealer)
    assert isinstance(hand, EnfleHand)
    return hand


def play_all(hand: Hand, cards: str) -> None:
    for card in cards.split():
        hand.play(card)


# -- "usually played by four persons with a piquet pack" --------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 16), (3, 10), (4, 8)])
def test_the_piquet_pack_is_dealt_out_one_card_at_a_time(players: int, size: int) -> None:
    hand = Hand.deal(preset("enfle", players), seed=5, dealer=0)
    assert isinstance(hand, EnfleHand)
    held = [hand.hand_of(s) for s in range(players)]
    assert [len(cards) for cards in held] == [size] * players
    dealt = CardSet(card for cards in held for card in cards)
    assert len(dealt) == players * size
    assert all(card.index % 13 >= 5 for card in dealt)  # the piquet pack: 7 to ace
    assert dealt == preset("enfle", players).deck


@pytest.mark.parametrize("players", [1, 5])
def test_more_than_four_or_fewer_than_two_players_are_refused(players: int) -> None:
    with pytest.raises(RulesError):
        preset("enfle", players)


def test_the_same_seed_deals_the_same_hands() -> None:
    a = Hand.deal(preset("enfle"), seed=9, dealer=1)
    b = Hand.deal(preset("enfle"), seed=9, dealer=1)
    assert [a.hand_of(s) for s in range(4)] == [b.hand_of(s) for s in range(4)]


def test_the_seat_left_of_the_dealer_leads_any_card() -> None:
    hand = Hand.deal(preset("enfle"), seed=3, dealer=2)
    assert hand.to_play == 3 and hand.legal_plays() == hand.hand_of(3)


def test_there_is_no_pass() -> None:
    hand = enfle(FOUR)
    decision = hand.pending()
    assert hand.passes_pending == () and decision is not None
    assert decision.kind is DecisionKind.PLAY
    with pytest.raises(IllegalPassError):
        hand.apply_pass(0, "7C")


# -- "A player must follow suit if he can" -----------------------------------------------


def test_a_player_must_follow_suit_if_he_can() -> None:
    hand = enfle(FOUR)
    hand.play("7C")
    assert hand.legal_plays() == CardSet.parse("8C")
    with pytest.raises(IllegalPlayError, match="must follow suit"):
        hand.play("9D")


def test_the_highest_card_of_the_suit_led_wins_and_leads() -> None:
    hand = enfle(FOUR)
    play_all(hand, "7C 8C 9C TC")
    assert hand.tricks()[-1].winner == 3 and hand.to_play == 3
    assert hand.taken(3) == CardSet.parse("7C 8C 9C TC")


# -- "if he cannot he may not discard, but must take up all tricks already won" ---------


def test_enfle_pickup_when_a_seat_cannot_follow() -> None:
    hand = enfle(FOUR)
    play_all(hand, TO_THE_PICKUP)
    # Seat 3 is never asked: it takes up both tricks and the hearts on the table, and leads.
    assert hand.hand_of(3) == CardSet.parse("JD 8S 7C 8C 9C TC 7S AS KS QS 9H TH JH")
    assert hand.to_play == 3 and hand.leader == 3 and hand.current_trick == ()
    assert all(hand.taken(s) == CardSet() for s in range(4))
    assert hand.pickups() == ((2, 3, CardSet.parse("7C 8C 9C TC 7S AS KS QS 9H TH JH")),)
    broken = hand.tricks()[-1]
    assert broken.winner == -1 and broken.leader == 0
    assert [str(card) for _, card in broken.plays] == ["9H", "TH", "JH"]
    assert hand.tricks_won(3) == 1 and hand.tricks_won(0) == 1


def test_a_pickup_with_nothing_won_takes_the_trick_in_progress() -> None:
    hand = enfle(["7C 8C", "7D 8D"], dealer=1)
    hand.play("7C")  # seat 1 holds no club
    assert hand.pickups() == ((0, 1, CardSet.parse("7C")),)
    assert hand.hand_of(1) == CardSet.parse("7C 7D 8D") and hand.to_play == 1


def test_a_pickup_is_the_engines_own_action_in_history() -> None:
    hand = enfle(FOUR)
    for card in TO_THE_PICKUP.split():
        decision = hand.pending()
        assert decision is not None and decision.kind is DecisionKind.PLAY
        hand.apply(Action(DecisionKind.PLAY, decision.seat, card))
    last = hand.history[-1]
    assert last.kind is DecisionKind.PICKUP and last.seat == 3
    assert CardSet(last.value) == CardSet.parse(TO_THE_PICKUP)
    assert [a.kind for a in hand.history].count(DecisionKind.PICKUP) == 1
    with pytest.raises(IllegalActionError, match="engine's own"):
        hand.apply(last)
    decision = hand.pending()
    assert decision is not None and decision.seat == 3


# -- "Play is continued until one player gets rid of all his cards and thus wins" ------


def test_the_first_to_empty_his_hand_wins() -> None:
    hand = enfle(FOUR)
    play_all(hand, TO_THE_PICKUP + " JD 8D")  # seat 0 plays its last card
    assert hand.is_over and hand.winner == 0 and hand.pending() is None
    assert [str(card) for _, card in hand.current_trick] == ["JD", "8D"]  # left unfinished
    assert hand.points() == (0, 1, 1, 12)


def test_points_are_one_per_card_left() -> None:
    hand = Hand.deal(preset("enfle"), seed=21, dealer=0)
    assert isinstance(hand, EnfleHand)
    while (decision := hand.pending()) is not None:
        hand.apply(Action(decision.kind, decision.seat, decision.default))
    assert hand.points() == tuple(len(hand.hand_of(s)) for s in range(4))
    assert hand.winner is None or hand.points()[hand.winner] == 0


def test_points_before_the_end_are_refused() -> None:
    with pytest.raises(ValueError, match="not over"):
        enfle(FOUR).points()


# -- our cap: a hand that would cycle for ever ---------------------------------------------


def test_enfle_cap_ends_a_hand_that_cycles() -> None:
    # Four cards of four suits between two seats: whatever is led, the other is void.
    hand = enfle(["7C 7S", "7D 7H"], dealer=1)
    while not hand.is_over:
        hand.play(hand.legal_plays().first())
    assert hand.trick_number == MAX_TRICKS == 200
    assert len(hand.pickups()) == MAX_TRICKS and hand.winner is None
    assert hand.points() == (2, 2)


# -- what a seat sees ---------------------------------------------------------------------


def test_a_view_shows_the_pickups_and_the_cards_each_seat_holds() -> None:
    hand = enfle(FOUR)
    play_all(hand, TO_THE_PICKUP)
    view = hand.view(1)
    assert view.hand == CardSet.parse("9D")
    assert len(view.pickups) == 1 and view.pickups[0][:2] == (2, 3)
    assert CardSet(view.pickups[0][2]) == CardSet.parse(TO_THE_PICKUP)
    assert view.points_taken == (1, 1, 1, 13)
    assert view.tricks[-1].winner == -1


# -- the rules that go with it ------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"removed_cards": CardSet()},
        {"pass_schedule": ["left"]},
        {"lead_rule": "hearts_broken"},
        {"card_values": {"QS": 13}},
        {"moon": "old"},
        {"domino": True},
        {"settlement": "chips"},
    ],
)
def test_rules_enfle_cannot_play_are_refused(change: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        preset("enfle").replace(**change)


def test_the_preset_round_trips_through_json() -> None:
    rules = preset("enfle")
    assert type(rules).from_json(rules.to_json()) == rules
    assert rules.to_dict()["enfle"] is True


# -- random play --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_keeps_every_card_in_one_place(players: int) -> None:
    rng = random.Random(players)
    game = Game(preset("enfle", players), seed=players)
    while not game.is_over:
        hand = game.hand
        assert isinstance(hand, EnfleHand)
        while not hand.is_over:
            hand.play(rng.choice(list(hand.legal_plays())))
            places = [hand.hand_of(s) for s in range(players)]
            places += [hand.taken(s) for s in range(players)]
            places.append(CardSet(card for _, card in hand.current_trick))
            assert sum(len(p) for p in places) == len(hand.rules.deck)
            assert CardSet(c for p in places for c in p) == hand.rules.deck
        assert hand.winner is not None or hand.trick_number == MAX_TRICKS
        game.finish_hand()
    assert len(game.totals) == players and game.winners()


@pytest.mark.parametrize(
    "change",
    [
        {"first_trick_points": 1},  # Slobberhannes's trick points (issue 23, scoring)
        {"all_hearts_reversed": True},  # Gong Zhu's all reds
        {"broken_by": "hearts"},  # a lead restriction's breaking: Enfle has none
        {"no_trick_bonus": -5},
    ],
)
def test_enfle_refuses_every_rule_it_would_ignore(change: dict[str, object]) -> None:
    """004 'Enfle' scores cards left in hand: any other option off its default would be
    silently ignored by the Enfle engine, so `Rules` refuses it and names it."""
    with pytest.raises(RulesError, match=f"not so: {next(iter(change))}"):
        preset("enfle").replace(**change)
