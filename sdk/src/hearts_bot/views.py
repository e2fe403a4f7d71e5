"""What a bot is shown: typed, frozen views of the protocol's queries and notifications.

A bot never handles protobuf messages: the server turns each query into a `PassView` or a
`PlayView` (everything the seat knows about the hand) and each notification into an event.
Cards are canonical text (``"QS"``); seats are ``0 .. players - 1`` clockwise.
"""

from __future__ import annotations

import dataclasses

from .cards import JOKERS, Card, rank_of
from .rules import PassDirection, RulesView


def play_order(
    leader: int, players: int, extra_card_seats: tuple[int, ...] = ()
) -> tuple[int, ...]:
    """The seats that play a trick, in order: round the table from `leader`, then each of
    `extra_card_seats` again, in the same order from the leader (the first trick under
    `RulesView.extra_cards_first_trick`; 002 'Alternatives to the "Kitty" in 3 or 5 player
    games': "allow the player with them to play an additional card on the first trick").

    >>> play_order(1, 4)
    (1, 2, 3, 0)
    >>> play_order(2, 5, (1, 3))
    (2, 3, 4, 0, 1, 3, 1)
    """
    round_ = tuple((leader + i) % players for i in range(players))
    return round_ + tuple(seat for seat in round_ if seat in extra_card_seats)


@dataclasses.dataclass(frozen=True, slots=True)
class Trick:
    """One trick: the leader, the cards in play order and who played them."""

    leader: int
    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    """``seats[i]`` played ``cards[i]``."""
    winner: int | None = None
    """Set once the trick is complete; None for a complete Cancellation Hearts trick that
    nobody won (every card of the suit led cancelled by its twin)."""

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """``(seat, card)`` pairs in play order."""
        return tuple(zip(self.seats, self.cards, strict=True))

    @property
    def led_suit(self) -> str | None:
        """The suit led, or None before the lead. A joker has no suit: a trick led with one
        takes the suit of its first other card (None until then)."""
        return next((card[1] for card in self.cards if card not in JOKERS), None)

    def winning_card(self) -> Card | None:
        """The highest card of the led suit so far (it wins if no one beats it); with only
        jokers played, the first of them. Two copies of one card (Cancellation Hearts, two
        packs) cancel: neither can win, and None when nothing of the led suit is left."""
        suit = self.led_suit
        if suit is None:
            return self.cards[0] if self.cards else None
        cards = self.cards
        return max(
            (
                card
                for card in cards
                if card[1] == suit and card not in JOKERS and cards.count(card) == 1
            ),
            key=rank_of,
            default=None,
        )

    def points(self, rules: RulesView) -> int:
        """What the trick's cards are worth to its taker."""
        return sum(rules.card_values.get(card, 0) for card in self.cards)


@dataclasses.dataclass(frozen=True, slots=True)
class Clock:
    """The time a bot may spend on a decision, in seconds, as of when the query was sent."""

    per_decision: float
    """The free allowance of every decision."""
    bank_remaining: float
    """What is left of the overtime bank for the rest of the match."""

    @property
    def time_left(self) -> float:
        """The most this decision may take (network time included) before it times out."""
        return self.per_decision + self.bank_remaining


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class HandView:
    """Everything one seat knows about the hand in progress (the base of both views)."""

    rules: RulesView
    seat: int
    hand_number: int
    """0-based: the match's first hand is hand 0."""
    dealer: int
    hand: tuple[Card, ...]
    """The cards held now, in card order."""
    scores: tuple[int, ...]
    """Each seat's match score before this hand."""
    pass_direction: PassDirection
    passed: tuple[Card, ...]
    """The cards this seat passed this hand, in the order it gave them."""
    received: tuple[Card, ...]
    """The cards this seat received (empty until everyone has passed)."""
    tricks: tuple[Trick, ...]
    """The hand's finished tricks, in order, each with its winner."""
    broken: bool
    """Whether the lead restriction (hearts or points) has been lifted."""
    clock: Clock
    kitty: tuple[Card, ...] = ()
    """The kitty, when the rules let this seat see it now."""
    kitty_taker: int | None = None
    pot: int = 0
    """Chips waiting in the pot for a later hand (chip settlements; 0 otherwise)."""
    reveals: tuple[Card | None, ...] = ()
    """Heartless: each seat's face-down card, None where this seat may not see it yet
    (before every seat has laid one); empty when the rules fix the scoring suit."""
    scoring_suit: str | None = None
    """The hand's scoring suit ("C", "D", "S", "H") once chosen: in Heartless when the
    cards are turned (`rules` then scores that suit and its queen), in Auction Hearts when
    the declarer names it (`rules` then scores each card of it 1)."""
    bids: tuple[tuple[int, int | None], ...] = ()
    """Auction Hearts: every bid so far as (seat, chips), chips None for a pass."""
    declarer: int | None = None
    """Auction Hearts: the seat that names (or named) the suit to avoid, once known."""
    lives: tuple[int, ...] = ()
    """Danger Hearts: each seat's lives left before this hand (a hand scoring
    `rules.danger_points` or more costs one); empty without lives."""
    pass_split: tuple[PassDirection, ...] = ()
    """After the dealer called a split (`pass_direction` SPLIT): each passed card's
    direction, card i of every pass going `pass_split[i]`; empty otherwise."""
    pledges: tuple[bool | None, ...] = ()
    """The no-hearts pledge (`rules.no_hearts_pledge`): by seat, True pledged, False
    declined, None not asked yet; empty without the pledge."""
    queen_offer: tuple[int, int] | None = None
    """Rickety Kate (`rules.queen_refusal`): (giver, receiver) of the QS passed this hand,
    told to those two seats only (the giver from its pass, the receiver once asked); None
    otherwise."""
    queen_refused: bool | None = None
    """With `queen_offer`: True refused, False accepted, None not answered yet."""
    exposed: tuple[tuple[Card, ...] | None, ...] = ()
    """Gong Zhu's exposed cards (`rules.exposures`): by seat, the cards it exposed (face
    up: every seat sees them; () if none), None while it has not answered; empty without
    exposures."""
    stock_size: int | None = None
    """Domino Hearts: the cards left in the face-down stock; None in other games."""
    in_play: tuple[bool, ...] = ()
    """Domino Hearts: by seat, whether it takes part in the trick in progress (it held
    cards when the trick was led); empty in other games, where every seat plays."""
    drawn: tuple[int, ...] = ()
    """Domino Hearts: by seat, how many cards it has drawn from the stock this hand (this
    seat's own are in `hand`); empty in other games."""
    pennies: tuple[Trick, ...] = ()
    """Four-Penny Hearts: the penny-rounds of the multi-round in play, by penny (each a
    `Trick` in progress: its leader, cards and the seat of each card; a penny with no card
    yet has none); empty before the first multi-round and in every other game. `tricks`
    holds the opening tricks, then every finished penny-round (multi-round by multi-round,
    penny by penny)."""
    multi_round: int | None = None
    """Four-Penny Hearts: the 0-based multi-round in play; None outside the multi-rounds."""
    extra_card_seats: tuple[int, ...] = ()
    """`rules.extra_cards_first_trick` (002 'Alternatives to the "Kitty" in 3 or 5 player
    games'): the seats dealt one card more than the others, in seat order. Each plays a
    second card to the first trick, after every seat has played once, in play order from
    the leader (`play_order`), so the first trick holds `players + len(extra_card_seats)`
    cards and its `seats` name those seats twice. Empty in every other game."""

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @property
    def time_left(self) -> float:
        """Seconds this decision may take before it times out (see `Clock`)."""
        return self.clock.time_left

    @property
    def trick_number(self) -> int:
        """The 0-based number of the trick in progress (or about to start)."""
        return len(self.tricks)

    def played_cards(self) -> frozenset[Card]:
        """Every card played this hand, in finished tricks and the current one."""
        return frozenset(card for trick in self._all_tricks() for card in trick.cards)

    def points_taken(self) -> tuple[int, ...]:
        """Card points each seat has taken in this hand's finished tricks (by seat). A
        trick nobody won (Cancellation Hearts) goes to the winner of the next trick won."""
        taken = [0] * self.rules.players
        waiting = 0
        for trick in self.tricks:
            if trick.winner is None:
                waiting += trick.points(self.rules)
            else:
                taken[trick.winner] += trick.points(self.rules) + waiting
                waiting = 0
        return tuple(taken)

    def pickups(self) -> tuple[tuple[int, int, frozenset[Card]], ...]:
        """Enfle (`rules.enfle`): every pickup this hand as (trick number, seat, the cards it
        took up). A seat that cannot follow takes up every trick won since the last pickup
        and the cards of the trick in progress; that trick is in `tricks` with no winner,
        and the seat is the one after its last card. () in other games."""
        if not self.rules.enfle:
            return ()
        found = []
        on_table: set[Card] = set()
        for number, trick in enumerate(self.tricks):
            on_table.update(trick.cards)
            if trick.winner is None:
                seat = (trick.leader + len(trick.cards)) % self.rules.players
                found.append((number, seat, frozenset(on_table)))
                on_table = set()
        return tuple(found)

    def _all_tricks(self) -> tuple[Trick, ...]:
        return (*self.tricks, *self.pennies)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class PassView(HandView):
    """The seat is asked which cards to pass: return `count` cards from `hand`."""

    direction: PassDirection
    count: int
    recipients: tuple[int, ...]
    """The seat each passed card goes to, in order (empty for a center pass)."""

    @property
    def passable(self) -> tuple[Card, ...]:
        """The cards of `hand` this seat may pass: all of them unless the rules forbid
        some (`RulesView.pass_forbidden`, such as the high spades), in card order."""
        forbidden = self.rules.pass_forbidden
        if not forbidden:
            return self.hand
        return tuple(card for card in self.hand if card not in forbidden)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class CallPassView(HandView):
    """The dealer is asked to call this hand's pass (003: "The dealer chooses the passing
    rule"): return one of `options`. Everyone then passes the rules' count that way.
    Where `split_directions` is not empty the dealer may instead split the pass ("Pass one
    card to the right and two cards to the left"): return one direction per passed card
    (`rules.pass_count`), each from `split_directions`."""

    options: tuple[PassDirection, ...]
    """The passes the rules let the dealer call, in the rules' order."""
    split_directions: tuple[PassDirection, ...] = ()
    """The directions a card of a split call may take; empty when a split is not allowed."""
    counts: tuple[int, ...] = ()
    """004 'Passing cards' ("The Dealer may choose how many cards and where to pass"): the
    counts the dealer may call, `rules.pass_count` among them (return `(direction, count)`);
    empty when only `rules.pass_count` may be passed."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class BidView(HandView):
    """Auction Hearts: the seat is asked for its bid, for the right to name the suit to
    avoid. Return a whole number of chips from `min_bid` to `max_bid`, or None to pass.
    Each seat bids once, in turn from the dealer's left (`bids` holds the earlier bids);
    the highest bidder pays the bid into the pot, names the suit and leads first."""

    min_bid: int
    """The least this seat may bid: one more than the highest bid so far."""
    max_bid: int
    """The most this seat may bid (`rules.max_bid`); below `min_bid` when no bid is left
    to make, and only a pass remains."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class NameSuitView(HandView):
    """Auction Hearts: the seat won the bidding (or names again after a pot nobody won);
    return the suit to avoid, "C", "D", "S" or "H". Each card of it taken puts a chip in
    the pot; the one or two seats that take none share the pot. This seat leads first."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class MoonChoiceView(HandView):
    """The seat shot the moon and the rules let it choose (004 'Shooting the moon'):
    return "add" (`worth` to every other seat) or "subtract" (`worth` off its own score).
    `scores` are the game's totals before this hand."""

    worth: int
    """What the moon (or the sun) is worth."""
    default: str
    """The engine's pick, applied when the bot faults: "add" or "subtract"."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ExposeView(HandView):
    """Gong Zhu, before the first card: return the cards of `exposable` to expose (any of
    them, or none). Exposing doubles a card's value (the AH every heart's; the TC
    quadruples instead of doubling), and an exposed card may not be played the first time
    its suit is led, the lead included, unless it is your only card of that suit."""

    exposable: tuple[Card, ...]
    """The cards this seat may expose: those of the AH, QS, JD and TC it holds; `exposed`
    holds the answers so far."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class PledgeView(HandView):
    """After the pass, before the first card (004 'Scoring variants'): return True to
    pledge to take no hearts this hand (`points` off your score if you take none, `points`
    more if you take any), False not to."""

    points: int
    """What the pledge is worth (`rules.pledge_points`); `pledges` holds the answers so
    far."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RefuseQueenView(HandView):
    """Rickety Kate: every seat has passed and `giver` passes you the QS ("The receiving
    player has the right to refuse the Queen of Spades"). Return True to refuse it (the
    giver passes another card instead), False to accept it. You see only that the QS is
    offered, not the rest of the pass."""

    giver: int
    """The seat passing the QS."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ReplacePassView(HandView):
    """Rickety Kate: the receiver refused the QS you passed ("another card must be passed
    in its place"). Return one card of `legal`; `passed` is your pass as given."""

    legal: tuple[Card, ...]
    """The cards that may go in the QS's place: your hand but your pass."""
    default: Card
    """The answer applied if you fault: the lowest of `legal` by rank, then suit."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RevealView(HandView):
    """The seat is asked which card to lay face down (Heartless): return one of `hand`.

    Once every seat has laid one, the suit of the highest card scores this hand (ties:
    the suit with more cards shown, then the first high card from the dealer's left),
    and every card goes back to its hand."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class PlayView(HandView):
    """The seat is asked which card to play: return one of `legal`."""

    legal: tuple[Card, ...]
    """The cards that may be played now (never empty), in card order."""
    current_trick: Trick
    """The trick being played: its leader and the cards so far. During a Four-Penny
    multi-round an empty trick led by this seat (the pennies are in `pennies`)."""
    legal_moves: tuple[tuple[int, Card], ...] = ()
    """Four-Penny Hearts, during a multi-round: every (penny, card) this seat may play
    now, by penny then card order (`legal` is their cards); empty otherwise. Return one
    from `Bot.play_penny`; a card alone from `play_card` goes to `default_penny(card)`."""

    def default_penny(self, card: Card) -> int | None:
        """Where a card played without a penny goes: the lowest-numbered penny where it is
        legal (None outside the multi-rounds, or if it is legal on none)."""
        return next((penny for penny, legal in self.legal_moves if legal == card), None)

    @property
    def leading(self) -> bool:
        """Whether this seat leads the trick."""
        return not self.current_trick.cards

    @property
    def led_suit(self) -> str | None:
        """The suit led to the current trick, or None when leading."""
        return self.current_trick.led_suit

    @property
    def trick_order(self) -> tuple[int, ...]:
        """The seats that play the current trick, in order from its leader: every seat once,
        then on the first trick each of `extra_card_seats` again (`play_order`); in Domino
        Hearts the seats still in play. `trick_order[len(current_trick.cards)]` is this seat."""
        leader, players = self.current_trick.leader, self.rules.players
        if self.in_play:  # Domino Hearts: only the seats still in play the trick
            return tuple(
                (leader + k) % players
                for k in range(players)
                if k == 0 or self.in_play[(leader + k) % players]
            )
        return play_order(leader, players, () if self.tricks else self.extra_card_seats)

    @property
    def last_to_play(self) -> bool:
        """Whether this seat plays the trick's last card (on the first trick under
        `rules.extra_cards_first_trick`, the last extra card, `trick_order`)."""
        if self.in_play:  # Domino Hearts: only the seats still in play the trick
            return len(self.current_trick.cards) == sum(self.in_play) - 1
        if self.extra_card_seats and not self.tricks:
            return len(self.current_trick.cards) == len(self.trick_order) - 1
        return len(self.current_trick.cards) == self.rules.players - 1

    def _all_tricks(self) -> tuple[Trick, ...]:
        return (*self.tricks, *self.pennies, self.current_trick)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class MatchInfo:
    """A match begins: the rules, this bot's seat and the table."""

    match_id: str
    rules: RulesView
    seat: int
    players: tuple[str, ...]
    """Each seat's player name, by seat (names may be anonymised)."""
    clock: Clock
    resumed: bool = False
    """True when the arena reconnected mid-match after a failed stream."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class HandStarted:
    """A hand was dealt (before any passing)."""

    hand_number: int
    dealer: int
    hand: tuple[Card, ...]
    pass_direction: PassDirection
    scores: tuple[int, ...]
    kitty: tuple[Card, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TrickEnded:
    """A trick is complete (`trick.winner` is set)."""

    hand_number: int
    trick_number: int
    trick: Trick


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class HandEnded:
    """A hand is over and scored."""

    hand_number: int
    hand_scores: tuple[int, ...]
    """Each seat's score for this hand, by seat."""
    scores: tuple[int, ...]
    """Each seat's match score after this hand, by seat."""
    moon_shooter: int | None = None
    kitty: tuple[Card, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class MatchEnded:
    """The match is over."""

    reason: str
    """``"completed"`` or ``"aborted"``."""
    scores: tuple[int, ...]
    hands_played: int
