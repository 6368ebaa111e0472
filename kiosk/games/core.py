"""The shared face of every rules engine (events, variants, errors, the :class:`Engine` protocol)
and what several engines do alike, written once. A game is ``deck + options + seed + actions``;
places, moves and events are described in docs/trace.md."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from types import ModuleType
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

from kiosk.games.cards import Card


class GameError(Exception):
    """Base of every error an engine raises on purpose."""


class OptionsError(GameError, ValueError):
    """Options that make no game: one player, two exclusive variants, an unknown name."""


class IllegalAction(GameError, ValueError):
    """An action the rules do not allow in this state."""


class DeckRefused(GameError, ValueError):
    """A set's cards that cannot deal this game; the words say why, for a curator."""


@dataclass(frozen=True, slots=True)
class Variant:
    """A named rule variant and its source; what visitors read of it is the content file's."""

    name: str  # the slug used in URLs and on the command line, e.g. "snap-pool"
    source: str  # the seed file and its words, e.g. 'woolworths instruction card, rule 4: "..."'
    options: dict[str, Any] = field(default_factory=dict)
    historic: bool = True  # False for the kiosk's own additions (labelled as such)


def variants_by_name(*variants: Variant) -> dict[str, Variant]:
    """A game's ``VARIANTS`` by their own names (the first the default): none written twice."""
    named = {variant.name: variant for variant in variants}
    if len(named) != len(variants):
        raise ValueError("two variants share a name")
    return named


Options = TypeVar("Options")


def variant_options(
    options_type: type[Options],
    title: str,
    variants: Mapping[str, Variant],
    variant: str,
    overrides: Mapping[str, Any],
    check: Callable[[Options], None],
) -> Options:
    """A variant's options with overrides, checked, so a bad choice fails early naming the game."""
    if variant not in variants:
        known = ", ".join(variants)
        raise OptionsError(f"unknown {title} variant {variant!r} (known: {known})")
    names = {f.name for f in fields(options_type)}
    unknown = sorted(set(overrides) - names)
    if unknown:
        raise OptionsError(f"unknown {title} option(s): {', '.join(unknown)}")
    options = options_type(**{**variants[variant].options, **overrides})
    check(options)
    return options


def options_from_mapping(data: Any, options_for: Callable[..., Options]) -> Options:
    """Options back from their ``to_json()`` (a game token's): the first variant, every field."""
    if not isinstance(data, Mapping):
        raise OptionsError("options are a mapping of names to values")
    return options_for("classic", **data)


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


def copy_places(places: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """Every place with a list of its own, so moving cards in one copy leaves the other alone."""
    return {name: list(pile) for name, pile in places.items()}


def copy_rng(rng: random.Random) -> random.Random:
    """A generator that draws what ``rng`` would, apart from it: a state's copy needs its own."""
    other = random.Random(0)  # any seed: setstate replaces it (no seed reads the OS's entropy)
    other.setstate(rng.getstate())
    return other


@dataclass(kw_only=True)
class CardTable:
    """One moment of a game as named places with its own event log (the turn games' states)."""

    cards: dict[str, Card]
    options: Any  # the game's own options dataclass
    seed: Any
    rng: random.Random = field(compare=False, repr=False)
    places: dict[str, list[str]]
    dealer: int
    turn: int
    events: list[Event] = field(default_factory=list)
    record: list[dict[str, Any]] = field(default_factory=list)

    def clone(self) -> Self:
        """A copy safe to change: cards, options and past events are shared; lists are copied."""
        return replace(
            self,
            rng=copy_rng(self.rng),
            places=copy_places(self.places),
            events=list(self.events),
            record=list(self.record),
        )


def places(state: CardTable) -> dict[str, list[str]]:
    """Every card id in exactly one place, bottom first: a copy, the state's own stays as it is."""
    return copy_places(state.places)


def move_cards(state: CardTable, cards: list[str], source: str, dest: str) -> dict[str, Any]:
    """Move cards onto the top of another place, and the move as events carry it."""
    pile = state.places[source]
    for card in cards:
        pile.remove(card)
    state.places[dest].extend(cards)
    return {"cards": list(cards), "from": source, "to": dest, "at": "top"}


def emit(state: CardTable, out: list[Event], type_: str, **data: Any) -> None:
    """One event, both in what this step returns and in the state's own log."""
    event = Event(type_, data)
    out.append(event)
    state.events.append(event)


def replay_events(
    module: ModuleType, deck: Any, options: Any, seed: Any, actions: Iterable[Any]
) -> tuple[Any, list[Event]]:
    """Rebuild a game from its record with every event, as the live game produced them."""
    state, events = module.new_game(deck, options, seed)
    for action in actions:
        state, more = module.apply(state, action)
        events.extend(more)
    return state, events


def plural(n: int, word: str) -> str:
    """ "1 card", "4 cards"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def scripted_pack(cards: int) -> str:
    """A rule example's shuffle in words: no chance, its cards lie in the order it needs."""
    return f"The pack: {plural(cards, 'card')}, face down, in the order this example needs."


@dataclass(frozen=True)
class Hearer:
    """Who the words are for ("you"; None: an onlooker), with everyone's names and the cards'."""

    names: Sequence[str]
    me: int | None = None
    card_name: Callable[[str], str] = str
    extra: Mapping[str, Any] = field(default_factory=dict)

    def who(self, seat: int) -> str:
        """A player as the subject of a sentence: "You" or their name."""
        return "You" if seat == self.me else self.names[seat]

    def whom(self, seat: int) -> str:
        """A player as the object of a sentence: "you" or their name."""
        return "you" if seat == self.me else self.names[seat]

    def does(self, seat: int, verb: str, verbs: str) -> str:
        """The player and the verb that agrees with them: "You ask", "Dreamy Dan asks"."""
        return f"{self.who(seat)} {verb if seat == self.me else verbs}"


Phrase = Callable[[Event, Hearer], str]  # one kind of event in words, as a hearer hears it


class Phrasebook:
    """A game's phrases, one per event type, said one way for every game (none: not said)."""

    def __init__(self) -> None:
        self.phrases: dict[str, Phrase] = {}

    def says(self, *types: str) -> Callable[[Phrase], Phrase]:
        """A decorator: the function it decorates is the phrase for events of ``types``."""

        def register(phrase: Phrase) -> Phrase:
            for type_ in types:
                if type_ in self.phrases:
                    raise ValueError(f"two phrases for {type_!r} events")
                self.phrases[type_] = phrase
            return phrase

        return register

    def words(self, event: Event, hearer: Hearer) -> str:
        """One event as ``hearer`` hears it ("" for what nobody says aloud)."""
        phrase = self.phrases.get(event.type)
        return phrase(event, hearer) if phrase else ""

    def sentences(self, events: Iterable[Event], hearer: Hearer) -> list[str]:
        """Each event that says something, in words, in order."""
        return [words for event in events if (words := self.words(event, hearer))]


class SeatBot:
    """A computer seat acting on its own view with a seeded RNG of its own, so games replay."""

    GAME: ClassVar[str]  # the game's slug, which seeds the bot's RNG
    TITLE: ClassVar[str]  # the game's name, in the error for an unknown level
    LEVELS: ClassVar[tuple[str, ...]]

    def __init__(self, level: str, seat: int, seed: Any = 0) -> None:
        if level not in self.LEVELS:
            raise GameError(f"unknown {self.TITLE} level {level!r} (known: {self.LEVELS})")
        self.level = level
        self.seat = seat
        self.rng = random.Random(f"{self.GAME}-bot:{level}:{seat}:{seed}")

    @staticmethod
    def moves(view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The legal actions the view offers; a bot asked to move with none is the caller's bug."""
        legal = view["legal"]
        if not legal:
            raise GameError("the bot was asked to move when it has no move")
        return legal


@dataclass(frozen=True, slots=True)
class TraceContext:
    """What a trace's events are checked with; ``memo`` keeps a game's notes between events."""

    cards: Mapping[str, Mapping[str, Any]]
    options: Mapping[str, Any]
    memo: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Engine(Protocol):
    """What every game's top module provides: a module satisfies a Protocol by its names."""

    GAME: str  # the game's slug, the one name it has everywhere: "snap", "happy-families"
    VARIANTS: Mapping[str, Variant]  # by variant name; the first is the default
    LEVELS: tuple[str, ...]  # computer players' levels, easiest first
    LEVEL_OPTION: str  # the option naming the computer seats' level
    ACTION_FIELDS: Mapping[str, tuple[str, ...]]  # action type -> the fields it may carry

    def options_for(self, variant: str = ..., **overrides: Any) -> Any:
        """A variant's options (a frozen dataclass) with overrides; raises OptionsError."""

    def options_from_json(self, data: Mapping[str, Any]) -> Any:
        """Options back from ``options.to_json()``; raises OptionsError."""

    def default_deck(self) -> list[Any]:
        """The deck simulations and tests play with."""

    def kiosk_bound(self) -> dict[str, Any]:
        """Option overrides adding the kiosk's own (non-historic) bound on a game's length."""

    def new_game(self, deck: Any, options: Any, seed: Any) -> tuple[Any, list[Event]]:
        """The dealt state and the deal's events."""

    def apply(self, state: Any, action: Mapping[str, Any]) -> tuple[Any, list[Event]]:
        """The next state and what happened (``state`` unchanged; a refusal is IllegalAction)."""

    def replay(self, deck: Any, options: Any, seed: Any, actions: Iterable[Any]) -> Any:
        """The state the live game reached after ``actions`` (as ``apply`` would build it)."""

    def legal_actions(self, state: Any, player: int) -> list[dict[str, Any]]:
        """Every action ``player`` may take now."""

    def to_move(self, state: Any) -> list[int]:
        """The seats the game waits for; [] when it is over."""

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> dict[str, Any]:
        """Winner(s) and scores, JSON-ready."""

    def view(self, state: Any, player: int) -> dict[str, Any]:
        """What ``player`` may see, JSON-ready: never another hand's faces or the stock order."""

    def places(self, state: Any) -> dict[str, list[str]]:
        """Every card id in exactly one place."""

    def public_state(self, state: Any) -> dict[str, Any]:
        """Counters, scores, whose turn...: what anyone at the table can see, JSON-ready."""

    def make_bot(self, level: str, seat: int, seed: Any = ...) -> Any:
        """A computer player: ``bot.act(view) -> action``."""

    def sentences(self, events: Sequence[Event], hearer: Hearer) -> list[str]:
        """The events that say something, as ``hearer`` hears them: the one place for words."""

    def check_event(
        self, context: TraceContext, before: Mapping[str, list[str]], event: Event
    ) -> str | None:
        """Why a trace event breaks the rules (None if legal), given the places before it."""


def missing_from(module: ModuleType) -> list[str]:
    """The names of :class:`Engine` that ``module`` lacks (an empty list: it follows it)."""
    wanted = set(Engine.__annotations__) | {
        name for name, value in vars(Engine).items() if callable(value) and not name.startswith("_")
    }
    return sorted(name for name in wanted if not hasattr(module, name))
