"""Input bounds at the edge: ids within their column, JSON bodies small and shallow, and
error messages that quote input only briefly.

Why at the edge, before any view runs: a value the database cannot hold (an id of 2³¹ in
a PostgreSQL INTEGER column, 2⁶³ in SQLite) is an error inside the driver, and a JSON
document nested ten thousand deep is a RecursionError inside the parser; both used to
surface as 500s. Here they become a 404 (no row can have that id) and a 400.
"""

from __future__ import annotations

from typing import Any, Final

from flask import Flask, current_app, request
from werkzeug.routing import IntegerConverter, Map

from .errors import fail

MAX_ID: Final = 2**31 - 1
"""The largest id a row can have: ids are INTEGER columns (4 bytes on PostgreSQL)."""

JSON_MAX_BYTES: Final = 64 * 1024
"""The largest JSON body accepted (the API's JSON requests are a few hundred bytes)."""

JSON_MAX_DEPTH: Final = 32
"""The deepest nesting of arrays and objects accepted in a JSON body."""

QUOTE_LIMIT: Final = 40
"""How many characters of a client's input an error message repeats at most."""


def digits_up_to(limit: int) -> str:
    """A regular expression for the decimal numbers from 0 to `limit` (no sign).

    >>> import re
    >>> pattern = re.compile(digits_up_to(2147483647))
    >>> [bool(pattern.fullmatch(str(n))) for n in (0, 7, 2147483647, 2147483648, 10**10)]
    [True, True, True, False, False]
    >>> all(re.fullmatch(digits_up_to(305), str(n)) for n in range(306))
    True
    >>> any(re.fullmatch(digits_up_to(305), str(n)) for n in range(306, 2000))
    False
    """
    text = str(limit)
    if len(text) == 1:
        return f"[0-{text}]"
    parts = [f"[0-9]{{1,{len(text) - 1}}}"]
    for i, digit in enumerate(text):
        low, top, rest = (1 if i == 0 else 0), int(digit) - 1, len(text) - i - 1
        if top >= low:
            parts.append(text[:i] + f"[{low}-{top}]" + (f"[0-9]{{{rest}}}" if rest else ""))
    parts.append(text)
    return "(?:" + "|".join(parts) + ")"


class IdConverter(IntegerConverter):
    """`<int:…>` for ids: a whole number from 0 to `MAX_ID`; a larger one matches no
    route, so the answer is a 404 rather than a query the database refuses.

    The bound is in the pattern, not only in `max`: werkzeug checks a rule's method
    before its converters, so an id refused by `max` alone left the other methods'
    rules matched and answered 405 instead of 404 (found by the schemathesis run).
    """

    regex = digits_up_to(MAX_ID)

    def __init__(self, url_map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_ID)
        super().__init__(url_map, *args, **kwargs)


def is_id(value: object) -> bool:
    """Whether `value` is an int (not a bool) that a row's id could be.

    >>> is_id(7), is_id(2**31), is_id(True), is_id("7")
    (True, False, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ID


def quoted(text: object, limit: int = QUOTE_LIMIT) -> str:
    """`repr` of a client's text, cut to `limit` characters (an ellipsis marks the cut).

    >>> quoted("a" * 50, 5)
    "'aaaaa…'"
    >>> quoted("bob")
    "'bob'"
    """
    value = str(text)
    return repr(value[:limit] + "…") if len(value) > limit else repr(value)


def json_depth(data: bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text (brackets inside strings
    do not count), found without parsing it.

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # closing quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _bound_json_bodies() -> None:
    """A 400 for a JSON body larger than `JSON_MAX_BYTES` or nested deeper than
    `JSON_MAX_DEPTH`, before anything parses it."""
    if not request.is_json:
        return
    limit = current_app.config["JSON_MAX_BYTES"]
    length = request.content_length
    if length is not None and length > limit:
        fail(400, f"The JSON body is larger than {limit} bytes.")
    data = request.get_data(cache=True)
    if len(data) > limit:
        fail(400, f"The JSON body is larger than {limit} bytes.")
    if json_depth(data) > JSON_MAX_DEPTH:
        fail(400, f"The JSON body is nested deeper than {JSON_MAX_DEPTH} levels.")


def init_app(app: Flask) -> None:
    """Install the id converter (call before registering blueprints) and the JSON check."""
    app.config.setdefault("JSON_MAX_BYTES", JSON_MAX_BYTES)
    app.url_map.converters["int"] = IdConverter
    app.before_request(_bound_json_bodies)
