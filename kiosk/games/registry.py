"""The one list of games: each folder of this package whose ``engine`` has a ``GAME_TYPE``, found,
not listed; the first ask imports them, so importing the registry stays cheap."""

from __future__ import annotations

import importlib.util
import pkgutil
import threading
from types import ModuleType

import kiosk.games as package
from kiosk.games.core import OptionsError
from kiosk.games.game_type import GameType

_games: dict[str, GameType] = {}
_lock = threading.RLock()


def _found() -> dict[str, GameType]:
    """Every game's ``GAME_TYPE`` in ``order``, made whole before shown (other threads ask too)."""
    global _games
    if _games:  # found already: every request asks
        return _games
    with _lock:
        if not _games:
            found = []
            for folder in pkgutil.iter_modules(package.__path__):
                engine = f"{package.__name__}.{folder.name}.engine"
                if folder.ispkg and importlib.util.find_spec(engine) is not None:
                    found.append(importlib.import_module(engine).GAME_TYPE)
            _games = {g.name: g for g in sorted(found, key=lambda g: (g.order, g.name))}
        return _games


def forget() -> None:
    """Look for the game folders again on the next ask (tests that add a folder of their own)."""
    global _games
    with _lock:
        _games = {}


def names() -> list[str]:
    """The names of every game, in the kiosk's order."""
    return list(_found())


def game(name: str) -> GameType:
    """The game called ``name`` (raises OptionsError naming the known games)."""
    found = _found().get(name)
    if found is None:
        raise OptionsError(f"unknown game {name!r}: choose from {', '.join(_games)}")
    return found


def engine(name: str) -> ModuleType:
    """The rules engine of game ``name`` (raises OptionsError naming the known games)."""
    return game(name).engine
