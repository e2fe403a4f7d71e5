"""`Game`: hands in sequence, the deal and the pass rotation moving on, running totals, the end.

Each hand's seed is drawn from one SplitMix64 stream seeded by the game's seed, so a
game is reproducible from (rules, seed, decisions) alone, and a replay can record the
hand seeds it used.

>>> from arena.engine import Game, preset
>>> game = Game(preset("standard"), seed=1)
>>> while not game.is_over:
...     hand = game.hand
...     for seat in hand.passes_pending:
...         hand.apply_pass(seat, list(hand.hand_of(seat))[:3])
...     while not hand.is_over:
...         hand.play(hand.legal_plays().first())
...     _ = game.finish_hand()
>>> max(game.totals) >= 100
True
"""

from __future__ import annotations

from collections.abc import Iterator

from .cards import Card
from .hand import Hand
from .rules import DealerRule, Rules, Settlement
from .settlement import Settled, settle

MASK64 = 0xFFFFFFFFFFFFFFFF
# Danger Hearts: "Further rounds are played until an overall winner is decided". A tie
# that outlasts this many extra hands is shared, so a game always ends.
DANGER_EXTRA_HANDS = 50
QUEEN_OF_SPADES = Card.from_str("QS")


def settle_hand(hand: Hand, points: tuple[int, ...], pot: int) -> Settled:
    """A finished hand settled in chips under its rules' `settlement` (`points`: its
    points, `pot`: the chips the earlier hands left): what a game adds to its totals, and
    what an evaluation of a decision scores a hand by (arena.analysis). The hand's own
    rules name the penalty cards (in Heartless (003), the revealed suit's); Auction Hearts'
    declarer puts up its bid (000 'Auction Hearts')."""
    played = hand.rules
    penalty = played.penalty_cards.mask
    clean = tuple(not hand.taken(s).mask & penalty for s in range(played.players))
    auction = hand.auction
    bid = None
    if auction is not None and auction.declarer is not None:
        bid = (auction.declarer, auction.winning_bid)
    return settle(hand.base_rules.settlement, points, clean, pot, played.penalty_total, bid=bid)


def hand_seeds(game_seed: int) -> Iterator[int]:
    """The SplitMix64 stream of hand seeds for a game (the contract's generator)."""
    state = game_seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


class GameOverError(ValueError):
    """Raised when a game that has ended is asked for another hand."""


class Game:
    """A game to the rules' end: a target score (lowest total wins), a number of hands, or both.

    With a chip `Settlement`, `totals` are each seat's net payments, `hand_scores` what
    each hand added to them, `hand_points` the hands' points before settling, and `pot`
    the chips waiting for a later hand.
    """

    def __init__(self, rules: Rules, seed: int, *, first_dealer: int = 0) -> None:
        if not 0 <= first_dealer < rules.players:
            raise ValueError(f"first_dealer {first_dealer} is not a seat")
        self.rules = rules
        self.seed = seed
        self.first_dealer = first_dealer
        self.totals: list[int] = [0] * rules.players
        self.hand_scores: list[tuple[int, ...]] = []
        self.hand_points: list[tuple[int, ...]] = []
        self.hand_seeds: list[int] = []
        self.pot = 0
        self._dealer = first_dealer
        # 000 'Auction Hearts': after a pot nobody won, "the successful bidder on the
        # original deal names the suit to be avoided, without bidding".
        self._standing_declarer: int | None = None
        # Danger Hearts (004 'Other Variations'): lives left per seat, and after each hand.
        self.lives: list[int] = [rules.lives] * rules.players if rules.lives else []
        self.hand_lives: list[tuple[int, ...]] = []
        self._seeds = hand_seeds(seed)
        self.is_over = False
        self.hand = self._deal()

    @property
    def hand_number(self) -> int:
        """The 0-based number of the hand in play (or of the last hand once over)."""
        return len(self.hand_seeds) - 1

    def _deal(self) -> Hand:
        number = len(self.hand_seeds)
        seed = next(self._seeds)
        self.hand_seeds.append(seed)
        # A variant family (Cancellation, Domino, the pennies) deals by its own class.
        hand = Hand.deal(
            # Gong Zhu: after the first hand the pig's taker leads (`Rules.rules_for_hand`).
            self.rules.rules_for_hand(number),
            seed,
            dealer=self._dealer,
            pass_direction=self.rules.pass_direction(number),
            declarer=self._standing_declarer,
        )
        # The shooter's choice (004 'Shooting the moon') is asked and made with the totals
        # before the hand, the ones `finish_hand` scores it with.
        hand.game_totals = tuple(self.totals)
        return hand

    def _next_dealer(self, hand: Hand) -> int:
        n = self.rules.players
        if self.rules.dealer_rule is DealerRule.QUEEN_OF_SPADES_TAKER:
            # 004 'Other Variations', Queens: "The dealer of each round is the player who
            # received the Queen of Spades in the previous round"; the deal rotates when
            # nobody took it (it was removed from the pack or lay in an untaken kitty).
            for seat in range(n):
                if QUEEN_OF_SPADES in hand.taken(seat):
                    return seat
        if self.rules.dealer_rule is DealerRule.QUEEN_OF_SPADES_TAKER_LEADS:
            # Gong Zhu (Pagat): "the player who took the pig (queen of spades) on the
            # previous hand leads to the first trick": the seat at his right deals, and
            # the next hand opens left of the dealer (`Rules.rules_for_hand`).
            for seat in range(n):
                if QUEEN_OF_SPADES in hand.taken(seat):
                    return (seat - 1) % n
        return (hand.dealer + 1) % n

    def finish_hand(self) -> tuple[int, ...]:
        """Score the finished hand into the totals, apply exact-score rules, and deal the next.

        Returns the hand's scores. Raises ValueError if the hand is not over and
        GameOverError if the game already ended.
        """
        if self.is_over:
            raise GameOverError("the game is over")
        hand, rules = self.hand, self.rules
        points = hand.points(self.totals)
        self.hand_points.append(points)
        if rules.settlement is Settlement.POINTS:
            scores = points
        else:
            settled = settle_hand(hand, points, self.pot)
            scores, self.pot = settled.paid, settled.pot
            auction = hand.auction
            bid = None if auction is None else auction.declarer
            self._standing_declarer = None if settled.won else bid
        self.hand_scores.append(scores)
        if rules.lives:
            # 004: "If a player receives 15 hearts (and over) in a round, they lose a life":
            # read as points scored in the hand (there are only 13 hearts).
            for seat, score in enumerate(scores):
                if score >= rules.danger_points and self.lives[seat]:
                    self.lives[seat] -= 1
            self.hand_lives.append(tuple(self.lives))
        adjustments = dict(self.rules.exact_score_adjustments)
        for seat, score in enumerate(scores):
            total = self.totals[seat] + score
            # 002 'Hand scoring variants' (exactly the limit halves it); 004 'Scoring
            # variants' (exactly 50 or 100 subtracts 50): applied once, after the hand.
            self.totals[seat] = adjustments.get(total, total)
        self.is_over = self._ended()
        if not self.is_over:
            self._dealer = self._next_dealer(hand)
            self.hand = self._deal()
        return scores

    def _ended(self) -> bool:
        rules = self.rules
        if rules.lives:
            return self._danger_ended()
        if rules.target_score is not None and max(self.totals) >= rules.target_score:
            return True
        return rules.max_hands is not None and len(self.hand_scores) >= rules.max_hands

    def _danger_ended(self) -> bool:
        """004 'Other Variations', Danger Hearts: "10 rounds are played ... each player has
        three lives ... Further rounds are played until an overall winner is decided". The
        game also ends once at most one player has a life left: nobody else can win."""
        if sum(1 for left in self.lives if left) <= 1:
            return True
        played, rounds = len(self.hand_scores), self.rules.max_hands or 0
        if played < rounds:
            return False
        keys = self._keys()
        return keys.count(min(keys)) == 1 or played >= rounds + DANGER_EXTRA_HANDS

    def _keys(self) -> list[tuple[int, int]]:
        """What ranks the seats: with lives, more lives first, then the lower total."""
        if self.rules.lives:
            return [(-left, total) for left, total in zip(self.lives, self.totals, strict=True)]
        return [(0, total) for total in self.totals]

    def winners(self) -> tuple[int, ...]:
        """The seats with the lowest total (with lives: the most lives, then the lowest
        total), several on a tie; ValueError before the end."""
        if not self.is_over:
            raise ValueError("the game is not over")
        keys = self._keys()
        best = min(keys)
        return tuple(seat for seat, key in enumerate(keys) if key == best)

    def ranking(self) -> tuple[int, ...]:
        """Final place per seat (1 = best; tied seats share a place)."""
        keys = self._keys()
        return tuple(1 + sum(other < key for other in keys) for key in keys)
