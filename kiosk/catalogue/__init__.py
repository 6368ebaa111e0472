"""The curators' content: read, validate, render, store (no Flask here), a module a stage;
``Catalogue`` is the entry point for the web layer and ``kiosk check``.
"""

from kiosk.catalogue.store import Catalogue

__all__ = ["Catalogue"]
