"""The kiosk app for load benchmarks: the product plus one trivial route as the baseline.

gunicorn loads ``benchmarks.bench_app:make_app()``. The secret comes from
``KIOSK_SECRET_KEY`` (the benchmark sets it, so its own game tokens are valid on the server);
the trivial route exists only here, never in the product.
"""

from __future__ import annotations

import os

from flask import Flask

from kiosk import create_app

TRIVIAL = "/_bench/trivial"
FALLBACK_SECRET = "bench-load-secret-not-for-production"


def _trivial() -> str:
    """The cheapest Flask response: the baseline every ratio is measured against."""
    return "ok"


def make_app() -> Flask:
    """The kiosk app (``KIOSK_SECRET_KEY`` set, a fixed one if missing) plus the trivial route."""
    os.environ.setdefault("KIOSK_SECRET_KEY", FALLBACK_SECRET)
    app = create_app()
    app.add_url_rule(TRIVIAL, "bench_trivial", _trivial)
    return app
