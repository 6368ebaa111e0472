"""What each game plugs into the one play flow (docs/play.md): a :class:`PlayGame` says what is the
game's own, the flow does the rest; :class:`TurnGame` adds what the turn games share."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from flask import current_app

from kiosk.catalogue.decks import game_deck
from kiosk.catalogue.game_words import ShownLevel, ShownVariant, game_record, shown_levels
from kiosk.catalogue.game_words import shown_variants as variants_in_words
from kiosk.catalogue.scenarios import Run, Step
from kiosk.catalogue.schema import GameRecord, SetRecord
from kiosk.games import registry
from kiosk.games.cards import Card
from kiosk.games.core import Event
from kiosk.games.game_type import GameType
from kiosk.web import content, tokens
from kiosk.web.cards import card_face, dom_id

HUMAN = 0  # the visitor's seat, in every game
NOT_ON_THE_LIST = "Please choose again: one of those choices was not on the list."


class NotOnTheList(ValueError):
    """A setup form whose choices are not among those offered (the setup again, 400)."""

    def __init__(self, words: str = NOT_ON_THE_LIST) -> None:
        super().__init__(words)
        self.words = words


@dataclass
class Played:
    """A game rebuilt from its record, with what the visitor has picked but not yet played."""

    record: tokens.PlayRecord
    state: Any
    events: list[Event] = field(default_factory=list)
    chosen: Any = None
    why: str | None = None  # what the computer player who just moved was thinking
    recorded: bool = True  # False once the state holds an action the record leaves out
    # the game's own next move as last asked: (state, who it waits for, move); one ask a state
    next_move: tuple[Any, Any, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def level(self) -> str:
        """The computer players' level, as the record's settings name it."""
        return str(self.record.settings.get("level", ""))


class PlayGame:
    """One game's part of the play flow: the setup form, the actions and modes, the view model."""

    engine: ModuleType  # the game's engine (kiosk.games.<game>): its name is the game's slug

    # the pages' meta description: ``{game}`` is the game's title, ``{set}`` the set's
    description: str = "Play {game} against the computer with the cards of {set}."

    def plays(self, set_record: SetRecord) -> bool:
        """Whether the set is played with this game (else its pages are 404)."""
        return self.slug in set_record.games

    def choices(self, set_record: SetRecord, deck: list[Card]) -> dict[str, Any]:
        """The setup page's choices and their defaults (and anything else it says)."""
        raise NotImplementedError

    def start(self, set_record: SetRecord, form: Mapping[str, str]) -> tuple[Any, dict[str, Any]]:
        """The options and the record's settings a setup form asks for (raises NotOnTheList)."""
        raise NotImplementedError

    field: str = "move"  # the form field the table's buttons set (``kind:rest``)
    buttons: tuple[str, ...] = ()  # the kinds of button the table has
    # A race that its own script (static/js/<slug>.js, after play.js) drives: the script says
    # when a table is shown; a tap carries no step (a late one is the engine's to judge); the
    # first table does not tell the deal; the computer players' level is in the options.
    own_script: bool = False

    def encode_action(self, action: dict[str, Any]) -> Any:
        """An engine action as the token writes it (short, JSON-ready)."""
        raise NotImplementedError

    def decode_action(self, item: Any) -> dict[str, Any]:
        """The engine action for a token's item (any error: the flow's BadToken("malformed"))."""
        raise NotImplementedError

    def act(self, game: Played, form: Mapping[str, str]) -> str | None:
        """Do what the visitor's button asks; a note to show, if any (GameError: refused)."""
        raise NotImplementedError

    def table(
        self, game: Played, set_record: SetRecord, setup: Mapping[str, Any], note: str | None
    ) -> dict[str, Any]:
        """Everything the table shows from the visitor's view, with ``note`` among its words."""
        raise NotImplementedError

    def step_table(self, run: Run, step: Step, set_record: SetRecord) -> dict[str, Any]:
        """A rule step's context for the game's own table template, from its places and state."""
        raise NotImplementedError

    def pace_ms(self, game: Played) -> int | None:
        """How long the page waits before it posts "Next" (None: it waits for the visitor)."""
        raise NotImplementedError

    def rules_url(self, setup: Mapping[str, Any], variant: str) -> str:
        """Where "See how it works" goes, made once per setup context (``url_for`` is dear)."""
        return setup["rules_urls"][variant]

    @property
    def slug(self) -> str:
        """The game's one name (its engine's): URLs, templates, CSS, JS, DOM ids."""
        return self.engine.GAME

    @property
    def game_type(self) -> GameType:
        """The game as the registry knows it (kiosk.games.registry)."""
        return registry.game(self.slug)

    @property
    def folder(self) -> Path:
        """The game's folder: ``templates/play/_<slug>.html`` …, ``static/css/<slug>.css`` …"""
        return Path(str(sys.modules[type(self).__module__].__file__)).parent

    @property
    def static_endpoint(self) -> str:
        """Where the game's CSS and JS are served from: its own folder's ``static/``."""
        return f"{blueprint_name(self.slug)}.static"

    def record(self) -> GameRecord | None:
        """The game's file in this request's catalogue (None in a catalogue of sets alone)."""
        games = (entry.record for entry in content.current().games.values())
        return game_record(games, self.engine.GAME)

    def _from_file(self, what: str, make: Any) -> Any:
        """``make(record)``, kept with this request's content snapshot."""
        words, key = content.derived().words, (self.slug, what)
        found = words.get(key)
        if found is None:
            found = words.setdefault(key, make(self.record()))
        return found

    @property
    def title(self) -> str:
        """The game's name as its file's title gives it, so a curator's edit shows here too."""
        return self._from_file("title", lambda r: r.title if r is not None else self.slug)

    def deck(self, set_record: SetRecord) -> list[Card]:
        """The set's deck for this game by its own recipe (DeckRefused when it cannot play it)."""
        return game_deck(set_record, self.slug)

    def variants(self) -> dict[str, ShownVariant]:
        """Every rule variant in the curators' words (the game file's ``variants:``)."""
        return self._from_file("variants", lambda r: variants_in_words(r, self.engine))

    def levels(self) -> list[ShownLevel]:
        """Every computer level in the curators' words (the game file's ``levels:``)."""
        return self._from_file("levels", lambda r: shown_levels(r, self.engine))

    def player_names(self, level: str, count: int) -> list[str]:
        """What ``count`` computer players of ``level`` are called (the game file's names)."""
        shown = next((s for s in self.levels() if s.name == level), None)
        if shown is None:
            return [f"Computer player {n + 1}" for n in range(count)]
        return shown.player_names(count)


class TurnGame(PlayGame):
    """A game played in turns, one computer move per "Next" (``act`` and ``pace_ms`` given)."""

    thinks_aloud: str  # the level whose computer players say why they moved

    def pace_for(self, state: Any) -> int:
        """The pause (ms) after each computer move in ``state``, to read it before the next."""
        raise NotImplementedError

    def wait_words(self, game: Played) -> str:
        """What a tap out of turn is told: "Next" on the visitor's own turn, else their own move."""
        raise NotImplementedError

    def visitor_move(self, game: Played, kind: str, rest: str) -> str | None:
        """The visitor's own move (``kind`` is one of ``buttons``, ``rest`` what follows it)."""
        raise NotImplementedError

    def play(self, game: Played, action: dict[str, Any]) -> None:
        """Apply one engine action and record it (raises IllegalAction)."""
        before = len(game.state.events)
        state, _ = self.engine.apply(game.state, {k: v for k, v in action.items() if k != "why"})
        game.state = state
        game.events = state.events[before:]
        game.record = game.record.plus(self.encode_action(action))

    def computer_move(self, game: Played) -> dict[str, Any] | None:
        """The computer's next move (with its ``why``), from a bot seeded for this moment."""
        seed = f"{tokens.seed_for(game.record.nonce)}:{len(game.record.actions)}"
        return self.game_type.next_move(
            game.state, (HUMAN,), lambda seat: self.engine.make_bot(game.level, seat, seed)
        )

    def act(self, game: Played, form: Mapping[str, str]) -> str | None:
        """ "Next" lets one computer player move; any other button is the visitor's move."""
        kind, _, rest = form.get(self.field, "").partition(":")
        over = self.engine.is_over(game.state)
        if kind == "unpick":
            return None
        if over:
            return "The game is over."
        if kind == "next":
            action = self.computer_move(game)
            if action is None:
                return self.wait_words(game)
            self.play(game, action)
            if game.level == self.thinks_aloud:
                game.why = action.get("why")
            return None
        if game.state.turn != HUMAN:
            return self.wait_words(game)
        return self.visitor_move(game, kind, rest)

    def pace_ms(self, game: Played) -> int | None:
        """A fixed pace while the computer players move (tests may set PLAY_MORE_PACE_MS)."""
        if self.engine.is_over(game.state) or game.state.turn == HUMAN:
            return None
        override = current_app.config.get("PLAY_MORE_PACE_MS")
        return int(override) if override else self.pace_for(game.state)


@dataclass
class Told:
    """The last step told at the seats, as the turn games' tables share it (issue 23's contract)."""

    marks: dict[int, list[str]] = field(default_factory=dict)  # each seat's classes
    outcome: str | None = None  # the region's ``data-outcome``
    sounds: list[str] = field(default_factory=list)

    def mark(self, seat: int, *kinds: str) -> None:
        """Give a seat the classes of what it did (``seat--marked`` first, each kind once)."""
        found = self.marks.setdefault(seat, ["seat--marked"])
        found.extend(f"seat--{k}" for k in kinds if f"seat--{k}" not in found)

    def sound(self, name: str) -> None:
        """Add a sound to play, once, in the order the table shows what made it."""
        if name not in self.sounds:
            self.sounds.append(name)


def packs(places: Mapping[str, list[str]], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """A step's face-down piles in the middle (the pack, cards set aside), named for rules.js."""
    return [
        {
            "kind": kind,
            "label": label,
            "count": len(ids),
            "data": {"card": dom_id(ids[-1]), "place": kind, "up": 0},
        }
        for kind, label in names.items()
        if (ids := places.get(kind))
    ]


def card_view(card: Card) -> dict[str, Any]:
    """A card as the turn tables draw it: its picture, and the class that makes a photo fill it."""
    face = card_face(card.face) if card.face else None
    return {
        "id": card.id,
        "name": card.name,
        "family": card.family,
        "src": face.src if face else None,
        "css": face.css if face else "",
    }


def blueprint_name(slug: str) -> str:
    """The blueprint that serves a game's own folder (templates, static files)."""
    return "play_" + slug.replace("-", "_")


def adapter(slug: str) -> PlayGame | None:
    """The web adapter of game ``slug``, its folder's ``web.GAME`` (None: it has none)."""
    module_name = registry.engine(slug).__name__.removesuffix(".engine") + ".web"
    try:
        module = sys.modules.get(module_name) or importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise  # a real import error inside an adapter must not be hidden
        return None
    found = getattr(module, "GAME", None)
    return found if isinstance(found, PlayGame) else None


def adapters() -> dict[str, PlayGame]:
    """Every game's web adapter in the registry's order (the start-up check names one without)."""
    found = {slug: adapter(slug) for slug in registry.names()}
    return {slug: a for slug, a in found.items() if a is not None}
