"""A person's seat (arena/match/human.py) across every preset: a scripted person answers
every decision through a desk held in memory, picking only what the prompt offers, and the
match ends recorded, with no fault, and its replay verifies. A person who never answers is
timed out and the default played, as for a bot; an answer outside the prompt is refused."""

from __future__ import annotations

import itertools
import random
from datetime import datetime
from typing import Any

import pytest

from arena.bots import HOUSE_BOTS
from arena.engine import preset
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.presets import PRESETS
from arena.match.clock import TimePolicy
from arena.match.human import AnswerError, HumanSeat, check_answer, options
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat
from arena.match.verify import verify

pytestmark = pytest.mark.timeout(300)


class ScriptedDesk:
    """A desk that answers each prompt at once with a random answer the prompt offers."""

    def __init__(self, seed: int, *, silent: bool = False) -> None:
        self.moments: list[tuple[str, dict[str, Any]]] = []
        self.answers: dict[int, Any] = {}
        self.rng = random.Random(seed)
        self.silent = silent
        self.kinds: set[str] = set()

    def tell(self, kind: str, payload: dict[str, Any]) -> int:
        self.moments.append((kind, payload))
        return len(self.moments)

    def ask(self, payload: dict[str, Any], deadline: datetime) -> int:
        number = self.tell("ask", payload)
        asked = payload["ask"]
        self.kinds.add(asked["kind"])
        if self.silent:
            return number
        if "cards" in asked:
            low, high = asked["pick"]
            count = self.rng.randint(low, high)
            self.answers[number] = {"cards": self.rng.sample(asked["cards"], count)}
        else:
            self.answers[number] = {"choice": self.rng.randrange(len(asked["choices"]))}
        return number

    def answer(self, number: int) -> tuple[bool, Any]:
        return (number in self.answers, self.answers.get(number))


def play(rules_name: str, desk: ScriptedDesk, seed: int, policy: TimePolicy | None = None):
    rules = preset(rules_name)
    rules = rules.replace(max_hands=min(rules.max_hands or 2, 2))
    kinds = itertools.cycle(("heuristic", "random"))
    entrants = [Entrant("person", HumanSeat(desk, "person", poll=0.001))]
    entrants += [
        Entrant(f"bot{i}", InProcessSeat(HOUSE_BOTS[next(kinds)](seed + i)))
        for i in range(1, rules.players)
    ]
    runner = MatchRunner(rules, entrants, seed, time_policy=policy or TimePolicy(5.0, 0.0))
    return runner.run()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_person_answers_every_decision_a_preset_asks_and_the_replay_verifies(name: str) -> None:
    desk = ScriptedDesk(seed=len(name))
    outcome = play(name, desk, seed=11)
    assert not outcome.void, outcome.void_reason
    assert outcome.replay["faults"] == []
    verify(outcome.v1)
    asked = [payload for kind, payload in desk.moments if kind == "ask"]
    assert asked, "the person was asked nothing"
    # The prompts speak to the person ("You bid 3 chips"), never of "seat 0" (Room.words).
    said = [p["ask"]["default_words"] for p in asked if "default_words" in p["ask"]]
    said += [c["words"] for p in asked for c in p["ask"].get("choices", [])]
    assert said and all(w.startswith("You ") and "seat" not in w for w in said), said[:5]
    kinds = [kind for kind, _ in desk.moments]
    assert kinds[0] == "game" and "deal" in kinds and kinds[-1] == "end"


def test_a_person_is_asked_the_auction_and_the_naming_with_their_words() -> None:
    seen: set[str] = set()
    words: list[str] = []
    for seed in range(1, 6):
        desk = ScriptedDesk(seed)
        outcome = play("auction", desk, seed=seed)
        verify(outcome.v1)
        seen |= desk.kinds
        for kind, payload in desk.moments:
            if kind == "ask" and "choices" in payload["ask"]:
                words += [choice["words"] for choice in payload["ask"]["choices"]]
    assert {"bid", "play"} <= seen
    assert any("bid" in w or "pass" in w for w in words), words[:5]
    assert "You pass" in words and "You bid 3 chips" in words, sorted(set(words))[:8]
    assert any(w.startswith("You name ") for w in words), sorted(set(words))[:8]


def test_a_person_who_never_answers_is_timed_out_and_the_default_is_played() -> None:
    desk = ScriptedDesk(3, silent=True)
    outcome = play("standard", desk, seed=5, policy=TimePolicy(0.05, 0.0))
    verify(outcome.v1)
    faults = outcome.replay["faults"]
    assert faults and {f["kind"] for f in faults} == {"timeout"}
    assert {f["entrant"] for f in faults} == {0}
    assert [kind for kind, _ in desk.moments][-1] == "out"  # disqualified: told, not asked


def test_a_bid_range_offers_every_count_and_the_pass() -> None:
    assert options(Decision(DecisionKind.BID, 0, (3, 6), None)) == [None, 3, 4, 5, 6]


def test_an_answer_the_prompt_does_not_offer_is_refused() -> None:
    asked = {"cards": ["2C", "3C", "QS"], "pick": [1, 1]}
    assert check_answer(asked, {"cards": ["QS"]}) == {"cards": ["QS"]}
    for wrong in ({"cards": ["AH"]}, {"cards": ["2C", "3C"]}, {"choice": 0}, ["QS"]):
        with pytest.raises(AnswerError):
            check_answer(asked, wrong)
    choices = {"choices": [{"value": None, "words": "pass"}]}
    with pytest.raises(AnswerError):
        check_answer(choices, {"choice": 1})
    with pytest.raises(AnswerError):
        check_answer(choices, {"choice": True})
