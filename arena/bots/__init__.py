"""House bots: the opponents every ladder has (random, heuristic, and a search bot)."""

from collections.abc import Callable

from .base import HouseBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .strong import StrongBot

HOUSE_BOTS: dict[str, Callable[[int], HouseBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "strong": StrongBot,
}
"""House bot factories by name; each takes a seed."""

__all__ = ["HOUSE_BOTS", "HeuristicBot", "HouseBot", "RandomBot", "StrongBot"]
