"""``/healthz`` for operators: up, the content's state, the insights database's."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, jsonify

from kiosk.web import content, insights

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    """Always 200: degraded parts must not make a start-up check take working pages away."""
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
    counts = insights.health()
    if counts is not None:
        body["insights"] = counts
        if counts["status"] == "unusable":
            body["status"] = "degraded"
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    """Register ``/healthz`` (and the catalogue it reports on, if not there yet)."""
    content.init_app(app)
    app.register_blueprint(bp)
