"""The shared face of every rules engine: events, variants, errors, and the engine protocol.

A game is ``deck + options + seed + actions``. Every engine module provides::

    GAME: str                                    # "snap", "happy-families", "snitchems"
    VARIANTS: dict[str, Variant]                 # by variant name; the first is the default
    LEVELS: tuple[str, ...]                      # bot levels, easiest first
    def options_for(variant: str, **overrides) -> Options    # raises OptionsError
    def new_game(deck, options, seed) -> tuple[State, list[Event]]   # the deal's events
    def apply(state, action) -> tuple[State, list[Event]]    # raises IllegalAction
    def legal_actions(state, player) -> list[Action]
    def to_move(state) -> list[int]              # seats the game waits for; [] when over
    def make_bot(level: str, seat: int, seed) -> Bot          # bot.act(view) -> Action
    def view(state, player) -> dict              # what that player may see, JSON-ready
    def places(state) -> dict[str, list[str]]    # every card id in exactly one place
    def public_state(state) -> dict              # counters, scores, turn...: JSON-ready
    def is_over(state) -> bool
    def result(state) -> dict                    # winner(s) and scores, JSON-ready

Optional, used by :mod:`kiosk.games.simulate` and :mod:`kiosk.games.trace` when present::

    LEVEL_OPTION: str                  # the option naming computer seats' level (Snap: "level")
    def default_deck() -> list[Card]   # the deck simulations play with (else standard_deck())
    def kiosk_bound() -> dict          # overrides adding the kiosk's (non-historic) bound
    def check_event(before, event, cards, options, memo) -> str | None
        # why a trace event breaks the rules (None if legal); ``before`` is the places
        # before the event, ``cards`` the header's cards by id, ``memo`` a dict to keep notes

Actions are JSON-ready dicts (``{"type": "turn", "player": 0}``) so a record is plain JSON.
Places are named ``"down:0"``, ``"up:1"``, ``"hand:0"``, ``"pool"``, ``"table"``,
``"tricks:2"``, ``"captured:1"``, ``"stock"``…; each lists card ids bottom first.
An event that moves cards carries ``"moves": [{"cards": [...], "from": P, "to": P,
"at": "top"|"bottom"}]``, the cards listed in the order they lie at the destination
(bottom first), so :func:`apply_moves` can follow any game from its events alone.
All chance comes from the ``random.Random`` inside the state, seeded by ``seed``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from types import ModuleType
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


def apply_moves(places: dict[str, list[str]], events: Iterable[Event]) -> None:
    """Follow events' card moves on a places mapping, checking each card is where it is said."""
    for event in events:
        for move in event.data.get("moves", ()):
            cards, source, dest = move["cards"], move["from"], move["to"]
            pile = places.setdefault(source, [])
            for card in cards:
                try:
                    pile.remove(card)
                except ValueError:
                    raise GameError(f"{event.type}: {card} is not in {source}") from None
            target = places.setdefault(dest, [])
            if move.get("at", "top") == "bottom":
                target[:0] = cards
            else:
                target.extend(cards)


def replay_events(
    module: ModuleType, deck: Any, options: Any, seed: Any, actions: Iterable[Any]
) -> tuple[Any, list[Event]]:
    """Rebuild a game from its record with every event, as the live game produced them."""
    state, events = module.new_game(deck, options, seed)
    for action in actions:
        state, more = module.apply(state, action)
        events.extend(more)
    return state, events
