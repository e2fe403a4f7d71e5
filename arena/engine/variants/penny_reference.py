"""The pure-Python reference of the penny core: the multi-rounds of 003 'FOUR-PENNY HEARTS'.

003 'FOUR-PENNY HEARTS': "Each penny marks a round of Hearts called a 'penny-round'. Each
completed penny-round will contain exactly four cards. Four penny-rounds are played at the
same time, and are called a 'multi-round'." With n players there are n pennies ('THREE-PENNY
AND FIVE-PENNY HEARTS'). The C module `arena.engine.variants._penny` (arena/engine/_core/penny.c)
implements the same contract; tests/engine/test_penny_differential.py compares the two.

The contract (ints only; cards are indices 0..51, suit * 13 + rank, suits C D S H):

- ``PennyState(players, advanced, rounds, hands, taken, tricks_won, leader, broken,
  lead_ban, breaking)``: `rounds` multi-rounds still to play from `leader`'s lead; each
  hand holds ``rounds * players`` cards. `lead_ban` is the cards that may not be led to an
  empty penny until broken, unless the hand holds nothing else; a card of `breaking`
  played anywhere breaks (from the next card on). ValueError names a bad argument.
- The turn goes round the table from the lead player until ``players ** 2`` cards have
  been played, ``players`` to each penny ("The lead player plays the first card in a
  multi-round, and the other players in turn moving clockwise around the circle each
  plays a card. Play continues around the circle until sixteen cards have been played,
  four to each penny-round. Cards can be played to the different penny-rounds in any
  order.").
- A card may go to penny p when p holds fewer than ``players`` cards and, in the simple
  version ("each player plays one card to each penny-round"), the seat has not played to
  p in this multi-round; to an empty penny it is a lead (the lead ban applies), otherwise
  it must follow the suit of p's first card if the hand holds that suit ("A player must
  play a card of the suit that was led to a penny-round, if possible").
- When the last card is played each penny goes to the seat of its highest card of the
  suit led; the seat that won the most penny-rounds in the multi-round leads the next, a
  tie going to "the first player to the left of the lead player who is tied", the lead
  player himself counted last.
- ``play(penny, card)`` returns 0 or an error code and changes nothing on error: 1 the
  hand is over, 3 not a card, 4 not in the hand, 7 must follow suit, 9 a banned lead, 23
  no such penny, 24 the penny is full, 25 (simple version) already played to that penny.
"""

from __future__ import annotations

from ..config import (
    ERR_BAD_CARD,
    ERR_HAND_OVER,
    ERR_MUST_FOLLOW_SUIT,
    ERR_NOT_BROKEN,
    ERR_NOT_IN_HAND,
)

ERR_BAD_PENNY = 23
ERR_PENNY_FULL = 24
ERR_PENNY_PLAYED = 25

SUIT_MASK = 0x1FFF
FULL_DECK = (1 << 52) - 1


def _suit_mask(card: int) -> int:
    return SUIT_MASK << (card // 13 * 13)


class PennyState:
    """The multi-rounds of one hand (see the module docstring for the contract)."""

    __slots__ = (
        "_advanced",
        "_breaking",
        "_broken",
        "_hands",
        "_history",
        "_lead_ban",
        "_leader",
        "_n",
        "_pennies",
        "_played",
        "_round",
        "_rounds",
        "_taken",
        "_to_play",
        "_won",
    )

    def __init__(
        self,
        players: int,
        advanced: int,
        rounds: int,
        hands: tuple[int, ...],
        taken: tuple[int, ...],
        tricks_won: tuple[int, ...],
        leader: int,
        broken: int,
        lead_ban: int,
        breaking: int,
    ) -> None:
        if not 3 <= players <= 7:
            raise ValueError(f"players must be 3..7, not {players}")
        if not 0 <= rounds <= 52 // (players * players):
            raise ValueError(f"rounds {rounds} is out of range")
        for name, seq in (("hands", hands), ("taken", taken), ("tricks_won", tricks_won)):
            if len(seq) != players:
                raise ValueError(f"{name} must have {players} entries, not {len(seq)}")
        seen = 0
        for seat, mask in enumerate(hands):
            if not 0 <= mask <= FULL_DECK:
                raise ValueError(f"hands[{seat}] is not a set of cards")
            if mask.bit_count() != rounds * players:
                raise ValueError(f"hands[{seat}] must hold {rounds * players} cards")
            if seen & mask:
                raise ValueError(f"hands[{seat}] overlaps another hand")
            seen |= mask
        for seat, mask in enumerate(taken):
            if not 0 <= mask <= FULL_DECK or mask & seen:
                raise ValueError(f"taken[{seat}] is not a set of cards outside the hands")
        for seat, won in enumerate(tricks_won):
            if not 0 <= won <= 52:
                raise ValueError(f"tricks_won[{seat}] is out of range")
        if not 0 <= leader < players:
            raise ValueError(f"leader {leader} is not a seat")
        for name, mask in (("lead_ban", lead_ban), ("breaking", breaking)):
            if not 0 <= mask <= FULL_DECK:
                raise ValueError(f"{name} is not a set of cards")
        self._n = players
        self._advanced = bool(advanced)
        self._rounds = rounds
        self._hands = list(hands)
        self._taken = list(taken)
        self._won = list(tricks_won)
        self._leader = leader
        self._broken = bool(broken)
        self._lead_ban = lead_ban
        self._breaking = breaking
        self._round = 0
        self._to_play = leader if rounds else -1
        self._pennies: list[list[tuple[int, int]]] = [[] for _ in range(players)]
        self._played = 0
        self._history: list[tuple[int, tuple[tuple[int, int], ...], int]] = []

    def copy(self) -> PennyState:
        """An independent copy (for search: play on the copy, keep the original)."""
        other = object.__new__(PennyState)
        for name in PennyState.__slots__:
            object.__setattr__(other, name, getattr(self, name))
        other._hands = list(self._hands)
        other._taken = list(self._taken)
        other._won = list(self._won)
        other._pennies = [list(plays) for plays in self._pennies]
        other._history = list(self._history)
        return other

    # -- state ---------------------------------------------------------------------

    @property
    def to_play(self) -> int:
        """The seat to play, -1 once the last multi-round is complete."""
        return self._to_play

    @property
    def leader(self) -> int:
        """The lead player of the current multi-round (of the last one once over)."""
        return self._leader

    @property
    def multi_round(self) -> int:
        """The 0-based number of the multi-round in play (`rounds` once over)."""
        return self._round

    @property
    def rounds(self) -> int:
        """How many multi-rounds this state plays."""
        return self._rounds

    @property
    def over(self) -> bool:
        """True once every multi-round is complete."""
        return self._to_play < 0

    @property
    def broken(self) -> bool:
        """Whether a card of `breaking` has been played (so banned cards may be led)."""
        return self._broken

    @property
    def played(self) -> int:
        """Cards played so far in the current multi-round."""
        return self._played

    def hand(self, seat: int) -> int:
        return self._hands[self._seat(seat)]

    def taken(self, seat: int) -> int:
        return self._taken[self._seat(seat)]

    def tricks_won(self, seat: int) -> int:
        return self._won[self._seat(seat)]

    def _seat(self, seat: int) -> int:
        if not 0 <= seat < self._n:
            raise IndexError(f"seat {seat} out of range")
        return seat

    def pennies(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per penny, the (seat, card) plays of the current multi-round in order."""
        return tuple(tuple(plays) for plays in self._pennies)

    def history(self) -> tuple[tuple[int, tuple[tuple[int, int], ...], int], ...]:
        """Every finished penny-round in order (multi-round, then penny): (penny, plays,
        winner)."""
        return tuple(self._history)

    # -- moves ---------------------------------------------------------------------

    def _legal_for(self, penny: int, seat: int, hand: int) -> int:
        plays = self._pennies[penny]
        if len(plays) >= self._n:
            return 0
        if not self._advanced and any(s == seat for s, _ in plays):
            return 0
        if not plays:
            if self._broken:
                return hand
            allowed = hand & ~self._lead_ban
            return allowed or hand
        suit = hand & _suit_mask(plays[0][1])
        return suit or hand

    def legal_masks(self) -> tuple[int, ...]:
        """Per penny, the cards the seat to play may play to it (all 0 once over)."""
        seat = self._to_play
        if seat < 0:
            return (0,) * self._n
        hand = self._hands[seat]
        return tuple(self._legal_for(p, seat, hand) for p in range(self._n))

    def check(self, penny: int, card: int) -> int:
        """0 if `card` may go to `penny` now, else the error code."""
        seat = self._to_play
        if seat < 0:
            return ERR_HAND_OVER
        if not 0 <= card < 52:
            return ERR_BAD_CARD
        hand = self._hands[seat]
        if not hand >> card & 1:
            return ERR_NOT_IN_HAND
        if not 0 <= penny < self._n:
            return ERR_BAD_PENNY
        plays = self._pennies[penny]
        if len(plays) >= self._n:
            return ERR_PENNY_FULL
        if not self._advanced and any(s == seat for s, _ in plays):
            return ERR_PENNY_PLAYED
        if self._legal_for(penny, seat, hand) >> card & 1:
            return 0
        return ERR_NOT_BROKEN if not plays else ERR_MUST_FOLLOW_SUIT

    def play(self, penny: int, card: int) -> int:
        """Play `card` to `penny` for the seat to play: 0, or an error code (no change)."""
        code = self.check(penny, card)
        if code:
            return code
        seat = self._to_play
        self._hands[seat] &= ~(1 << card)
        self._pennies[penny].append((seat, card))
        if self._breaking >> card & 1:
            self._broken = True
        self._played += 1
        if self._played == self._n * self._n:
            self._finish_multi_round()
        else:
            self._to_play = (seat + 1) % self._n
        return 0

    def _finish_multi_round(self) -> None:
        n = self._n
        counts = [0] * n
        for penny, plays in enumerate(self._pennies):
            led = plays[0][1] // 13
            winner, best = plays[0]
            for seat, card in plays[1:]:
                if card // 13 == led and card > best:
                    winner, best = seat, card
            cards = 0
            for _, card in plays:
                cards |= 1 << card
            self._taken[winner] |= cards
            self._won[winner] += 1
            counts[winner] += 1
            self._history.append((penny, tuple(plays), winner))
        most = max(counts)
        # "the first player to the left of the lead player who is tied for most tricks":
        # the seats after the leader in turn, the leader himself last.
        leader = self._leader
        self._leader = next(
            seat for seat in ((leader + k) % n for k in range(1, n + 1)) if counts[seat] == most
        )
        self._pennies = [[] for _ in range(n)]
        self._played = 0
        self._round += 1
        self._to_play = self._leader if self._round < self._rounds else -1
