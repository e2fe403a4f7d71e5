"""The API's documentation matches the API, and the site's module examples run."""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

import arena.logs
import arena.uploads
import web.charts
import web.live
import web.logs
import web.rulebook

DOCS = Path(__file__).resolve().parents[2] / "docs"


def openapi() -> dict[str, Any]:
    return yaml.safe_load((DOCS / "openapi.yaml").read_text())


def test_openapi_describes_every_api_route_and_nothing_else(app):
    documented = {
        (method.upper(), path)
        for path, item in openapi()["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    }
    served = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule.removeprefix("/api/v1")) or "/"
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            served.add((method, path))
    assert documented == served


def test_openapi_references_resolve():
    document = openapi()
    text = (DOCS / "openapi.yaml").read_text()
    for reference in set(re.findall(r'\$ref: "#/([^"]+)"', text)):
        node = document
        for part in reference.split("/"):
            node = node[part]
    assert document["openapi"].startswith("3.1")


def test_api_doc_lists_every_endpoint():
    prose = (DOCS / "api.md").read_text()
    for path in openapi()["paths"]:
        shown = re.sub(r"\{\w+\}", "<id>", path).replace("<id>/versions", "<name>/versions")
        assert shown.split("?")[0] in prose, path


@pytest.mark.parametrize(
    "module", [web.rulebook, web.charts, arena.uploads, web.live, web.logs, arena.logs]
)
def test_module_examples(module):
    result = doctest.testmod(module)
    assert result.failed == 0
