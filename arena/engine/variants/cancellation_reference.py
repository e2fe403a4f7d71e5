"""The pure-Python reference of Cancellation Hearts, the contract `_cancellation` (C) keeps.

Cancellation Hearts (000 'Cancellation Hearts'; 003 'CANCELLATION HEARTS') is played with
two packs, so every card may be there twice; the C core of the other games holds one bit
per card and cannot say so. This module holds a count per card instead (the C module holds
two masks, "at least once" and "twice"), and plays one deal:

- the deal: the double pack shuffled by the contract's SplitMix64 and dealt one at a time
  from the dealer's left "as far as they will go evenly"; the rest is the widow (000);
- an optional pass of `pass_count` cards `pass_offset` seats to the left (003's
  four-player form plays "the rules of Hearts"; 000's table passes nothing);
- the play: follow suit; the opening, first-trick, lead and breaking rules of the other
  games (the same numbering as `arena.engine.config`);
- the trick: two copies of one card in a trick cancel and neither can win (003 "exactly
  the same card"); the highest uncancelled card of the suit led wins; with none, nobody
  wins (003's "Six of Clubs" example): the trick is set aside and its leader leads again;
  the next trick won takes every set-aside trick; the widow belongs to the first trick;
  if the last trick is not won, it and the set-aside tricks are discarded, unscored;
- the score: each copy's value to its taker; a moon is every penalty copy in play.

Every state method answers an error code as `arena.engine.config` numbers them; a bad
card index is data (code 3), never an exception. Masks are (once, twice) pairs of ints.
"""

from __future__ import annotations

from typing import NamedTuple

from ..config import (
    BROKEN_BY_HEARTS,
    BROKEN_BY_HEARTS_OR_QUEEN,
    ERR_ALREADY_PASSED,
    ERR_BAD_CARD,
    ERR_BAD_SEAT,
    ERR_FIRST_TRICK_POINTS,
    ERR_HAND_OVER,
    ERR_MUST_FOLLOW_SUIT,
    ERR_MUST_LEAD_OPENING_CARD,
    ERR_NOT_BROKEN,
    ERR_NOT_IN_HAND,
    ERR_NOT_PASSING,
    ERR_PASS_COPIES,
    ERR_PASS_COUNT,
    ERR_PASS_NOT_IN_HAND,
    ERR_PASSING,
    FIRST_TRICK_ANY,
    FIRST_TRICK_NO_PENALTY,
    LEAD_ANY,
    LEAD_NOT_HEARTS,
    MOON_NONE,
    MOON_OLD,
    OPENING_LEFT_OF_DEALER,
    OPENING_LOWEST_CLUB,
    PHASE_OVER,
    PHASE_PASSING,
    PHASE_PLAYING,
)
from ..reference import SplitMix64

MAX_PLAYERS = 10
CARDS = 52
RANKS = 13
QUEEN_OF_SPADES = 2 * RANKS + 10
HEARTS = ((1 << RANKS) - 1) << 3 * RANKS


class CancellationConfig(NamedTuple):
    """Everything a Cancellation deal plays by, as ints (built by `Rules`)."""

    players: int
    hand_size: int
    deck_once: int
    """The cards in play at least once."""
    deck_twice: int
    """The cards in play twice (a subset of `deck_once`)."""
    widow_size: int
    pass_count: int
    opening: int
    first_trick: int
    lead_rule: int
    broken_by: int
    values: tuple[int, ...]
    """52 values, one per card: what each copy is worth to its taker."""
    moon: int
    moon_points: int


def check_config(cfg: CancellationConfig) -> None:
    """Raise ValueError naming the field when `cfg` cannot be played."""
    n = cfg.players
    if not 3 <= n <= MAX_PLAYERS:
        raise ValueError(f"players must be 3..{MAX_PLAYERS}, got {n}")
    if cfg.deck_once < 0 or cfg.deck_once >> CARDS or cfg.deck_twice & ~cfg.deck_once:
        raise ValueError("deck masks must be 52-card masks with twice inside once")
    size = cfg.deck_once.bit_count() + cfg.deck_twice.bit_count()
    if cfg.hand_size < 1 or n * cfg.hand_size + cfg.widow_size != size or cfg.widow_size < 0:
        raise ValueError(f"{n} hands of {cfg.hand_size} and a widow of {cfg.widow_size} != {size}")
    if not 0 <= cfg.pass_count < cfg.hand_size:
        raise ValueError(f"pass_count must be 0..{cfg.hand_size - 1}")
    if cfg.opening not in (OPENING_LOWEST_CLUB, OPENING_LEFT_OF_DEALER):
        raise ValueError("opening must be lowest_club (0) or left_of_dealer (2)")
    if cfg.opening == OPENING_LOWEST_CLUB and (cfg.widow_size or _lowest_club(cfg) < 0):
        raise ValueError("opening lowest_club needs no widow and a single lowest club")
    for name in ("first_trick", "lead_rule", "broken_by"):
        if not 0 <= getattr(cfg, name) <= 2:
            raise ValueError(f"{name} must be 0..2")
    if len(cfg.values) != CARDS:
        raise ValueError("values must hold 52 ints")
    if cfg.moon not in (MOON_NONE, MOON_OLD):
        raise ValueError("moon must be none (0) or old (1)")


def _lowest_club(cfg: CancellationConfig) -> int:
    """The lowest club in play when it is there once, else -1."""
    clubs = cfg.deck_once & ((1 << RANKS) - 1)
    if not clubs:
        return -1
    low = (clubs & -clubs).bit_length() - 1
    return -1 if cfg.deck_twice >> low & 1 else low


def deck_cards(cfg: CancellationConfig) -> list[int]:
    """Every copy in play, by index, a card held twice listed twice in a row."""
    return [
        card
        for card in range(CARDS)
        if cfg.deck_once >> card & 1
        for _ in range(1 + (cfg.deck_twice >> card & 1))
    ]


def deal(
    cfg: CancellationConfig, seed: int, dealer: int
) -> tuple[tuple[tuple[int, int], ...], tuple[int, int]]:
    """Shuffle the double pack with `seed` and deal from the dealer's left; return each
    seat's (once, twice) masks and the widow's."""
    check_config(cfg)
    n = cfg.players
    if not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer}")
    cards = deck_cards(cfg)
    SplitMix64(seed).shuffle(cards)
    counts = [[0] * CARDS for _ in range(n)]
    dealt = n * cfg.hand_size
    for k in range(dealt):
        counts[(dealer + 1 + k) % n][cards[k]] += 1
    widow = [0] * CARDS
    for card in cards[dealt:]:
        widow[card] += 1
    return tuple(masks_of(c) for c in counts), masks_of(widow)


def masks_of(counts: list[int]) -> tuple[int, int]:
    """(once, twice) masks of a count per card."""
    once = twice = 0
    for card, count in enumerate(counts):
        if count:
            once |= 1 << card
        if count > 1:
            twice |= 1 << card
    return once, twice


def counts_of(once: int, twice: int) -> list[int]:
    """A count per card of (once, twice) masks."""
    return [(once >> card & 1) + (twice >> card & 1) for card in range(CARDS)]


class CancellationState:
    """One Cancellation deal, from the pass to the last trick (see the module docstring)."""

    def __init__(
        self,
        cfg: CancellationConfig,
        hands: tuple[tuple[int, int], ...],
        widow: tuple[int, int],
        dealer: int,
        pass_offset: int,
    ) -> None:
        check_config(cfg)
        n = cfg.players
        if len(hands) != n:
            raise ValueError(f"expected {n} hands, got {len(hands)}")
        if not 0 <= dealer < n or not 0 <= pass_offset < n:
            raise ValueError("dealer and pass_offset must be seats")
        counts = [counts_of(*hand) for hand in hands]
        widow_counts = counts_of(*widow)
        deck = counts_of(cfg.deck_once, cfg.deck_twice)
        for seat, hand in enumerate(counts):
            if sum(hand) != cfg.hand_size:
                raise ValueError(f"seat {seat} holds {sum(hand)} cards, not {cfg.hand_size}")
        if sum(widow_counts) != cfg.widow_size:
            raise ValueError(f"the widow holds {sum(widow_counts)}, not {cfg.widow_size}")
        for card in range(CARDS):
            if sum(hand[card] for hand in counts) + widow_counts[card] != deck[card]:
                raise ValueError(f"card {card} is not dealt as often as it is in play")
        if pass_offset and not cfg.pass_count:
            raise ValueError("a pass needs pass_count")
        self._cfg = cfg
        self._n = n
        self._dealer = dealer
        self._offset = pass_offset
        self._widow = widow_counts
        self._dealt = [list(hand) for hand in counts]
        self._passes: list[tuple[int, ...] | None] = [None] * n
        self._received: list[tuple[int, ...]] = [()] * n
        self._start: list[list[int]] = []
        self._plays: list[int] = []
        self._penalty = 0
        for card in range(CARDS):
            if cfg.values[card] > 0:
                self._penalty |= 1 << card
        if self._offset:
            self._hands = [list(hand) for hand in counts]
            self._reset_play_fields()
            self.phase = PHASE_PASSING
            self.leader = self.to_play = -1
        else:
            self._start = [list(hand) for hand in counts]
            self._reset_play()

    # --- Passing. ---

    def pass_cards(self, seat: int, cards: tuple[int, ...]) -> int:
        """Give `seat`'s pass (card indices, a card twice when held twice): 0 or a code."""
        if self.phase != PHASE_PASSING:
            return ERR_NOT_PASSING
        if not 0 <= seat < self._n:
            return ERR_BAD_SEAT
        if self._passes[seat] is not None:
            return ERR_ALREADY_PASSED
        if len(cards) != self._cfg.pass_count:
            return ERR_PASS_COUNT
        hand = self._dealt[seat]
        for card in cards:
            if not 0 <= card < CARDS or not hand[card]:
                return ERR_PASS_NOT_IN_HAND
        for card in cards:
            if cards.count(card) > hand[card]:
                return ERR_PASS_COPIES
        self._passes[seat] = tuple(cards)
        if all(given is not None for given in self._passes):
            self._exchange()
        return 0

    def _exchange(self) -> None:
        hands = [list(hand) for hand in self._dealt]
        received: list[list[int]] = [[] for _ in range(self._n)]
        for seat, given in enumerate(self._passes):
            target = (seat + self._offset) % self._n
            for card in given or ():
                hands[seat][card] -= 1
                hands[target][card] += 1
                received[target].append(card)
        self._received = [tuple(cards) for cards in received]
        self._start = hands
        self._reset_play()

    def passed(self, seat: int) -> tuple[int, ...]:
        """The cards `seat` gave (empty before it passes)."""
        self._seat(seat)
        return self._passes[seat] or ()

    def received(self, seat: int) -> tuple[int, ...]:
        """The cards `seat` received, once every pass is made."""
        self._seat(seat)
        return self._received[seat]

    # --- The play. ---

    def _reset_play_fields(self) -> None:
        n = self._n
        self._trick: list[int] = []
        self._trick_number = 0
        self.broken = False
        self._taken = [[0] * CARDS for _ in range(n)]
        self._won = [0] * n
        self._pending = [0] * CARDS
        self._discarded = [0] * CARDS
        self._history: list[tuple[int, tuple[int, ...], int]] = []
        self.widow_owner = -1

    def _reset_play(self) -> None:
        self._hands = [list(hand) for hand in self._start]
        self._reset_play_fields()
        self.phase = PHASE_PLAYING
        if self._cfg.opening == OPENING_LOWEST_CLUB:
            low = _lowest_club(self._cfg)
            self.leader = next(s for s in range(self._n) if self._hands[s][low])
        else:
            self.leader = (self._dealer + 1) % self._n
        self.to_play = self.leader

    @property
    def trick_number(self) -> int:
        """The 0-based number of the trick in play (the number of tricks when over)."""
        return self._trick_number

    def current_trick(self) -> tuple[int, ...]:
        """The cards played to the trick in play, in order from its leader."""
        return tuple(self._trick)

    def _steps(self) -> list[tuple[int, int]]:
        """(error code, cards left) filters from the hand down to the legal plays."""
        cfg = self._cfg
        hand = self._hands[self.to_play]
        held = sum(1 << card for card in range(CARDS) if hand[card])
        steps: list[tuple[int, int]] = []
        if self._trick:
            suit = (((1 << RANKS) - 1) << RANKS * (self._trick[0] // RANKS)) & held
            steps.append((ERR_MUST_FOLLOW_SUIT, suit or held))
        elif self._trick_number == 0 and cfg.opening == OPENING_LOWEST_CLUB:
            steps.append((ERR_MUST_LEAD_OPENING_CARD, 1 << _lowest_club(cfg) & held))
        else:
            steps.append((ERR_NOT_BROKEN, self._lead_filter(held)))
        if self._trick_number == 0 and cfg.first_trick != FIRST_TRICK_ANY:
            banned = self._penalty if cfg.first_trick == FIRST_TRICK_NO_PENALTY else self._point()
            allowed = steps[-1][1]
            steps.append((ERR_FIRST_TRICK_POINTS, allowed & ~banned or allowed))
        return steps

    def _point(self) -> int:
        return sum(1 << card for card in range(CARDS) if self._cfg.values[card])

    def _lead_filter(self, held: int) -> int:
        rule = self._cfg.lead_rule
        if rule == LEAD_ANY or self.broken:
            return held
        restricted = HEARTS if rule == LEAD_NOT_HEARTS else self._point()
        return held & ~restricted or held

    def _breaking(self) -> int:
        rule = self._cfg.broken_by
        if rule == BROKEN_BY_HEARTS:
            return HEARTS
        if rule == BROKEN_BY_HEARTS_OR_QUEEN:
            return HEARTS | 1 << QUEEN_OF_SPADES
        return self._point()

    def legal_mask(self) -> int:
        """The distinct cards the seat to play may play; 0 while passing or when over."""
        if self.phase != PHASE_PLAYING:
            return 0
        return self._steps()[-1][1]

    def check_play(self, card: int) -> int:
        """0 if the seat to play may play `card`, else the first code that forbids it."""
        if self.phase == PHASE_OVER:
            return ERR_HAND_OVER
        if self.phase == PHASE_PASSING:
            return ERR_PASSING
        if not 0 <= card < CARDS or not self._cfg.deck_once >> card & 1:
            return ERR_BAD_CARD
        if not self._hands[self.to_play][card]:
            return ERR_NOT_IN_HAND
        for code, allowed in self._steps():
            if not allowed >> card & 1:
                return code
        return 0

    def play(self, card: int) -> int:
        """Play `card` if legal (0), else return the code and change nothing."""
        code = self.check_play(card)
        if code == 0:
            self.push(card)
        return code

    def push(self, card: int) -> None:
        """Play `card` unchecked by the rules (ValueError if it is not held, or no play is
        due); `pop` undoes it."""
        held = self.phase == PHASE_PLAYING and 0 <= card < CARDS and self._hands[self.to_play][card]
        if not held:
            raise ValueError(f"push({card}): cannot play that card now")
        self._plays.append(card)
        self._apply(card)

    def pop(self) -> None:
        """Undo the last play (IndexError when nothing was played)."""
        if not self._plays:
            raise IndexError("pop(): no play to undo")
        plays = self._plays[:-1]
        self._reset_play()
        for card in plays:
            self._apply(card)
        self._plays = plays

    def _apply(self, card: int) -> None:
        self._hands[self.to_play][card] -= 1
        self._trick.append(card)
        if self._breaking() >> card & 1:
            self.broken = True
        if len(self._trick) < self._n:
            self.to_play = (self.to_play + 1) % self._n
            return
        self._finish_trick()

    def trick_winner(self, cards: tuple[int, ...] | list[int]) -> int:
        """The offset from the leader of the card that wins `cards`, or -1: the highest card
        of the suit led held once in the trick (two copies cancel, 003)."""
        led = cards[0] // RANKS
        best = -1
        for offset, card in enumerate(cards):
            alive = card // RANKS == led and cards.count(card) == 1
            if alive and (best < 0 or card > cards[best]):
                best = offset
        return best

    def _finish_trick(self) -> None:
        cards = self._trick
        offset = self.trick_winner(cards)
        winner = -1 if offset < 0 else (self.leader + offset) % self._n
        self._history.append((self.leader, tuple(cards), winner))
        for card in cards:
            self._pending[card] += 1
        if self._trick_number == 0:  # 000: "The widow is added to the first trick."
            for card in range(CARDS):
                self._pending[card] += self._widow[card]
        if winner >= 0:
            if self.widow_owner < 0 and any(self._widow):
                self.widow_owner = winner  # the first trick's cards, the widow's with them
            taken = self._taken[winner]
            for card in range(CARDS):
                taken[card] += self._pending[card]
            self._pending = [0] * CARDS
            self._won[winner] += 1
            self.leader = winner
        self._trick = []
        self._trick_number += 1
        self.to_play = self.leader
        if self._trick_number == self._cfg.hand_size:
            self._discarded = self._pending
            self._pending = [0] * CARDS
            self.phase = PHASE_OVER
            self.to_play = -1

    # --- Reading the state. ---

    def _seat(self, seat: int) -> None:
        if not 0 <= seat < self._n:
            raise IndexError(f"seat {seat} is not 0..{self._n - 1}")

    def hand(self, seat: int) -> tuple[int, int]:
        """`seat`'s cards now, as (once, twice) masks."""
        self._seat(seat)
        return masks_of(self._hands[seat] if self.phase != PHASE_PASSING else self._dealt[seat])

    def taken(self, seat: int) -> tuple[int, int]:
        """The copies `seat` has won (set-aside tricks and the widow included once taken)."""
        self._seat(seat)
        return masks_of(self._taken[seat])

    def tricks_won(self, seat: int) -> int:
        """How many tricks `seat` has won (set-aside tricks it took not counted)."""
        self._seat(seat)
        return self._won[seat]

    @property
    def widow(self) -> tuple[int, int]:
        """The widow's (once, twice) masks."""
        return masks_of(self._widow)

    def set_aside(self) -> tuple[int, int]:
        """The copies of the unwon tricks (and the widow) waiting for the next winner."""
        return masks_of(self._pending)

    def discarded(self) -> tuple[int, int]:
        """The copies discarded unscored because nobody won the last trick."""
        return masks_of(self._discarded)

    def history(self) -> tuple[tuple[int, tuple[int, ...], int], ...]:
        """Each finished trick as (leader, cards in order, winner or -1 when unwon)."""
        return tuple(self._history)

    def points(self, totals: tuple[int, ...] = (), target: int = 0) -> tuple[int, ...]:
        """Each seat's score for the deal: each copy's value; an old moon when one seat took
        every penalty copy in play. (`totals` and `target` are for the shared signature.)"""
        if self.phase != PHASE_OVER:
            raise ValueError("the hand is not over")
        values = self._cfg.values
        raw = [sum(values[c] * taken[c] for c in range(CARDS)) for taken in self._taken]
        if self._cfg.moon == MOON_OLD:
            deck = counts_of(self._cfg.deck_once, self._cfg.deck_twice)
            for seat, taken in enumerate(self._taken):
                if all(taken[c] == deck[c] for c in range(CARDS) if values[c] > 0):
                    return tuple(
                        0 if s == seat else raw[s] + self._cfg.moon_points for s in range(self._n)
                    )
        return tuple(raw)
