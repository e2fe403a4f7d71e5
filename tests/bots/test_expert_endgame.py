"""The expert's exact endgame: once its seat holds `endgame` cards or fewer, each deal it
searches is solved exactly (`core.HandState.solve`) instead of played out."""

from __future__ import annotations

import random

import pytest

import arena.bots.expert as expert_module
from arena.bots import ExpertBot, HeuristicBot, HouseBot
from arena.bots.belief import Belief
from arena.bots.expert import DEFAULT_ENDGAME, ENDGAME_LIMIT, search_plays
from arena.bots.inference import PlayModel
from arena.bots.strong import POLICIES
from arena.engine import SeatView, preset
from arena.engine.backend import core
from tests.bots.tables import play_hand


def views_by_cards_left(seed: int) -> dict[int, SeatView]:
    """Seat 0's view at each of its plays with two or more legal cards, by cards in hand."""
    found: dict[int, SeatView] = {}

    def keep(hand, seat):
        view = hand.view(seat)
        if seat == 0 and len(view.legal) > 1:
            found.setdefault(len(view.hand), view)

    bots: list[HouseBot] = [HeuristicBot(s) for s in range(4)]
    play_hand(preset("standard"), seed, bots, on_decision=keep)
    return found


def run_search(view: SeatView, endgame: int, samples: int, seed: int) -> list[float]:
    candidates = [c.index for c in view.legal]
    _, points, searched = search_plays(
        view,
        Belief.from_view(view),
        PlayModel.from_view(view),
        candidates,
        random.Random(seed),
        float("inf"),
        samples,
        4,
        POLICIES["mixed"],
        1,
        endgame=endgame,
    )
    assert searched == samples
    return points


def test_the_exact_path_is_taken_only_at_or_below_the_endgame(monkeypatch):
    calls: list[int] = []
    solve_deal = expert_module._solve_deal

    def counting(state, candidates, alive, *rest):
        calls.append(len(alive))
        return solve_deal(state, candidates, alive, *rest)

    monkeypatch.setattr(expert_module, "_solve_deal", counting)
    views: dict[int, SeatView] = {}
    for seed in range(20, 40):
        for left, view in views_by_cards_left(seed).items():
            views.setdefault(left, view)
    low = [n for n in views if 1 < n <= 3]
    assert low and max(views) > 3
    for left, view in sorted(views.items()):
        calls.clear()
        run_search(view, 3, 5, left)
        assert (len(calls) == 5) == (left <= 3), left  # one solve round per deal, or none
        calls.clear()
        run_search(view, 0, 5, left)
        assert calls == []


def test_one_solved_deal_gives_that_deals_exact_points():
    # With one deal searched, each candidate's points are the solve of that deal: the deal
    # the same generator draws first, rebuilt here by hand.
    view = None
    for seed in range(50, 70):
        view = views_by_cards_left(seed).get(3)
        if view is not None:
            break
    assert view is not None
    belief = Belief.from_view(view)
    deal = belief.sample(random.Random(9))
    n, rules = 4, view.rules
    hands = tuple(deal[s] | belief.played[s] for s in range(n))
    expected = []
    for card in view.legal:
        state = core.HandState(view.play_config(), hands, deal[n], view.dealer, 0, 0)
        for played in belief.history:
            state.push(played)
        state.push(card.index)
        points = state.solve(ENDGAME_LIMIT)
        assert points is not None
        expected.append(float(points[view.seat]))
    assert rules.players == n
    assert run_search(view, 3, 1, 9) == expected


def test_the_endgame_option_is_checked_and_on_by_default():
    assert ExpertBot(1).endgame == DEFAULT_ENDGAME > 0
    assert ExpertBot(1, endgame=0).endgame == 0
    with pytest.raises(ValueError, match="endgame"):
        ExpertBot(1, endgame=-1)
