"""JSON Lines traces of any engine's games, and their checker (docs/trace.md): the writer follows
the cards by the events' moves alone and checks them against the engine's ``places``."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import Any

from kiosk.games.cards import Card
from kiosk.games.core import Event, GameError, TraceContext, apply_moves


class TraceError(GameError):
    """A trace that does not hold together: a lost, duplicated or misplaced card."""


def header(game: str, variant: str, options: Any, seed: Any, deck: Sequence[Card]) -> dict:
    """The first line of a trace."""
    return {
        "game": game,
        "variant": variant,
        "options": options.to_json(),
        "seed": seed,
        "deck": [card.header() for card in deck],
    }


def normalise(places: dict[str, list[str]]) -> dict[str, list[str]]:
    """Places without the empty ones, keys sorted: two equal tables compare equal."""
    return {k: list(v) for k, v in sorted(places.items()) if v}


def undo_moves(places: dict[str, list[str]], events: Sequence[Event]) -> dict[str, list[str]]:
    """Where the cards were before ``events``: each move undone, last first, onto its source."""
    before = {k: list(v) for k, v in places.items()}
    for event in reversed(events):
        for move in reversed(event.data.get("moves", ())):
            dest = before.setdefault(move["to"], [])
            for card in move["cards"]:
                dest.remove(card)
            before.setdefault(move["from"], []).extend(move["cards"])
    return before


def partition_problem(places: dict[str, list[str]], deck_ids: Iterable[str]) -> str | None:
    """None if every deck card is in exactly one place, else what is wrong."""
    seen: dict[str, str] = {}
    for place, cards in places.items():
        for card in cards:
            if card in seen:
                return f"{card} is in both {seen[card]} and {place}"
            seen[card] = place
    ids = set(deck_ids)
    missing = ids - seen.keys()
    extra = seen.keys() - ids
    if missing:
        return f"cards in no place: {', '.join(sorted(missing))}"
    if extra:
        return f"cards not in the deck: {', '.join(sorted(extra))}"
    return None


class Follower:
    """Follows one game's events card by card and turns them into trace lines."""

    def __init__(self, module: ModuleType, state: Any, deal_events: Sequence[Event], deck_ids):
        self.module = module
        self.deck_ids = list(deck_ids)
        self.places = undo_moves(module.places(state), deal_events)
        problem = partition_problem(self.places, self.deck_ids)
        if problem:
            raise TraceError(f"before the deal: {problem}")
        self.seq = 0

    def lines(self, state: Any, events: Sequence[Event], action: dict | None) -> list[dict]:
        """One line per event; then check the followed places against the engine's."""
        out = []
        public = self.module.public_state(state)
        for event in events:
            try:
                apply_moves(self.places, [event])
            except GameError as error:
                raise TraceError(f"seq {self.seq + 1}: {error}") from None
            self.seq += 1
            line = {
                "seq": self.seq,
                "event": event.to_json(),
                "state": {"places": normalise(self.places), **public},
            }
            if action is not None:
                line["action"] = action
            out.append(line)
        engine = normalise(self.module.places(state))
        if normalise(self.places) != engine:
            raise TraceError(
                f"after seq {self.seq}: the events put the cards in "
                f"{normalise(self.places)} but the engine has {engine}"
            )
        return out


def trace_game(
    module: ModuleType,
    deck: Sequence[Card],
    options: Any,
    seed: Any,
    choose: Callable[[Any, int], dict],
    *,
    variant: str | None = None,
    cap: int = 100_000,
) -> Iterator[dict]:
    """Play one game, each action from ``choose(state, seat)``; yield the header and lines."""
    state, events = module.new_game(deck, options, seed)
    cards = getattr(state, "cards", None)
    in_play = list(deck)
    if isinstance(cards, dict) and all(isinstance(c, Card) for c in cards.values()):
        in_play = list(cards.values())  # e.g. Snap's two-deck game
    variant = variant if variant is not None else getattr(options, "variant", "")
    yield header(module.GAME, variant, options, seed, in_play)
    follower = Follower(module, state, events, [c.id for c in in_play])
    yield from follower.lines(state, events, None)
    for _ in range(cap):
        if module.is_over(state):
            return
        seats = module.to_move(state)
        if not seats:
            return
        action = choose(state, seats[0])
        state, events = module.apply(state, action)
        yield from follower.lines(state, events, action)


def bot_chooser(module: ModuleType, players: int, level: str, seed: Any) -> Callable:
    """A ``choose`` for :func:`trace_game` in which every seat is the engine's bot."""
    bots = [module.make_bot(level, seat, f"{seed}:bot{seat}") for seat in range(players)]

    def choose(state: Any, seat: int) -> dict:
        return bots[seat].act(module.view(state, seat))

    return choose


def dumps(line: dict) -> str:
    """One trace line as compact JSON."""
    return json.dumps(line, separators=(",", ":"), ensure_ascii=False)


def check_lines(lines: Iterable[dict], module: ModuleType | None = None) -> int:
    """Check a parsed trace (header first); return the number of event lines, or raise."""
    it = iter(lines)
    head = next(it, None)
    if not isinstance(head, dict):
        raise TraceError("a trace starts with a header line")
    for key in ("game", "variant", "options", "seed", "deck"):
        if key not in head:
            raise TraceError(f"the header has no {key!r}")
    ids = [card["id"] for card in head["deck"]]
    if len(set(ids)) != len(ids):
        raise TraceError("the header's deck lists a card twice")
    check_event = module.check_event if module else None
    context = TraceContext({card["id"]: card for card in head["deck"]}, head["options"])
    places: dict[str, list[str]] | None = None
    seq = 0
    for line in it:
        seq += 1
        for key in ("seq", "event", "state"):
            if key not in line:
                raise TraceError(f"line {seq + 1}: no {key!r}")
        if line["seq"] != seq:
            raise TraceError(f"line {seq + 1}: seq {line['seq']}, expected {seq}")
        event = line["event"]
        after = line["state"]["places"]
        problem = partition_problem(after, ids)
        if problem:
            raise TraceError(f"seq {seq}: {problem}")
        ev = Event(event["type"], {k: v for k, v in event.items() if k != "type"})
        if places is None:
            places = undo_moves(after, [ev])
        before = {k: list(v) for k, v in places.items()}
        if check_event is not None:
            problem = check_event(context, before, ev)
            if problem:
                raise TraceError(f"seq {seq} ({event['type']}): {problem}")
        try:
            apply_moves(places, [ev])
        except GameError as error:
            raise TraceError(f"seq {seq}: {error}") from None
        if normalise(places) != normalise(after):
            raise TraceError(f"seq {seq}: the event's moves do not give the places listed")
    return seq
