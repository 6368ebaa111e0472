"""The curators' own pages and the preview bar: what a curator without a terminal needs.

Preview (``KIOSK_PREVIEW=1``, ``kiosk run --preview``) is never on in kiosk mode or inside an
embed (:func:`kiosk.web.content.is_preview`); nothing here is linked from a visitor's page.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, abort, render_template
from markupsafe import Markup

from kiosk import cardfaces
from kiosk.web import content

bp = Blueprint("curators", __name__)


@bp.app_context_processor
def _preview_context() -> dict[str, Any]:
    """``preview`` for templates: the bar shows only in the curators' preview."""
    return {"preview": content.is_preview()}


def _curators_only() -> None:
    """404 in kiosk mode and inside an embed: these pages are for curators, not visitors."""
    from kiosk.web.attract import is_kiosk_mode
    from kiosk.web.embed import is_embed

    if is_kiosk_mode() or is_embed():
        abort(404)


@bp.get("/curators/emblems")
def emblems() -> str:
    """Every emblem a card may name with ``emblem:``, with its picture."""
    _curators_only()
    drawn = [(name, Markup(cardfaces.emblem_svg(name))) for name in cardfaces.EMBLEM_ORDER]
    return render_template("curators/emblems.html", emblems=drawn)


def init_app(app: Flask) -> None:
    """Register the curators' pages and the preview bar's context."""
    app.register_blueprint(bp)
