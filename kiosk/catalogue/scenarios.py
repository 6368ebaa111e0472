"""Rule scenarios: a scripted game played by its real engine and cut into steps, one visible
moment each, so a step never shows a rule the engine does not play (docs/scenarios.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from kiosk.catalogue.read import KeyPath
from kiosk.games import core, registry
from kiosk.games.cards import Card
from kiosk.games.core import Event, GameError, apply_moves
from kiosk.games.game_type import AS_WRITTEN, Point
from kiosk.games.trace import undo_moves


def seed_titles() -> dict[str, str]:
    """Every game's seed files (``file`` or ``file, part``) by the title a visitor reads."""
    return {
        key: title
        for name in registry.names()
        for key, title in registry.game(name).sources.items()
    }


def points(game: str) -> dict[str, Point]:
    """What an example of ``game`` can say it shows (``shows:``), by name."""
    return dict(registry.game(game).scripting.points)


def required(game: str, variant: str) -> tuple[str, ...]:
    """What every example of a variant must show, whatever else it declares."""
    return tuple(registry.game(game).scripting.required.get(variant, ()))


@dataclass
class Step:
    """One visible moment: the events in it and the table after it."""

    n: int  # 1-based
    events: list[dict[str, Any]]
    places: dict[str, list[str]]
    public: dict[str, Any]
    action: int | None  # index of the scripted action (None for the deal)
    text: str = ""  # what happened, in plain words, made from the events
    marks: frozenset[str] = frozenset()  # what the game noted of the action (GameType)
    last_of_action: bool = False

    def to_json(self) -> dict[str, Any]:
        """The step as plain JSON (for the attract loop and steps.json)."""
        return {
            "n": self.n,
            "action": self.action,
            "text": self.text,
            "events": self.events,
            "places": self.places,
            "public": self.public,
        }


@dataclass
class Run:
    """A scenario played through its engine: the steps, or the problems that stopped it."""

    game: str
    variant: str
    players: int
    cards: dict[str, Card]
    steps: list[Step] = field(default_factory=list)
    problems: list[tuple[KeyPath, str]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)


def seat_name(seat: int) -> str:
    """Seats count from 0 in the engines and from 1 on the page."""
    return f"Player {seat + 1}"


def split_source(source: str) -> tuple[str, str]:
    """A Variant's source ``file, where: "words"`` → (attribution, quoted words)."""
    m = re.match(
        r'^(?P<file>[\w.-]+\.txt)(?:,\s*(?P<where>[^:"]*))?:?\s*(?P<quote>".*)$', source, re.S
    )
    if not m:
        return "", source
    where = (m["where"] or "").strip()
    return attribution(f"{m['file']}, {where}" if where else m["file"]), m["quote"].strip()


def attribution(cited: str) -> str:
    """``file, where`` in a visitor's words: the most particular seed title, then the rest."""
    titles = seed_titles()
    for key in sorted(titles, key=len, reverse=True):
        if cited == key or cited.startswith(f"{key}, "):
            return titles[key] + cited[len(key) :]
    return cited


def engine_action(game: str, raw: Any, seats: int) -> tuple[dict[str, Any] | None, str | None]:
    """A curator's action (``{turn: 1}``, ``{call: 2, ms: 240}``) → the engine's, or why not."""
    scripting = registry.game(game).scripting
    words = scripting.actions
    if isinstance(raw, str) and raw in words:
        return None, f"'{raw}' needs a player: write '{raw}: 1'"
    if not isinstance(raw, dict):
        return None, f"an action is 'word: player', one of: {', '.join(words)}"
    kinds = [k for k in raw if k in words]
    if len(kinds) != 1:
        return None, f"an action needs exactly one of: {', '.join(words)}"
    kind = kinds[0]
    extra = sorted(set(raw) - {kind, *words[kind]}, key=str)
    if extra:
        return None, f"unknown field '{extra[0]}' for '{kind}' (may have: " + (
            ", ".join(words[kind]) or "nothing else"
        ) + ")"
    player = raw[kind]
    if isinstance(player, bool) or not isinstance(player, int) or not 1 <= player <= seats:
        return None, f"'{kind}' needs a player number from 1 to {seats}, not {player!r}"
    action: dict[str, Any] = {"type": kind, "player": player - 1}
    for key in words[kind]:
        spec = scripting.fields.get(key, AS_WRITTEN)
        if key not in raw:
            if spec.needed:
                return None, f"'{kind}' needs '{key}:', {spec.needed}"
            continue
        value = raw[key]
        if spec.seat:
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= seats:
                return None, f"{key} must be a player number from 1 to {seats}"
            value -= 1
        action[spec.engine_name or key] = value
    return action, None


def _moves(event: dict[str, Any]) -> bool:
    return any(m["cards"] for m in event.get("moves", ()))


def _split(events: list[Event]) -> list[list[Event]]:
    """One action's events as moments: a card moved by a new type of event starts the next."""
    groups: list[list[Event]] = []
    current: list[Event] = []
    moved: str | None = None
    for event in events:
        moving = _moves(event.to_json())
        if moving and moved is not None and event.type != moved:
            groups.append(current)
            current, moved = [], None
        current.append(event)
        if moving and moved is None:
            moved = event.type
    if current:
        groups.append(current)
    return groups


def run(
    game: str,
    variant: str,
    deck: list[Card],
    order: Sequence[str],
    players: int,
    options: dict[str, Any],
    actions: Sequence[Any],
    seed: Any = 0,
) -> Run:
    """Play the scenario through the engine; steps with places after each, or problems."""
    game_type = registry.game(game)
    module, scripting = game_type.engine, game_type.scripting
    out = Run(game, variant, players, {})
    try:
        # the game's own recipe, as the live game deals it: "Twizzle's cap" asked for aloud
        deck = game_type.deal_from(deck)
    except GameError as error:
        out.problems.append((("deck",), f"deck: {error}"))
        return out
    by_id = {c.id: c for c in deck}
    for i, cid in enumerate(order):
        if cid not in by_id:
            out.problems.append((("cards", i), f"cards[{i}]: no card '{cid}' in this pack"))
    seen: set[str] = set()
    for i, cid in enumerate(order):
        if cid in seen:
            out.problems.append((("cards", i), f"cards[{i}]: '{cid}' is listed twice"))
        seen.add(cid)
    if out.problems:
        return out
    cards = [by_id[c] for c in order]
    out.cards = {c.id: c for c in cards}
    extra = {**options, **scripting.options(players), "shuffle": False, "players": players}
    try:
        opts = module.options_for(variant, **extra)
        out.options = opts.to_json()
        state, events = module.new_game(cards, opts, seed)
    except GameError as error:
        out.problems.append((("options",), f"the game cannot start: {error}"))
        return out
    follow = undo_moves(module.places(state), events)
    _add_steps(out, module, state, follow, events, None)
    for i, raw in enumerate(actions):
        action, why = engine_action(game, raw, players)
        if action is None:
            out.problems.append((("actions", i), f"actions[{i}]: {why}"))
            return out
        action = scripting.prepare(state, action)
        marks = scripting.marks(state, action)
        try:
            if module.is_over(state):
                raise GameError("the game is already over")
            state, events = module.apply(state, action)
        except GameError as error:
            out.problems.append((("actions", i), f"actions[{i}]: not allowed here: {error}"))
            return out
        _add_steps(out, module, state, follow, events, i, marks)
        engine = {k: v for k, v in module.places(state).items() if v}
        if {k: v for k, v in follow.items() if v} != engine:  # pragma: no cover - engine bug
            out.problems.append((("actions", i), f"actions[{i}]: the events lost a card"))
            return out
    return out


def _add_steps(
    out: Run,
    module: ModuleType,
    state: Any,
    follow: dict[str, list[str]],
    events: list[Event],
    action: int | None,
    marks: frozenset[str] = frozenset(),
) -> None:
    public = module.public_state(state)
    groups = _split(events)
    for k, group in enumerate(groups):
        apply_moves(follow, group)
        data = [e.to_json() for e in group]
        step = Step(
            n=len(out.steps) + 1,
            events=data,
            places={p: list(c) for p, c in follow.items()},
            public=public,  # counters are read once per action: a mid-action step shares them
            action=action,
            marks=marks,
            last_of_action=k == len(groups) - 1,
        )
        step.text = describe(out, data)
        out.steps.append(step)


def shown(run_: Run, point: str) -> bool:
    """Whether some step of the run shows ``point``."""
    test = registry.game(run_.game).scripting.points[point].test
    return any(test(step) for step in run_.steps)


def _name(r: Run, cid: str) -> str:
    """A card in a sentence: "the 6 of Hearts", or a picture card's historic name quoted."""
    card = r.cards.get(cid)
    if card is None:
        return cid
    return f"the {card.name}" if card.suit else f"“{card.name}”"


def describe(r: Run, events: list[dict[str, Any]]) -> str:
    """What happened in one step, in plain words, from its events alone."""
    words = [w for e in events if (w := _say(r, e))]
    return " ".join(words)


def _say(r: Run, e: dict[str, Any]) -> str:
    """The event as an onlooker hears it: the engine's ``sentences``, else the onlooker words."""
    if e["type"] == "shuffle":
        return core.scripted_pack(len(r.cards))
    names = [seat_name(p) for p in range(r.players)]
    hearer = core.Hearer(names, None, lambda cid: _name(r, cid))
    event = Event(e["type"], {k: v for k, v in e.items() if k != "type"})
    game_type = registry.game(r.game)
    said = " ".join(game_type.engine.sentences([event], hearer))
    onlooker = game_type.scripting.onlooker_words
    return said or (onlooker(event, hearer) if onlooker else "")


def caption_text(record: Any, step: Step) -> str:
    """A step's caption: the curator's words if given, else what the engine did, in words."""
    given = record.steps.get(step.n)
    if given is None:
        return step.text
    return given if isinstance(given, str) else given.text


def sequence(snapshot: Any) -> list[dict[str, Any]]:
    """Every published scenario's steps as plain JSON, in list order: the attract loop's reel."""
    out = []
    for key, entry in snapshot.scenarios.items():
        run_ = snapshot.runs.get(key)
        if run_ is None:
            continue
        record = entry.record
        out.append(
            {
                "game": record.game,
                "slug": record.slug,
                "variant": record.variant,
                "title": record.title,
                "deck": record.deck,
                "steps": [{**s.to_json(), "caption": caption_text(record, s)} for s in run_.steps],
            }
        )
    return out
