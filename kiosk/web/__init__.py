"""Flask blueprints, one per concern; views stay thin."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register everything: headers, the embed mount, oEmbed and caching first, errors last."""
    from kiosk.web import (  # here: at the top, any `import kiosk.web.x` would load them all
        attract,
        caching,
        cards,
        compress,
        content,
        embed,
        errors,
        health,
        iiif,
        insights,
        modes,
        oembed,
        offsite,
        pages,
        pictures,
        printing,
        rules,
        security,
        teach,
    )
    from kiosk.web.play import flow as play  # here, for the same reason: kiosk.web stays light

    compress.init_app(app)  # first registered, so its after_request runs last
    security.init_app(app)
    embed.init_app(app)
    modes.init_app(app)
    oembed.init_app(app)
    caching.init_app(app)
    content.init_app(app)
    pictures.init_app(app)
    iiif.init_app(app)
    offsite.init_app(app)
    health.init_app(app)
    pages.init_app(app)
    cards.init_app(app)
    play.init_app(app)
    rules.init_app(app)
    printing.init_app(app)
    teach.init_app(app)
    attract.init_app(app)
    insights.init_app(app)
    errors.init_app(app)
