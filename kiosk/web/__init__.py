"""Flask blueprints, one per concern; views stay thin."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register every blueprint: headers first, then content, pages, pictures, games, errors."""
    from kiosk.web import (
        cards,
        content,
        errors,
        health,
        pages,
        play,
        play_families,
        play_snitchems,
        rules,
        security,
    )

    security.init_app(app)
    content.init_app(app)
    health.init_app(app)
    pages.init_app(app)
    cards.init_app(app)
    play.init_app(app)
    rules.init_app(app)
    play_families.init_app(app)
    play_snitchems.init_app(app)
    errors.init_app(app)
