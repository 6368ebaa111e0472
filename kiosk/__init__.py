"""The Snap & Happy Families museum kiosk (``kiosk:create_app``, looked up from kiosk.app on
first use, so ``import kiosk.games.snap.engine`` loads no Flask).
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from kiosk.app import create_app  # on first use: `import kiosk.games` loads no Flask

        return create_app
    raise AttributeError(f"module 'kiosk' has no attribute {name!r}")
