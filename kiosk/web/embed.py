"""``/embed/<path>``: every public page without the kiosk's chrome, for a teacher's iframe.

A WSGI middleware moves ``/embed`` from ``PATH_INFO`` to ``SCRIPT_NAME`` and marks the
request, so the app routes the page as usual while ``url_for`` builds every link, form
action and static URL under ``/embed/``: a visitor who follows a link, or plays a game,
stays inside the embed. The page then drops its header and footer (``g.embed``), turns
htmx history off, and posts its height to the host page (``static/js/embedded.js``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, g, request

PREFIX = "/embed"
ENVIRON_KEY = "kiosk.embed"

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
            environ["PATH_INFO"] = path[len(PREFIX) :] or "/"
            environ[ENVIRON_KEY] = True
        return self.app(environ, start_response)


def is_embed() -> bool:
    """True while serving a request that came in under ``/embed/``."""
    return bool(request.environ.get(ENVIRON_KEY, False))


def _mark() -> None:
    g.embed = is_embed()


def init_app(app: Flask) -> None:
    """Mount the middleware and set ``g.embed`` for every request."""
    app.wsgi_app = EmbedMiddleware(app.wsgi_app)  # type: ignore[method-assign]
    app.before_request(_mark)
