"""House bots: the opponents every ladder has (random, heuristic, and two search bots)."""

from collections.abc import Callable

from .base import HouseBot
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .strong import StrongBot

HOUSE_BOTS: dict[str, Callable[[int], HouseBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "strong": StrongBot,
    "expert": ExpertBot,
}
"""House bot factories by name; each takes a seed."""

__all__ = ["HOUSE_BOTS", "ExpertBot", "HeuristicBot", "HouseBot", "RandomBot", "StrongBot"]
