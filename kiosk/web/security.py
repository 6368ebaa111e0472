"""Security headers on every response: a strict CSP that still lets allowed sites frame us."""

from __future__ import annotations

from typing import Any

from flask import Flask, Request, Response
from flask.sessions import SessionInterface, SessionMixin


class NoSessions(SessionInterface):
    """The kiosk keeps no session and sets no cookie: a game lives in its page's token."""

    def open_session(self, app: Flask, request: Request) -> SessionMixin:
        return self.make_null_session(app)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> Any:
        return None


def csp(frame_ancestors: str) -> str:
    """The policy: nothing inline, nothing from elsewhere; framing only by ``frame_ancestors``."""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self'",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            f"frame-ancestors {frame_ancestors}",
        ]
    )


def init_app(app: Flask) -> None:
    """Send the headers on every response (``KIOSK_FRAME_ANCESTORS`` says who may frame us)."""
    policy = csp(app.config["FRAME_ANCESTORS"])
    app.session_interface = NoSessions()

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", policy)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()"
        )
        # Framing is governed by CSP frame-ancestors alone: X-Frame-Options would forbid
        # the teachers' embeds that KIOSK_FRAME_ANCESTORS allows.
        response.headers.pop("X-Frame-Options", None)
        return response
