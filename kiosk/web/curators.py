"""The curators' own pages and the preview bar: what a curator without a terminal needs.

Preview (``KIOSK_PREVIEW=1``, ``kiosk run --preview``) is never on in kiosk mode or inside an
embed (:func:`kiosk.web.content.is_preview`); nothing here is linked from a visitor's page.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask

from kiosk.web import content

bp = Blueprint("curators", __name__)


@bp.app_context_processor
def _preview_context() -> dict[str, Any]:
    """``preview`` for templates: the bar shows only in the curators' preview."""
    return {"preview": content.is_preview()}


def init_app(app: Flask) -> None:
    """Register the curators' pages and the preview bar's context."""
    app.register_blueprint(bp)
