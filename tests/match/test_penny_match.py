"""Four-Penny Hearts through the runner: card-only answers, (penny, card) answers, faults,
the replay's multi-rounds, verify, `replay show`, and the protocol's penny fields."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hearts_bot.convert import play_view_from_proto

from arena.bots import HOUSE_BOTS
from arena.engine import Card, Game, SeatView, preset
from arena.engine.variants.penny import PennyHand, PennyMove
from arena.match import protocol
from arena.match.render import render
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.seats import DecisionContext, InProcessSeat
from arena.match.verify import ReplayMismatchError, verify

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "arena/match/replay-v1.schema.json").read_text()
)


class CardOnly:
    """A house bot written before the pennies: it has no play_penny, only play_card."""

    name = "card-only"

    def __init__(self, seed: int) -> None:
        self.inner = HOUSE_BOTS["heuristic"](seed)

    def __getattr__(self, attribute: str) -> object:
        if attribute == "play_penny":
            raise AttributeError(attribute)
        return getattr(self.inner, attribute)


class PlaysOnAFullPenny(InProcessSeat):
    """Names a penny that cannot take its card whenever a multi-round is half done."""

    async def choose_play(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> Card | str | PennyMove:
        full = [p for p, plays in enumerate(view.pennies) if len(plays) == view.rules.players]
        if full:
            return PennyMove(full[0], view.legal.first())
        return await super().choose_play(view, context, timeout)


def run(name: str, seats: list[InProcessSeat], seed: int = 5, hands: int = 3) -> MatchOutcome:
    rules = preset(name).replace(target_score=None, max_hands=hands)
    entrants = [Entrant(f"e{i}", seat) for i, seat in enumerate(seats)]
    outcome = MatchRunner(rules, entrants, seed).run()
    assert not outcome.void, outcome.void_reason
    jsonschema.validate(outcome.v1, SCHEMA)
    return outcome


def multi_rounds(outcome: MatchOutcome) -> list[dict[str, Any]]:
    return [m for hand in outcome.v1["games"][0]["hands"] for m in hand["multi_rounds"]]


@pytest.mark.parametrize(
    ("name", "players", "openings", "rounds"),
    [("four_penny", 4, 1, 3), ("three_penny_advanced", 3, 2, 5), ("five_penny", 5, 0, 2)],
)
def test_a_replay_records_every_multi_round_with_the_penny_of_each_play(
    name, players, openings, rounds
):
    seats = [InProcessSeat(HOUSE_BOTS["random"](i)) for i in range(players)]
    outcome = run(name, seats)
    assert outcome.v1["faults"] == []
    for hand in outcome.v1["games"][0]["hands"]:
        assert len(hand["tricks"]) == openings
        assert len(hand["multi_rounds"]) == rounds
        for multi in hand["multi_rounds"]:
            assert len(multi["plays"]) == players * players
            assert multi["plays"][0]["seat"] == multi["leader"]
            assert sorted(p["penny"] for p in multi["plays"]) == sorted(
                list(range(players)) * players
            )
            assert len(multi["winners"]) == players
    assert verify(outcome.v1).decisions > 0
    text = "\n".join(render(outcome.v1))
    assert "multi-round 1, seat" in text
    # The pennies side by side: one header row naming each.
    assert re.search(" +".join(f"penny {p}" for p in range(players)), text)


def test_a_bot_that_answers_only_a_card_plays_to_its_lowest_legal_penny():
    seats = [InProcessSeat(CardOnly(i)) for i in range(4)]  # type: ignore[arg-type]
    outcome = run("four_penny", seats)
    assert outcome.v1["faults"] == []
    # Replaying: every play went to the lowest penny where its card was legal.
    plays, defaults = defaults_taken(outcome, "four_penny", hands=3)
    assert plays == 3 * 3 * 16 and defaults == plays


def test_an_illegal_penny_is_a_fault_and_the_first_legal_move_is_played():
    seats: list[InProcessSeat] = [PlaysOnAFullPenny(HOUSE_BOTS["heuristic"](0))]
    seats += [InProcessSeat(HOUSE_BOTS["heuristic"](i)) for i in (1, 2, 3)]
    outcome = run("four_penny_advanced", seats, hands=1)
    faults = outcome.v1["faults"]
    assert faults and all(f["entrant"] == 0 and f["kind"] == "illegal" for f in faults)
    assert "already holds its 4 cards" in faults[0]["detail"]
    faulted = [p for m in multi_rounds(outcome) for p in m["plays"] if p.get("fault")]
    assert len(faulted) == len(faults)
    assert all(fault["substitute"] == [p["card"]] for fault, p in zip(faults, faulted, strict=True))
    # verify checks each faulted play is the first legal (penny, card) of its position.
    assert verify(outcome.v1).decisions > 0
    faulted[0]["penny"] = (faulted[0]["penny"] + 1) % 4
    with pytest.raises(ReplayMismatchError, match=r"multi_rounds\[\d+\]\.plays\[\d+\]\.penny"):
        verify(outcome.v1)


def test_verify_names_a_tampered_penny():
    seats = [InProcessSeat(HOUSE_BOTS["random"](i)) for i in range(4)]
    outcome = run("four_penny", seats, hands=1)
    multi = outcome.v1["games"][0]["hands"][0]["multi_rounds"][1]
    play = multi["plays"][5]
    play["penny"] = 7
    with pytest.raises(ReplayMismatchError, match=r"hands\[0\]\.multi_rounds\[1\]\.plays\[5\]"):
        verify(outcome.v1)


def test_verify_names_a_tampered_winner():
    seats = [InProcessSeat(HOUSE_BOTS["random"](i)) for i in range(3)]
    outcome = run("three_penny", seats, hands=1)
    multi = outcome.v1["games"][0]["hands"][0]["multi_rounds"][0]
    multi["winners"][0] = (multi["winners"][0] + 1) % 3
    with pytest.raises(ReplayMismatchError, match=r"multi_rounds\[0\]\.winners"):
        verify(outcome.v1)


@pytest.mark.parametrize("name", ["four_penny", "three_penny_advanced", "five_penny"])
def test_every_penny_play_request_equals_one_built_from_scratch(name):
    """The patched requests equal `play_query`, and the SDK reads back the engine's pennies,
    moves and every trick (the finished penny-rounds with the seat of each card)."""
    rules = preset(name)
    n = rules.players
    builders = [protocol.PlayRequests() for _ in range(n)]
    rng = random.Random(3)
    game = Game(rules, 9)
    checked = 0
    for _ in range(2):
        hand = game.hand
        assert isinstance(hand, PennyHand)
        for passer in hand.passes_pending:
            hand.apply_pass(passer, rng.sample(list(hand.hand_of(passer)), 3))
        while not hand.is_over:
            seat = hand.to_play
            assert seat is not None
            view = hand.view(seat)
            context = DecisionContext(game.hand_number, tuple(game.totals), 1.0, 5.0)
            expected = protocol.play_query(view, context)
            assert builders[seat](view, context).play_card == expected
            sdk = play_view_from_proto(expected)
            assert sdk.multi_round == view.multi_round
            assert sdk.legal_moves == tuple((p, str(c)) for p, c in view.legal_moves)
            assert [tuple(zip(t.seats, t.cards, strict=True)) for t in sdk.pennies] == [
                tuple((s, str(c)) for s, c in plays) for plays in view.pennies
            ]
            assert [(t.plays, t.winner) for t in sdk.tricks] == [
                (tuple((s, str(c)) for s, c in t.plays), t.winner) for t in view.tricks
            ]
            if view.multi_round is not None:
                assert len(expected.state.tricks) == rules.penny_openings
                assert expected.state.current_trick.leader == seat
                assert not expected.state.current_trick.cards
            moves = hand.legal_moves()
            chosen, card = moves[rng.randrange(len(moves))]
            hand.play(card, penny=None if chosen < 0 else chosen)
            checked += 1
        game.finish_hand()
    assert checked > 20


def defaults_taken(outcome: MatchOutcome, rules_name: str, hands: int = 2) -> tuple[int, int]:
    """Replay the match's plays: (multi-round plays, those that went to the card's default
    penny, the lowest where it was legal)."""
    rules = preset(rules_name).replace(target_score=None, max_hands=hands)
    game = Game(rules, outcome.v1["seed"])
    plays = defaults = 0
    for record in outcome.v1["games"][0]["hands"]:
        hand = game.hand
        assert isinstance(hand, PennyHand)
        for given in record["passes"]:
            hand.apply_pass(given["seat"], given["cards"])
        for trick in record["tricks"]:
            for play in trick["plays"]:
                hand.play(play["card"])
        for multi in record["multi_rounds"]:
            for play in multi["plays"]:
                plays += 1
                defaults += play["penny"] == hand.default_penny(play["card"])
                hand.play(play["card"], penny=play["penny"])
        game.finish_hand()
    return plays, defaults


@pytest.mark.timeout(120)
def test_a_bot_over_grpc_chooses_its_penny():
    """The served random house bot answers `play_penny` with any legal (penny, card): the
    penny crosses the wire (PlayCardAnswer.penny) and the runner plays it there."""
    from arena.match.process import BotProcess
    from arena.match.remote import GrpcSeat

    rules = preset("three_penny").replace(target_score=None, max_hands=2)
    hosts = [BotProcess("arena.bots.served:Random") for _ in range(3)]
    try:
        entrants = [
            Entrant(f"random {i}", GrpcSeat(host.address, "random", host=host))
            for i, host in enumerate(hosts)
        ]
        outcome = MatchRunner(rules, entrants, 4).run()
    finally:
        for host in hosts:
            host.stop()
    assert not outcome.void and outcome.v1["faults"] == []
    assert verify(outcome.v1).decisions > 0
    plays, defaults = defaults_taken(outcome, "three_penny")
    assert plays == 2 * 5 * 9 and defaults < plays
