"""The curators' pages and the preview bar; never in kiosk mode or an embed, linked from no
visitor's page.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, abort, render_template
from markupsafe import Markup

from kiosk.catalogue.looks import EMBLEM_ORDER
from kiosk.web import content, modes
from kiosk.web.cardfaces import emblem_svg

bp = Blueprint("curators", __name__)


BAR_LIMIT = 5  # problems listed in the bar; the rest are on /curators/problems


@bp.app_context_processor
def _preview_context() -> dict[str, Any]:
    """The content's problems for the preview bar (only in the curators' preview)."""
    if not modes.is_preview():
        return {}
    snapshot = content.current()
    listed = [*snapshot.problems, *snapshot.warnings]  # what a curator should fix first
    return {"preview_problems": listed[:BAR_LIMIT], "preview_count": len(listed)}


def _curators_only() -> None:
    """404 in kiosk mode and inside an embed: these pages are for curators, not visitors."""
    if modes.is_kiosk_mode() or modes.is_embed():
        abort(404)


@bp.get("/curators/emblems")
def emblems() -> str:
    """Every emblem a card may name with ``emblem:``, with its picture."""
    _curators_only()
    drawn = [(name, Markup(emblem_svg(name))) for name in EMBLEM_ORDER]
    return render_template("curators/emblems.html", emblems=drawn)


@bp.get("/curators/problems")
def problems() -> str:
    """Every content problem, warning and note, for a curator without a terminal."""
    _curators_only()
    snapshot = content.current()
    return render_template(
        "curators/problems.html",
        problems=snapshot.problems,
        warnings=snapshot.warnings,
        remarks=snapshot.remarks,
        files=snapshot.files,
    )


def init_app(app: Flask) -> None:
    """Register the curators' pages and the preview bar's context."""
    app.register_blueprint(bp)
