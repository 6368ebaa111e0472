"""Snitch'ems' rules checked on a written trace, by brute force independent of ``captures_for``:
a trace is checked by other code than the code that played it."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from kiosk.games.cards import Card
from kiosk.games.core import Event, TraceContext
from kiosk.games.snitchems.engine.captures import KINDS, TARGETS


def _header_card(entry: Mapping[str, Any]) -> Card:
    return Card(id=entry["id"], name=entry["name"], match=entry["match"], value=entry["value"])


def _could_capture(hand: list[Card], table: list[Card], several: bool) -> bool:
    """Brute force, independent of :func:`captures_for`: can any card in hand capture?"""
    numbers = [c for c in table if c.value is not None]
    for card in hand:
        if any(c.match == card.match for c in table):
            return True
        if card.value is None:
            continue
        for k in range(1, (len(numbers) if several else 1) + 1):
            for combo in combinations(numbers, k):
                if card.value + sum(c.value or 0 for c in combo) in TARGETS:
                    return True
    return False


def check_event(context: TraceContext, before: Mapping[str, list[str]], event: Event) -> str | None:
    """Why one event breaks the rules, given the places before it (None if it does not)."""
    cards, options, memo = context.cards, context.options, context.memo
    kind = event.type
    event = event.to_json()  # the trace line's own form, as the checks below read it
    pending = memo.pop("play", None)
    if kind == "play":
        memo["play"] = (before, event)
        return None
    if kind == "capture":
        if pending is None or pending[1]["card"] != event["card"]:
            return "a capture must follow the play of its card"
        return _check_capture_event(before, event, cards, options)
    if pending is not None:
        old, play = pending
        hand = [_header_card(cards[c]) for c in old[f"hand:{play['player']}"]]
        table = [_header_card(cards[c]) for c in old.get("table", [])]
        if _could_capture(hand, table, options.get("making_several", True)):
            return f"player {play['player']} laid {play['card']} when a capture was compulsory"
    if kind == "last-capture" and sorted(event["take"]) != sorted(before.get("table", [])):
        return "the last capturer takes every card left on the table"
    return None


def _check_capture_event(
    before: Mapping[str, list[str]],
    event: dict[str, Any],
    cards: Mapping[str, Mapping[str, Any]],
    options: Mapping[str, Any],
) -> str | None:
    table_ids = [c for c in before.get("table", []) if c != event["card"]]
    if not set(event["take"]) <= set(table_ids) or not event["take"]:
        return "a capture takes one or more cards from the table"
    played = _header_card(cards[event["card"]])
    taken = [_header_card(cards[c]) for c in event["take"]]
    table = [_header_card(cards[c]) for c in table_ids]
    if event["kind"] == "pairing":
        if any(c.match != played.match for c in taken):
            return "pairing takes only cards of the played card's rank"
        if options.get("pairing_takes_all", True) and len(taken) != sum(
            c.match == played.match for c in table
        ):
            return "pairing takes every table card of the rank"
        return None
    if event["kind"] not in KINDS:
        return f"unknown capture kind {event['kind']!r}"
    target = int(event["kind"].split("-")[1])
    made = [_header_card(cards[c]) for c in event["made"][1:]]
    if any(c.value is None for c in [played, *made]):
        return "court cards cannot make 8 or 10"
    if played.value + sum(c.value or 0 for c in made) != target:
        return f"the made cards do not add up to {target}"
    if not options.get("making_several", True) and len(made) != 1:
        return "making 8 or 10 uses one table card in this game"
    if event["kind"].startswith("making"):
        return None if {c.id for c in made} == set(event["take"]) else "takes more than made"
    paired = [c for c in taken if c.id not in {m.id for m in made}]
    if not paired or any(c.value != target for c in paired):
        return f"pairing {target}s pairs the made {target} with table {target}s"
    if options.get("pairing_made_takes_all", True) and len(paired) != sum(
        c.value == target for c in table if c.id not in {m.id for m in made}
    ):
        return f"pairing {target}s takes every {target} on the table"
    return None
