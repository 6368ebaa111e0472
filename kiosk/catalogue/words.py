"""Visitor-facing words curators may reword in a ``kind: words`` file (defaults here, and
``kiosk check`` refuses a key the kiosk does not use).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DEFAULTS: dict[str, str] = {
    # The attract loop's line over a set that a museum holds (kiosk/web/attract.py).
    "in-the-collection": "In the collection",
}


def word(entries: Mapping[str, Any], key: str) -> str:
    """The curators' wording for ``key`` from the published words files, else the default."""
    for entry in entries.values():
        found = entry.record.words.get(key)
        if found:
            return found
    return DEFAULTS[key]
