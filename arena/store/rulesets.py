"""Rulesets: each distinct `Rules` value stored once, under the hash of its canonical JSON.

Seasons and matches carry the full rules by referring to a ruleset row, so 100,000
matches of one season share one copy, and a preset changed later changes nothing stored.
Two writers storing the same new value at once store it once (`insert_if_absent`).
"""

from __future__ import annotations

import hashlib
import json

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.engine import Rules

from .conflicts import insert_if_absent
from .models import Ruleset
from .types import utc_now


def store_ruleset(session: Session, rules: Rules) -> Ruleset:
    """The ruleset row holding `rules`, created if this exact value is new (flushes)."""
    text = rules.to_json()
    digest = hashlib.sha256(text.encode()).hexdigest()
    ruleset = session.scalars(select(Ruleset).where(Ruleset.sha256 == digest)).one_or_none()
    if ruleset is None:
        session.flush()
        values = {
            "sha256": digest,
            "name": rules.name[:64],
            "data": json.loads(text),
            "created_at": utc_now(),
        }
        insert_if_absent(session, Ruleset.__table__, values, "sha256")  # type: ignore[arg-type]
        ruleset = session.scalars(select(Ruleset).where(Ruleset.sha256 == digest)).one()
    return ruleset
