"""Enfle / Schwellen (004 'Enfle') in pure Python: the reference for `_enfle`.

The same contract as arena/engine/_core/enfle.h (read its header comment for the rules),
written independently and plainly: lists of sets instead of masks, and whole-state
copies for `pop`. ``ARENA_PUREPYTHON=1`` plays Enfle with it, and
tests/engine/test_enfle_differential.py holds the two to the same answers.

The rules, in one place (docs/rules.md 'Enfle' gives the reasons):

- 2..4 players; the cards are dealt one at a time from the dealer's left; the seat on the
  dealer's left leads the first trick, any card.
- A seat that holds the suit led must follow. A seat that cannot follow does not play: it
  takes up every trick won so far and the cards played to the current trick, adds them to
  its hand (a PICKUP, the engine's own action), and leads the next trick.
- A trick every seat followed is won by the highest card of the suit led; its cards go to
  the winner's won pile (until someone takes them up) and the winner leads.
- The hand ends the moment a seat has played its last card (it wins), or when
  `MAX_TRICKS` tricks (won or broken off by a pickup) have been played (the cap).
- Each seat scores one point per card left in its hand (the winner 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..reference import SplitMix64

__all__ = ["MAX_TRICKS", "EnfleState", "deal", "position"]

MAX_TRICKS = 200
"""The cap on a hand's tricks, a pickup's broken-off trick included (the hand could in
principle cycle for ever): the hand then ends and every seat scores its cards left."""
PACK = 52
MIN_PLAYERS = 2
MAX_PLAYERS = 4
PHASE_PLAYING = 1
PHASE_OVER = 2
ERR_HAND_OVER = 1
ERR_BAD_CARD = 3
ERR_NOT_IN_HAND = 4
ERR_MUST_FOLLOW_SUIT = 7


def _suit(card: int) -> int:
    return card // 13


def deal(players: int, seed: int, dealer: int, pack: int) -> tuple[int, ...]:
    """Shuffle the cards of the `pack` mask (in index order) as `reference.deal` shuffles,
    and deal them one at a time from the dealer's left; returns the hand masks. Raises
    ValueError for a player count outside 2..4, a dealer not at the table, or a pack that
    does not deal evenly."""
    cards = [c for c in range(PACK) if pack >> c & 1]
    if (
        not MIN_PLAYERS <= players <= MAX_PLAYERS
        or not 0 <= dealer < players
        or pack >> PACK
        or not cards
        or len(cards) % players
    ):
        raise ValueError("deal: 2..4 players, a dealer in range and a pack that deals evenly")
    SplitMix64(seed).shuffle(cards)
    hands = [0] * players
    for k, card in enumerate(cards):
        hands[(dealer + 1 + k) % players] |= 1 << card
    return tuple(hands)


class _Position:
    """Everything a play may change (copied whole for `pop`)."""

    def __init__(self, hands: list[set[int]], leader: int) -> None:
        n = len(hands)
        self.hands = hands
        self.won: list[set[int]] = [set() for _ in range(n)]
        self.tricks_won = [0] * n
        self.leader = leader
        self.plays: list[tuple[int, int]] = []
        self.over = False
        self.winner = -1
        # (leader, plays, winner, picker, picked mask): winner -1 for a trick broken off
        # by a pickup, picker -1 for a trick won.
        self.history: list[tuple[int, tuple[tuple[int, int], ...], int, int, int]] = []

    def copy(self) -> _Position:
        """A whole copy for `pop`: every container anew, as `copy.deepcopy` made it (their
        items are ints and tuples, never changed in place), at a tenth of its cost."""
        twin = object.__new__(_Position)
        twin.__dict__.update(self.__dict__)
        twin.hands = [set(held) for held in self.hands]
        twin.won = [set(pile) for pile in self.won]
        twin.tricks_won = list(self.tricks_won)
        twin.plays = list(self.plays)
        twin.history = list(self.history)
        return twin


class EnfleState:
    """One Enfle deal in play: the twin of `arena.engine.variants._enfle.EnfleState`."""

    def __init__(self, players: int, dealer: int, hands: Sequence[int]) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS or not 0 <= dealer < players:
            raise ValueError("not an Enfle deal: 2..4 players and a dealer in range")
        if len(hands) != players:
            raise ValueError("not an Enfle deal: one hand per player")
        seen = 0
        for mask in hands:
            if not 0 < mask < 1 << PACK or mask & seen:
                raise ValueError("not an Enfle deal: empty hands or a card dealt twice")
            seen |= mask
        self.players = players
        self._pos = _Position(
            [{c for c in range(PACK) if mask >> c & 1} for mask in hands], (dealer + 1) % players
        )
        self._undo: list[_Position] = []

    # -- reading -----------------------------------------------------------------

    @property
    def phase(self) -> int:
        return PHASE_OVER if self._pos.over else PHASE_PLAYING

    @property
    def to_play(self) -> int:
        p = self._pos
        return -1 if p.over else (p.leader + len(p.plays)) % self.players

    @property
    def leader(self) -> int:
        return -1 if self._pos.over else self._pos.leader

    @property
    def trick_number(self) -> int:
        return len(self._pos.history)

    @property
    def broken(self) -> bool:
        """Always False: Enfle has no lead restriction (any card may be led)."""
        return False

    @property
    def winner(self) -> int:
        """The seat that got rid of all its cards, -1 before (and after the cap)."""
        return self._pos.winner

    def hand(self, seat: int) -> int:
        return sum(1 << c for c in self._pos.hands[self._seat(seat)])

    def taken(self, seat: int) -> int:
        """The cards of the tricks `seat` has won that nobody has taken up since."""
        return sum(1 << c for c in self._pos.won[self._seat(seat)])

    def tricks_won(self, seat: int) -> int:
        return self._pos.tricks_won[self._seat(seat)]

    def current_trick(self) -> tuple[tuple[int, int], ...]:
        return tuple(self._pos.plays)

    def history(self) -> tuple[tuple[int, tuple[tuple[int, int], ...], int], ...]:
        return tuple((leader, plays, winner) for leader, plays, winner, _, _ in self._pos.history)

    def pickups(self) -> tuple[tuple[int, int, int], ...]:
        """((trick number, seat, picked-up mask), ...): every pickup in order."""
        return tuple(
            (t, picker, picked)
            for t, (_, _, _, picker, picked) in enumerate(self._pos.history)
            if picker >= 0
        )

    def _seat(self, seat: int) -> int:
        if not 0 <= seat < self.players:
            raise IndexError(f"seat {seat} out of range")
        return seat

    # -- the rules ---------------------------------------------------------------

    def legal_mask(self) -> int:
        p = self._pos
        if p.over:
            return 0
        held = p.hands[self.to_play]
        if p.plays:
            led = _suit(p.plays[0][1])
            held = {c for c in held if _suit(c) == led}
        return sum(1 << c for c in held)

    def check_play(self, card: int) -> int:
        p = self._pos
        if p.over:
            return ERR_HAND_OVER
        if not 0 <= card < PACK:
            return ERR_BAD_CARD
        if card not in p.hands[self.to_play]:
            return ERR_NOT_IN_HAND
        return 0 if self.legal_mask() >> card & 1 else ERR_MUST_FOLLOW_SUIT

    def play(self, card: int) -> int:
        code = self.check_play(card)
        if code == 0:
            self._apply(card)
        return code

    def push(self, card: int) -> None:
        p = self._pos
        if p.over or not 0 <= card < PACK or card not in p.hands[self.to_play]:
            raise ValueError(f"push({card}): not a card the seat to play holds")
        self._apply(card)

    def pop(self) -> None:
        if not self._undo:
            raise IndexError("pop(): nothing to undo")
        self._pos = self._undo.pop()

    def _apply(self, card: int) -> None:
        self._undo.append(self._pos.copy())
        p = self._pos
        n = self.players
        seat = self.to_play
        p.hands[seat].discard(card)
        p.plays.append((seat, card))
        if not p.hands[seat]:
            # "Play is continued until one player gets rid of all his cards and thus wins":
            # at once, the trick in progress left as it is.
            p.winner = seat
            p.over = True
            return
        led = _suit(p.plays[0][1])
        if len(p.plays) == n:
            winner = max((c, s) for s, c in p.plays if _suit(c) == led)[1]
            p.history.append((p.leader, tuple(p.plays), winner, -1, 0))
            p.won[winner].update(c for _, c in p.plays)
            p.tricks_won[winner] += 1
            p.plays = []
            p.leader = winner
        else:
            nxt = (seat + 1) % n
            if any(_suit(c) == led for c in p.hands[nxt]):
                return
            # "if he cannot he may not discard, but must take up all tricks already won
            # and add them to his hand": with the cards of this trick too, and he leads.
            picked = {c for pile in p.won for c in pile} | {c for _, c in p.plays}
            p.history.append((p.leader, tuple(p.plays), -1, nxt, sum(1 << c for c in picked)))
            p.hands[nxt] |= picked
            for pile in p.won:
                pile.clear()
            p.plays = []
            p.leader = nxt
        if len(p.history) >= MAX_TRICKS:
            p.over = True

    def points(self) -> tuple[int, ...]:
        """One point per card left in a seat's hand (the seat that went out scores 0)."""
        return tuple(len(held) for held in self._pos.hands)


def position(
    players: int,
    hands: Sequence[int],
    won: Sequence[int],
    leader: int,
    trick: Sequence[int],
) -> EnfleState:
    """An EnfleState from a position mid-hand, for search (the twin of `_enfle.position`):
    the hands (every seat holds cards), each seat's won pile, the trick in progress's leader
    and its cards from him. Tricks start empty. Raises ValueError for an impossible position
    (a card twice, a trick as long as the table, a seat to play void in the suit led)."""
    problem = ValueError(
        "not an Enfle position: 2..4 seats holding cards, every card once, a trick shorter "
        "than the table whose next seat holds the suit led"
    )
    values = [*hands, *won, *trick]
    if any(not isinstance(v, int) or v < 0 for v in values) or len(trick) > MAX_PLAYERS:
        raise problem
    if (
        not MIN_PLAYERS <= players <= MAX_PLAYERS
        or len(hands) != players
        or len(won) != players
        or not 0 <= leader < players
        or len(trick) >= players
        or any(c >= PACK for c in trick)
    ):
        raise problem
    seen = 0
    for held, pile in zip(hands, won, strict=True):
        if not held or (held | pile) >> PACK or held & seen or pile & (seen | held):
            raise problem
        seen |= held | pile
    for card in trick:
        if seen >> card & 1:
            raise problem
        seen |= 1 << card
    to_play = (leader + len(trick)) % players
    if trick and not any(
        hands[to_play] >> c & 1 and _suit(c) == _suit(trick[0]) for c in range(PACK)
    ):
        raise problem
    state = EnfleState.__new__(EnfleState)
    state.players = players
    p = _Position([{c for c in range(PACK) if mask >> c & 1} for mask in hands], leader)
    p.won = [{c for c in range(PACK) if mask >> c & 1} for mask in won]
    p.plays = [((leader + i) % players, c) for i, c in enumerate(trick)]
    state._pos = p
    state._undo = []
    return state
