"""`arena replay verify`: re-apply every decision of a replay through the engine and confirm
every recorded deal, trick, score, total and ranking; name the first thing that differs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from arena.engine import Card, Game, Hand, Phase, Rules, RulesError
from arena.engine.decisions import Action, CountedCall, DecisionKind
from arena.engine.rules import PassDirection, Settlement

from .standings import match_scores, rank_entrants


class ReplayMismatchError(ValueError):
    """The first place where the replay and the engine disagree."""

    def __init__(self, where: str, recorded: object, engine: object) -> None:
        super().__init__(f"{where}: recorded {recorded!r}, engine says {engine!r}")
        self.where = where
        self.recorded = recorded
        self.engine = engine


def new_draws(hand: Hand, seen: int, seat: int) -> list[str]:
    """Domino Hearts: the cards `seat` drew from the stock since the first `seen` draws
    of the hand (the engine draws for a seat that cannot follow when its turn comes, so
    they are the seat to play's); [] in every other game (`Hand.draws` is empty)."""
    fresh = hand.draws()[seen:]
    if not fresh:
        return []
    assert all(drawer == seat for _, drawer, _ in fresh), "a draw by a seat not to play"
    return [str(card) for _, _, card in fresh]


@dataclasses.dataclass(frozen=True)
class Verification:
    """What was checked."""

    games: int
    hands: int
    decisions: int


def _expect(where: str, recorded: object, engine: object) -> None:
    if recorded != engine:
        raise ReplayMismatchError(where, recorded, engine)


def _get(node: Any, key: str | int, where: str) -> Any:
    try:
        return node[key]
    except (KeyError, IndexError, TypeError):
        raise ReplayMismatchError(f"{where}[{key!r}]", "missing", "required") from None


def verify(replay: dict[str, Any]) -> Verification:
    """Check the whole replay; raises ReplayMismatchError naming the first difference."""
    try:
        rules = Rules.from_dict(_get(replay, "rules", "replay"))
    except RulesError as error:
        raise ReplayMismatchError("rules", "invalid", str(error)) from None
    seed = _get(replay, "seed", "replay")
    games = _get(replay, "games", "replay")
    hands = decisions = 0
    for g, record in enumerate(games):
        h, d = _verify_game(rules, seed, record, f"games[{g}]")
        hands += h
        decisions += d
    verify_result(replay, rules, games)
    return Verification(len(games), hands, decisions)


def _verify_game(rules: Rules, seed: int, record: dict[str, Any], where: str) -> tuple[int, int]:
    game = Game(rules, seed)
    decisions = 0
    hands = _get(record, "hands", where)
    for number, hand_record in enumerate(hands):
        at = f"{where}.hands[{number}]"
        if game.is_over:
            raise ReplayMismatchError(at, "another hand", "the game was already over")
        decisions += _verify_hand(game, hand_record, at)
    if "totals" in record:  # absent only in a void match's unfinished game
        _expect(f"{where}.game_over", True, game.is_over)
        _expect(f"{where}.totals", record["totals"], list(game.totals))
        if game.rules.lives:
            _expect(f"{where}.lives", record.get("lives"), game.lives)
        _expect(f"{where}.ranking", record.get("ranking"), list(game.ranking()))
    return len(hands), decisions


def _verify_hand(game: Game, record: dict[str, Any], at: str) -> int:
    hand, n = game.hand, game.rules.players
    _expect(f"{at}.seed", _get(record, "seed", at), game.hand_seeds[-1])
    _expect(f"{at}.dealer", _get(record, "dealer", at), hand.dealer)
    _expect(f"{at}.pass_direction", _get(record, "pass_direction", at), hand.pass_direction.value)
    _expect(
        f"{at}.deal",
        _get(record, "deal", at),
        [[str(c) for c in hand.hand_of(s)] for s in range(n)],
    )
    _expect(f"{at}.kitty", record.get("kitty", []), [str(c) for c in hand.kitty])
    decisions = _verify_call(hand, record, at) + _verify_auction(hand, record, at)
    for i, given in enumerate(_get(record, "passes", at)):
        where = f"{at}.passes[{i}]"
        seat = _get(given, "seat", where)
        cards = _get(given, "cards", where)
        if given.get("fault") or given.get("auto"):
            count = hand.pass_size
            _expect(
                f"{where}.cards (default pass)",
                cards,
                [str(c) for c in list(hand.passable(seat))[:count]],
            )
        try:
            hand.apply_pass(seat, cards)
        except ValueError as error:
            raise ReplayMismatchError(where, cards, f"illegal: {error}") from None
        decisions += 1
    later = list(record.get("decisions", []))  # kinds v1 files in order, with their kind
    # Rickety Kate: the refusal of the passed QS and its replacement, before the exchange.
    decisions += _verify_later(hand, later, DecisionKind.REFUSE_QUEEN, at)
    decisions += _verify_later(hand, later, DecisionKind.REPLACE_PASS, at)
    if "received" in record:
        _expect(
            f"{at}.received",
            record["received"],
            [[str(c) for c in hand.received(s)] for s in range(n)],
        )
    decisions += _verify_reveals(hand, record, at)
    decisions += _verify_later(hand, later, DecisionKind.PLEDGE, at)
    decisions += _verify_later(hand, later, DecisionKind.EXPOSE, at)  # Gong Zhu
    drawn = 0  # Domino Hearts: the draws checked so far
    for t, trick in enumerate(_get(record, "tricks", at)):
        where = f"{at}.tricks[{t}]"
        _expect(f"{where}.leader", _get(trick, "leader", where), hand.to_play)
        for p, play in enumerate(_get(trick, "plays", where)):
            spot = f"{where}.plays[{p}]"
            _expect(f"{spot}.seat", _get(play, "seat", spot), hand.to_play)
            # Domino Hearts: the cards the engine drew for this seat before it played.
            drew = new_draws(hand, drawn, play["seat"])
            _expect(f"{spot}.drew", play.get("drew", []), drew)
            drawn += len(drew)
            card = _get(play, "card", spot)
            if play.get("fault") or play.get("auto"):
                _expect(f"{spot}.card (default play)", card, str(hand.legal_plays().first()))
            try:
                hand.play(card, seat=play["seat"])
            except ValueError as error:
                raise ReplayMismatchError(spot, card, f"illegal: {error}") from None
            decisions += 1
        _expect(f"{where}.winner", _get(trick, "winner", where), _trick_winner(hand, t))
        _verify_pickup(hand, trick, t, where)
    decisions += _verify_multi_rounds(hand, record, at)
    if not hand.is_over:
        raise ReplayMismatchError(f"{at}.tricks", "hand finished", "cards still to play")
    decisions += _verify_later(hand, later, DecisionKind.MOON_CHOICE, at)
    if later:
        raise ReplayMismatchError(f"{at}.decisions", later[0], "no such decision is asked")
    _verify_kept(hand, record, at)
    if hand.goes_out or "went_out" in record:
        _expect(
            f"{at}.went_out",
            record.get("went_out"),
            hand.went_out if hand.goes_out else "no going out in these rules",
        )
    points = game.finish_hand()
    _expect(f"{at}.points", _get(record, "points", at), list(points))
    _expect(f"{at}.totals", _get(record, "totals", at), list(game.totals))
    if game.rules.lives:
        _expect(f"{at}.lives", _get(record, "lives", at), game.lives)
    if rules_settle_in_chips(game):
        points_before = list(game.hand_points[-1])
        _expect(f"{at}.penalty_points", _get(record, "penalty_points", at), points_before)
        _expect(f"{at}.pot", _get(record, "pot", at), game.pot)
    return decisions


def _trick_winner(hand: Hand, number: int) -> int:
    """The winner of the hand's trick `number`: -1 for one nobody won, and for Enfle's
    last trick, left unfinished when a seat went out (it is not among `tricks()`)."""
    tricks = hand.tricks()
    return tricks[number].winner if number < len(tricks) else -1


def _verify_pickup(hand: Hand, trick: dict[str, Any], number: int, where: str) -> None:
    """004 'Enfle': the pickup that broke off trick `number` (seat and cards), as the engine
    made it; no such record in other games nor on a trick won."""
    engine = None
    for t, seat, cards in hand.pickups():
        if t == number:
            engine = {"seat": seat, "cards": [str(c) for c in cards]}
    _expect(f"{where}.pickup", trick.get("pickup"), engine)


def _verify_later(hand: Hand, later: list[dict[str, Any]], kind: DecisionKind, at: str) -> int:
    """The decisions of `kind` the hand asks now that v1 files under `decisions` (the
    no-hearts pledges and Gong Zhu's exposures before the first card, the shooter's choice
    after the last trick),
    re-applied in order and taken off `later` (the default where faulted). A shooter's
    choice a replay written before it was asked does not hold is the engine's pick."""
    done = 0
    while (decision := hand.pending()) is not None and decision.kind is kind:
        if not later or later[0].get("kind") != kind.value:
            if kind is DecisionKind.MOON_CHOICE:
                return done
            raise ReplayMismatchError(f"{at}.decisions", "no record", f"a {kind.value}")
        entry = later.pop(0)
        where = f"{at}.decisions[{kind.value}]"
        value = _get(entry, "value", where)
        _expect(f"{where}.seat", _get(entry, "seat", where), decision.seat)
        if entry.get("fault") or entry.get("auto"):
            default = decision.default
            if isinstance(default, tuple):  # cards (Gong Zhu's exposures): their texts
                default = [str(card) for card in default]
            elif isinstance(default, Card):  # a card (Rickety Kate's replacement): its text
                default = str(default)
            _expect(f"{where}.value (default)", value, default)
        try:
            hand.apply(Action(kind, decision.seat, value))
        except ValueError as error:
            raise ReplayMismatchError(where, value, f"illegal: {error}") from None
        done += 1
    return done


def _verify_kept(hand: Hand, record: dict[str, Any], at: str) -> None:
    """Domino Hearts: the cards the last survivor keeps (or the last trick's winner takes
    with the stock), as the engine left them; no such record in other games."""
    engine = None
    if hand.kept_by is not None:
        engine = {"seat": hand.kept_by, "cards": [str(c) for c in hand.kept]}
    _expect(f"{at}.kept", record.get("kept"), engine)


def _verify_multi_rounds(hand: Hand, record: dict[str, Any], at: str) -> int:
    """003 'FOUR-PENNY HEARTS': every multi-round's plays re-applied with their pennies (the
    first legal (penny, card) where faulted), its lead player and each penny's winner. A
    multi-round is due while the hand asks a `penny_play`."""
    decisions = 0
    for r, multi in enumerate(record.get("multi_rounds", [])):
        where = f"{at}.multi_rounds[{r}]"
        if not _penny_play_due(hand):
            raise ReplayMismatchError(where, "a multi-round", "no multi-round to play now")
        start = len(hand.tricks())
        _expect(f"{where}.leader", _get(multi, "leader", where), hand.leader)
        for p, play in enumerate(_get(multi, "plays", where)):
            spot = f"{where}.plays[{p}]"
            decision = hand.pending()
            _expect(f"{spot}.seat", _get(play, "seat", spot), hand.to_play)
            card, penny = _get(play, "card", spot), _get(play, "penny", spot)
            if decision is None or decision.kind is not DecisionKind.PENNY_PLAY:
                raise ReplayMismatchError(spot, f"{penny}:{card}", "no penny play asked now")
            if play.get("fault") or play.get("auto"):
                default_penny, default_card = decision.default
                _expect(f"{spot}.penny (default play)", penny, default_penny)
                _expect(f"{spot}.card (default play)", card, str(default_card))
            try:
                hand.apply(Action(DecisionKind.PENNY_PLAY, play["seat"], (penny, card)))
            except ValueError as error:
                raise ReplayMismatchError(spot, f"{penny}:{card}", f"illegal: {error}") from None
            decisions += 1
        winners = [trick.winner for trick in hand.tricks()[start:]]
        _expect(f"{where}.winners", _get(multi, "winners", where), winners)
    return decisions


def _penny_play_due(hand: Hand) -> bool:
    decision = hand.pending()
    return decision is not None and decision.kind is DecisionKind.PENNY_PLAY


def _verify_call(hand: Hand, record: dict[str, Any], at: str) -> int:
    """003 'Simple variations': the dealer's call re-applied (the default where faulted)."""
    if hand.phase is not Phase.CALLING:
        if "call" in record:
            raise ReplayMismatchError(f"{at}.call", record["call"], "no call in this hand")
        return 0
    where = f"{at}.call"
    call = _get(record, "call", at)
    direction = _get(call, "direction", where)
    _expect(f"{where}.seat", _get(call, "seat", where), hand.dealer)
    if call.get("fault") or call.get("auto"):
        _expect(f"{where}.direction (default call)", direction, hand.call_options[0].value)
    called: Any = direction
    if direction == PassDirection.SPLIT.value:  # a direction per passed card
        called = _get(call, "split", where)
        if not isinstance(called, list):
            raise ReplayMismatchError(f"{where}.split", called, "a list of directions")
    elif "split" in call:
        raise ReplayMismatchError(
            f"{where}.split", call["split"], f"no split in a {direction} call"
        )
    if "count" in call:  # 004 'Passing cards': the dealer called how many too
        called = CountedCall(direction, call["count"])
    try:
        hand.apply_call(called)
    except ValueError as error:
        raise ReplayMismatchError(where, direction, f"illegal: {error}") from None
    return 1


def _verify_auction(hand: Hand, record: dict[str, Any], at: str) -> int:
    """000 'Auction Hearts': every bid and the naming re-applied (the defaults where
    faulted: a pass, and clubs), the declarer, the winning bid and the suit."""
    if hand.phase not in (Phase.BIDDING, Phase.NAMING):
        if "auction" in record:
            raise ReplayMismatchError(f"{at}.auction", record["auction"], "no auction in this hand")
        return 0
    where = f"{at}.auction"
    auction = _get(record, "auction", at)
    bids = _get(auction, "bids", where)
    for i, given in enumerate(bids):
        spot = f"{where}.bids[{i}]"
        seat = _get(given, "seat", spot)
        chips = _get(given, "bid", spot)
        if given.get("fault") or given.get("auto"):
            _expect(f"{spot}.bid (default: a pass)", chips, None)
        try:
            hand.apply_bid(seat, chips)
        except ValueError as error:
            raise ReplayMismatchError(spot, chips, f"illegal: {error}") from None
    if hand.phase is Phase.BIDDING:
        raise ReplayMismatchError(f"{where}.bids", bids, "a seat never bid")
    _expect(f"{where}.declarer", _get(auction, "declarer", where), hand.declarer)
    assert hand.auction is not None
    _expect(f"{where}.bid", _get(auction, "bid", where), hand.auction.winning_bid)
    _expect(
        f"{where}.standing", _get(auction, "standing", where), hand.auction.standing is not None
    )
    naming = _get(auction, "naming", where)
    spot = f"{where}.naming"
    _expect(f"{spot}.seat", _get(naming, "seat", spot), hand.declarer)
    suit = _get(naming, "suit", spot)
    if naming.get("fault") or naming.get("auto"):
        _expect(f"{spot}.suit (default: clubs)", suit, "C")
    try:
        hand.apply_naming(naming["seat"], suit)
    except ValueError as error:
        raise ReplayMismatchError(spot, suit, f"illegal: {error}") from None
    assert hand.scoring_suit is not None
    _expect(f"{at}.scoring_suit", _get(record, "scoring_suit", at), hand.scoring_suit.letter)
    return len(bids) + 1


def _verify_reveals(hand: Hand, record: dict[str, Any], at: str) -> int:
    """Heartless: every face-down card re-applied, and the scoring suit they chose."""
    if hand.phase is not Phase.REVEALING:
        if "reveals" in record:
            raise ReplayMismatchError(
                f"{at}.reveals", record["reveals"], "no reveal in these rules"
            )
        return 0
    reveals = _get(record, "reveals", at)
    for i, shown in enumerate(reveals):
        where = f"{at}.reveals[{i}]"
        seat = _get(shown, "seat", where)
        card = _get(shown, "card", where)
        if shown.get("fault") or shown.get("auto"):
            _expect(f"{where}.card (default reveal)", card, str(hand.hand_of(seat).first()))
        try:
            hand.apply_reveal(seat, card)
        except ValueError as error:
            raise ReplayMismatchError(where, card, f"illegal: {error}") from None
    if hand.phase is Phase.REVEALING:
        raise ReplayMismatchError(f"{at}.reveals", reveals, "a seat never revealed")
    assert hand.scoring_suit is not None
    _expect(f"{at}.scoring_suit", _get(record, "scoring_suit", at), hand.scoring_suit.letter)
    return len(reveals)


def rules_settle_in_chips(game: Game) -> bool:
    """Whether the game's hands are settled in chips (their records then carry the
    points before settling and the pot)."""
    return game.rules.settlement is not Settlement.POINTS


def verify_result(replay: dict[str, Any], rules: Rules, games: Sequence[dict[str, Any]]) -> None:
    """The result's scores, lives, faults, disqualifications and ranks, from the games'
    totals (each game's `totals`, `seating`, `lives`) and the faults (v1 and v2 alike)."""
    result = _get(replay, "result", "replay")
    if result.get("void"):
        return
    entrants = _get(result, "entrants", "result")
    n = rules.players
    faults = [0] * n
    for fault in replay.get("faults", []):
        faults[fault["entrant"]] += 1
    limit = replay.get("fault_policy", {}).get("max_faults", 3)
    scores, lives = match_scores(games, n)
    disqualified = [bool(e.get("disqualified")) for e in entrants]
    ranks = rank_entrants(scores, disqualified, lives if rules.lives else None)
    for i, entry in enumerate(entrants):
        where = f"result.entrants[{i}]"
        _expect(f"{where}.score", entry.get("score"), scores[i])
        if rules.lives:
            _expect(f"{where}.lives", entry.get("lives"), lives[i])
        _expect(f"{where}.faults", entry.get("faults"), faults[i])
        if faults[i] >= limit:
            _expect(f"{where}.disqualified", entry.get("disqualified"), True)
        _expect(f"{where}.rank", entry.get("rank"), ranks[i])
