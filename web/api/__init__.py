"""The JSON API, version 1 (`/api/v1/…`), documented in docs/api.md and docs/openapi.yaml.

Authentication is by API token: `Authorization: Bearer ha_…` (tokens are made on the
account page). Reading public data needs none; writing needs a token (a browser's
session cookie is never enough to write, so the API needs no CSRF token). Lists are
paginated with `page` and `per_page`. Every error is JSON: `{"error": {"status", "code",
"message"}}`, and bad input is a 4xx, never a 500.

The blueprint and what its routes share are in `blueprint`; the routes are in `reads`,
`writes`, `entries`, `data`, `analyses` and `competitions`, which register on it when
this package is imported (no module here imports the package itself, so no import circle).
"""

from __future__ import annotations

from . import analyses, competitions, data, entries, reads, writes  # noqa: F401  (routes register on `api`)
from .blueprint import api

__all__ = ["api"]
