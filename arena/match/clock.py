"""Time budgets: a per-decision allowance plus an overtime bank per match.

Why a bank: a fixed per-move deadline punishes the one hard decision in a hand; Kaggle's
environments add an overage budget for that. A decision may take `per_decision` for free;
anything beyond comes out of the bank; a decision that exhausts both is a timeout, and
the bank is then empty.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class TimePolicy:
    """The allowances, in seconds."""

    per_decision: float = 1.0
    bank: float = 10.0
    ready_timeout: float = 10.0

    def __post_init__(self) -> None:
        if self.per_decision <= 0 or self.bank < 0 or self.ready_timeout <= 0:
            raise ValueError("time allowances must be positive (the bank may be 0)")


class Clock:
    """One bot's clock for a match."""

    def __init__(self, policy: TimePolicy) -> None:
        self.policy = policy
        self.bank = policy.bank

    @property
    def allowance(self) -> float:
        """The most the next decision may take: the free allowance plus the bank."""
        return self.policy.per_decision + self.bank

    def charge(self, elapsed: float) -> None:
        """Take the time beyond the free allowance out of the bank."""
        over = elapsed - self.policy.per_decision
        if over > 0:
            self.bank = max(0.0, self.bank - over)

    def exhaust(self) -> None:
        """A timeout used everything."""
        self.bank = 0.0
