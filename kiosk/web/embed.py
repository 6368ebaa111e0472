"""``/embed/<path>``: every page without the chrome, mounted at ``/embed`` so links stay inside.
Only the embed's play and rules answer other origins (a sandboxed frame's ``null``), never with
credentials (docs/embedding.md); a host's ``?view=`` is refused as everywhere (security.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, abort, request
from werkzeug.wrappers import Response

from kiosk.web.modes import EMBED_KEY, is_embed

PREFIX = "/embed"
NESTED_KEY = "kiosk.embed.nested"

CORS_BLUEPRINTS = frozenset({"play", "rules"})  # the embed's game and rule endpoints
CORS_METHODS = "GET, POST"
CORS_MAX_AGE = "600"  # seconds a browser may keep a preflight's answer

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class EmbedMiddleware:
    """Serve ``/embed/<path>`` as ``<path>`` mounted at ``/embed``, marked as an embed."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        """Strip the prefix once; ``/embed`` alone is the embedded home page."""
        path = environ.get("PATH_INFO", "") or ""
        if path == PREFIX or path.startswith(PREFIX + "/"):
            environ["SCRIPT_NAME"] = environ.get("SCRIPT_NAME", "") + PREFIX
            environ["PATH_INFO"] = rest = path[len(PREFIX) :] or "/"
            environ[EMBED_KEY] = True
            environ[NESTED_KEY] = rest == PREFIX or rest.startswith(PREFIX + "/")
        return self.app(environ, start_response)


def _guard() -> None:
    """404 for ``/embed/embed/...``."""
    if is_embed() and request.environ.get(NESTED_KEY):
        abort(404)


def _cors(response: Response) -> Response:
    """Let any origin (a sandboxed frame's is ``null``) read the answer; no credentials."""
    if not is_embed() or request.blueprint not in CORS_BLUEPRINTS:
        return response  # only the embed's game and rule endpoints answer other origins
    response.headers["Access-Control-Allow-Origin"] = "*"
    if request.method == "OPTIONS":  # the preflight of an htmx post (its HX-* headers)
        response.headers["Access-Control-Allow-Methods"] = CORS_METHODS
        asked = request.headers.get("Access-Control-Request-Headers", "")
        if asked:
            response.headers["Access-Control-Allow-Headers"] = asked
        response.headers["Access-Control-Max-Age"] = CORS_MAX_AGE
    return response


def init_app(app: Flask) -> None:
    """Mount the middleware, guard embedded requests, answer the embed's cross-origin ones."""
    app.wsgi_app = EmbedMiddleware(app.wsgi_app)  # type: ignore[method-assign]
    app.before_request(_guard)
    app.after_request(_cors)
    # for the play macros, imported once without a context (kiosk.web.play.flow.setup_context)
    app.jinja_env.globals["in_embed"] = is_embed
