"""What each house bot is, in a sentence a contestant reads where house bots are listed."""

from typing import Final

HOUSE_DESCRIPTIONS: Final[dict[str, str]] = {
    "random": "Plays a uniformly random legal card: the floor.",
    "heuristic": (
        "A sound club player's habits in a few rules: passes the cards that take points, "
        "ducks with the highest card that still loses, dumps the card that hurts most."
    ),
    "strong": (
        "Monte Carlo search: samples the hidden hands that fit what it has seen and plays "
        "every card out in the C engine; about 5 points a hand better than the heuristic."
    ),
    "expert": (
        "The strong bot's search, with the hidden hands weighed by how likely the other "
        "seats' own plays and pass make them (their ducks, dumps and leads read as a "
        "player's habits), a wider pass search, and the last three tricks of each imagined "
        "deal solved exactly; measured so far level with the strong bot, not yet better "
        "(docs/benchmarks.md)."
    ),
}
"""A house bot's kind (its name in `arena.bots.HOUSE_BOTS`) to what it is."""


def describe_house_bot(bot_name: str) -> str:
    """What the house bot named `bot_name` (`strong-2`: kind `strong`, seed 2) is; "" for a
    name that is no house bot's."""
    kind = bot_name.rsplit("-", 1)[0]
    return HOUSE_DESCRIPTIONS.get(kind, "")
