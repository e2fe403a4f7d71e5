"""Property-based fuzzing of the JSON API from its OpenAPI document (schemathesis), on
SQLite and on PostgreSQL, against the site served on a real port.

For every operation of docs/openapi.yaml, schemathesis generates requests that follow the
document (positive) and requests that break it (negative), sent with a valid API token.
Every answer must be a non-5xx; the positive ones must also have a documented status, the
documented content type and a body matching the documented schema. The number of
examples per operation and mode is bounded (`ARENA_FUZZ_EXAMPLES`, default 60) to keep the
run to about 20 seconds per database; the counts are printed (docs/benchmarks.md keeps a run's).
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from arena.store.accounts import issue_token
from arena.store.models import User
from tests.web.factories import row
from tests.web.live import LiveServer

pytestmark = [pytest.mark.timeout(600), pytest.mark.long]

SCHEMA = schemathesis.openapi.from_path(Path(__file__).parents[2] / "docs" / "openapi.yaml")
EXAMPLES = int(os.environ.get("ARENA_FUZZ_EXAMPLES", "60"))
DOCUMENTED = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def fuzz(operation, mode, base: str, headers: dict[str, str], statuses: Counter[int]) -> None:
    """Send `EXAMPLES` generated requests of one operation and mode, checking each answer."""
    checks: list[Any] = DOCUMENTED if mode is GenerationMode.POSITIVE else [not_a_server_error]

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def send(case: schemathesis.Case[Any]) -> None:
        response = case.call(base_url=base, headers=headers, timeout=30)
        statuses[response.status_code] += 1
        case.validate_response(response, checks=checks)

    try:
        send()
    except Unsatisfiable:  # nothing of the operation can break its document (GET /)
        assert mode is GenerationMode.NEGATIVE


def test_fuzzed_api_requests_get_no_5xx_and_documented_answers(app, world, db, database):
    with db.begin():
        _row, token = issue_token(db, row(db, User, world.alice_id), "fuzz")
    headers = {"Authorization": f"Bearer {token}"}
    statuses: Counter[int] = Counter()
    operations = [result.ok() for result in SCHEMA.get_all_operations()]  # type: ignore[union-attr]
    assert len(operations) >= 14
    with LiveServer(app) as server:
        for operation in operations:
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                fuzz(operation, mode, f"{server.url}/api/v1", headers, statuses)
    sent = sum(statuses.values())
    errors = sum(count for status, count in statuses.items() if status >= 500)
    backend = database.partition(":")[0]
    print(f"\nfuzz {backend}: {sent} requests, {errors} 5xx, statuses {sorted(statuses.items())}")
    assert errors == 0
    assert sent >= len(operations) * 2  # every operation was reached, both ways
