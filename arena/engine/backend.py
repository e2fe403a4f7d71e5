"""Chooses the engine backend: the C core, or the pure-Python reference.

Why a switch: the reference keeps the C honest (the whole engine test suite runs against
both, as msgpack does with MSGPACK_PUREPYTHON), and a machine without a compiler still
gets a working, slower engine. ``ARENA_PUREPYTHON=1`` selects the reference.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Final


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
