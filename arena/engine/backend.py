"""Chooses the engine backend: the C core, or the pure-Python reference.

Why a switch: the reference keeps the C honest (the whole engine test suite runs against
both, as msgpack does with MSGPACK_PUREPYTHON), and a machine without a compiler still
gets a working, slower engine. ``ARENA_PUREPYTHON=1`` selects the reference.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Final


def _select() -> tuple[ModuleType, str]:
    if os.environ.get("ARENA_PUREPYTHON", "") not in ("", "0"):
        from . import reference

        return reference, "reference"
    try:
        from . import _hearts  # type: ignore[attr-defined]
    except ImportError:
        if os.environ.get("ARENA_REQUIRE_C", "") not in ("", "0"):
            raise
        from . import reference

        return reference, "reference"
    return _hearts, "c"


core, BACKEND_NAME = _select()
"""`core` is the backend module in use; `BACKEND_NAME` is ``'c'`` or ``'reference'``."""

IS_C: Final = BACKEND_NAME == "c"
