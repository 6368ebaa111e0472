"""Rule scenarios: a scripted game run through its engine and cut into steps (docs/scenarios.md).

A scenario file names a game, a variant, a pack in a given order and the scripted actions.
:func:`run` plays it with the real engine, so a step can never show a rule the engine does
not play. One *step* is one visible moment:

* the first steps are the deal's (the pack, then the deal, then sorting where a game sorts);
* each scripted action starts a new step;
* within an action, a card-moving event starts a new step when the step so far already has
  a card-moving event of another type (a card laid, then captured, are two moments; the
  cards turned together in Speed Snap are one); events that move no card (a call, whose
  turn it is, a sweep) belong to the step they happen in.

Problems come back as ``(key path, message)`` so the store can point at the action or
caption line. No Flask, no I/O here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from kiosk.catalogue.read import KeyPath
from kiosk.games import core, registry, snap
from kiosk.games.cards import Card
from kiosk.games.core import Event, GameError, apply_moves
from kiosk.games.happy_families.words import spoken_deck
from kiosk.games.trace import undo_moves

# The seed files, as a visitor should see them named in an attribution; a text within a file
# (``file, part``) that is not the file's object has a title of its own.
SEED_TITLES = {
    snap.WOOLWORTHS: "Woolworths Snap (MISC.869-1986)",
    # found after the instruction card, but nothing ties it to that pack (issue 13)
    f"{snap.WOOLWORTHS}, {snap.BASIC}": '"The basic rules for the game of SNAP" (a general text)',
    "snap-diagram-group-rules.txt": "The Diagram Group, The Way to Play, p. 304",
    "snitchems-rules.txt": "Snitch'ems card game rules, gamerules.com",
    "twizzles-happy-families-rules.txt": "Twizzles Happy Families, rules card",
}

# Action words a curator writes (``- turn: 1``), per game, and the fields each may carry.
ACTION_FIELDS: dict[str, dict[str, tuple[str, ...]]] = {
    "snap": snap.ACTION_FIELDS,
    "snitchems": registry.engine("snitchems").ACTION_FIELDS,
    "happy-families": registry.engine("happy-families").ACTION_FIELDS,
}

# What a scenario can be checked to show, per game: point -> (test on one step, in words).
Check = Callable[["Step"], bool]


def _has(kind: str, test: Callable[[dict], bool] = lambda e: True) -> Check:
    return lambda step: any(e["type"] == kind and test(e) for e in step.events)


POINTS: dict[str, dict[str, tuple[Check, str]]] = {
    "snap": {
        "snap": (_has("snap"), "a snap won"),
        "centre-snap": (_has("snap", lambda e: e["from"] == ["centre"]), "a snap on the centre"),
        "pool-formed": (_has("pool-formed"), "a pool formed by calls made together"),
        "pool-won": (_has("pool-won"), "a pool won with Snap Pool"),
        "penalty": (_has("penalty", lambda e: e["paid"] > 0), "a mistaken call paid for"),
        "forfeit": (_has("forfeit"), "a forfeit paid"),
        "double-forfeit": (_has("forfeit", lambda e: e["owed"] >= 2), "a double forfeit"),
        "turn-over": (_has("turn-over"), "a face-up pile turned over"),
        "together": (
            lambda s: sum(e["type"] == "turn" for e in s.events) >= 2,
            "every player turning a card at the same moment",
        ),
        "game-over": (_has("game-over"), "the end of the game"),
    },
    "snitchems": {
        "deal": (_has("deal", lambda e: e["number"] >= 2), "a second deal"),
        "pairing": (
            _has("capture", lambda e: e["kind"] == "pairing" and not e["pair_royal"]),
            "a capture by pairing",
        ),
        "pair-royal": (_has("capture", lambda e: e["pair_royal"]), "a pair-royal"),
        "making-8": (_has("capture", lambda e: e["kind"] == "making-8"), "a capture making 8"),
        "making-10": (_has("capture", lambda e: e["kind"] == "making-10"), "a capture making 10"),
        "pairing-made": (
            _has("capture", lambda e: e["kind"].startswith("pairing-")),
            "a made 8 or 10 paired",
        ),
        "compulsory": (
            lambda s: s.compulsory,
            "a capture made although another card could have been laid",
        ),
        "sweep": (_has("sweep"), "a sweep"),
        "last-capture": (_has("last-capture"), "the last capturer taking the table"),
    },
    "happy-families": {
        "give": (_has("give"), "a card handed over"),
        "refuse": (_has("refuse"), "a refusal passing the turn"),
        "trick": (_has("trick", lambda e: not e["at_deal"]), "a family completed and laid down"),
        "hand-over": (_has("hand-over"), "a whole family handed over"),
        "game-over": (_has("game-over"), "the end of the game"),
    },
}

# What every scenario of a variant must show, whatever else it declares.
REQUIRED: dict[tuple[str, str], tuple[str, ...]] = {
    ("snap", "classic"): ("snap",),
    ("snap", "snap-pool"): ("pool-formed",),
    ("snap", "woolworths"): ("pool-formed", "penalty"),
    ("snap", "penalty-card-each"): ("penalty",),
    ("snap", "penalty-face-up-to-pool"): ("penalty",),
    ("snap", "penalty-face-down-to-pool"): ("penalty",),
    ("snap", "forfeits"): ("forfeit",),
    ("snap", "easy"): ("centre-snap",),
    ("snap", "speed"): ("together",),
    ("happy-families", "classic"): ("give", "refuse", "trick"),
    ("happy-families", "variation"): ("hand-over",),
}


@dataclass
class Step:
    """One visible moment: the events in it and the table after it."""

    n: int  # 1-based
    events: list[dict[str, Any]]
    places: dict[str, list[str]]
    public: dict[str, Any]
    action: int | None  # index of the scripted action (None for the deal)
    text: str = ""  # what happened, in plain words, made from the events
    compulsory: bool = False  # a capture made while another card could have been laid
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
    """``file, where`` in a visitor's words: the most particular SEED_TITLES key, then the rest."""
    for key in sorted(SEED_TITLES, key=len, reverse=True):
        if cited == key or cited.startswith(f"{key}, "):
            return SEED_TITLES[key] + cited[len(key) :]
    return cited


def engine_action(game: str, raw: Any, seats: int) -> tuple[dict[str, Any] | None, str | None]:
    """A curator's action (``{turn: 1}``, ``{call: 2, ms: 240}``) → the engine's, or why not."""
    words = ACTION_FIELDS[game]
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
        if key not in raw:
            continue
        value = raw[key]
        if key == "ms":
            action["reaction_ms"] = value
        elif key == "target":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= seats:
                return None, f"target must be a player number from 1 to {seats}"
            action["target"] = value - 1
        else:
            action[key] = value
    if kind in ("call", "call-pool") and "reaction_ms" not in action:
        return None, f"'{kind}' needs 'ms:', how quickly the call came (milliseconds)"
    return action, None


def _moves(event: dict[str, Any]) -> bool:
    return any(m["cards"] for m in event.get("moves", ()))


def _split(events: list[Event]) -> list[list[Event]]:
    """Cut one action's events into visible moments (see the module docstring)."""
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


def _could_lay_instead(module: ModuleType, state: Any, action: dict[str, Any]) -> bool:
    """Snitch'ems: the player held a card that could capture nothing (so had a choice)."""
    if action.get("type") != "capture":
        return False
    table = [state.cards[c] for c in state.places["table"]]
    hand = [state.cards[c] for c in state.places[f"hand:{action['player']}"]]
    return any(not module.captures_for(c, table, state.options) for c in hand)


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
    module = registry.engine(game)
    out = Run(game, variant, players, {})
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
    if game == "happy-families":
        cards = spoken_deck(cards)  # asked for aloud as in the live game: "Twizzle's cap"
    out.cards = {c.id: c for c in cards}
    extra = dict(options)
    extra["shuffle"] = False
    if game == "snap":
        extra["humans"] = tuple(range(players))  # every call is scripted
    extra["players"] = players
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
        if game == "snap" and action["type"] in ("call", "call-pool"):
            action["turn"] = state.turn  # a scripted call is about the card just turned
        compulsory = game == "snitchems" and _could_lay_instead(module, state, action)
        try:
            if module.is_over(state):
                raise GameError("the game is already over")
            state, events = module.apply(state, action)
        except GameError as error:
            out.problems.append((("actions", i), f"actions[{i}]: not allowed here: {error}"))
            return out
        first = len(out.steps)
        _add_steps(out, module, state, follow, events, i)
        if compulsory:
            for step in out.steps[first:]:
                step.compulsory = any(e["type"] == "capture" for e in step.events)
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
            last_of_action=k == len(groups) - 1,
        )
        step.text = describe(out, data)
        out.steps.append(step)


def shown(run_: Run, point: str) -> bool:
    """Whether some step of the run shows ``point``."""
    test = POINTS[run_.game][point][0]
    return any(test(step) for step in run_.steps)


# --------------------------------------------------------------------------- plain words


def _name(r: Run, cid: str) -> str:
    """A card in a sentence: "the 6 of Hearts", or a picture card's historic name quoted."""
    card = r.cards.get(cid)
    if card is None:
        return cid
    return f"the {card.name}" if card.suit else f"“{card.name}”"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def describe(r: Run, events: list[dict[str, Any]]) -> str:
    """What happened in one step, in plain words, from its events alone."""
    words = [w for e in events if (w := _say(r, e))]
    return " ".join(words)


def _say(r: Run, e: dict[str, Any]) -> str:
    t = e["type"]
    if t == "shuffle":
        cards = _plural(len(r.cards), "card")
        return f"The pack: {cards}, face down, in the order this example needs."
    if r.game == "snap" and t == "deal":  # Snap's own words say nothing of the deal
        return (
            "The cards are dealt round one at a time, face down: "
            + ", ".join(f"{seat_name(p)} {_plural(n, 'card')}" for p, n in enumerate(e["hands"]))
            + "."
        )
    return _say_in_words(r, e)


def _say_in_words(r: Run, e: dict[str, Any]) -> str:
    """The live game's words for the event (its engine's ``sentences``), as an onlooker hears
    them: nobody is "you"."""
    names = [seat_name(p) for p in range(r.players)]
    hearer = core.Hearer(names, None, lambda cid: _name(r, cid))
    event = Event(e["type"], {k: v for k, v in e.items() if k != "type"})
    return " ".join(registry.engine(r.game).sentences([event], hearer))


# --------------------------------------------------------------------------- the attract loop


def caption_text(record: Any, step: Step) -> str:
    """A step's caption: the curator's words if given, else what the engine did, in words."""
    given = record.steps.get(step.n)
    if given is None:
        return step.text
    return given if isinstance(given, str) else given.text


def sequence(snapshot: Any) -> list[dict[str, Any]]:
    """Every published scenario, in list order, as plain JSON steps: the attract loop's reel.

    Each item: game, slug, variant, title, deck (the set slug) and steps (n, caption, text,
    places, public). ``/rules/<game>/<slug>/<n>`` shows the same step as a page.
    """
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
