"""Visitor insights on the web: counting page views and the browser's events, and the curators'
dashboard at ``/insights`` (with ``/insights.csv``) behind HTTP Basic auth.

Counting never touches the database on a request: it adds 1 to the process's
:class:`~kiosk.insights.recorder.Recorder`, which writes every few seconds. Page views are
counted in an ``after_request`` hook, so a page sent from the page cache (kiosk.web.caching) or
answered 304 counts as well; what the browser alone sees arrives at ``POST /insights/event``
from ``static/js/insights.js`` (``navigator.sendBeacon``). The play views call
:func:`count_game`. The dashboard answers 404 with no ``KIOSK_CURATOR_PASSWORD``, in kiosk mode
and inside an embed, and is linked from no visitor page.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import hmac
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    render_template,
    request,
    url_for,
)

from kiosk.insights import dashboard, report
from kiosk.insights.events import browser_event, game_count, game_settings
from kiosk.insights.recorder import Recorder, recorder_for
from kiosk.insights.schema import origin_of
from kiosk.insights.store import Store
from kiosk.web import content
from kiosk.web.modes import is_embed, is_kiosk_mode, mode, mode_of

log = logging.getLogger(__name__)

bp = Blueprint("insights", __name__)

EXTENSION = "kiosk-insights"
GUARD = "kiosk-insights-guard"
DB_NAME = "insights.sqlite3"
CURATOR = "curator"
REALM = 'Basic realm="Visitor insights", charset="UTF-8"'
MAX_EVENT_BYTES = 1024

# Public URL rules (stable contracts, unlike endpoint names) -> page kind (a "{name}" in it is
# filled from the view arguments), and the view arguments naming what the page is about.
PAGE_KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "/": ("home", ()),
    "/sets/": ("sets", ()),
    "/sets/<slug>": ("set", ("slug",)),
    "/sets/<slug>/play": ("play-{game}", ("slug",)),  # play-snap, play-happy-families, …
    "/sets/<slug>/play/<game>": ("play-{game}", ("slug",)),
    "/sets/<slug>/print": ("print", ("slug",)),
    "/games/": ("games", ()),
    "/games/<slug>": ("game", ("slug",)),
    "/rules/": ("rules", ()),
    "/rules/<game>/<slug>/<int:n>": ("rule", ("game", "slug")),
    "/notes/<slug>": ("note", ("slug",)),
    "/pages/<slug>": ("page", ("slug",)),
    "/patterns": ("patterns", ()),
}

# Wrong passwords: each is answered after FAILURE_DELAY seconds, and once MAX_FAILURES have
# come within FAILURE_WINDOW seconds every attempt gets 429 until the window has passed.
FAILURE_DELAY = 1.0
FAILURE_WINDOW = 60.0
MAX_FAILURES = 10


class FailureGuard:
    """Wrong passwords of this process in the last minute (times only: never who sent them)."""

    def __init__(self) -> None:
        self._times: collections.deque[float] = collections.deque()
        self._lock = threading.Lock()

    def _recent(self, now: float) -> int:
        while self._times and now - self._times[0] > FAILURE_WINDOW:
            self._times.popleft()
        return len(self._times)

    def locked(self) -> bool:
        with self._lock:
            return self._recent(time.monotonic()) >= MAX_FAILURES

    def failed(self) -> None:
        with self._lock:
            self._times.append(time.monotonic())


def database_path(app: Flask) -> Path:
    """``INSIGHTS_DB``, else ``insights.sqlite3`` in the app's instance folder."""
    given = str(app.config.get("INSIGHTS_DB") or "").strip()
    if "://" in given:
        raise ValueError(
            f"KIOSK_INSIGHTS_DB={given!r}: a file path is expected (the counts are kept in "
            "SQLite; see docs/insights.md)"
        )
    return Path(given) if given else Path(app.instance_path) / DB_NAME


def recorder() -> Recorder | None:
    """This app's recorder, None with ``KIOSK_INSIGHTS=0``."""
    return current_app.extensions.get(EXTENSION)


# --------------------------------------------------------------------------- counting


def _is_navigation(environ: dict[str, Any]) -> bool:
    """A page a visitor went to (a link, a boosted link, Back), not a script's fetch or a
    prefetch: the rule steps' and attract loop's own fetches send HX-Request without a boost.
    (Read from the WSGI environ: this runs on every page, and header lookups cost more.)"""
    if environ.get("HTTP_SEC_PURPOSE", environ.get("HTTP_PURPOSE", "")).startswith("prefetch"):
        return False
    if environ.get("HTTP_HX_REQUEST") != "true":
        return True
    return "true" in (
        environ.get("HTTP_HX_BOOSTED"),
        environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST"),
    )


def _count_page_view(response: Response) -> Response:
    """After every request: a page shown (200, or 304 for a page the browser kept) counts."""
    counts: Recorder | None = current_app.extensions.get(EXTENSION)
    if counts is None:
        return response
    req = request._get_current_object()  # type: ignore[attr-defined]
    rule = req.url_rule
    found = PAGE_KINDS.get(rule.rule) if rule is not None and req.method == "GET" else None
    if found is None or response.status_code not in (200, 304):
        return response
    environ = req.environ
    if not _is_navigation(environ):
        return response
    kind, names = found
    args = req.view_args or {}
    if "{" in kind:
        kind = kind.format_map(args)
    subject = "/".join(str(args.get(name, "")) for name in names)
    where = mode_of(environ, current_app.config)
    origin = ""
    if where == "embed":
        sent = environ.get("HTTP_ORIGIN") or environ.get("HTTP_REFERER")
        origin = origin_of(sent, req.host)
    counts.add("page_views", (kind, subject, where, origin))  # the columns' order: TABLES
    if kind == "set" and b"view=" in req.query_string and response.status_code == 200:
        _count_plain_reveal(counts, subject, req.args.get("view", ""), where)
    return response


def _count_plain_reveal(counts: Recorder, set_slug: str, card: str, where: str) -> None:
    """'View card' without JavaScript reloads the set page with ``?view=<card>``: a reveal."""
    found = browser_event({"e": "reveal", "set": set_slug, "card": card}, content.current(), False)
    if found is not None:
        counts.count(found.table, mode=where, **found.dimensions)


def count_game(
    event: str,
    *,
    set_slug: str,
    game: str,
    variant: str = "",
    level: str = "",
    bots: int = 0,
    outcome: str = "",
    length: int | None = None,
) -> bool:
    """Count a game ``started``, ``finished`` (``outcome`` won, lost or shared) or
    ``abandoned``, with its set, game, variant, computer level and players, and its ``length``
    in moves. For the play views; returns whether it was counted (False with counting off or a
    set, game, variant or level the catalogue does not know). A wrong event or outcome raises
    ValueError."""
    counts = recorder()
    settings = game_settings(content.current(), set_slug, game, variant, level, bots)
    if settings is None:
        if counts is not None:
            log.warning("insights: not counted, unknown game settings %r", (set_slug, game))
        return False
    found = game_count(event, settings, outcome, length)
    if counts is None:
        return False
    counts.count(found.table, mode=mode(), **found.dimensions)
    return True


@bp.post("/insights/event")
def event() -> tuple[str, int]:
    """A beacon from insights.js: counted if every part of it is known, else ignored. Always
    204 (a beacon's answer is never read, and a refusal must not look like a page's error);
    nothing is counted from another site's page or with counting off."""
    counts = recorder()
    small = (request.content_length or 0) <= MAX_EVENT_BYTES
    ours = request.headers.get("Sec-Fetch-Site", "same-origin") == "same-origin"
    if counts is not None and small and ours:
        found = browser_event(request.form, content.current(), mode() == "kiosk")
        if found is not None:
            counts.count(found.table, mode=mode(), **found.dimensions)
        else:
            log.debug("insights: an event not counted: %r", sorted(request.form))
    return "", 204


# --------------------------------------------------------------------------- the dashboard


def _same(given: str | None, expected: str) -> bool:
    """Constant-time comparison (of digests, so the lengths do not show either)."""
    a = hashlib.sha256((given or "").encode()).digest()
    b = hashlib.sha256(expected.encode()).digest()
    return hmac.compare_digest(a, b)


def _curators_only() -> Response | None:
    """404 without a password, in kiosk mode or an embed; 429 after repeated failures; 401
    without the right user and password (a wrong one answered only after a delay)."""
    password = str(current_app.config.get("CURATOR_PASSWORD") or "")
    if not password or is_kiosk_mode() or is_embed():
        return Response("Not Found", 404)
    guard: FailureGuard = current_app.extensions[GUARD]
    if guard.locked():
        return Response(
            "Too many wrong passwords: try again in a minute.", 429, {"Retry-After": "60"}
        )
    auth = request.authorization
    if auth is not None and auth.type == "basic":
        right_user = _same(auth.username, CURATOR)
        right_password = _same(auth.password, password)
        if right_user and right_password:
            return None
        guard.failed()
        time.sleep(FAILURE_DELAY)
    return Response("Sign in as the curator.", 401, {"WWW-Authenticate": REALM})


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _report() -> tuple[report.Report, str]:
    """The period asked for (the last 7 days if none, or if it cannot be read) and its counts."""
    error = ""
    try:
        which = report.period(request.args.get("from"), request.args.get("to"))
    except ValueError as problem:
        error, which = str(problem), report.period()
    return report.build(Store(database_path(current_app)), which), error


def _titles() -> dict[str, str]:
    snapshot = content.current()
    titles = {slug: e.record.title for slug, e in snapshot.sets.items()}
    titles.update({slug: e.record.title for slug, e in snapshot.games.items()})
    titles.update({key: e.record.title for key, e in snapshot.scenarios.items()})
    return titles


def _curators_report(
    view: Callable[[report.Report, str], Response],
) -> Callable[[], Response]:
    """A dashboard view: curators only, never cached or indexed, given the period's counts and
    the error in the period asked for ("" if none)."""

    @functools.wraps(view)
    def guarded() -> Response:
        refused = _curators_only()
        if refused is not None:
            return _private(refused)
        return _private(view(*_report()))

    return guarded


@bp.get("/insights")
@_curators_report
def dashboard_page(found: report.Report, error: str) -> Response:
    """The curators' dashboard for a period."""
    shown = dashboard.figures(found, _titles())
    body = render_template(
        "insights/dashboard.html",
        report=found,
        error=error,
        counting=recorder() is not None,
        csv_url=url_for(
            "insights.csv_export",
            **{"from": found.period.first.isoformat(), "to": found.period.last.isoformat()},
        ),
        **shown,
    )
    return Response(body, 400 if error else 200, mimetype="text/html")


@bp.get("/insights.csv")
@_curators_report
def csv_export(found: report.Report, error: str) -> Response:
    """The period's hourly counts as CSV (the same auth as the dashboard)."""
    if error:
        return Response(error + "\n", 400, mimetype="text/plain")
    name = f"insights-{found.period.first.isoformat()}-{found.period.last.isoformat()}.csv"
    response = Response(report.csv_text(found), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# --------------------------------------------------------------------------- setup


def insights_event_url() -> str | None:
    """Where base.html's script posts its events, only while counting is on.

    A template global, called by whole pages alone: a table's htmx fragment never asks."""
    return None if recorder() is None else url_for("insights.event")


def init_app(app: Flask) -> None:
    """Register the dashboard and the event endpoint; count unless ``KIOSK_INSIGHTS=0``."""
    app.extensions[GUARD] = FailureGuard()
    path = database_path(app)
    if app.config.get("INSIGHTS", True):
        interval = float(app.config.get("INSIGHTS_FLUSH_SECONDS") or 5)
        app.extensions[EXTENSION] = recorder_for(path, interval, thread=not app.testing)
    app.register_blueprint(bp)
    app.after_request(_count_page_view)
    app.add_template_global(insights_event_url)
