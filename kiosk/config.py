"""Configuration: defaults, then ``KIOSK_*`` environment variables, then the factory's mapping."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEV_SECRET = "dev-only-secret-not-for-production"

DEFAULTS: dict[str, Any] = {
    "CONTENT_DIR": str(ROOT / "content"),
    "SECRET_KEY": DEV_SECRET,
    "KIOSK_MODE": False,
    # Curators' preview (kiosk run --preview): drafts served, problems shown; never in kiosk mode.
    "PREVIEW": False,
    # Who may frame /embed/ pages (CSP frame-ancestors); other pages only the kiosk itself.
    "FRAME_ANCESTORS": "*",
    "IDLE_SECONDS": 90,  # kiosk mode: quiet this long, then "Are you still there?"
    "COUNTDOWN_SECONDS": 30,  # kiosk mode: that question's countdown before the reset
    "ATTRACT_SLIDE_SECONDS": 10,  # kiosk mode: how long the attract loop shows a set
    "GAME_MAX_AGE": 6 * 60 * 60,
    # How often the content is walked for edits; None: each request in tests or debug, else 1 s.
    "CONTENT_RESCAN_MS": None,
    "PLAY_STATE_CACHE": 256,  # games kept per process (kiosk.web.play.flow.state_cache)
    # A bigger body is refused unread (413); a game's form (its token ≤ 64,000 chars) is smaller.
    "MAX_CONTENT_LENGTH": 256 * 1024,
    "MAX_FORM_MEMORY_SIZE": 128 * 1024,  # one form field
    "MAX_FORM_PARTS": 100,
    # The Host names answered (a leading dot: any subdomain); a hosted server names its own.
    "TRUSTED_HOSTS": ["localhost", "127.0.0.1"],
    # Proxies in front whose X-Forwarded-For and -Proto are believed (never the open internet's).
    "PROXY_FIX": 0,
    # Visitor insights (docs/insights.md); the dashboard only with a CURATOR_PASSWORD.
    "INSIGHTS": True,
    "INSIGHTS_DB": "",
    "INSIGHTS_FLUSH_SECONDS": 5,
    "CURATOR_PASSWORD": "",
    # For tests only, never from the environment: a fixed deal, Snap's turns, the bots' pace (ms).
    "PLAY_NONCE": None,
    "PLAY_MAX_TURNS": None,
    "PLAY_PACE_MS": None,
    "PLAY_MORE_PACE_MS": None,
}
TEST_ONLY = frozenset({"PLAY_NONCE", "PLAY_MAX_TURNS", "PLAY_PACE_MS", "PLAY_MORE_PACE_MS"})

_TRUE = {"1", "true", "yes", "on"}

# Production floors for the kiosk-mode timings: a visitor must get at least 20 s to answer
# "Are you still there?" (issue 6). Under TESTING any value from 1 s is taken as given.
FLOORS = {"IDLE_SECONDS": 10, "COUNTDOWN_SECONDS": 20, "ATTRACT_SLIDE_SECONDS": 3}


def _coerce(default: Any, raw: str, key: str) -> Any:
    if isinstance(default, list):  # names separated by spaces or commas
        return [name for name in raw.replace(",", " ").split() if name]
    if isinstance(default, bool):
        return raw.strip().lower() in _TRUE
    if isinstance(default, int):
        try:
            return int(raw.strip())
        except ValueError:
            raise ValueError(f"{key} must be a whole number, not {raw!r}") from None
    return raw


def kiosk_timings(
    config: Mapping[str, Any], testing: bool = False
) -> tuple[dict[str, int], list[str]]:
    """Kiosk timings raised to their floors (a short countdown resets a slow reader), and why."""
    out: dict[str, int] = {}
    said: list[str] = []
    for name, floor in FLOORS.items():
        raw = config.get(name, DEFAULTS[name])
        try:
            value = int(raw)
        except (TypeError, ValueError):
            said.append(f"{name}={raw!r} is not a whole number of seconds: using the default")
            value = DEFAULTS[name]
        least = 1 if testing else floor
        if value < least:
            said.append(f"{name}={value} is below the minimum of {least} s: using {least}")
            value = least
        out[name] = value
    return out, said


def from_environment(environ: os._Environ[str] | dict[str, str] | None = None) -> dict[str, Any]:
    """Settings from ``KIOSK_<NAME>`` variables (``KIOSK_MODE`` sets ``KIOSK_MODE``)."""
    environ = os.environ if environ is None else environ
    found: dict[str, Any] = {}
    for name, default in DEFAULTS.items():
        if name in TEST_ONLY:
            continue
        key = name if name.startswith("KIOSK_") else f"KIOSK_{name}"
        if key in environ:
            found[name] = _coerce(default, environ[key], key)
    return found
