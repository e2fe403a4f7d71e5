"""The heuristic house bot: the habits of a sound club player, in a few readable rules.

Pass the cards that take points (the QS, AS and KS, then high hearts and high cards);
duck when following (the highest card that still loses the trick); when void, dump the
card that hurts most (the QS, then high hearts, then high cards); lead low.
"""

from __future__ import annotations

from arena.engine import Card, CardSet, PassDirection, Rules, SeatView, Suit

from .auction import auction_bid, safest_suit
from .base import plays_last, refuses_queen
from .enfle_search import enfle_habit
from .reveal import steer_reveal

_QUEEN_OF_SPADES = Card.from_str("QS")
_SPADE_GUARDS = CardSet.parse("AS KS")
_TEN = Card.from_str("TC").rank
_SIX = Card.from_str("6C").rank


def _danger(card: Card, view: SeatView) -> tuple[int, int]:
    """How much a card threatens to take points for its holder; larger is worse. A bonus
    card (worth less than 0, as Gong Zhu's sheep) is the last to give away, under the rules
    that score more than the cards' values (`_scored_beyond_cards`)."""
    if card is _QUEEN_OF_SPADES and view.rules.value_of(card) > 0:
        return (3, card.rank)
    if card in _SPADE_GUARDS and _QUEEN_OF_SPADES not in view.hand:
        return (2, card.rank)
    value = view.rules.value_of(card)
    if value > 0:
        return (1, card.rank)
    if value < 0 and _scored_beyond_cards(view.rules):
        return (-1, card.rank)
    return (0, card.rank)


def _scored_beyond_cards(rules: Rules) -> bool:
    """Whether a hand scores more than its cards' values: the first and last tricks (004
    'Slobberhannes'), the lone doubler or all the hearts reversed (Gong Zhu)."""
    return bool(
        rules.first_trick_points
        or rules.last_trick_points
        or rules.doubler_alone_points
        or rules.all_hearts_reversed
    )


def _trick_cost(view: SeatView, card: Card) -> int:
    """What taking the current trick with `card` would cost: the values of its cards, and
    the first or the last trick's own points (004 'Slobberhannes')."""
    rules = view.rules
    cost = sum(rules.value_of(c) for _, c in view.current_trick) + rules.value_of(card)
    number = len(view.tricks)
    if number == 0:
        cost += rules.first_trick_points
    if number == rules.hand_size - 1:
        cost += rules.last_trick_points
    return cost


def _penny_rank(
    plays: tuple[tuple[int, Card], ...], card: Card, view: SeatView
) -> tuple[int, int, int]:
    """How good `card` is on a penny holding `plays` (smaller is better)."""
    if not plays:
        return (2, int(view.rules.value_of(card) > 0), card.rank)
    led = plays[0][1].suit
    if card.suit is not led:
        danger = _danger(card, view)
        return (0, -danger[0], -danger[1])
    high = max(c.rank for _, c in plays if c.suit is led)
    if card.rank < high:
        return (1, -card.rank, 0)
    points = sum(view.rules.value_of(c) for _, c in plays) + view.rules.value_of(card)
    return (3, points, card.rank)


class HeuristicBot:
    """Deterministic: the same view always gets the same decision."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def pass_cards(self, view: SeatView, count: int) -> list[Card]:
        """The most dangerous cards first."""
        passable = view.hand - view.rules.pass_forbidden  # 004: maybe not the high spades
        return sorted(passable, key=lambda c: _danger(c, view), reverse=True)[:count]

    def call_pass(self, view: SeatView) -> PassDirection:
        """As dealer: the rules' first option (no read of the deal beats it reliably)."""
        return view.rules.pass_call_options[0]

    def bid(self, view: SeatView) -> int | None:
        """Outbid the table only for a suit this hand can duck (`arena.bots.auction`)."""
        return auction_bid(view)

    def name_suit(self, view: SeatView) -> Suit:
        """The suit this hand can most surely duck (`arena.bots.auction`)."""
        return safest_suit(view)

    def choose_moon(self, view: SeatView, default: str) -> str:
        """The engine's pick: against the others adding and subtracting move the margins
        alike, so what matters is the game's end, which the pick weighs (add while the
        shooter would lead, else subtract)."""
        return default

    def pledge(self, view: SeatView) -> bool:
        """Pledge only a hand that can hardly win a trick: no card above the ten and no
        heart above the six (004 'Scoring variants': a broken pledge costs as much as a
        kept one gains)."""
        return bool(view.hand) and all(
            card.rank <= _TEN and (card.suit is not Suit.HEARTS or card.rank <= _SIX)
            for card in view.hand
        )

    def refuse_queen(self, view: SeatView) -> bool:
        """Rickety Kate: refuse the passed QS unless it can be guarded (`base.refuses_queen`:
        four spades or more below it)."""
        return refuses_queen(view)

    def replace_pass(self, view: SeatView, legal: CardSet) -> Card:
        """Rickety Kate: in the refused QS's place, the card this bot's pass would have
        given next (the most dangerous of `legal`)."""
        return max(legal, key=lambda c: _danger(c, view))

    def expose(self, view: SeatView, exposable: CardSet) -> tuple[Card, ...]:
        """Gong Zhu: expose a card only where doubling it is safe (Pagat: "The effect of
        exposing a card is basically to double its value"). The QS with five spades or
        more: the pig can wait under the spade leads and its exposure doubles what the
        others risk. The JD with the AD or KD and four diamonds or more: the sheep's
        trick is likely ours, and doubled it is worth -200 to us. Never the AH (every
        heart doubles, and its holder is the likeliest to take some) nor the TC (it would
        quadruple whatever its taker holds, good or bad)."""
        hand = view.hand
        spades = hand.of_suit(Suit.SPADES)
        diamonds = hand.of_suit(Suit.DIAMONDS)
        shown = []
        for card in exposable:
            if (str(card) == "QS" and len(spades) >= 5) or (
                str(card) == "JD"
                and len(diamonds) >= 4
                and any(str(c) in ("AD", "KD") for c in diamonds)
            ):
                shown.append(card)
        return tuple(shown)

    def reveal_card(self, view: SeatView) -> Card:
        """Steer the scoring suit to the one this hand can best avoid (`arena.bots.reveal`)."""
        return steer_reveal(view)

    def play_card(self, view: SeatView) -> Card:
        """Duck, dump or lead low (in Enfle: keep every suit, `enfle_habit`)."""
        if view.rules.enfle:
            return enfle_habit(view)
        legal = list(view.legal)
        # The suit to follow: the first suited card's (a trick led with a wild joker, 004
        # 'Joker Hearts', has none until then; a joker's own `suit` is None).
        led: Suit | None = next((c.suit for _, c in view.current_trick if c.suit is not None), None)
        if led is None:
            return min(legal, key=lambda c: (view.rules.value_of(c) > 0, c.rank))
        following = [c for c in legal if c.suit is led]
        if following:
            # Cancellation Hearts (two packs): twins in the trick cancel, so the card to
            # beat is the highest one played once; a twin of a card played never wins.
            played = [c for _, c in view.current_trick if c.suit is led]
            high = max((c.rank for c in played if played.count(c) == 1), default=-1)
            if _scored_beyond_cards(view.rules) and plays_last(view):
                # Last to play where a trick can be worth having (Gong Zhu's sheep): take
                # it, as cheaply as it goes, when it gains.
                wins = [c for c in following if c.rank > high and c not in played]
                gains = [c for c in wins if _trick_cost(view, c) < 0]
                if gains:
                    return min(gains, key=lambda c: (_trick_cost(view, c), c.rank))
            ducks = [c for c in following if c.rank < high or c in played]
            if ducks:
                return max(ducks, key=lambda c: c.rank)
            jokers = [c for c in legal if c.is_joker]
            if jokers:
                return jokers[0]  # a legal joker never takes this trick: duck with it
            # Must win: with the trick's fate sealed take it high; otherwise as low as possible.
            if plays_last(view):
                safe = [c for c in following if c is not _QUEEN_OF_SPADES]
                return max(safe or following, key=lambda c: c.rank)
            return min(following, key=lambda c: c.rank)
        return max(legal, key=lambda c: _danger(c, view))

    def play_penny(self, view: SeatView) -> tuple[int, Card]:
        """003 'FOUR-PENNY HEARTS', during a multi-round: the play this bot would make on
        each penny (as if it were the only trick), then the best of those: a discard off
        the suit led (the most dangerous card), a duck under the penny's high card, a lead
        to an empty penny, and taking a penny last (the fewest points on it)."""
        by_penny: dict[int, list[Card]] = {}
        for penny, card in view.legal_moves:
            by_penny.setdefault(penny, []).append(card)
        choices = []
        for penny, cards in by_penny.items():
            plays = view.pennies[penny]
            alone = view.replace(current_trick=plays, legal=CardSet(cards), legal_moves=())
            card = self.play_card(alone)
            choices.append((_penny_rank(plays, card, view), penny, card))
        _, penny, card = min(choices, key=lambda choice: (choice[0], choice[1]))
        return penny, card
