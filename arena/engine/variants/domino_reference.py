"""Domino Hearts (000 'Domino Hearts') in pure Python: the reference for `_domino`.

The same contract as arena/engine/_core/domino.h (read its header comment for the rules),
written independently and plainly: lists of seats and cards instead of packed state, and
a list of whole-state copies for `pop`. ``ARENA_PUREPYTHON=1`` plays Domino with it, and
tests/engine/test_domino_differential.py holds the two to the same answers.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..reference import SplitMix64

__all__ = ["DominoState", "deal", "position"]

HAND_SIZE = 6
"""000 'Domino Hearts': "Each player receives six cards, dealt one at a time"."""
PACK = 52
HEARTS = 3
MOON_NONE = 0
MOON_OLD = 1
PHASE_PLAYING = 1
PHASE_OVER = 2
ERR_HAND_OVER = 1
ERR_BAD_CARD = 3
ERR_NOT_IN_HAND = 4
ERR_MUST_FOLLOW_SUIT = 7
ERR_NOT_BROKEN = 9


def _suit(card: int) -> int:
    return card // 13


def deal(players: int, seed: int, dealer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Shuffle the pack as `reference.deal` does, deal six cards a seat one at a time from
    the dealer's left; return (hand masks, the stock top first). Raises ValueError for a
    player count outside 2..7 or a dealer not at the table."""
    if not 2 <= players <= 7 or not 0 <= dealer < players:
        raise ValueError("deal: 2..7 players and a dealer in range")
    cards = list(range(PACK))
    SplitMix64(seed).shuffle(cards)
    hands = [0] * players
    dealt = players * HAND_SIZE
    for k in range(dealt):
        hands[(dealer + 1 + k) % players] |= 1 << cards[k]
    return tuple(hands), tuple(cards[dealt:])


class _Position:
    """Everything a play may change (copied whole for `pop`)."""

    def __init__(self, hands: list[set[int]]) -> None:
        n = len(hands)
        self.hands = hands
        self.taken: list[set[int]] = [set() for _ in range(n)]
        self.tricks_won = [0] * n
        self.drawn = [0] * n
        self.stock_pos = 0
        self.in_trick = list(range(n))  # the seats taking part in the trick, any order
        self.leader = 0
        self.plays: list[tuple[int, int]] = []
        self.broken = False
        self.over = False
        self.kept: set[int] = set()
        self.kept_by = -1
        self.history: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
        self.draws: list[tuple[int, int, int]] = []

    def copy(self) -> _Position:
        """A whole copy for `pop`: every container anew, as `copy.deepcopy` made it (their
        items are ints and tuples, never changed in place), at a fraction of its cost."""
        twin = object.__new__(_Position)
        twin.__dict__.update(self.__dict__)
        twin.hands = [set(held) for held in self.hands]
        twin.taken = [set(pile) for pile in self.taken]
        twin.tricks_won = list(self.tricks_won)
        twin.drawn = list(self.drawn)
        twin.in_trick = list(self.in_trick)
        twin.plays = list(self.plays)
        twin.kept = set(self.kept)
        twin.history = list(self.history)
        twin.draws = list(self.draws)
        return twin


class DominoState:
    """One Domino deal in play: the twin of `arena.engine.variants._domino.DominoState`."""

    def __init__(
        self,
        players: int,
        dealer: int,
        hands: Sequence[int],
        stock: Sequence[int],
        values: Sequence[int],
        moon: int,
        moon_points: int,
    ) -> None:
        if len(hands) != players or len(values) != PACK:
            raise ValueError("need one hand per player and 52 values")
        seen: list[int] = []
        for mask in hands:
            if not mask or mask >> PACK:
                raise ValueError("not a Domino deal: an empty hand or a card outside the pack")
            seen.extend(c for c in range(PACK) if mask >> c & 1)
        seen.extend(stock)
        if (
            not 2 <= players <= 7
            or not 0 <= dealer < players
            or moon not in (MOON_NONE, MOON_OLD)
            or sorted(seen) != list(range(PACK))
        ):
            raise ValueError("not a Domino deal: the hands and stock must partition the pack")
        self.players = players
        self._values = tuple(values)
        self._moon = moon
        self._moon_points = moon_points
        self._stock = tuple(stock)
        p = _Position([{c for c in range(PACK) if mask >> c & 1} for mask in hands])
        p.leader = (dealer + 1) % players
        self._pos = p
        self._undo: list[_Position] = []

    # -- reading -----------------------------------------------------------------

    @property
    def phase(self) -> int:
        return PHASE_OVER if self._pos.over else PHASE_PLAYING

    @property
    def to_play(self) -> int:
        p = self._pos
        if p.over:
            return -1
        return self._order()[len(p.plays)]

    @property
    def leader(self) -> int:
        return -1 if self._pos.over else self._pos.leader

    @property
    def trick_number(self) -> int:
        return len(self._pos.history)

    @property
    def broken(self) -> bool:
        return self._pos.broken

    @property
    def stock_size(self) -> int:
        return len(self._stock) - self._pos.stock_pos

    @property
    def active(self) -> int:
        return sum(1 << s for s in self._pos.in_trick)

    @property
    def kept(self) -> int:
        return sum(1 << c for c in self._pos.kept)

    @property
    def kept_by(self) -> int:
        return self._pos.kept_by

    def hand(self, seat: int) -> int:
        return sum(1 << c for c in self._pos.hands[self._seat(seat)])

    def taken(self, seat: int) -> int:
        return sum(1 << c for c in self._pos.taken[self._seat(seat)])

    def tricks_won(self, seat: int) -> int:
        return self._pos.tricks_won[self._seat(seat)]

    def drawn(self, seat: int) -> int:
        return self._pos.drawn[self._seat(seat)]

    def stock(self) -> tuple[int, ...]:
        return self._stock[self._pos.stock_pos :]

    def current_trick(self) -> tuple[tuple[int, int], ...]:
        return tuple(self._pos.plays)

    def history(self) -> tuple[tuple[int, tuple[tuple[int, int], ...], int], ...]:
        return tuple(self._pos.history)

    def draws(self) -> tuple[tuple[int, int, int], ...]:
        return tuple(self._pos.draws)

    def _seat(self, seat: int) -> int:
        if not 0 <= seat < self.players:
            raise IndexError(f"seat {seat} out of range")
        return seat

    def _order(self) -> list[int]:
        """The seats of the current trick in play order: the leader, then leftwards."""
        p = self._pos
        n = self.players
        return sorted(p.in_trick, key=lambda s: (s - p.leader) % n)

    # -- the rules ---------------------------------------------------------------

    def legal_mask(self) -> int:
        p = self._pos
        if p.over:
            return 0
        held = p.hands[self.to_play]
        if p.plays:
            led = _suit(p.plays[0][1])
            follow = {c for c in held if _suit(c) == led}
            chosen = follow or held
        else:
            others = {c for c in held if _suit(c) != HEARTS}
            chosen = held if p.broken or not others else others
        return sum(1 << c for c in chosen)

    def check_play(self, card: int) -> int:
        p = self._pos
        if p.over:
            return ERR_HAND_OVER
        if not 0 <= card < PACK:
            return ERR_BAD_CARD
        if card not in p.hands[self.to_play]:
            return ERR_NOT_IN_HAND
        if self.legal_mask() >> card & 1:
            return 0
        return ERR_MUST_FOLLOW_SUIT if p.plays else ERR_NOT_BROKEN

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
        seat = self.to_play
        p.hands[seat].discard(card)
        p.plays.append((seat, card))
        if _suit(card) == HEARTS:
            p.broken = True
        if len(p.plays) < len(p.in_trick):
            self._draw_for(self.to_play)
            return
        led = _suit(p.plays[0][1])
        winner = max((c, s) for s, c in p.plays if _suit(c) == led)[1]
        p.history.append((p.leader, tuple(p.plays), winner))
        p.taken[winner].update(c for _, c in p.plays)
        p.tricks_won[winner] += 1
        p.plays = []
        p.in_trick = [s for s in range(self.players) if p.hands[s]]
        if len(p.in_trick) < 2:
            self._finish(winner)
            return
        # "If a player wins a trick with his last card, the turn to lead passes to the
        # first active player on his left."
        n = self.players
        p.leader = next((winner + k) % n for k in range(n) if p.hands[(winner + k) % n])

    def _draw_for(self, seat: int) -> None:
        """000: "a player who cannot follow suit to the lead must draw cards from the top
        of the stock until he can play"."""
        p = self._pos
        led = _suit(p.plays[0][1])
        while not any(_suit(c) == led for c in p.hands[seat]) and p.stock_pos < len(self._stock):
            card = self._stock[p.stock_pos]
            p.stock_pos += 1
            p.hands[seat].add(card)
            p.drawn[seat] += 1
            p.draws.append((len(p.history), seat, card))

    def _finish(self, last_winner: int) -> None:
        """ "The last survivor must keep all the cards remaining in his hand"; the stock
        left goes to him too, or to the last trick's winner when nobody survives."""
        p = self._pos
        rest = set(self._stock[p.stock_pos :])
        p.stock_pos = len(self._stock)
        survivors = [s for s in range(self.players) if p.hands[s]]
        if survivors:
            rest |= p.hands[survivors[0]]
            p.hands[survivors[0]] = set()
        p.kept = rest
        p.kept_by = (survivors[0] if survivors else last_winner) if rest else -1
        p.in_trick = []
        p.over = True

    def points(self) -> tuple[int, ...]:
        p = self._pos
        charged = [p.taken[s] | (p.kept if p.kept_by == s else set()) for s in range(self.players)]
        raw = [sum(self._values[c] for c in cards) for cards in charged]
        penalty = {c for c in range(PACK) if self._values[c] > 0}
        # A moon is every penalty card won in tricks: cards kept never make one.
        shooters = [s for s in range(self.players) if penalty and penalty <= p.taken[s]]
        if self._moon == MOON_OLD and shooters and p.over:
            return tuple(0 if s == shooters[0] else self._moon_points for s in range(self.players))
        return tuple(raw)


def position(
    players: int,
    dealer: int,
    hands: Sequence[int],
    stock: Sequence[int],
    values: Sequence[int],
    moon: int,
    moon_points: int,
    leader: int,
    broken: bool,
    trick: Sequence[tuple[int, int]],
) -> DominoState:
    """A DominoState from a position mid-hand, for search (the twin of `_domino.position`):
    the hands, the stock top first, the trick in progress as (seat, card) pairs from its
    leader. The cards won already are left out; tricks, takings and draws start empty.
    Raises ValueError for an impossible position."""
    if len(hands) != players or len(values) != PACK or len(trick) >= 7:
        raise ValueError("not a Domino position: bad sizes, seats or cards")
    if any(not 0 <= s < 7 or not 0 <= c < PACK for s, c in trick) or any(
        not 0 <= c < PACK for c in stock
    ):
        raise ValueError("not a Domino position: bad sizes, seats or cards")
    cards: list[int] = []
    for mask in hands:
        if mask >> PACK:
            raise ValueError("not a Domino position: cards twice, or a trick not played in turn")
        cards.extend(c for c in range(PACK) if mask >> c & 1)
    cards += list(stock) + [c for _, c in trick]
    played = [s for s, _ in trick]
    in_trick = sorted({s for s in range(players) if hands[s]} | set(played))
    order = sorted(in_trick, key=lambda s: (s - leader) % players) if 0 <= leader < players else []
    if (
        not 2 <= players <= 7
        or not 0 <= dealer < players
        or not 0 <= leader < players
        or moon not in (MOON_NONE, MOON_OLD)
        or len(set(cards)) != len(cards)
        or len(in_trick) < 2
        or len(trick) >= len(in_trick)
        or order[: len(played)] != played
        or (played and played[0] != leader)
        or not hands[order[len(played)]]
    ):
        raise ValueError("not a Domino position: cards twice, or a trick not played in turn")
    state = DominoState.__new__(DominoState)
    state.players = players
    state._values = tuple(values)
    state._moon = moon
    state._moon_points = moon_points
    state._stock = tuple(stock)
    p = _Position([{c for c in range(PACK) if mask >> c & 1} for mask in hands])
    p.leader = leader
    p.in_trick = in_trick
    p.plays = list(trick)
    p.broken = bool(broken) or any(_suit(c) == HEARTS for _, c in trick)
    state._pos = p
    state._undo = []
    if p.plays:
        state._draw_for(state.to_play)
    return state
