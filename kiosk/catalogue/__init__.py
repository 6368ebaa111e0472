"""The curators' content: read, validate, render, store (no Flask here).

The stages are modules named after them, as Pelican names its own; ``Catalogue`` is the
entry point for the web layer and ``kiosk check``.
"""

from __future__ import annotations

from kiosk.catalogue.decks import deck_for, flagged_faces
from kiosk.catalogue.problems import Problem
from kiosk.catalogue.render import render_markdown
from kiosk.catalogue.scenarios import sequence
from kiosk.catalogue.store import Catalogue, Entry, Snapshot

__all__ = [
    "Catalogue",
    "Entry",
    "Problem",
    "Snapshot",
    "deck_for",
    "flagged_faces",
    "render_markdown",
    "sequence",
]
