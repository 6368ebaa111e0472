"""The Snap & Happy Families museum kiosk.

Nothing heavy is imported here, so ``import kiosk.games.snap.engine`` loads no Flask: ``create_app``
lives in :mod:`kiosk.app` and is looked up from there on first use (``kiosk:create_app``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from kiosk.app import create_app  # on first use: `import kiosk.games` loads no Flask

        return create_app
    raise AttributeError(f"module 'kiosk' has no attribute {name!r}")
