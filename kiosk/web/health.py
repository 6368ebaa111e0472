"""``/healthz`` for operators: the server is up (200), what the content looks like, and whether
the visitor insights' database can be used."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, jsonify

from kiosk.web import content, insights

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    """200 even when degraded: the server answers; the problems tell operators what to fix.

    An unusable insights database degrades it too, and is still 200: every visitor page works
    without it (only the curators' dashboard answers 503), and a load balancer or the gallery
    PC's start-up (which waits for a 200) must not take working pages away for it."""
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
