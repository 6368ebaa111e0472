"""The application factory: ``create_app`` (also importable as ``kiosk:create_app``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from kiosk import web
from kiosk.config import DEFAULTS, DEV_SECRET, ROOT, from_environment


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Defaults, then ``KIOSK_*`` variables, then ``test_config``; no dev secret in production."""
    app = Flask(
        "kiosk",  # the package: its name for the logger, its folder for static files
        template_folder=str(ROOT / "templates"),
        static_folder="static",
    )
    app.config.from_mapping(DEFAULTS)
    app.config.from_mapping(from_environment())
    if test_config is not None:
        app.config.from_mapping(test_config)
    if app.config["SECRET_KEY"] == DEV_SECRET and not (app.testing or app.debug):
        raise RuntimeError(
            "Refusing to start with the development SECRET_KEY outside debug or testing: "
            "set KIOSK_SECRET_KEY to a long random string (or use `kiosk run`, which makes "
            "one for the process)."
        )

    web.init_app(app)
    return app
