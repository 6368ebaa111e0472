"""What one Snitch'ems player may see: their own hand, the table, every captured card."""

from __future__ import annotations

from typing import Any

from kiosk.games.snitchems.engine.captures import rank_of
from kiosk.games.snitchems.engine.options import GAME
from kiosk.games.snitchems.engine.rules import State, legal_actions, public_state


def _redact(event: dict[str, Any], player: int) -> dict[str, Any]:
    """An event as one player saw it: the other hand's cards are dealt face down."""
    if event["type"] != "deal":
        return {k: v for k, v in event.items() if k != "moves"}
    mine = f"hand:{player}"
    counts = [0, 0]
    own: list[str] = []
    table: list[str] = []
    for move in event["moves"]:
        if move["to"] == "table":
            table.extend(move["cards"])
        else:
            counts[int(move["to"].split(":")[1])] += len(move["cards"])
            if move["to"] == mine:
                own.extend(move["cards"])
    return {
        "type": "deal",
        "dealer": event["dealer"],
        "number": event["number"],
        "counts": counts,
        "mine": own,
        "table": table,
    }


def view(state: State, player: int) -> dict[str, Any]:
    """What one player may see: own hand, the table, every captured card (all were shown)."""
    return {
        "game": GAME,
        "me": player,
        "deck": [
            {"id": c.id, "name": c.name, "rank": rank_of(c), "value": c.value}
            for c in state.cards.values()
        ],
        "options": {k: v for k, v in state.options.to_json().items() if k != "dealer"},
        "hand": list(state.places[f"hand:{player}"]),
        "table": list(state.places["table"]),
        "captured": [list(state.places["captured:0"]), list(state.places["captured:1"])],
        "log": [_redact(e.to_json(), player) for e in state.events],
        "legal": legal_actions(state, player),
        **public_state(state),
    }
