"""Chooses the engine backend: the C core, or the pure-Python reference.

Why a switch: the reference keeps the C honest (the whole engine test suite runs against
both, as msgpack does with MSGPACK_PUREPYTHON), and a machine without a compiler still
gets a working, slower engine. ``ARENA_PUREPYTHON=1`` selects the reference.

It also says which path the random batch takes for a rule set (`batch_path`): the C core
plays most rules in a straight-line loop and the rest through its hand state, several times
slower, and a rule set that slips from one to the other changes no result, only the speed
(issue 30: the `standard` preset had, unseen); tests/engine/test_batch_path.py pins it.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Final

from .options import family_of
from .rules import Rules


def select(extension: str, reference: str, *, c_allowed: bool = True) -> tuple[ModuleType, str]:
    """The one backend switch, for the hearts core and (by `family_core`) every
    variant family's: the C extension `arena.engine.<extension>` unless
    ``ARENA_PUREPYTHON`` is set, it is not built, or `c_allowed` is False (a family
    whose core leans on the hearts core's follows it); the pure-Python
    `arena.engine.<reference>` otherwise. A missing build is an error under
    ``ARENA_REQUIRE_C``. Returns the module and ``'c'`` or ``'reference'``."""
    if c_allowed and os.environ.get("ARENA_PUREPYTHON", "") in ("", "0"):
        try:
            return importlib.import_module(f"{__package__}.{extension}"), "c"
        except ImportError:
            if os.environ.get("ARENA_REQUIRE_C", "") not in ("", "0"):
                raise
    return importlib.import_module(f"{__package__}.{reference}"), "reference"


def family_core(family: str, *, c_allowed: bool = True) -> tuple[ModuleType, str]:
    """A variant family's backend, by the one layout every family keeps: the C binding
    ``arena.engine.variants._<family>`` and the reference
    ``arena.engine.variants.<family>_reference``, chosen by `select` (so
    ``ARENA_PUREPYTHON`` switches every core at once)."""
    return select(f"variants._{family}", f"variants.{family}_reference", c_allowed=c_allowed)


core, BACKEND_NAME = select("_hearts", "reference")
"""`core` is the backend module in use; `BACKEND_NAME` is ``'c'`` or ``'reference'``."""

IS_C: Final = BACKEND_NAME == "c"

BATCH_PATH_FAST: Final = "fast"
"""The C core's straight-line batch loop over local masks: every rule but those below."""
BATCH_PATH_HAND_STATE: Final = "hand_state"
"""The C core's batch through its hand state (the rules the loop does not play: the jokers,
002's extra cards on the first trick, exposed cards); the same results, several times
slower."""
BATCH_PATH_REFERENCE: Final = "reference"
"""The pure-Python reference's batch: one path, no fast loop (``ARENA_PUREPYTHON=1``)."""


def batch_path(rules: Rules) -> str:
    """The path the engine's random batch (``core.play_random_hands``, what ``arena bench
    engine`` times) takes for `rules`: `BATCH_PATH_FAST` (``'fast'``) or
    `BATCH_PATH_HAND_STATE` (``'hand_state'``) on the C core, `BATCH_PATH_REFERENCE`
    (``'reference'``) on the pure-Python reference, which has no fast path; or the name of
    the variant family that plays `rules` on its own core (``'cancellation'``,
    ``'domino'``, ``'enfle'``, ``'penny'``), whose hands the hearts batch does not play.

    >>> from arena.engine import preset
    >>> batch_path(preset("domino"))
    'domino'
    >>> batch_path(preset("standard")) in (BATCH_PATH_FAST, BATCH_PATH_REFERENCE)
    True

    Raises TypeError when `rules` is not a `Rules`.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"batch_path takes a Rules, not {type(rules).__name__}")
    family = family_of(rules)
    if family is not None:
        return family
    if BACKEND_NAME != "c":
        return BATCH_PATH_REFERENCE
    path: str = core.batch_path(rules.core_config())
    return path
