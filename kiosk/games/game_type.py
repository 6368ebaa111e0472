"""What a game is beyond its rules: the descriptor each game folder registers (OpenSpiel's
``GameType``), read by every layer that must know the games. No Flask, no files."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any, Protocol

from kiosk.games.cards import Card
from kiosk.games.core import DeckRefused, Event, GameError, Hearer

EMPTY: Mapping[str, Any] = MappingProxyType({})


class Moment(Protocol):
    """One visible moment of a rule example, as a point is tested on it."""

    events: Sequence[Mapping[str, Any]]  # the step's events as JSON
    marks: Collection[str]  # what the game noted of the action before it was applied


@dataclass(frozen=True)
class Point:
    """Something a rule example can be checked to show: a test on one step, and its words."""

    test: Callable[[Moment], bool]
    words: str  # completes "a <variant> example must show ...": "a snap won"


def has(kind: str, test: Callable[[Mapping[str, Any]], bool] = lambda event: True) -> Callable:
    """A point's test: some event of the step is of type ``kind`` (and passes ``test``)."""
    return lambda moment: any(e["type"] == kind and test(e) for e in moment.events)


@dataclass(frozen=True)
class ScriptField:
    """How a field a curator scripts reaches the engine (a field not described goes as written)."""

    engine_name: str = ""  # the engine's name for it, where that differs ("ms" -> "reaction_ms")
    seat: bool = False  # a player number: 1 to the seats in the file, counted from 0 by the engine
    needed: str = ""  # the action cannot go without it: what it means, for the curator's message


AS_WRITTEN = ScriptField()


@dataclass(frozen=True)
class Scripting:
    """What a rule example (a scripted game, docs/scenarios.md) may write and must show."""

    actions: Mapping[str, tuple[str, ...]]  # the action words a curator writes -> their fields
    points: Mapping[str, Point]  # what an example can say it shows (``shows:``)
    # variant -> the points every example of it shows, whatever else it declares
    required: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # how those fields reach the engine (Snap: a call's ``ms``; Happy Families: a ``target`` seat)
    fields: Mapping[str, ScriptField] = field(default_factory=dict)
    # options a scripted run of ``players`` seats adds (Snap: every seat's calls are scripted)
    options: Callable[[int], Mapping[str, Any]] = lambda players: EMPTY
    # an action completed from the state it is played in (Snap: a call names the card turned)
    prepare: Callable[[Any, dict[str, Any]], dict[str, Any]] = lambda state, action: action
    # what is noted of an action before it is played (Snitch'ems: a capture while it could lay)
    marks: Callable[[Any, dict[str, Any]], frozenset[str]] = lambda state, action: frozenset()
    # words for an onlooker where the live game's own words say nothing (Snap's deal)
    onlooker_words: Callable[[Event, Hearer], str] | None = None


@dataclass(frozen=True)
class GameType:
    """One game, as everything outside its rules engine knows it."""

    name: str  # the one name it has everywhere: URLs, tokens, traces, templates ("snap")
    engine: ModuleType  # the package following :class:`kiosk.games.core.Engine`
    # the one recipe for the deck this game deals from a set's (unflagged) cards, or DeckRefused
    deal_from: Callable[[Sequence[Card]], list[Card]]
    scripting: Scripting
    # the seed files its variants cite (``file`` or ``file, part``) as a visitor sees them named
    sources: Mapping[str, str] = field(default_factory=dict)
    # what the game does by itself when a visitor's seat is to move (None: it waits)
    by_itself: Callable[[Any, int], dict[str, Any] | None] = lambda state, seat: None
    # its place in the lists of games; the first is the game of /sets/<slug>/play
    order: int = 100

    def deck(self, cards: Sequence[Card]) -> list[Card]:
        """The deck this game deals from ``cards``, dealt once to check it (else DeckRefused)."""
        deck = self.deal_from(cards)
        try:
            self.engine.new_game(deck, self.engine.options_for(), 0)
        except GameError as error:
            raise DeckRefused(f"cannot be dealt with these cards ({error})") from None
        return deck

    def next_move(
        self, state: Any, humans: Collection[int], bot_for: Callable[[int], Any]
    ) -> dict[str, Any] | None:
        """The one driver of a game's own moves (a bot's, or by itself); None: it waits."""
        engine = self.engine
        if engine.is_over(state):
            return None
        seats = engine.to_move(state)
        if not seats:
            return None
        seat = seats[0]
        if seat in humans:
            return self.by_itself(state, seat)
        return bot_for(seat).act(engine.view(state, seat))
