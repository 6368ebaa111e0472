"""The curators' content: read, validate, render, store (no Flask here).

The stages are modules named after them, as Pelican names its own; ``Catalogue`` is the
entry point for the web layer and ``kiosk check``.
"""

from kiosk.catalogue.store import Catalogue

__all__ = ["Catalogue"]
