"""The shared face of every rules engine: events, variants, errors, and the engine protocol.

A game is ``deck + options + seed + actions``. Every engine module provides::

    GAME: str                                   # "snap", "happy-families", "snitchems"
    VARIANTS: dict[str, Variant]                # by variant name, the first is the default
    def options_for(variant: str, **overrides) -> Options   # raises OptionsError
    def new_game(deck, options, seed) -> tuple[State, list[Event]]
    def apply(state, action) -> tuple[State, list[Event]]   # raises IllegalAction
    def legal_actions(state, player) -> list[Action]
    def view(state, player) -> dict            # what that player may see, JSON-ready
    def places(state) -> dict[str, list[str]]  # every card id in exactly one place, bottom first
    def is_over(state) -> bool
    def result(state) -> dict                  # winner(s) and scores, JSON-ready

All chance comes from the ``random.Random`` inside the state, seeded by ``seed``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class GameError(Exception):
    """Base of every error an engine raises on purpose."""


class OptionsError(GameError, ValueError):
    """Options that make no game: one player, two exclusive variants, an unknown name."""


class IllegalAction(GameError, ValueError):
    """An action the rules do not allow in this state."""


@dataclass(frozen=True, slots=True)
class Variant:
    """A named rule variant: options on one engine, with where the rule comes from."""

    name: str  # the slug used in URLs and on the command line, e.g. "snap-pool"
    title: str  # e.g. "Snap Pool"
    description: str  # one line: what is different about it
    source: str  # the seed file and its words, e.g. 'woolworths instruction card, rule 4: "..."'
    options: dict[str, Any] = field(default_factory=dict)
    historic: bool = True  # False for the kiosk's own additions (labelled as such)


@dataclass(frozen=True, slots=True)
class Event:
    """One atomic thing that happened: a card moved, a call made, a pool formed, a player out."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}
