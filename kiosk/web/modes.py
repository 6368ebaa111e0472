"""The three ways a page is shown, decided in one place: kiosk mode (``KIOSK_MODE``), an embed
(``/embed/``, marked in the environ by kiosk.web.embed) and the curators' preview. It imports
no other ``kiosk.web`` module, so any blueprint may ask without an import cycle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, has_app_context, has_request_context, request

EMBED_KEY = "kiosk.embed"  # the WSGI environ key kiosk.web.embed's middleware sets

EMBED, KIOSK, SITE = "embed", "kiosk", "site"  # where a page is shown (the insights' ``mode``)


def runs_as_kiosk() -> bool:
    """The app is the touchscreen, even under ``/embed/``: off-site links must never open there."""
    return has_app_context() and bool(current_app.config.get("KIOSK_MODE"))


def is_embed() -> bool:
    """This request came in under ``/embed/`` (False outside a request)."""
    return has_request_context() and bool(request.environ.get(EMBED_KEY, False))


def is_kiosk_mode() -> bool:
    """Kiosk mode is on for this response: ``KIOSK_MODE`` set, and not inside an embed."""
    return runs_as_kiosk() and not is_embed()


def is_preview() -> bool:
    """Curators' preview for this request: ``PREVIEW`` on, never in kiosk mode or an embed."""
    if not has_request_context() or not current_app.config.get("PREVIEW"):
        return False
    return not runs_as_kiosk() and not is_embed()


def mode_of(environ: Mapping[str, Any], config: Mapping[str, Any]) -> str:
    """``embed``, ``kiosk`` or ``site``, from an environ (for hooks that read it directly)."""
    if environ.get(EMBED_KEY):
        return EMBED
    return KIOSK if config.get("KIOSK_MODE") else SITE


def mode() -> str:
    """Where this request's page is shown (``site`` or ``kiosk`` outside a request)."""
    environ = request.environ if has_request_context() else {}
    return mode_of(environ, current_app.config)


def template_context() -> dict[str, bool]:
    """The modes as every template sees them."""
    return {"kiosk_mode": is_kiosk_mode(), "embed": is_embed(), "preview": is_preview()}


def init_app(app: Flask) -> None:
    """Give every template ``kiosk_mode``, ``embed`` and ``preview``."""
    app.context_processor(template_context)
