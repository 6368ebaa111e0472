"""What is counted: four tables of counts per hour in a closed vocabulary; the one header value
kept is an embedding site's origin (a school's site, not a person).
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

# table -> its dimension columns (every one part of the primary key); each row also has
# ``hour`` (first) and ``n`` (the count). Integer columns are listed in INTEGER_COLUMNS.
TABLES: dict[str, tuple[str, ...]] = {
    # a page shown: its kind (set, rule, note, …), what it is about, and where it was shown
    "page_views": ("kind", "subject", "mode", "origin"),
    # a game started, finished or abandoned, with how it was set up and how it went
    "games": (
        "event",
        "set_slug",
        "game",
        "variant",
        "level",
        "bots",
        "outcome",
        "length_band",
        "mode",
    ),
    # a rule step-through watched, and the furthest step the visitor reached
    "rule_watches": ("game", "scenario", "furthest", "total", "mode"),
    # the rest: a contested card revealed, a note read, an idle reset, a tap on the attract loop
    "visitor_events": ("event", "subject", "detail", "mode"),
}
INTEGER_COLUMNS = frozenset({"bots", "furthest", "total"})

MODES = ("kiosk", "site", "embed")  # the touchscreen, the plain site, a page in an iframe
GAME_EVENTS = ("started", "finished", "abandoned")
OUTCOMES = ("won", "lost", "shared")  # shared: a draw, or a win shared with the computer
IDLE_RESETS = ("countdown", "home")  # the question ran out; the home page went quiet

# A game's length in moves (the actions in its record), in bands a curator can compare.
LENGTH_BANDS: tuple[tuple[int, str], ...] = (
    (0, "no move"),
    (10, "1-9 moves"),
    (50, "10-49 moves"),
    (200, "50-199 moves"),
)
LONGEST_BAND = "200+ moves"

NO_ORIGIN = "(none)"  # an embed asked for with no Origin or Referer at all
SAME_SITE = "(this site)"  # a link followed inside the frame: the host's origin is not known
MAX_ORIGIN_LENGTH = 200

_hour_cache: tuple[int, str] = (-1, "")


def hour_of(seconds: float | None = None) -> str:
    """The UTC hour a count belongs to, ``YYYY-MM-DDTHH`` (sorted as text, as in time)."""
    global _hour_cache
    now = time.time() if seconds is None else seconds
    index = int(now // 3600)
    cached = _hour_cache
    if cached[0] == index:
        return cached[1]
    text = time.strftime("%Y-%m-%dT%H", time.gmtime(index * 3600))
    _hour_cache = (index, text)
    return text


def length_band(moves: int) -> str:
    """The band of a game's length in moves: ``"10-49 moves"``."""
    for bound, name in LENGTH_BANDS:
        if moves <= bound if bound == 0 else moves < bound:
            return name
    return LONGEST_BAND


def origin_of(header: str | None, own_host: str) -> str:
    """An embedding page's ``scheme://host[:port]`` from Origin or Referer, or a marker word."""
    if not header or header == "null":
        return NO_ORIGIN
    try:
        parts = urlsplit(header.strip())
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return NO_ORIGIN
    if parts.scheme not in ("http", "https") or not host:
        return NO_ORIGIN
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    if netloc == own_host.lower():
        return SAME_SITE
    origin = f"{parts.scheme}://{netloc}"
    return origin if len(origin) <= MAX_ORIGIN_LENGTH else NO_ORIGIN
