"""Flask blueprints, one per concern; views stay thin."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    from kiosk.web import pages

    pages.init_app(app)
