"""Configuration: defaults, then ``KIOSK_*`` environment variables, then the factory's mapping."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEV_SECRET = "dev-only-secret-not-for-production"

DEFAULTS: dict[str, Any] = {
    "CONTENT_DIR": str(ROOT / "content"),
    "SECRET_KEY": DEV_SECRET,
    "KIOSK_MODE": False,
    "FRAME_ANCESTORS": "'self'",
    "IDLE_SECONDS": 90,
    "GAME_MAX_AGE": 6 * 60 * 60,
}

_TRUE = {"1", "true", "yes", "on"}


def _coerce(default: Any, raw: str) -> Any:
    if isinstance(default, bool):
        return raw.strip().lower() in _TRUE
    if isinstance(default, int):
        return int(raw)
    return raw


def from_environment(environ: os._Environ[str] | dict[str, str] | None = None) -> dict[str, Any]:
    """Settings from ``KIOSK_<NAME>`` variables (``KIOSK_MODE`` sets ``KIOSK_MODE``)."""
    environ = os.environ if environ is None else environ
    found: dict[str, Any] = {}
    for name, default in DEFAULTS.items():
        key = name if name.startswith("KIOSK_") else f"KIOSK_{name}"
        if key in environ:
            found[name] = _coerce(default, environ[key])
    return found
