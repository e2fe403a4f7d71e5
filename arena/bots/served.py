"""The house bots as gRPC bots: each behind the SDK, in its own process, like any entrant.

Why: a house bot in-process sees the engine's `SeatView`; a contestant's bot sees only
what `hearts.v1` carries. Serving the house bots through the SDK (``hearts-bot serve
arena.bots.served:Heuristic``) puts them under exactly the contestants' conditions (the
protocol, the clock, the sandbox), so ladders can seat them beside real entrants, and a
full match of house bots over gRPC exercises every query a variant adds.

`seat_view` rebuilds the engine's view from the SDK's: the two hold the same facts
(tests/bots/test_served.py checks it decision by decision against the engine's own), so a
served house bot decides exactly as it would in-process.

This module imports the SDK (and so gRPC); `arena.bots` itself does not import it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from hearts_bot import Bot, views
from hearts_bot.rules import PassDirection as SdkPassDirection
from hearts_bot.rules import RulesView

from arena.engine import CARDS, Card, CardSet, PassDirection, Phase, Rules, SeatView, Suit, Trick
from arena.engine.decisions import CountedCall
from arena.engine.hand import royal_running
from arena.engine.multiset import CardMultiset

from .base import HouseBot
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .strong import StrongBot

_BY_TEXT = {str(card): card for card in CARDS}
_SUITS = {suit.letter: suit for suit in Suit}
_NINES = {suit: _BY_TEXT[f"9{suit.letter}"] for suit in Suit}


@lru_cache(maxsize=64)
def _rules(view: RulesView) -> Rules:
    """The engine's rules for the SDK's (one conversion per match, or per hand where the
    rules change with the hand's scoring suit)."""
    return Rules.from_dict(view.to_dict())


def _cards(texts: Sequence[str]) -> tuple[Card, ...]:
    return tuple(_BY_TEXT[text] for text in texts)


def seat_view(view: views.HandView, phase: Phase) -> SeatView:
    """The engine's `SeatView` of what an SDK view shows, for a decision of `phase`."""
    rules = _rules(view.rules)
    # A finished trick nobody won (Cancellation Hearts) is -1 to the engine; its points go
    # to the winner of the next trick won.
    tricks = tuple(
        Trick(
            trick.leader,
            tuple(zip(trick.seats, _cards(trick.cards), strict=True)),
            -1 if trick.winner is None else trick.winner,
        )
        for trick in view.tricks
    )
    taken = [0] * rules.players
    waiting = 0
    for trick in tricks:
        waiting += sum(rules.card_values.get(card, 0) for _, card in trick.plays)
        if trick.winner >= 0:
            taken[trick.winner] += waiting
            waiting = 0
    if rules.royal_queens:
        taken = royal_running(rules, tricks, rules.players)
    playing = isinstance(view, views.PlayView)
    current: tuple[tuple[int, Card], ...] = ()
    legal = CardSet()
    moves: tuple[tuple[int, Card], ...] = ()
    if isinstance(view, views.PlayView):
        current = tuple(
            zip(view.current_trick.seats, _cards(view.current_trick.cards), strict=True)
        )
        legal = CardSet(_cards(view.legal))
        moves = tuple((penny, _BY_TEXT[card]) for penny, card in view.legal_moves)
    # 003 'FOUR-PENNY HEARTS': the open penny-rounds (seat and card of each play).
    pennies = tuple(
        tuple(zip(penny.seats, _cards(penny.cards), strict=True)) for penny in view.pennies
    )
    # Cancellation Hearts deals two packs: a hand or the widow may hold a card twice.
    pile = CardMultiset if rules.cancellation else CardSet
    kitty = pile(_cards(view.kitty)) if rules.kitty_size and view.kitty else None
    pickups: tuple[tuple[int, int, tuple[Card, ...]], ...] = ()
    if rules.enfle:  # 004 'Enfle': the pickups, and the cards each seat holds as its score
        pickups = tuple(
            (t, s, tuple(CardSet(_cards(tuple(cards))))) for t, s, cards in view.pickups()
        )
        held = [rules.hand_size] * rules.players
        for plays in (*(trick.plays for trick in tricks), current):
            for seat, _ in plays:
                held[seat] -= 1
        for _, seat, cards in pickups:
            held[seat] += len(cards)
        taken = held
    return SeatView(
        seat=view.seat,
        rules=rules,
        dealer=view.dealer,
        pass_direction=PassDirection(view.pass_direction.value),
        phase=phase,
        to_play=view.seat if playing else None,
        hand=pile(_cards(view.hand)),
        legal=legal,
        passed=_cards(view.passed),
        received=_cards(view.received),
        current_trick=current,
        tricks=tricks,
        hearts_broken=view.broken,
        points_taken=tuple(taken),
        kitty=kitty,
        reveals=tuple(None if card is None else _BY_TEXT[card] for card in view.reveals),
        scoring_suit=None if view.scoring_suit is None else _SUITS[view.scoring_suit],
        bids=view.bids,
        declarer=view.declarer,
        booster_suit=_booster_suit(rules, tricks),
        pass_split=tuple(PassDirection(d.value) for d in view.pass_split),
        stock_size=view.stock_size,
        in_play=view.in_play,
        drawn=view.drawn,
        pennies=pennies,
        legal_moves=moves,
        multi_round=view.multi_round,
        pickups=pickups,
        pledges=view.pledges,
        queen_offer=view.queen_offer,
        queen_refused=view.queen_refused,
        exposed=tuple(None if cards is None else CardSet(_cards(cards)) for cards in view.exposed),
        extra_card_seats=view.extra_card_seats,
    )


def _booster_suit(rules: Rules, tricks: tuple[Trick, ...]) -> Suit | None:
    """Booster Nines (004 'Other Variations'): the suit the trick in play must be led in,
    because the last trick held the nine of its led suit (the protocol carries it only in
    the legal plays, so it is read off the tricks, as the engine decides it)."""
    if not rules.booster_nines or not tricks or len(tricks) == rules.hand_size:
        return None
    suits = [card.suit for _, card in tricks[-1].plays if card.suit is not None]
    if not suits:
        return None
    led = suits[0]  # a trick led with a wild joker follows its first suited card
    return led if any(card is _NINES[led] for _, card in tricks[-1].plays) else None


class ServedHouseBot(Bot):
    """A house bot answering the SDK's queries: each view becomes the engine's, the house
    bot decides, and its answer goes back as text."""

    def __init__(self, house: HouseBot | None = None) -> None:
        self.house = house if house is not None else self.make()
        self.name = f"house:{self.house.name}"
        super().__init__()

    def make(self) -> HouseBot:
        """The house bot a served class stands for (a subclass says which)."""
        raise TypeError("ServedHouseBot needs a house bot: pass one, or use a subclass")

    def pass_cards(self, view: views.PassView) -> list[str]:
        chosen = self.house.pass_cards(seat_view(view, Phase.PASSING), view.count)
        return [str(card) for card in chosen]

    def play_card(self, view: views.PlayView) -> str:
        return str(self.house.play_card(seat_view(view, Phase.PLAYING)))

    def play_penny(self, view: views.PlayView) -> tuple[int | None, str]:
        choose = getattr(self.house, "play_penny", None)
        if choose is None:
            return super().play_penny(view)
        penny, card = choose(seat_view(view, Phase.PLAYING))
        return penny, str(card)

    def call_pass(
        self, view: views.CallPassView
    ) -> SdkPassDirection | tuple[SdkPassDirection, ...] | tuple[SdkPassDirection, int]:
        called = self.house.call_pass(seat_view(view, Phase.CALLING))
        if isinstance(called, PassDirection):
            return SdkPassDirection(called.value)
        if isinstance(called, CountedCall):  # 004 'Passing cards': where and how many
            return SdkPassDirection(str(called.direction)), called.size
        return tuple(SdkPassDirection(d.value) for d in called)  # a split

    def reveal_card(self, view: views.RevealView) -> str:
        return str(self.house.reveal_card(seat_view(view, Phase.REVEALING)))

    def bid(self, view: views.BidView) -> int | None:
        return self.house.bid(seat_view(view, Phase.BIDDING))

    def name_suit(self, view: views.NameSuitView) -> str:
        return self.house.name_suit(seat_view(view, Phase.NAMING)).letter

    def choose_moon(self, view: views.MoonChoiceView) -> str:
        return self.house.choose_moon(seat_view(view, Phase.OVER), view.default)

    def pledge(self, view: views.PledgeView) -> bool:
        return self.house.pledge(seat_view(view, Phase.PLEDGING))

    def refuse_queen(self, view: views.RefuseQueenView) -> bool:
        return self.house.refuse_queen(seat_view(view, Phase.PASSING))

    def replace_pass(self, view: views.ReplacePassView) -> str:
        legal = CardSet(_cards(view.legal))
        return str(self.house.replace_pass(seat_view(view, Phase.PASSING), legal))

    def expose(self, view: views.ExposeView) -> list[str]:
        shown = self.house.expose(seat_view(view, Phase.EXPOSING), CardSet(_cards(view.exposable)))
        return [str(card) for card in shown]


class Random(ServedHouseBot):
    """`hearts-bot serve arena.bots.served:Random`: the random house bot."""

    def make(self) -> HouseBot:
        return RandomBot()


class Heuristic(ServedHouseBot):
    """`hearts-bot serve arena.bots.served:Heuristic`: the heuristic house bot."""

    def make(self) -> HouseBot:
        return HeuristicBot()


class Strong(ServedHouseBot):
    """`hearts-bot serve arena.bots.served:Strong`: the strong house bot, searching within
    its default time per move."""

    def make(self) -> HouseBot:
        return StrongBot()


class Expert(ServedHouseBot):
    """`hearts-bot serve arena.bots.served:Expert`: the expert house bot, searching within
    its default time per move."""

    def make(self) -> HouseBot:
        return ExpertBot()
