"""The strong bot: legal, deterministic given a seed and a sample count, within its time,
and at home in a real duplicate match."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from arena.bots import HOUSE_BOTS, HeuristicBot, HouseBot, RandomBot, StrongBot
from arena.bots.passing import candidate_passes, danger_order
from arena.engine import Card, CardSet, Hand, PassDirection, SeatView, Suit, preset
from arena.engine.decisions import CountedCall
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat
from arena.match.verify import verify
from tests.bots.tables import play_hand
from tests.bots.test_belief import table_rules


def quick(seed: int = 0, samples: int = 4) -> StrongBot:
    return StrongBot(seed, time_per_move=None, max_samples=samples)


@pytest.mark.parametrize("rules", table_rules(), ids=lambda r: f"{r.name}-{r.players}")
def test_strong_bot_passes_and_plays_legally_under_every_rule_set(rules):
    # play_hand goes through the checked API: an illegal pass or card raises.
    n = rules.players
    for index in range(len(rules.pass_schedule)):
        bots: list[HouseBot] = [
            quick(index * n + s) if s % 2 == 0 else RandomBot(s) for s in range(n)
        ]
        hand = play_hand(rules, 1000 + index, bots, index=index)
        assert hand.is_over


def test_strong_bot_is_deterministic_given_a_seed_and_a_sample_count():
    rules = preset("standard")

    def cards_played(seed: int) -> list[str]:
        bots: list[HouseBot] = [quick(seed, 12), HeuristicBot(1), quick(seed + 1, 12)]
        bots.append(HeuristicBot(2))
        hand = play_hand(rules, 77, bots)
        return [str(card) for trick in hand.tricks() for _, card in trick.plays]

    assert cards_played(3) == cards_played(3)


def test_a_decision_depends_on_the_view_not_on_earlier_questions():
    rules = preset("standard")
    hand = Hand.deal(rules, 12, pass_direction="hold")
    for _ in range(6):
        hand.play(hand.legal_plays().first())
    seat = hand.to_play
    assert seat is not None
    view = hand.view(seat)
    fresh = quick(5, 20)
    used = quick(5, 20)
    other = Hand.deal(rules, 13, pass_direction="hold")
    used.play_card(other.view(other.to_play or 0))  # an unrelated question first
    assert fresh.play_card(view) is used.play_card(view)
    assert fresh.pass_cards(Hand.deal(rules, 14).view(1), 3) == used.pass_cards(
        Hand.deal(rules, 14).view(1), 3
    )


class SteppingClock:
    """A clock that moves on `step` seconds each time it is read: the bot's pacing is then
    exact arithmetic, the same on a quiet machine and a loaded one."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def test_strong_bot_respects_its_time_per_move():
    # Each decision's clock reads (one per sampled deal, and the start) stay within the
    # budget: the search stops when the next deal, at its pace so far, would overrun.
    # How long a real decision takes is `arena bench bots`'s figure, not a test's.
    rules = preset("standard")
    budget = 0.04
    clock = SteppingClock(budget / 40)
    bot = StrongBot(1, time_per_move=budget, max_samples=None)
    bot.clock = clock
    used: list[float] = []
    samples: list[int] = []

    def timed(ask: Callable[[], Card | list[Card]]) -> Any:
        before = clock.now
        answer = ask()
        used.append(clock.now - before)
        samples.append(bot.last_samples)
        return answer

    class Timed:
        name = "timed"

        def pass_cards(self, view: SeatView, count: int) -> list[Card]:
            return timed(lambda: bot.pass_cards(view, count))

        def play_card(self, view: SeatView) -> Card:
            return timed(lambda: bot.play_card(view))

        def reveal_card(self, view: SeatView) -> Card:
            return timed(lambda: bot.reveal_card(view))

        def call_pass(
            self, view: SeatView
        ) -> PassDirection | Sequence[PassDirection] | CountedCall:
            return bot.call_pass(view)  # no search: nothing to time

        def bid(self, view: SeatView) -> int | None:
            return bot.bid(view)

        def name_suit(self, view: SeatView) -> Suit:
            return bot.name_suit(view)

        def choose_moon(self, view: SeatView, default: str) -> str:
            return bot.choose_moon(view, default)

        def pledge(self, view: SeatView) -> bool:
            return bot.pledge(view)

        def refuse_queen(self, view: SeatView) -> bool:
            return bot.refuse_queen(view)

        def replace_pass(self, view: SeatView, legal: CardSet) -> Card:
            return bot.replace_pass(view, legal)

        def expose(self, view: SeatView, exposable: CardSet) -> tuple[Card, ...]:
            return bot.expose(view, exposable)

    play_hand(rules, 5, [Timed(), HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)])
    assert max(used) <= budget + clock.step, f"a decision read its clock to {max(used):.4f} s"
    assert max(samples) > 10  # with time to spare it samples many deals, not one


def test_strong_bot_answers_a_forced_play_at_once():
    rules = preset("standard")
    hand = Hand.deal(rules, 3, pass_direction="hold")
    seat = hand.to_play
    assert seat is not None
    bot = StrongBot(0, time_per_move=5.0, max_samples=None)
    started = time.perf_counter()
    assert bot.play_card(hand.view(seat)) == Card.from_str("2C")
    assert time.perf_counter() - started < 0.5
    assert bot.last_samples == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"time_per_move": None, "max_samples": None}, "needs a time_per_move"),
        ({"time_per_move": 0.0}, "time_per_move must be positive"),
        ({"max_samples": 0}, "max_samples must be at least 1"),
        ({"policy": "clever"}, "unknown playout policy"),
        ({"playouts": 0}, "playouts must be at least 1"),
    ],
)
def test_a_bad_configuration_is_refused(options, message):
    with pytest.raises(ValueError, match=message):
        StrongBot(0, **options)


def test_the_strong_bot_is_a_house_bot():
    bot = HOUSE_BOTS["strong"](7)
    assert isinstance(bot, StrongBot)
    assert bot.name == "strong"
    assert bot.seed == 7
    assert bot.time_per_move is not None
    assert bot.time_per_move <= 0.1


def test_candidate_passes_hold_the_dangerous_cards_and_a_void():
    rules = preset("standard")
    cfg = rules.core_config()
    hand = Hand.from_cards(
        rules,
        [
            "QS AS 2H 9H AH 3C 4D 5D 6D 7D 8D 9D TD",
            "2C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS 3H 4H",
            "5H 6H 7H 8H TH JH QH KH JD QD KD AD 3D",
        ],
    )
    mask = hand.hand_of(0).mask
    order = [str(Card(c)) for c in danger_order(mask, cfg)]
    assert order[:5] == ["QS", "AS", "AH", "9H", "2H"]
    candidates = {frozenset(str(Card(c)) for c in p) for p in candidate_passes(mask, 3, cfg)}
    assert frozenset({"QS", "AS", "AH"}) in candidates
    assert frozenset({"3C", "QS", "AS"}) in candidates  # empties clubs


def test_a_duplicate_match_against_heuristic_bots_runs_and_verifies():
    rules = preset("standard").replace(target_score=None, max_hands=2)
    entrants = [Entrant("strong", InProcessSeat(quick(1, 6)))] + [
        Entrant(f"heuristic {i}", InProcessSeat(HeuristicBot(i))) for i in range(1, 4)
    ]
    outcome = MatchRunner(rules, entrants, seed=21, duplicate=True).run()
    assert not outcome.void, outcome.void_reason
    assert outcome.v1["faults"] == []
    assert len(outcome.v1["games"]) == 4
    checked = verify(outcome.v1)
    assert checked.hands == 8


def test_strong_bot_beats_random_bots_on_a_few_deals():
    rules = preset("standard")
    rng = random.Random(4)
    edges = []
    for index in range(8):
        seed = rng.getrandbits(64)
        for seat in range(4):
            bots: list[HouseBot] = [
                quick(index, 10) if s == seat else RandomBot(index * 4 + s) for s in range(4)
            ]
            points = play_hand(rules, seed, bots, index=index).points()
            edges.append(
                points[seat] - statistics.fmean(p for s, p in enumerate(points) if s != seat)
            )
    assert statistics.fmean(edges) < 0
