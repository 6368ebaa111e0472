"""Flask blueprints, one per concern; views stay thin."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    from kiosk.web import pages, security

    security.init_app(app)
    pages.init_app(app)
