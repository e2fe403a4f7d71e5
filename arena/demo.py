"""`arena demo`: a game of house bots played in-process, printed hand by hand.

Until the full platform lands this is what `make run` shows: the real engine and the real
house bots, no servers needed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arena.bots import HouseBot
from arena.bots.base import settle_queen_refusal
from arena.engine import Game, Rules


def play_game(
    rules: Rules,
    bots: Sequence[HouseBot],
    seed: int,
    on_hand: Callable[[Game, tuple[int, ...]], None] | None = None,
) -> Game:
    """Play one game to the rules' end; `on_hand` is told each finished hand's scores."""
    if len(bots) != rules.players:
        raise ValueError(f"{rules.name} needs {rules.players} bots, got {len(bots)}")
    game = Game(rules, seed)
    while not game.is_over:
        hand = game.hand
        size = rules.pass_size(hand.pass_direction)
        for seat in hand.passes_pending:
            hand.apply_pass(seat, bots[seat].pass_cards(hand.view(seat), size))
        settle_queen_refusal(hand, bots)  # Rickety Kate
        while not hand.is_over:
            turn = hand.to_play
            assert turn is not None
            hand.play(bots[turn].play_card(hand.view(turn)), seat=turn)
        scores = game.finish_hand()
        if on_hand is not None:
            on_hand(game, scores)
    return game
