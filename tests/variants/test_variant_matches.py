"""Every variant preset played as a real match: the SDK's starter bots in their own
processes over gRPC, and the house bots in-process; each replay verified and checked
against its JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from arena.bots import HOUSE_BOTS, StrongBot
from arena.engine import Card, PassDirection, Rules, SeatView, preset
from arena.match import replay_v2
from arena.match.clock import TimePolicy
from arena.match.process import BotProcess
from arena.match.remote import GrpcSeat
from arena.match.render import render
from arena.match.replay_v2 import verify_v2
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.seats import DecisionContext, InProcessSeat
from arena.match.verify import verify

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

SDK = Path(__file__).resolve().parents[2] / "sdk"
STARTERS = [
    SDK / "src" / "hearts_bot" / "starters" / "heuristic_bot.py",
    SDK / "src" / "hearts_bot" / "starters" / "random_bot.py",
    SDK / "examples" / "low_bot.py",
]
RANKS = "23456789TJQKA"
SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "arena/match/replay-v1.schema.json").read_text()
)
VARIANTS = [
    "no_black_lady",
    "chips",
    "sweepstakes",
    "chip_pool",
    "queens",
    "star",
    "no_spade_pass",
    "heartless",
    "royal",
    "dealer_calls",
    "auction",
    "danger",
    "booster_nines",
    "black_maria_purist",
    "joker",
    "joker_1911",
    "cancellation",
    "cancellation_four",
    "domino",
    "four_penny",
    "four_penny_advanced",
    "three_penny",
    "three_penny_advanced",
    "five_penny",
    "five_penny_advanced",
    "slobberhannes",
    "four_jacks",
    "gong_zhu",
    "rickety_kate",
    "pledge",
    "dealer_counts",
]
PLAYERS = {"star": 5, "joker": 3, "cancellation": 8}
HOUSE_SERVED = ("Heuristic", "Random")


def _rules(name: str) -> Rules:
    return preset(name, PLAYERS.get(name))


def _check(outcome: MatchOutcome) -> None:
    assert not outcome.void, outcome.void_reason
    assert outcome.v1["faults"] == []
    jsonschema.validate(outcome.v1, SCHEMA)
    assert verify(outcome.v1).decisions > 0
    jsonschema.validate(outcome.replay, replay_v2.schema())  # what the runner wrote
    assert verify_v2(outcome.document).decisions == verify(outcome.v1).decisions


def _grpc_match(rules: Rules, specs: list[Path | str]) -> MatchOutcome:
    """A full match of `rules`, each seat a bot process (`hearts-bot serve SPEC`) over gRPC."""
    if rules.target_score is not None and rules.settlement.value == "pool_clean":
        rules = rules.replace(max_hands=12)  # a pool game can run for long: cap this one
    chosen = [specs[i % len(specs)] for i in range(rules.players)]
    hosts = [BotProcess(spec) for spec in chosen]
    try:
        entrants = [
            Entrant(f"{spec} {i}", GrpcSeat(host.address, str(spec), host=host))
            for i, (spec, host) in enumerate(zip(chosen, hosts, strict=True))
        ]
        outcome = MatchRunner(rules, entrants, 7, time_policy=TimePolicy(2.0, 20.0, 20.0)).run()
    finally:
        for host in hosts:
            host.stop()
    _check(outcome)
    game = outcome.v1["games"][0]
    assert game["hands"], "no hand was played"
    if rules.settlement.value != "points":
        for hand in game["hands"]:
            assert sum(hand["totals"]) == hand["pot"]  # chips are conserved
    if rules.pass_forbidden:
        for hand in game["hands"]:
            for given in hand["passes"]:
                assert not set(given["cards"]) & {str(c) for c in rules.pass_forbidden}
    return outcome


@pytest.mark.timeout(180)
@pytest.mark.parametrize("name", VARIANTS)
def test_starter_bots_play_a_full_match_over_grpc(name: str) -> None:
    _grpc_match(_rules(name), list(STARTERS))


@pytest.mark.timeout(180)
@pytest.mark.parametrize("name", VARIANTS)
def test_house_bots_play_a_full_match_over_grpc(name: str) -> None:
    # The house bots served through the SDK (arena.bots.served), each in its own process.
    outcome = _grpc_match(_rules(name), [f"arena.bots.served:{k}" for k in HOUSE_SERVED])
    labels = {entry["label"] for entry in outcome.v1["entrants"]}
    assert labels == {f"arena.bots.served:{k}" for k in HOUSE_SERVED}


@pytest.mark.timeout(180)
@pytest.mark.parametrize("name", VARIANTS)
def test_house_bots_play_every_variant_in_process(name: str) -> None:
    rules = _rules(name).replace(max_hands=8)
    makers = [
        lambda seed: StrongBot(seed, time_per_move=None, max_samples=4),  # no clock: samples
        HOUSE_BOTS["heuristic"],
        HOUSE_BOTS["random"],
    ]
    entrants = [
        Entrant(f"house {i}", InProcessSeat(makers[i % 3](i))) for i in range(rules.players)
    ]
    _check(MatchRunner(rules, entrants, 3).run())


def _heartless_match(seats: list[InProcessSeat], seed: int = 4) -> MatchOutcome:
    rules = preset("heartless").replace(target_score=None, max_hands=4)
    return MatchRunner(rules, [Entrant(f"e{i}", s) for i, s in enumerate(seats)], seed).run()


def test_heartless_replays_record_each_reveal_and_the_suit_it_chose() -> None:
    outcome = _heartless_match([InProcessSeat(HOUSE_BOTS["heuristic"](i)) for i in range(4)])
    _check(outcome)
    hands = outcome.v1["games"][0]["hands"]
    assert all(len(hand["reveals"]) == 4 for hand in hands)
    assert {hand["scoring_suit"] for hand in hands} <= set("CDSH")
    # The revealed cards went back to their hands: each is played later in that hand.
    for hand in hands:
        played: dict[int, set[str]] = {p["seat"]: set() for p in hand["reveals"]}
        for trick in hand["tricks"]:
            for play in trick["plays"]:
                played[play["seat"]].add(play["card"])
        assert all(r["card"] in played[r["seat"]] for r in hand["reveals"])


class RevealsWhatItDoesNotHold(InProcessSeat):
    async def choose_reveal(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> Card | str:
        return next(str(c) for c in view.rules.deck if c not in view.hand)


def test_revealing_a_card_not_held_is_a_fault_and_the_first_card_is_shown() -> None:
    seats: list[InProcessSeat] = [RevealsWhatItDoesNotHold(HOUSE_BOTS["random"](0))]
    seats += [InProcessSeat(HOUSE_BOTS["random"](i)) for i in (1, 2, 3)]
    outcome = _heartless_match(seats)
    faults = [f for f in outcome.v1["faults"] if f["entrant"] == 0]
    assert faults and faults[0]["kind"] == "not_held"
    first = outcome.v1["games"][0]["hands"][0]
    shown = next(r for r in first["reveals"] if r["seat"] == 0)
    assert shown["fault"] == "not_held"
    # The default is the seat's first card in card order (clubs first, two low), after
    # the pass: the deal, less the cards given, plus the cards received.
    given = next(p["cards"] for p in first["passes"] if p["seat"] == 0)
    held = (set(first["deal"][0]) - set(given)) | set(first["received"][0])
    assert shown["card"] == min(held, key=lambda c: ("CDSH".index(c[1]), RANKS.index(c[0])))
    assert verify(outcome.v1).decisions > 0


def test_a_tampered_reveal_is_named_by_verify() -> None:
    from arena.match.verify import ReplayMismatchError

    outcome = _heartless_match([InProcessSeat(HOUSE_BOTS["heuristic"](i)) for i in range(4)])
    hand = outcome.v1["games"][0]["hands"][1]
    seat = hand["reveals"][0]["seat"]
    other = next(c for c in hand["deal"][seat] if c != hand["reveals"][0]["card"])
    hand["reveals"][0]["card"] = other
    with pytest.raises(ReplayMismatchError, match=r"hands\[1\]\.(reveals|scoring_suit|tricks)"):
        verify(outcome.v1)


HIGH_SPADES = ("QS", "KS", "AS")


class PassesHighSpades(InProcessSeat):
    """Passes its high spades first, whatever the rules say."""

    async def choose_pass(
        self, view: SeatView, count: int, context: DecisionContext, timeout: float
    ) -> list[Card | str]:
        cards = sorted(view.hand, key=lambda c: str(c) not in HIGH_SPADES)
        return list(cards[:count])


def test_passing_a_forbidden_card_is_an_illegal_fault_and_the_default_pass_is_made() -> None:
    rules = preset("no_spade_pass").replace(target_score=None, max_hands=3)
    seats: list[InProcessSeat] = [PassesHighSpades(HOUSE_BOTS["heuristic"](0))]
    seats += [InProcessSeat(HOUSE_BOTS["heuristic"](i)) for i in (1, 2, 3)]
    outcome = MatchRunner(rules, [Entrant(f"e{i}", s) for i, s in enumerate(seats)], 1).run()
    assert not outcome.void
    faults = [f for f in outcome.v1["faults"] if f["entrant"] == 0]
    assert faults, "seat 0 never held a high spade on a passing hand: pick another seed"
    for fault in faults:
        assert fault["kind"] == "illegal"
        assert any(card in fault["detail"] for card in HIGH_SPADES)
    for hand in outcome.v1["games"][0]["hands"]:
        for given in hand["passes"]:
            assert not set(given["cards"]) & set(HIGH_SPADES)
    assert verify(outcome.v1).decisions > 0


class CallsAcross(InProcessSeat):
    """Calls a pass nobody can make at five: always across."""

    async def choose_call(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> PassDirection | str:
        return "across"


def test_a_dealer_calling_a_pass_not_offered_is_a_fault_and_the_first_option_is_called() -> None:
    rules = preset("dealer_calls", 5).replace(target_score=None, max_hands=5)
    seats: list[InProcessSeat] = [CallsAcross(HOUSE_BOTS["heuristic"](0))]
    seats += [InProcessSeat(HOUSE_BOTS["heuristic"](i)) for i in range(1, 5)]
    outcome = MatchRunner(rules, [Entrant(f"e{i}", s) for i, s in enumerate(seats)], 2).run()
    hands = outcome.v1["games"][0]["hands"]
    own = [h for h in hands if h["dealer"] == 0]
    assert own, "seat 0 never dealt"
    for hand in own:
        assert hand["call"] == {**hand["call"], "seat": 0, "direction": "left", "fault": "illegal"}
    others = [h for h in hands if h["dealer"] != 0]
    assert all(h["call"]["direction"] == "left" and "fault" not in h["call"] for h in others)
    faults = [f for f in outcome.v1["faults"] if f["entrant"] == 0]
    assert len(faults) == len(own) and "may call left, right" in faults[0]["detail"]
    jsonschema.validate(outcome.v1, SCHEMA)  # the default call is a valid substitute
    assert verify(outcome.v1).decisions > 0


class Splits(InProcessSeat):
    """As dealer, always splits the pass: the given directions, card by card."""

    def __init__(self, bot: object, split: tuple[str, ...]) -> None:
        super().__init__(bot)  # type: ignore[arg-type]
        self.split = split

    async def choose_call(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> tuple[PassDirection | str, ...]:
        return self.split


def _split_match(split: tuple[str, ...], hands: int = 4) -> MatchOutcome:
    rules = preset("dealer_calls").replace(target_score=None, max_hands=hands)
    seats = [Splits(HOUSE_BOTS["heuristic"](i), split) for i in range(4)]
    return MatchRunner(rules, [Entrant(f"e{i}", s) for i, s in enumerate(seats)], 8).run()


def test_a_split_call_is_played_recorded_verified_and_shown() -> None:
    # 003 'Simple variations': "Pass one card to the right and two cards to the left."
    outcome = _split_match(("right", "left", "left"))
    _check(outcome)
    for hand in outcome.v1["games"][0]["hands"]:
        assert hand["call"]["direction"] == "split"
        assert hand["call"]["split"] == ["right", "left", "left"]
        given = {p["seat"]: p["cards"] for p in hand["passes"]}
        for seat in range(4):
            # Card 0 of the seat on the left came rightwards; cards 1 and 2 of the seat
            # on the right came leftwards.
            expected = [given[(seat + 1) % 4][0], *given[(seat + 3) % 4][1:]]
            assert sorted(hand["received"][seat]) == sorted(expected)
    text = "\n".join(render(outcome.v1, pretty=False))
    assert "the dealer calls a split: card 1 right, card 2 left, card 3 left" in text


@pytest.mark.timeout(180)
def test_bots_over_grpc_split_the_pass() -> None:
    # The SDK's answer: CallPassAnswer.direction SPLIT with a direction per card.
    splitter = Path(__file__).resolve().parents[1] / "sdk" / "bots" / "splitting_bot.py"
    rules = preset("dealer_calls", 5).replace(target_score=None, max_hands=5)
    outcome = _grpc_match(rules, [splitter])
    calls = [hand["call"] for hand in outcome.v1["games"][0]["hands"]]
    assert calls and all(c["split"] == ["left", "right", "left2"] for c in calls), calls


def test_a_split_call_that_does_not_fit_is_a_fault_and_the_first_option_is_called() -> None:
    outcome = _split_match(("left", "center", "left"), hands=2)
    for hand in outcome.v1["games"][0]["hands"]:
        assert hand["call"] == {**hand["call"], "direction": "left", "fault": "illegal"}
        assert "split" not in hand["call"]
    assert "a split card goes center" in outcome.v1["faults"][0]["detail"]
    outcome = _split_match(("left", "right"), hands=1)
    assert "a split of 2 directions; 3 cards are passed" in outcome.v1["faults"][0]["detail"]
    jsonschema.validate(outcome.v1, SCHEMA)
    assert verify(outcome.v1).decisions > 0


def test_a_tampered_split_is_named_by_verify() -> None:
    from arena.match.verify import ReplayMismatchError

    outcome = _split_match(("across", "left", "right"), hands=2)
    _check(outcome)
    outcome.v1["games"][0]["hands"][1]["call"]["split"][0] = "right"
    with pytest.raises(ReplayMismatchError, match=r"hands\[1\]\.(call|received|passes)"):
        verify(outcome.v1)


class OverBids(InProcessSeat):
    """Bids far over the limit, and names a suit that is not one."""

    async def choose_bid(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> int | str | None:
        return view.rules.max_bid + 5

    async def choose_suit(self, view: SeatView, context: DecisionContext, timeout: float) -> str:
        return "stars"


class BidsOnce(InProcessSeat):
    """Bids 5 chips whenever it may, and names hearts."""

    async def choose_bid(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> int | str | None:
        best = max((c for _, c in view.bids if c is not None), default=0)
        return 5 if best < 5 else None

    async def choose_suit(self, view: SeatView, context: DecisionContext, timeout: float) -> str:
        return "H"


def _auction_match(seats: list[InProcessSeat], hands: int = 6, seed: int = 5) -> MatchOutcome:
    rules = preset("auction").replace(target_score=10000, max_hands=hands)
    return MatchRunner(rules, [Entrant(f"e{i}", s) for i, s in enumerate(seats)], seed).run()


def test_auction_replays_record_the_bids_the_declarer_and_the_pot() -> None:
    # 000 'Auction Hearts': "The highest bidder puts up his chips and names the suit. He
    # leads first"; a pot nobody won is named again "without bidding".
    seats: list[InProcessSeat] = [BidsOnce(HOUSE_BOTS["random"](0))]
    seats += [InProcessSeat(HOUSE_BOTS["heuristic"](i)) for i in (1, 2, 3)]
    outcome = _auction_match(seats, hands=10)
    _check(outcome)
    hands = outcome.v1["games"][0]["hands"]
    pot = 0
    for hand in hands:
        auction = hand["auction"]
        if auction["standing"]:
            assert auction["bids"] == [] and auction["bid"] == 0
            assert pot > 0, "a declarer names again only while a pot waits"
        else:
            assert [b["seat"] for b in auction["bids"]] == [
                (hand["dealer"] + 1 + i) % 4 for i in range(4)
            ]
            if any(b["bid"] == 5 for b in auction["bids"]):
                assert auction["declarer"] == 0 and auction["bid"] == 5
        assert hand["tricks"][0]["leader"] == auction["declarer"]
        assert hand["scoring_suit"] == auction["naming"]["suit"]
        assert sum(hand["totals"]) == hand["pot"]
        pot = hand["pot"]
    assert any(h["auction"]["declarer"] == 0 for h in hands)
    # `arena replay show` says the auction of every hand.
    text = "\n".join(render(outcome.v1, pretty=False))
    for hand in hands:
        auction = hand["auction"]
        said = f"seat {auction['declarer']} names {auction['naming']['suit']} to avoid"
        assert said in text
    assert text.count("to avoid, again, without bidding") == sum(
        h["auction"]["standing"] for h in hands
    )


def test_an_auction_bid_over_the_limit_is_a_pass_and_a_bad_suit_names_clubs() -> None:
    seats: list[InProcessSeat] = [OverBids(HOUSE_BOTS["heuristic"](0))]
    seats += [InProcessSeat(HOUSE_BOTS["random"](i)) for i in (1, 2, 3)]
    outcome = _auction_match(seats, hands=4, seed=9)
    assert not outcome.void
    faults = [f for f in outcome.v1["faults"] if f["entrant"] == 0]
    kinds = {f["kind"] for f in faults}
    assert "illegal" in kinds
    # the engine's reason for refusing it (arena.engine.auction), the range it allows
    assert any("chips or pass, not" in f["detail"] for f in faults)
    for hand in outcome.v1["games"][0]["hands"]:
        for bid in hand["auction"]["bids"]:
            if bid["seat"] == 0:
                assert bid == {**bid, "bid": None, "fault": "illegal"}
        naming = hand["auction"]["naming"]
        if naming["seat"] == 0:
            assert naming == {**naming, "suit": "C", "fault": "malformed"}
    jsonschema.validate(outcome.v1, SCHEMA)
    assert verify(outcome.v1).decisions > 0


def test_a_tampered_bid_is_named_by_verify() -> None:
    from arena.match.verify import ReplayMismatchError

    seats: list[InProcessSeat] = [BidsOnce(HOUSE_BOTS["random"](0))]
    seats += [InProcessSeat(HOUSE_BOTS["heuristic"](i)) for i in (1, 2, 3)]
    outcome = _auction_match(seats, hands=3)
    hand = next(h for h in outcome.v1["games"][0]["hands"] if h["auction"]["bids"])
    winner = next(b for b in hand["auction"]["bids"] if b["bid"] is not None)
    winner["bid"] += 1
    with pytest.raises(ReplayMismatchError, match=r"auction\.(bids|bid)"):
        verify(outcome.v1)


def test_danger_replays_record_lives_and_rank_by_them() -> None:
    # 004 'Other Variations', Danger Hearts: a hand of 15 points or more costs a life; the
    # most lives, then the fewest points, wins.
    rules = preset("danger")
    seats = [InProcessSeat(HOUSE_BOTS["random" if i % 2 else "heuristic"](i)) for i in range(4)]
    outcome = MatchRunner(rules, [Entrant(f"e{i}", s) for i, s in enumerate(seats)], 6).run()
    _check(outcome)
    game = outcome.v1["games"][0]
    lives = [3] * 4
    for hand in game["hands"]:
        lives = [
            left - (1 if p >= 15 and left else 0)
            for left, p in zip(lives, hand["points"], strict=True)
        ]
        assert hand["lives"] == lives
    assert game["lives"] == lives
    assert len(game["hands"]) >= 10 or sum(1 for left in lives if left) <= 1
    entrants = outcome.v1["result"]["entrants"]
    for entry in entrants:
        assert entry["lives"] == lives[game["seating"].index(entry["entrant"])]
    keys = [(-e["lives"], e["score"]) for e in entrants]
    assert [e["rank"] for e in entrants] == [1 + sum(o < k for o in keys) for k in keys]
    assert "lives [" in "\n".join(render(outcome.v1, pretty=False))


def test_a_tampered_life_is_named_by_verify() -> None:
    from arena.match.verify import ReplayMismatchError

    rules = preset("danger").replace(max_hands=3)
    seats = [InProcessSeat(HOUSE_BOTS["random"](i)) for i in range(4)]
    outcome = MatchRunner(rules, [Entrant(f"e{i}", s) for i, s in enumerate(seats)], 2).run()
    outcome.v1["games"][0]["hands"][0]["lives"][1] += 1
    with pytest.raises(ReplayMismatchError, match=r"hands\[0\]\.lives"):
        verify(outcome.v1)


@pytest.mark.timeout(180)
def test_two_players_play_domino_hearts_over_grpc() -> None:
    # 000 'Number of Players': "Two players may play Domino Hearts": a starter against a
    # served house bot, each in its own process; tricks of two, a stock of 40.
    outcome = _grpc_match(
        preset("domino", 2), [next(iter(STARTERS)), "arena.bots.served:Heuristic"]
    )
    hands = outcome.v1["games"][0]["hands"]
    assert all(len(trick["plays"]) == 2 for hand in hands for trick in hand["tricks"])
    assert any("drew" in play for hand in hands for t in hand["tricks"] for play in t["plays"])
