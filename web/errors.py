"""Errors answered as JSON or as an HTML page, by what the client accepts.

The API (`/api/…`) always answers JSON. Elsewhere a client that prefers
`application/json` to `text/html` gets JSON: `{"error": {"status", "code", "message"}}`.
Unexpected exceptions become a 500 answer of the same two kinds and are logged;
the message never carries the exception's text.
"""

from __future__ import annotations

from typing import Any, NoReturn

from flask import Flask, Response, current_app, jsonify, render_template, request
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


def init_app(app: Flask) -> None:
    """Install the handlers."""
    app.register_error_handler(InternalServerError, _server_error)
    app.register_error_handler(RequestEntityTooLarge, _too_large)
    app.register_error_handler(HTTPException, _http_error)
