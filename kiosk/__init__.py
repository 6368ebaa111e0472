"""The Snap & Happy Families museum kiosk."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from kiosk.config import DEFAULTS, ROOT, from_environment


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``KIOSK_*`` environment variables, then ``test_config``."""
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder="static",
    )
    app.config.from_mapping(DEFAULTS)
    app.config.from_mapping(from_environment())
    if test_config is not None:
        app.config.from_mapping(test_config)

    from kiosk import web

    web.init_app(app)
    return app
