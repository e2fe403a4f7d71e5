"""Every preset, played through the public API: scenario tests named after the rules,
and random-play invariants on every preset and player count."""

import random

import pytest

from arena.engine import (
    CardSet,
    Hand,
    IllegalPlayError,
    JokerKind,
    Phase,
    RulesError,
    Suit,
    preset,
)
from arena.engine.config import ERR_BOOSTER_SUIT, ERR_JOKER_HELD
from arena.engine.decisions import CountedCall, DecisionKind
from arena.engine.presets import PRESETS

# One suit per seat: seat 3 holds every club, leads the 2C, and wins every trick
# whatever anyone plays, so it takes every card: a moon and a sun in one hand.
ONE_SUIT_EACH = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]

EXPECTED_WHEN_SEAT_3_TAKES_EVERYTHING = {
    "standard": (26, 26, 26, 0),  # 000 'Shooting the Moon': others + 26
    "new_moon": (0, 0, 0, -26),  # 004 'New Moon'
    "sun": (52, 52, 52, 0),  # 002/004 'Shooting the Sun': 52
    "omnibus": (0, 0, 0, -26),  # 000 'Slam': 26 plus with the TD
    "omnibus_jack": (26, 26, 26, 0),  # 002 shooter's choice: adding leaves seat 3 lowest
    "black_maria": (26, 26, 26, 0),
    # 001 'VARIATION 1: BLACK MARIAH': the QS at the first chance changes only what is legal.
    "black_maria_purist": (26, 26, 26, 0),
    "midwest": (26, 26, 26, 0),  # 003 'Regular Hearts' moon
    "classic": (0, 0, 0, 13),  # 003 'Simple variations': no QS, no moon
    "spot": (104, 104, 104, 0),  # 004 1911 Spot Hearts: hearts only, 104
    "spot_midwest": (124, 124, 124, 0),  # 003's table (its text says 114; the table sums to 124)
    "spot_face": (119, 119, 119, 0),  # 004: 119 per deal
    "hooligan": (33, 33, 33, 0),  # 004: the 7C worth 7 joins the moon
    "no_black_lady": (0, 0, 0, 13),  # 000 'Hearts Without Black Lady': hearts only, no moon
    "chips": (26, 26, 26, 0),  # the hand's points; chips are settled by the game
    "sweepstakes": (26, 26, 26, 0),
    "chip_pool": (26, 26, 26, 0),
    "queens": (0, 0, 0, 64),  # 004 'Other Variations': four queens 13 each, no moon
    "no_spade_pass": (26, 26, 26, 0),  # 004 'Passing cards': only the pass differs
    # 004 'Royal Hearts': the shooter took all four queens, "both of these combined make the
    # reward only 16 points".
    "royal": (16, 16, 16, 0),
    # 003 'HEARTLESS' with REVEALS_FOR_THE_MOON: hearts score, so the 2C opens (as midwest).
    "heartless": (26, 26, 26, 0),
    # 003 'Simple variations': only the pass is the dealer's call; midwest's moon.
    "dealer_calls": (26, 26, 26, 0),
    # 000 'Auction Hearts': everyone passes, so seat 3 (first to bid) names hearts and
    # takes all 13: a card a point, no moon.
    "auction": (0, 0, 0, 13),
    # 004 'Other Variations', Danger Hearts: standard scoring (the moon costs lives).
    "danger": (26, 26, 26, 0),
    # 004 'Other Variations': Booster Nines changes only who must lead what.
    "booster_nines": (26, 26, 26, 0),
    # 004 (1911) 'Joker Hearts': the joker (5) for the 2H; 12 hearts, the QS and it: 30.
    "joker_1911": (30, 30, 30, 0),
    # 000 'Domino Hearts': the stock is empty in this deal, so the void seats discard; the
    # hearts only count ("the ♠Q is usually not scored"), and all 13 are a moon.
    "domino": (13, 13, 13, 0),
    # 003 'FOUR-PENNY HEARTS': "scored as in standard Hearts" (003's own, midwest's moon).
    # A card without a penny goes to the lowest penny where it is legal, so seat 3 leads
    # each penny in turn and takes it.
    "four_penny": (26, 26, 26, 0),
    "four_penny_advanced": (26, 26, 26, 0),
    # Gong Zhu (Pagat): the 2S opens, so seat 3 holds the spades (DEALS) and takes all
    # sixteen scoring cards: all reds -200, the pig reversed -100, the sheep -100, doubled.
    "gong_zhu": (0, 0, 0, -800),
    # 004 'Scoring variants', every seat pledging: seat 3's moon takes every heart, so its
    # pledge is broken (+10 on the moon's 0), and the others keep theirs (-10 on 26).
    "pledge": (16, 16, 16, 10),
    # 004 'Passing cards': only the pass is the dealer's call (with its count).
    "dealer_counts": (26, 26, 26, 0),
}
# The 1911 joker takes the 2H's place (004 'Joker Hearts'); Gong Zhu's 2S leads.
DEALS = {
    "joker_1911": [seat.replace("2H", "JK1") for seat in ONE_SUIT_EACH],
    "gong_zhu": [ONE_SUIT_EACH[3], ONE_SUIT_EACH[1], ONE_SUIT_EACH[2], ONE_SUIT_EACH[0]],
}
# The cards each seat reveals in a Heartless hand of ONE_SUIT_EACH: the AH is the highest,
# so hearts score with the QS and seat 3 opens with the 2C (003 'HEARTLESS').
REVEALS_FOR_THE_MOON = ("2S", "AH", "2D", "2C")
# The one-suit-each deal is a four-hand deal of one pack; presets made for other tables,
# the two-pack Cancellation Hearts (tests/engine/test_cancellation.py) and a four-hand
# game with a widow (Heartsette: twelve cards each; tests/engine/test_heartsette.py) are
# left out, and so are Enfle, which takes no tricks for points and has no moon (a seat void
# in the suit led takes the tricks up: tests/engine/test_enfle.py), and the 32-card
# piquet-pack games (Slobberhannes, Four Jacks: tests/engine/test_older_forms.py).
FOUR_HAND_PRESETS = sorted(
    name
    for name in PRESETS
    if preset(name).players == 4
    and not preset(name).cancellation
    and not preset(name).kitty_size
    and not preset(name).enfle
    and len(preset(name).deck) == 52
)


def test_every_preset_has_a_moon_scenario():
    assert set(EXPECTED_WHEN_SEAT_3_TAKES_EVERYTHING) == set(FOUR_HAND_PRESETS)


@pytest.mark.parametrize("name", FOUR_HAND_PRESETS)
def test_taking_every_card_scores_by_the_presets_moon_rule(name):
    rules = preset(name)
    rng = random.Random(name)
    # Dealer 2 puts seat 3 on lead where the player left of the dealer opens (classic).
    hand = Hand.from_cards(rules, DEALS.get(name, ONE_SUIT_EACH), dealer=2)
    if hand.phase is Phase.REVEALING:
        for seat, card in enumerate(REVEALS_FOR_THE_MOON):
            hand.apply_reveal(seat, card)
    while hand.bids_pending:
        hand.apply_bid(hand.bids_pending[0], None)
    if hand.names_pending:
        hand.apply_naming(hand.names_pending[0], Suit.HEARTS)
    while hand.pledges_pending:  # 004 'Scoring variants': everyone pledges
        hand.apply_pledge(hand.pledges_pending[0], True)
    while hand.exposures_pending:  # Gong Zhu: nobody exposes (tests/engine/test_gong_zhu_exposures)
        hand.apply_exposure(hand.exposures_pending[0], ())
    while not hand.is_over:
        legal = hand.legal_plays()
        hand.play(legal.nth(rng.randrange(len(legal))))
    assert all(trick.winner == 3 for trick in hand.tricks())
    assert hand.points() == EXPECTED_WHEN_SEAT_3_TAKES_EVERYTHING[name]


def test_no_points_on_the_first_trick_keeps_the_queen_back():
    hand = Hand.from_cards(preset("standard"), ONE_SUIT_EACH, dealer=2)
    hand.play("2C")
    assert "QS" not in hand.legal_plays()  # seat 0 has other spades to discard


def test_black_maria_forbids_the_jack_of_diamonds_on_the_first_trick():
    hand = Hand.from_cards(preset("black_maria"), ONE_SUIT_EACH, dealer=2)
    hand.play("2C")
    hand.play("AS")
    hand.play("2H")  # only hearts: allowed although a penalty card
    assert "JD" not in hand.legal_plays()  # 001: no point card, the JD included


def test_classic_left_of_dealer_leads_any_card():
    hand = Hand.from_cards(preset("classic"), ONE_SUIT_EACH, dealer=0)
    assert hand.to_play == 1
    assert hand.legal_plays() == CardSet.parse(ONE_SUIT_EACH[1])  # hearts lead allowed


def _raw_points(rules, taken, won=(False, False), doubler_exposed=False):
    """A seat's score without a moon; `won` says whether it won the first and the last
    trick (004 'Slobberhannes'; Gong Zhu's reversal and lone transformer, Pagat; an exposed
    transformer quadruples, the hand's rules holding the other exposed values doubled)."""
    if rules.royal_queens:
        return max(_royal_points(rules, taken), 0)
    raw = sum(rules.value_of(card) for card in taken)
    hearts = [card for card in rules.deck if card.suit is Suit.HEARTS]
    if rules.all_hearts_reversed and all(card in taken for card in hearts):
        raw -= 2 * sum(rules.value_of(card) for card in hearts)
        if rules.all_hearts_reverse_queen and "QS" in taken:
            raw -= 2 * rules.value_of("QS")
    raw += rules.first_trick_points * won[0] + rules.last_trick_points * won[1]
    every = (not rules.first_trick_points or won[0]) and (not rules.last_trick_points or won[1])
    if rules.every_penalty_extra and every and rules.penalty_cards.mask & ~taken.mask == 0:
        raw += rules.every_penalty_extra
    if rules.doubler is not None and rules.doubler in taken:
        scoring = [
            card
            for card in taken
            if card != rules.doubler
            and (rules.value_of(card) or (rules.all_hearts_reversed and card.suit is Suit.HEARTS))
        ]
        if rules.doubler_alone_points and not scoring:
            return raw + rules.doubler_alone_points
        raw *= 4 if doubler_exposed else 2
    return raw


def _royal_points(rules, taken):
    """004 'Royal Hearts' before the floor: hearts doubled by the QH, the QS cancelled by
    the QC taken with it, every other card at its value."""
    hearts = sum(rules.value_of(card) for card in taken if card.suit is Suit.HEARTS)
    if "QH" in taken:
        hearts *= 2
    others = [card for card in taken if card.suit is not Suit.HEARTS]
    if "QC" in taken:
        others = [card for card in others if str(card) != "QS"]
    return hearts + sum(rules.value_of(card) for card in others)


def _winner(rules, plays):
    """The seat that wins a trick: the highest card of the suit led. With jokers (004 'Joker
    Hearts'): a wild joker has no suit and the first suited card sets it (a trick of jokers
    goes to its leader); the 1911 joker is a heart between the 10 and the J."""
    heart_joker = rules.joker_kind is JokerKind.HEART_1911

    def suit(card):
        return Suit.HEARTS if card.is_joker and heart_joker else card.suit

    def order(card):
        return 2 * 47 + 1 if card.is_joker else 2 * card.index

    led = next((suit(card) for _, card in plays if suit(card) is not None), None)
    if led is None:
        return plays[0][0]
    return max((play for play in plays if suit(play[1]) is led), key=lambda p: order(p[1]))[0]


def _play_random_hand(rules, seed):
    rng = random.Random(seed)
    hand = Hand.deal(
        rules, seed, dealer=seed % rules.players, pass_direction=rules.pass_direction(seed)
    )
    if hand.calls_pending:  # 003 'Simple variations': the dealer calls any allowed pass
        # 004 'Passing cards': with counts to choose from, any of them too.
        direction = rng.choice(hand.call_options)
        counts = hand.call_counts
        hand.apply_call(
            CountedCall(direction, rng.choice(counts)) if len(counts) > 1 else direction
        )
    size = hand.pass_size
    for seat in hand.passes_pending:
        # Only cards the seat may pass (004 'Passing cards': some games keep the spade
        # honours back); with nothing forbidden this is the whole hand.
        hand.apply_pass(seat, rng.sample(list(hand.passable(seat)), size))
    while (due := hand.queen_pending) is not None:  # Rickety Kate: a random refusal
        kind, seat = due
        if kind is DecisionKind.REFUSE_QUEEN:
            hand.apply_queen_refusal(seat, rng.random() < 0.5)
        else:
            decision = hand.pending()
            assert decision is not None
            hand.apply_replacement(seat, rng.choice(list(decision.legal)))
    for seat in hand.reveals_pending:  # 003 'HEARTLESS': each seat shows a random card
        hand.apply_reveal(seat, rng.choice(list(hand.hand_of(seat))))
    while hand.bids_pending:  # 000 'Auction Hearts': a random bid or a pass
        auction = hand.auction
        assert auction is not None
        low = auction.lowest_bid
        amount = rng.randint(low, auction.max_bid) if low <= auction.max_bid else None
        hand.apply_bid(hand.bids_pending[0], rng.choice([None, amount]))
    for seat in hand.names_pending:
        hand.apply_naming(seat, rng.choice(list(Suit)))
    while hand.pledges_pending:  # 004 'Scoring variants': a random pledge
        hand.apply_pledge(hand.pledges_pending[0], rng.random() < 0.5)
    while hand.exposures_pending:  # Gong Zhu: a random choice of the exposable cards
        seat = hand.exposures_pending[0]
        hand.apply_exposure(seat, [c for c in hand.exposable(seat) if rng.random() < 0.5])
    while not hand.is_over:
        legal = hand.legal_plays()
        assert legal, "a seat to play always has a legal card"
        turn = hand.to_play
        assert turn is not None
        assert all(card in hand.hand_of(turn) for card in legal)
        hand.play(legal.nth(rng.randrange(len(legal))))
    return hand


CASES = []
for _name in sorted(PRESETS):
    for _players in range(2, 8):
        try:
            _rules = preset(_name, _players)
        except RulesError:
            continue
        if _rules.cancellation:  # two packs: tests/engine/test_cancellation.py
            continue
        if _rules.domino:  # short tricks and a stock: tests/engine/test_domino.py's invariants
            continue
        if _rules.enfle:  # tricks taken up again: tests/engine/test_enfle.py's invariants
            continue
        CASES.append((_name, _players))


def _pledged(hand, seat):
    """004 'Scoring variants': -10 for a no-hearts pledge kept, +10 for one broken."""
    if not hand.pledges or not hand.pledges[seat]:
        return 0
    took_hearts = any(card.suit is Suit.HEARTS for card in hand.taken(seat))
    return hand.rules.pledge_points * (1 if took_hearts else -1)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_play_invariants(name, players):
    for seed in range(40):
        hand = _play_random_hand(preset(name, players), seed)
        # The rules the hand was played by: a Heartless hand's are its revealed suit's.
        rules = hand.rules
        moon_cards = rules.penalty_cards | rules.moon_requires
        played = CardSet()
        for number, trick in enumerate(hand.tricks()):
            # 002's extra cards: the first trick holds one more card per extra card.
            assert len(trick.plays) == players + (rules.extra_cards if number == 0 else 0)
            assert not (played & trick.cards), "a card was played twice"
            played |= trick.cards
            assert _winner(rules, trick.plays) == trick.winner
        assert played | hand.kitty == rules.deck, "every card is played exactly once"
        taken = [hand.taken(seat) for seat in range(players)]
        union = CardSet()
        for cards in taken:
            assert not (union & cards)
            union |= cards
        assert union == rules.deck
        points = hand.points()
        shooter = [s for s in range(players) if moon_cards.mask & ~taken[s].mask == 0]
        if not shooter or rules.moon.value == "none":
            tricks = hand.tricks()
            assert list(points) == [
                _raw_points(
                    rules,
                    taken[s],
                    (tricks[0].winner == s, tricks[-1].winner == s),
                    rules.doubler is not None and rules.doubler in hand.exposed_cards,
                )
                + (rules.no_trick_bonus if hand.tricks_won(s) == 0 else 0)
                + _pledged(hand, s)
                for s in range(players)
            ]
        plain_sums = (
            rules.doubler is None
            and not rules.no_trick_bonus
            and not rules.royal_queens
            and not rules.all_hearts_reversed
            and not rules.first_trick_points
            and not rules.last_trick_points
        )
        if not shooter and plain_sums:
            pledges = sum(_pledged(hand, s) for s in range(players))
            assert sum(points) == sum(rules.card_values.values()) + pledges
        if shooter and rules.royal_queens and rules.moon.value == "old":
            # 004 'Royal Hearts': the moon is worth the shooter's own score.
            worth = _royal_points(rules, taken[shooter[0]])
            assert points[shooter[0]] == 0
            assert all(points[s] >= worth for s in range(players) if s != shooter[0])


@pytest.mark.parametrize("name", ["standard", "omnibus", "black_maria", "spot"])
def test_views_never_show_other_hands_during_random_play(name):
    rules = preset(name)
    hand = Hand.deal(rules, 5, pass_direction="hold")
    rng = random.Random(5)
    while not hand.is_over:
        for seat in range(4):
            view = hand.view(seat)
            assert view.hand == hand.hand_of(seat)
            public = CardSet(c for t in view.tricks for _, c in t.plays) | CardSet(
                c for _, c in view.current_trick
            )
            for other in range(4):
                if other != seat:
                    assert not (hand.hand_of(other) & view.hand)
            assert not (public & view.hand)
        legal = hand.legal_plays()
        hand.play(legal.nth(rng.randrange(len(legal))))
    assert sum(hand.view(0).points_taken) == sum(rules.value_of(c) for c in rules.deck)


def test_black_maria_kitty_goes_to_first_point_taker_and_is_hidden():
    rules = preset("black_maria", players=3)
    assert rules.kitty_size == 1
    for seed in range(20):
        hand = _play_random_hand(rules, seed)
        owner = hand.kitty_owner
        assert owner is not None
        first_points = next(
            (t.winner for t in hand.tricks() if any(rules.value_of(c) for _, c in t.plays)),
            hand.tricks()[-1].winner,
        )
        assert owner == first_points
        assert hand.kitty.mask & hand.taken(owner).mask == hand.kitty.mask
        assert hand.view((owner + 1) % 3).kitty is None


def test_three_player_standard_removes_the_two_of_diamonds_and_opens_with_the_2c():
    rules = preset("standard", players=3)
    hand = Hand.deal(rules, 3, pass_direction="hold")
    assert "2D" not in rules.deck and all(len(hand.hand_of(s)) == 17 for s in range(3))
    assert hand.legal_plays() == CardSet.parse("2C")


def test_five_player_standard_opens_with_the_three_of_clubs():
    # 000 'The Play': "If the 2C has been removed ... the 3C is led".
    rules = preset("standard", players=5)
    assert "2C" not in rules.deck
    hand = Hand.deal(rules, 8, pass_direction="hold")
    assert hand.legal_plays() == CardSet.parse("3C")
    assert hand.to_play == hand.seat_holding("3C")


def test_hearts_suit_mask_matches_cards():
    assert CardSet.from_mask(Suit.HEARTS.mask) == CardSet(f"{r}H" for r in "23456789TJQKA")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_royal_running_points_end_as_the_hands_score_without_a_moon(players):
    # 004 'Royal Hearts': a seat's points so far follow the queens' powers, so the last
    # view of a hand shows what the hand scores (a moon aside, which rewrites the scores).
    rules = preset("royal", players)
    compared = 0
    for seed in range(60):
        hand = _play_random_hand(rules, seed)
        taken = [hand.taken(seat) for seat in range(players)]
        if any(rules.penalty_cards.mask & ~cards.mask == 0 for cards in taken):
            continue  # a moon
        assert hand.view(0).points_taken == hand.points()
        compared += 1
    assert compared > 40


# --- Booster Nines (004 'Other Variations': "if a nine is played then an extra round in
# the suit is played"). ---

BOOSTER_DEAL = [
    "2C 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2S",
    "9C 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "AC KC 2D 3D 2H 3H 4H 5H 6H 7H 8H 9H TH",
    "3C 4C 5C 6C 7C 8C TC JC QC JH QH KH AH",
]


def test_booster_nine_of_the_suit_led_forces_the_next_lead():
    hand = Hand.from_cards(preset("booster_nines"), BOOSTER_DEAL, dealer=3)
    for card in ("2C", "9C", "AC"):
        hand.play(card)
    assert hand.booster_suit is None
    hand.play("3C")  # the nine of clubs was played to a club trick: clubs again
    assert hand.to_play == 2 and hand.booster_suit is Suit.CLUBS
    assert hand.view(2).booster_suit is Suit.CLUBS
    assert hand.legal_plays() == CardSet.parse("KC")
    with pytest.raises(IllegalPlayError, match=r"must lead clubs.*Booster Nines") as error:
        hand.play("2D")
    assert error.value.code == ERR_BOOSTER_SUIT
    hand.play("KC")
    for card in ("4C", "4D", "3S"):
        hand.play(card)
    assert hand.to_play == 2 and hand.booster_suit is None  # no nine in that trick
    assert preset("standard").booster_nines is False


def test_booster_nine_played_off_suit_does_not_boost():
    deal = list(BOOSTER_DEAL)
    hand = Hand.from_cards(preset("booster_nines"), deal, dealer=3)
    for card in ("2C", "9C", "AC", "3C", "KC", "4C", "4D", "9S"):
        hand.play(card)
    assert hand.to_play == 2 and hand.booster_suit is None  # the 9S was a discard


# --- Joker Hearts (004). ---


def test_joker_preset_deals_the_sources_tables():
    # 004 'Deal': three players "two Jokers ... Each player then receives 18 cards"; five
    # players "three Jokers ... each player receives 11"; 004 'Jokers': six players two.
    assert [(n, preset("joker", n).hand_size, preset("joker", n).jokers) for n in (3, 5, 6)] == [
        (3, 18, 2),
        (5, 11, 3),
        (6, 9, 2),
    ]
    assert preset("joker").players == 3
    with pytest.raises(RulesError, match="3 to 6 players"):
        preset("joker", 7)


def test_004_joker_playable_while_holding_the_led_suit_and_never_winning():
    # "can be played any time and count for zero points"
    deal = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D 5D 6D",
        "JK1 7D 8D 9D TD JD QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S TS",
        "JK2 JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ]
    hand = Hand.from_cards(preset("joker"), deal, dealer=2)
    hand.play("2C")
    assert "JK1" in hand.legal_plays()  # seat 1 is void in clubs anyway; seat 2 ...
    hand.play("JK1")
    assert "JK2" in hand.legal_plays()  # ... holds no club either: both may play a joker
    hand.play("JK2")
    assert hand.tricks()[0].winner == 0  # the jokers never win, the 2C does
    assert hand.view(1).tricks[0].plays[1][1].pretty == "🃏1"
    # seat 0 leads a club; seat 0 holding clubs could have played... it leads: a diamond
    hand.play("3D")
    assert hand.legal_plays() == CardSet.parse("7D 8D 9D TD JD QD KD AD")
    # a joker "any time": also while holding the suit led
    deal = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D 3D 4D 5D 6D 7D",
        "AC JK1 8D 9D TD JD QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S TS",
        "JK2 JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ]
    hand = Hand.from_cards(preset("joker"), deal, dealer=2)
    hand.play("2C")
    assert hand.legal_plays() == CardSet.parse("AC JK1")
    hand.play("JK1")
    hand.play("JK2")
    assert hand.tricks()[0].winner == 0
    assert hand.rules.value_of("JK1") == 0


JOKER_1911_DEAL = [
    "2C 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "3C JK1 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
    "4C KH KD AD 3H 4H 5H 6H 7H 8H 9H TH JH",
    "5C 6C 7C 8C 9C TC JC QC KC AC QH AH 2S",
]


def test_1911_joker_refused_as_a_discard_until_an_opponent_discards_a_high_heart():
    hand = Hand.from_cards(preset("joker_1911"), JOKER_1911_DEAL, dealer=3)
    for card in ("2C", "3C", "4C", "5C"):
        hand.play(card)
    hand.play("2S")  # seat 3 leads its spade; seat 0 follows
    hand.play("3S")
    assert "JK1" not in hand.legal_plays()  # seat 1 is void in spades: a discard
    with pytest.raises(IllegalPlayError, match="joker goes only") as error:
        hand.play("JK1")
    assert error.value.code == ERR_JOKER_HELD
    hand.play("2D")
    hand.play("KH")  # seat 2 discards the KH (no spade): it takes no trick here
    assert hand.tricks()[1].winner == 0


def test_1911_joker_allowed_as_a_discard_after_a_court_heart_and_worth_five():
    deal = list(JOKER_1911_DEAL)
    deal[1], deal[2] = deal[1].replace("JK1", "KH"), deal[2].replace("KH", "JK1")
    hand = Hand.from_cards(preset("joker_1911"), deal, dealer=3)
    for card in ("2C", "3C", "4C", "5C", "2S", "3S"):
        hand.play(card)
    hand.play("KH")  # an opponent discards a court heart ...
    assert "JK1" in hand.legal_plays()  # ... "then the holder of the joker may discard it"
    hand.play("JK1")
    assert hand.tricks()[1].winner == 0
    assert hand.rules.value_of("JK1") == 5


@pytest.mark.parametrize(("players", "removed"), [(3, "3C"), (5, "3C 2D")])
def test_omnibus_jack_removes_002s_own_cards_at_three_and_five(players, removed):
    # 002 'Alternatives to the "Kitty"': "remove the 3 of Clubs" (three players); "the 3 of
    # Clubs and the 2 of Diamonds" (five). The 2C stays, so it opens.
    rules = preset("omnibus_jack", players)
    assert rules.removed_cards == CardSet.parse(removed)
    hand = Hand.deal(rules, 4, pass_direction="hold")
    assert all(len(hand.hand_of(seat)) == 52 // players for seat in range(players))
    assert hand.legal_plays() == CardSet.parse("2C")
