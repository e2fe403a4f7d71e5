"""Why a rehearsal stopped: the one error its driver's modules raise for it."""

from __future__ import annotations


class RehearsalError(RuntimeError):
    """The rehearsal could not run to its end; the message says where (and the log)."""
