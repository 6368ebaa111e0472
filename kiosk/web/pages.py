"""Catalogue pages: home, sets, notes, about."""

from __future__ import annotations

from flask import Blueprint, Flask, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def home() -> str:
    return render_template("pages/home.html")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
