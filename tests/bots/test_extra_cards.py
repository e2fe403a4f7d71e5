"""Every house bot plays 002's extra cards ('Alternatives to the "Kitty" in 3 or 5 player
games': "Deal out the extra cards to players and allow the player with them to play an
additional card on the first trick"). Served over the SDK they see the same views
(tests/bots/test_served.py runs every preset through the protocol)."""

from __future__ import annotations

import pytest

from arena.bots import HOUSE_BOTS, HouseBot, StrongBot
from arena.bots.base import plays_last, trick_size
from arena.engine import Hand, preset
from tests.bots.tables import play_hand


def _bot(name: str, seed: int) -> HouseBot:
    if name == "strong":  # a few samples: legality, not strength, is checked here
        return StrongBot(seed, time_per_move=None, max_samples=3)
    return HOUSE_BOTS[name](seed)


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("name", sorted(HOUSE_BOTS))
def test_every_house_bot_plays_whole_hands_of_extra_cards(name: str, players: int) -> None:
    rules = preset("extra_cards", players)
    seen_last: list[bool] = []

    def watch(hand: Hand, seat: int) -> None:
        view = hand.view(seat)
        if not view.tricks:  # the first trick: each extra card's seat plays again
            seen_last.append(plays_last(view))
            assert trick_size(view) == players + len(view.extra_card_seats)

    for index in range(len(rules.pass_schedule)):
        bots = [_bot(name, 10 * index + seat) for seat in range(players)]
        # play_hand goes through the checked API: an illegal pass or card raises.
        hand = play_hand(rules, 500 + index, bots, index=index, on_decision=watch)
        assert hand.is_over
        first = hand.tricks()[0]
        assert len(first.plays) == players + rules.extra_cards
    # Only the last extra card seals the first trick.
    assert seen_last.count(True) == len(rules.pass_schedule)
