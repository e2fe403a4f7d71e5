"""Errors answered as JSON or as an HTML page, by what the client accepts.

The API (`/api/…`) always answers JSON. Elsewhere a client that prefers
`application/json` to `text/html` gets JSON: `{"error": {"status", "code", "message"}}`.
Unexpected exceptions become a 500 answer of the same two kinds and are logged;
the message never carries the exception's text.
"""

from __future__ import annotations

from typing import Any, NoReturn

from flask import Flask, Response, current_app, jsonify, render_template, request
from markupsafe import escape
from werkzeug.exceptions import HTTPException, InternalServerError, RequestEntityTooLarge
from werkzeug.http import HTTP_STATUS_CODES


def wants_json() -> bool:
    """Whether this request should be answered in JSON."""
    if request.path.startswith("/api/"):
        return True
    accepted = request.accept_mimetypes
    return accepted["application/json"] > accepted["text/html"]


def error_code(status: int) -> str:
    """A stable machine-readable code for an HTTP status (`not_found`, `forbidden`, …)."""
    phrase = HTTP_STATUS_CODES.get(status, "error")
    return phrase.lower().replace("'", "").replace(" ", "_").replace("-", "_")


def error_response(status: int, message: str, **extra: Any) -> Response:
    """An error answer in the form the client wants."""
    if wants_json():
        body: dict[str, Any] = {"status": status, "code": error_code(status), "message": message}
        body.update(extra)
        response = jsonify({"error": body})
        response.status_code = status
        return response
    page = render_template("error.html", status=status, message=message), status
    return current_app.make_response(page)


def cheap_refusal(status: int, message: str, page: str, retry_after: int) -> Response:
    """`error_response` without a template, with `Retry-After`: for refusals a flood gets
    by the thousand (sign-ins refused or turned away), where the template costs the most.
    `page` is HTML with a `{message}` placeholder."""
    if wants_json():
        body = {"error": {"status": status, "code": error_code(status), "message": message}}
        answer: Response = jsonify(body)
    else:
        answer = Response(page.format(message=escape(message)), mimetype="text/html")
    answer.status_code = status
    answer.headers["Retry-After"] = str(retry_after)
    return answer


def fail(status: int, message: str, **extra: Any) -> NoReturn:
    """Abort with `status`, adding `extra` fields to the JSON error (e.g. `reason`)."""
    error = HTTPException(description=message)
    error.code = status
    error.extra = extra  # type: ignore[attr-defined]
    raise error


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    extra = getattr(error, "extra", {})
    response = error_response(status, error.description or error.name, **extra)
    for key, value in error.get_headers():  # such as Allow and WWW-Authenticate
        if key.lower() != "content-type":
            response.headers[key] = value
    return response


def _too_large(error: RequestEntityTooLarge) -> Response:
    limit = current_app.config["UPLOAD_MAX_BYTES"] // 1024
    return error_response(413, f"The upload is larger than {limit} KiB.")


def _server_error(error: InternalServerError) -> Response:
    original = getattr(error, "original_exception", None)
    if original is not None:
        current_app.logger.error("unhandled error on %s", request.path, exc_info=original)
    return error_response(500, "Something went wrong on our side; it has been logged.")


def _refuse_nul_characters() -> None:
    """A 400 for any NUL character in the path, the query, a form field or a JSON body.

    Why here, for every request: no field of ours accepts one, and PostgreSQL cannot even
    compare text holding one (psycopg raises DataError), so a NUL reaching a query would
    be a 500 on PostgreSQL where SQLite quietly finds nothing."""
    fields: list[str | None] = [request.path]
    fields += [text for pair in request.args.items(multi=True) for text in pair]
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        fields += [text for pair in request.form.items(multi=True) for text in pair]
    if any(not isinstance(field, str) for field in fields):
        # Werkzeug names a multipart part None when its Content-Disposition cannot be read
        # (a NUL or a stray quote in the name): nothing of ours can use such a field.
        fail(400, "A form field's name cannot be read (a NUL or a broken quote in it).")
    if any("\x00" in field for field in fields if field is not None) or (
        request.is_json and b"\\u0000" in request.get_data(cache=True)
    ):
        fail(400, "The request holds a NUL character (\\0), which no field accepts.")


def init_app(app: Flask) -> None:
    """Install the handlers, and the check that turns NUL characters away."""
    app.before_request(_refuse_nul_characters)
    app.register_error_handler(InternalServerError, _server_error)
    app.register_error_handler(RequestEntityTooLarge, _too_large)
    app.register_error_handler(HTTPException, _http_error)
