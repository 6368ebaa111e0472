"""Security headers on every response (a strict CSP; only ``/embed/`` may be framed elsewhere),
request limits (TRUSTED_HOSTS, a body limit, proxies' headers only under PROXY_FIX), and a
covered card uncovered by ``?view=`` only from the kiosk's own pages.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from flask import Flask, Request, Response, abort, redirect, request
from flask.sessions import SessionInterface, SessionMixin
from werkzeug.middleware.proxy_fix import ProxyFix

from kiosk.config import DEFAULTS
from kiosk.web.modes import is_embed

# Pages outside /embed/ carry the kiosk's own chrome (and, in kiosk mode, its reset and
# text-size controls): only the kiosk itself frames them, whatever KIOSK_FRAME_ANCESTORS says.
OWN_PAGES_FRAME_ANCESTORS = "'self'"
REVEAL_ARG = "view"  # the "View card" form's field (templates/cards/_card.html)


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


def embed_frame_ancestors(value: Any) -> str:
    """Who may frame embeds: any site unless narrowed (an embed holds nothing to abuse)."""
    text = " ".join(str(value or "").split())
    return text or "*"


def trusted_hosts(value: Any) -> list[str] | None:
    """``TRUSTED_HOSTS`` as Flask takes it; ``*`` alone is any host, empty the loopback names."""
    names = value.replace(",", " ").split() if isinstance(value, str) else list(value or [])
    if names == ["*"]:
        return None
    return names or list(DEFAULTS["TRUSTED_HOSTS"])


def proxies(value: Any) -> int:
    """``PROXY_FIX``: how many proxies' ``X-Forwarded-*`` headers to believe (0: none)."""
    try:
        count = int(value or 0)
    except (TypeError, ValueError):
        raise ValueError(f"PROXY_FIX must be a whole number, not {value!r}") from None
    if count < 0:
        raise ValueError(f"PROXY_FIX must not be negative, not {count}")
    return count


def refuse_large_bodies() -> None:
    """413 for a body declared larger than ``MAX_CONTENT_LENGTH``, before anything reads it."""
    limit = request.max_content_length
    if limit is not None and (request.content_length or 0) > limit:
        abort(413)


def keep_covered() -> Response | None:
    """Drop ``?view=`` unless our own page asked (Fetch Metadata): no outside link uncovers."""
    if REVEAL_ARG not in request.args:
        return None
    if request.headers.get("Sec-Fetch-Site", "").lower() == "same-origin":
        return None
    kept = [(k, v) for k, v in request.args.items(multi=True) if k != REVEAL_ARG]
    query = urlencode(kept)
    path = quote(request.script_root + request.path)
    return redirect(path + (f"?{query}" if query else ""), 303)


def init_app(app: Flask) -> None:
    """Set the headers, check Host and body size, and believe proxies only as PROXY_FIX says."""
    policy = csp(OWN_PAGES_FRAME_ANCESTORS)
    embed_policy = csp(embed_frame_ancestors(app.config.get("FRAME_ANCESTORS")))
    app.session_interface = NoSessions()
    app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config.get("TRUSTED_HOSTS"))
    count = proxies(app.config.get("PROXY_FIX"))
    if count:
        # the client's address and scheme only: the Host comes from the proxy's own Host
        # header (nginx: proxy_set_header Host $host), checked against TRUSTED_HOSTS
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count)  # type: ignore
    app.before_request(refuse_large_bodies)
    app.before_request(keep_covered)

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers.setdefault(
            "Content-Security-Policy", embed_policy if is_embed() else policy
        )
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if REVEAL_ARG in request.args:  # the page depends on who asked for it: caches must know
            response.vary.add("Sec-Fetch-Site")
        response.headers.setdefault(
            "Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()"
        )
        # Framing is governed by CSP frame-ancestors alone: X-Frame-Options would forbid
        # the teachers' embeds that /embed/ pages allow.
        response.headers.pop("X-Frame-Options", None)
        return response
