"""Find the rules engines by game name, importing each only when it is asked for."""

from __future__ import annotations

import importlib
from types import ModuleType

from kiosk.games.core import OptionsError

# game name -> module path; a module that is not there yet is simply not listed
ENGINES: dict[str, str] = {
    "snap": "kiosk.games.snap",
    "happy-families": "kiosk.games.happy_families",
    "snitchems": "kiosk.games.snitchems",
}

_loaded: dict[str, ModuleType] = {}


def _load(name: str) -> ModuleType | None:
    if name in _loaded:
        return _loaded[name]
    try:
        module = importlib.import_module(ENGINES[name])
    except ModuleNotFoundError as error:
        if error.name != ENGINES[name]:
            raise  # a real import error inside an engine must not be hidden
        return None
    _loaded[name] = module
    return module


def games() -> list[str]:
    """The names of the games whose engine modules are installed."""
    return [name for name in ENGINES if _load(name) is not None]


def engine(name: str) -> ModuleType:
    """The engine module of game ``name`` (raises OptionsError naming the known games)."""
    module = _load(name) if name in ENGINES else None
    if module is None:
        raise OptionsError(f"unknown game {name!r}: choose from {', '.join(games())}")
    return module
