"""The one list of games: each game package's :class:`~kiosk.games.game_type.GameType`.

The kiosk's own games are registered the same way as any other (OpenSpiel's
``register_game``, Datasette's built-in plugins): :func:`register_game`. The built-ins are
imported the first time the list is asked for, so importing the registry stays cheap.
"""

from __future__ import annotations

import importlib
import threading
from types import ModuleType

from kiosk.games.core import OptionsError
from kiosk.games.game_type import GameType

# The packages of the kiosk's own games: each has a ``GAME_TYPE``. The order is the kiosk's
# (a set's first game, the order of the rules index falls back to it).
BUILT_IN = ("kiosk.games.snap", "kiosk.games.happy_families", "kiosk.games.snitchems")

_games: dict[str, GameType] = {}
_lock = threading.Lock()
_built_in_loaded = False


def register_game(game_type: GameType) -> GameType:
    """Add a game to the list (a second game of the same name is refused)."""
    _load_built_in()  # the kiosk's own games stay first, whoever registers first
    with _lock:
        known = _games.get(game_type.name)
        if known is not None and known is not game_type:
            raise ValueError(f"a game named {game_type.name!r} is registered already")
        _games[game_type.name] = game_type
    return game_type


def unregister_game(name: str) -> None:
    """Take a game off the list (tests that register a game of their own)."""
    with _lock:
        _games.pop(name, None)


def _load_built_in() -> None:
    global _built_in_loaded
    if _built_in_loaded:
        return
    _built_in_loaded = True  # first: registering each built-in comes back here
    for path in BUILT_IN:
        register_game(importlib.import_module(path).GAME_TYPE)


def games() -> list[str]:
    """The names of every registered game, the kiosk's own first."""
    _load_built_in()
    return list(_games)


def game(name: str) -> GameType:
    """The game called ``name`` (raises OptionsError naming the known games)."""
    _load_built_in()
    found = _games.get(name)
    if found is None:
        raise OptionsError(f"unknown game {name!r}: choose from {', '.join(_games)}")
    return found


def engine(name: str) -> ModuleType:
    """The rules engine of game ``name`` (raises OptionsError naming the known games)."""
    return game(name).engine
