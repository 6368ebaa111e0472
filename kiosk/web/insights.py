"""Visitor insights on the web: page views counted after each request, the browser's beacons,
and the curators' dashboard (``/insights``, HTTP Basic, 404 in kiosk mode or an embed). No
visitor's request reads the database or waits for it (docs/insights.md).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import math
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

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
from kiosk.insights.guard import FailureGuard, client_of
from kiosk.insights.recorder import MAX_PENDING_KEYS, Recorder, recorder_for
from kiosk.insights.schema import TABLES, hour_of, origin_of
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

# URL rules (stable, unlike endpoint names) -> page kind ("{name}" from the view arguments), subject
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


def database_path(app: Flask) -> Path | str:
    """``INSIGHTS_DB`` (a file or a ``postgresql://`` address), else the instance folder's file."""
    given = str(app.config.get("INSIGHTS_DB") or "").strip()
    if urlsplit(given).scheme in ("postgresql", "postgres"):
        return given
    if "://" in given:
        raise ValueError(
            f"KIOSK_INSIGHTS_DB={given!r}: a file path or a postgresql:// address is expected "
            "(see docs/insights.md)"
        )
    return Path(given) if given else Path(app.instance_path) / DB_NAME


def recorder() -> Recorder | None:
    """This app's recorder, None with ``KIOSK_INSIGHTS=0``."""
    return current_app.extensions.get(EXTENSION)


def _store(app: Flask) -> Store:
    """The counts' store, for reading (the dashboard, the health check)."""
    return Store(database_path(app))


def _errors_of(store: Store) -> tuple[type[BaseException], ...]:
    """What a store raises when its database cannot be used: SQLite's, the disk's, its driver's."""
    return (sqlite3.Error, OSError, *store.errors)


HEALTH = "kiosk-insights-health"
PROBE_SECONDS = 30.0  # /healthz reads the database at most this often per process

# Words for SQLite's messages, so that a curator knows what to do.
_HINTS = (
    ("not a database", "it is not an SQLite database (damaged, or another file in its place)"),
    ("malformed", "it is damaged"),
    ("locked", "another program has held it locked for longer than the kiosk waits"),
    ("unable to open", "it cannot be opened (a folder in its place, or no permission)"),
    ("readonly", "the server may not write to it"),
    ("no such table", "it is not the kiosk's counts, or is missing tables"),
    ("disk i/o", "the disk failed to read or write it"),
    ("full", "the disk is full"),
)


def _shown(where: Path | str) -> str:
    """The database as messages name it: a file without its folder, an address without secrets."""
    if isinstance(where, Path):
        return where.name
    parts = urlsplit(where)
    return f"{parts.scheme}://{parts.hostname or ''}{parts.path}"


def problem_of(error: BaseException, where: Path | str) -> str:
    """What is wrong with the database, in words a curator acts on (/healthz: no folder named)."""
    if isinstance(error, OSError):
        detail = error.strerror or type(error).__name__
    else:
        detail = " ".join(str(error).replace(str(where), _shown(where)).split())
    words = next((hint for key, hint in _HINTS if key in detail.lower()), "it cannot be used")
    return f"{_shown(where)}: {words} ({type(error).__name__}: {detail})"


class ReadState:
    """Whether this process could last read the database; /healthz probes at most so often."""

    def __init__(self) -> None:
        self.clock: Callable[[], float] = time.monotonic  # the tests drive it
        self.problem = ""
        self.checked = -math.inf
        self._probing = threading.Lock()

    def note(self, problem: str) -> None:
        self.problem, self.checked = problem, self.clock()

    def probe(self, app: Flask) -> None:
        """Read this hour of every table, unless read lately or a probe is under way."""
        if self.clock() - self.checked < PROBE_SECONDS or not self._probing.acquire(False):
            return
        store = _store(app)
        try:
            hour = hour_of()
            for table in TABLES:
                store.rows(table, hour, hour)
        except _errors_of(store) as error:
            self.note(problem_of(error, database_path(app)))
        else:
            self.note("")
        finally:
            self._probing.release()


def _unusable(error: BaseException, state: ReadState) -> Response:
    """503 for a dashboard whose database cannot be read: what is wrong, in plain text."""
    path = database_path(current_app)
    problem = problem_of(error, path)
    state.note(problem)
    logged = path if isinstance(path, Path) else _shown(path)  # an address: no password
    log.error("insights: cannot read the counts in %s: %r", logged, error)
    body = (
        "503 Service Unavailable: the visitor counts cannot be read.\n\n"
        f"The insights database (KIOSK_INSIGHTS_DB) cannot be used.\n{problem}.\n\n"
        "The kiosk's pages are not affected. Each process keeps what it counts in memory "
        f"(up to {MAX_PENDING_KEYS:,} rows) and writes it once the file can be used again. "
        "Restore the file from a backup, or move it aside and the kiosk makes a new one "
        '(docs/insights.md, "When the database cannot be used"). The server\'s log names the '
        "file's folder.\n"
    )
    return Response(body, 503, {"Retry-After": "60"}, mimetype="text/plain")


def health() -> dict[str, Any] | None:
    """The insights part of /healthz (ok, unusable with problems, or off); None without insights."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    state: ReadState | None = app.extensions.get(HEALTH)
    if state is None:
        return None
    counts = recorder()
    dashboard_on = bool(app.config.get("CURATOR_PASSWORD"))
    if counts is None and not dashboard_on:
        return {"status": "off", "counting": False, "problems": []}
    state.probe(app)
    problems = [state.problem] if state.problem else []
    if counts is not None and counts.error is not None:
        problems.insert(0, "writing: " + problem_of(counts.error, database_path(app)))
    return {
        "status": "unusable" if problems else "ok",
        "counting": counts is not None,
        "problems": problems,
    }


def _is_navigation(environ: dict[str, Any]) -> bool:
    """A page a visitor went to, not a fetch or a prefetch (read from the environ: it is cheap)."""
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
    """Count a game event for the play views; False if not counted (off, or unknown settings)."""
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
    """A beacon from insights.js, counted if wholly known; always 204 (nobody reads the answer)."""
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


def _same(given: str | None, expected: str) -> bool:
    """Constant-time comparison (of digests, so the lengths do not show either)."""
    a = hashlib.sha256((given or "").encode()).digest()
    b = hashlib.sha256(expected.encode()).digest()
    return hmac.compare_digest(a, b)


def _curators_only() -> Response | None:
    """404 where there is no dashboard; 429 when locked out; 401 without the right password."""
    password = str(current_app.config.get("CURATOR_PASSWORD") or "")
    if not password or is_kiosk_mode() or is_embed():
        return Response("Not Found", 404)
    guard: FailureGuard = current_app.extensions[GUARD]
    client = client_of(request.remote_addr)
    wait = guard.refused_for(client)
    if wait:
        seconds = max(1, math.ceil(wait))
        return Response(
            f"Too many wrong passwords from your address: try again in {seconds} seconds.\n",
            429,
            {"Retry-After": str(seconds)},
            mimetype="text/plain",
        )
    auth = request.authorization
    if auth is not None and auth.type == "basic":
        right_user = _same(auth.username, CURATOR)
        right_password = _same(auth.password, password)
        if right_user and right_password:
            guard.succeeded(client)
            return None
        locked = guard.failed(client)
        if locked:
            log.warning("insights: wrong curator passwords, a client refused for %d s", locked)
    return Response("Sign in as the curator.", 401, {"WWW-Authenticate": REALM})


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _report(store: Store) -> tuple[report.Report, str]:
    """The period asked for (7 days if unreadable) and its counts, and the period's error."""
    error = ""
    try:
        which = report.period(request.args.get("from"), request.args.get("to"))
    except ValueError as problem:
        error, which = str(problem), report.period()
    return report.build(store, which), error


def _titles() -> dict[str, str]:
    snapshot = content.current()
    titles = {slug: e.record.title for slug, e in snapshot.sets.items()}
    titles.update({slug: e.record.title for slug, e in snapshot.games.items()})
    titles.update({key: e.record.title for key, e in snapshot.scenarios.items()})
    return titles


def _curators_report(
    view: Callable[[report.Report, str], Response],
) -> Callable[[], Response]:
    """A dashboard view: curators only, never cached or indexed, 503 on an unusable database."""

    @functools.wraps(view)
    def guarded() -> Response:
        refused = _curators_only()
        if refused is not None:
            return _private(refused)
        state: ReadState = current_app.extensions[HEALTH]
        store = _store(current_app)
        try:
            found, error = _report(store)
        except _errors_of(store) as problem:
            return _private(_unusable(problem, state))
        state.note("")
        return _private(view(found, error))

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


def insights_event_url() -> str | None:
    """Where base.html's script posts events, while counting is on (whole pages only)."""
    return None if recorder() is None else url_for("insights.event")


def init_app(app: Flask) -> None:
    """Register the dashboard and the event endpoint; count unless ``KIOSK_INSIGHTS=0``."""
    app.extensions[GUARD] = FailureGuard()
    app.extensions[HEALTH] = ReadState()
    path = database_path(app)
    if app.config.get("INSIGHTS", True):
        interval = float(app.config.get("INSIGHTS_FLUSH_SECONDS") or 5)
        app.extensions[EXTENSION] = recorder_for(path, interval, thread=not app.testing)
    app.register_blueprint(bp)
    app.after_request(_count_page_view)
    app.add_template_global(insights_event_url)
