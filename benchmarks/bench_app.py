"""The kiosk app for load benchmarks: the product plus a trivial route (the baseline) and stats.

gunicorn loads ``benchmarks.bench_app:make_app()``. The secret comes from
``KIOSK_SECRET_KEY`` (the benchmark sets it, so its own game tokens are valid on the server);
the trivial route and the stats route exist only here, never in the product.
"""

from __future__ import annotations

import os

from flask import Flask

from kiosk import create_app
from kiosk.web.play import flow

TRIVIAL = "/_bench/trivial"
STATS = "/_bench/stats"
FALLBACK_SECRET = "bench-load-secret-not-for-production"


def _trivial() -> str:
    """The cheapest Flask response: the baseline every ratio is measured against."""
    return "ok"


def _stats() -> dict[str, int]:
    """This worker's play state cache counters, so the benchmark can tell hits from misses."""
    cache = flow.state_cache()
    return {"pid": os.getpid(), "hits": cache.hits, "misses": cache.misses, "kept": len(cache)}


def make_app() -> Flask:
    """The kiosk app (``KIOSK_SECRET_KEY`` set, a fixed one if missing) plus the bench routes."""
    os.environ.setdefault("KIOSK_SECRET_KEY", FALLBACK_SECRET)
    app = create_app()
    app.add_url_rule(TRIVIAL, "bench_trivial", _trivial)
    app.add_url_rule(STATS, "bench_stats", _stats)
    return app
