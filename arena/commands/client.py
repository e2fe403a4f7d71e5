"""The site's JSON API as the command line calls it (`arena login`, `arena bot upload`):
one request with the API token, its JSON answer, and a clear `ApiError` for anything else.

Why a module of its own: a token goes only to the site it was made for. urllib's default
redirect handler copies every header, `Authorization` included, to wherever a 301 or a
302 points, so both commands sent the stored token to another server when told to. Here a
redirect to another origin (scheme, host and port) is refused, naming where it pointed; a
redirect within the site is followed for a read, and an upload (a POST) is never
redirected (urllib would repeat it as a GET without its body). And an answer that is not
the API's (an HTML error page from a proxy, a 502, a cut connection, a JSON list) is an
`ApiError` naming the status and what came back, never a traceback. Standard library HTTP
only: the commands need nothing beyond the `arena` package.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Collection
from typing import IO, Any, Final

import click

TIMEOUT_SECONDS: Final = 60.0
QUOTE_LIMIT: Final = 120
"""How much of a server's text an error message quotes."""
DEFAULT_PORTS: Final = {"http": 80, "https": 443}


class ApiError(click.ClickException):
    """The site refused the request, could not be reached or did not answer as the API
    does; the message says which (exit status 1)."""


def origin(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) of `url`: where a token made for it may go.

    >>> origin("HTTP://Arena.Example:80/api/v1/me") == origin("http://arena.example/")
    True
    >>> origin("https://arena.example/") == origin("http://arena.example/")
    False
    """
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:  # a port that is not a number: no origin of ours
        port = -1
    return scheme, (parts.hostname or "").lower(), port or DEFAULT_PORTS.get(scheme)


def site_of(url: str) -> str:
    """The origin of `url` as a site address (the default port left out).

    >>> site_of("https://arena.example:443/api/v1/me")
    'https://arena.example'
    """
    scheme, host, port = origin(url)
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return f"{scheme}://{host}" + ("" if port == DEFAULT_PORTS.get(scheme) else f":{port}")


def _shown(text: str) -> str:
    """A server's text, cut for an error message."""
    text = " ".join(text.split())
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT] + "…"


class _SiteRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only within the origin the request was made for, and never
    for a request with a body."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        here = req.full_url
        if origin(newurl) != origin(here):
            raise ApiError(
                f"{here} answered {code} and sends us to {_shown(newurl)}, another site: "
                "the API token was made for this one and is not sent there. If the site "
                f"has moved, sign in there: arena login {site_of(newurl)}"
            )
        if req.data is not None:
            raise ApiError(
                f"{here} answered {code} and sends the upload to {_shown(newurl)}: an "
                "upload is not redirected; give the site's own address with --url"
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _error_message(error: urllib.error.HTTPError) -> str:
    """What the site said in an error answer: the API's message, else what came back."""
    try:
        raw = error.read()
    except (OSError, http.client.HTTPException):
        raw = b""
    try:
        return str(json.loads(raw)["error"]["message"])
    except (ValueError, KeyError, TypeError):
        pass
    what = error.headers.get_content_type() if error.headers else "no content type"
    body = _shown(raw.decode("utf-8", "replace")) if raw else "an empty body"
    return f"{error.reason} (not the API's answer: {what}, {body})"


def call(
    url: str,
    token: str,
    *,
    data: bytes | None = None,
    content_type: str | None = None,
    fields: Collection[str] = (),
    method: str | None = None,
) -> tuple[int, dict[str, Any]]:
    """One API request: (status, JSON object), the object holding every name in `fields`.

    The method is GET, or POST with `data`, unless `method` names another (DELETE, PUT).

    Raises ApiError for an error answer, a refused redirect, no answer, or an answer that
    is not a JSON object with those fields.
    """
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    if content_type:
        headers["Content-Type"] = content_type
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    opener = urllib.request.build_opener(_SiteRedirects)
    try:
        with opener.open(request, timeout=TIMEOUT_SECONDS) as response:
            status = int(response.status)
            kind = response.headers.get_content_type()
            raw = response.read()
    except urllib.error.HTTPError as error:
        raise ApiError(f"{error.code}: {_error_message(error)}") from None
    except urllib.error.URLError as error:
        raise ApiError(f"cannot reach {url}: {error.reason}") from None
    except (OSError, http.client.HTTPException) as error:
        reason = str(error) or type(error).__name__
        raise ApiError(f"no complete answer from {url}: {reason}") from None
    try:
        body = json.loads(raw)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        shown = _shown(raw.decode("utf-8", "replace")) if raw else "an empty body"
        raise ApiError(
            f"{url} answered {status} with {kind} ({shown}), not the API's JSON: is this "
            "the arena's site?"
        )
    missing = [name for name in fields if name not in body]
    if missing:
        raise ApiError(
            f"{url} answered {status} without {', '.join(missing)}: is this the arena's site?"
        )
    return status, body
