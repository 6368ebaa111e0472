"""Friendly error pages with a way home; a 500 never depends on the catalogue, and a failing
template falls back to plain HTML.
"""

from __future__ import annotations

import logging

from flask import Flask, has_request_context, render_template
from flask.globals import request_ctx
from markupsafe import escape
from werkzeug.exceptions import HTTPException

log = logging.getLogger(__name__)

MESSAGES: dict[int, tuple[str, str]] = {
    400: (
        "Something went wrong with that request",
        "The kiosk could not make sense of what it was sent. Start again from the home page.",
    ),
    404: (
        "We can't find that page",
        "It may have moved, or the address may be mistyped. Everything on the kiosk can be "
        "reached from the home page.",
    ),
    405: (
        "That can't be done here",
        "This page can't be used that way. Start again from the home page.",
    ),
    413: (
        "That was too much to send",
        "The kiosk only takes small forms. Start again from the home page.",
    ),
    500: (
        "Something went wrong on our side",
        "Sorry: the kiosk hit a problem showing this page. Please try again from the home page.",
    ),
}
GENERIC = ("Something went wrong", "Please start again from the home page.")

FALLBACK = """<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{heading} · Snap &amp; Happy Families</title>
<link rel="stylesheet" href="/static/css/kiosk.css"></head>
<body><main id="main" class="site-main"><section class="error">
<p class="error__code">Error {code}</p><h1>{heading}</h1><p class="lead">{message}</p>
<p><a class="button button--primary button--big" href="/">Go to the home page</a></p>
</section></main></body></html>
"""


def render_error(code: int) -> tuple[str, int]:
    """The error page for ``code`` (the plain fallback if the template cannot be rendered)."""
    heading, message = MESSAGES.get(code, GENERIC)
    # a Host refused (TRUSTED_HOSTS) before routing builds no URL: the plain page, which needs none
    if has_request_context() and request_ctx.url_adapter is None:
        return FALLBACK.format(code=code, heading=escape(heading), message=escape(message)), code
    try:
        body = render_template("errors/error.html", code=code, heading=heading, message=message)
    except Exception:  # an error page must never fail
        log.exception("error page template failed for %s", code)
        body = FALLBACK.format(code=code, heading=escape(heading), message=escape(message))
    return body, code


def handle_http(error: HTTPException) -> tuple[str, int] | HTTPException:
    """Any 4xx/5xx raised by a view or by routing (redirects pass through untouched)."""
    if error.code is None or error.code < 400:
        return error
    response = render_error(error.code)
    if error.code == 405 and error.response is None:
        allowed = getattr(error, "valid_methods", None)
        if allowed:
            return response[0], 405, {"Allow": ", ".join(allowed)}  # type: ignore[return-value]
    return response


def init_app(app: Flask) -> None:
    """Register the handler app-wide: an unhandled exception reaches it as InternalServerError."""
    app.register_error_handler(HTTPException, handle_http)
