"""``/healthz`` for operators: the server is up (200), and what the content looks like."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, jsonify

from kiosk.web import content

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    """200 even when degraded: the server answers; the problems tell operators what to fix."""
    snapshot = content.current()
    body = {
        "status": "ok" if snapshot.ok else "degraded",
        "content": {
            "version": snapshot.version,
            "files": snapshot.files,
            "sets": len(snapshot.sets),
            "games": len(snapshot.games),
            "notes": len(snapshot.notes),
            "pages": len(snapshot.pages),
            "problems": [str(problem) for problem in snapshot.problems],
            "warnings": [str(warning) for warning in snapshot.warnings],
        },
    }
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    """Register ``/healthz`` (and the catalogue it reports on, if not there yet)."""
    content.init_app(app)
    app.register_blueprint(bp)
