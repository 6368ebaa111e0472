"""Snap as the rest of the kiosk knows it: its deck, rule examples, sources, moves by itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kiosk.games.cards import Card
from kiosk.games.core import Event, Hearer, plural
from kiosk.games.game_type import GameType, Point, ScriptField, Scripting, has
from kiosk.games.snap import engine  # this package, still being imported: used as it is
from kiosk.games.snap.engine.options import ACTION_FIELDS, BASIC, DIAGRAM, GAME, WOOLWORTHS
from kiosk.games.snap.engine.rules import can_turn
from kiosk.games.snap.engine.state import SnapState


def deal_from(cards: Sequence[Card]) -> list[Card]:
    """Every card of the set: Snap tolerates missing cards (the seeds say so)."""
    return list(cards)


def by_itself(state: SnapState, seat: int) -> dict[str, Any] | None:
    """What Snap does by itself while a visitor is to move: close a window, Speed Snap's turns."""
    if not can_turn(state):
        return {"type": "close", "player": seat} if state.window is not None else None
    if state.options.speed:
        return {"type": "turn", "player": seat}
    if state.window is not None and state.window.has_to_settle():
        return {"type": "close", "player": seat}
    return None


def _scripted_call(state: SnapState, action: dict[str, Any]) -> dict[str, Any]:
    """A scripted call is about the card just turned."""
    if action["type"] in ("call", "call-pool"):
        return {**action, "turn": state.turn}
    return action


def _deal_words(event: Event, hearer: Hearer) -> str:
    """The deal said to an onlooker (Snap's own words say nothing of it)."""
    if event.type != "deal":
        return ""
    hands = ", ".join(
        f"{hearer.names[p]} {plural(n, 'card')}" for p, n in enumerate(event.data["hands"])
    )
    return f"The cards are dealt round one at a time, face down: {hands}."


def _centre(event: dict[str, Any]) -> bool:
    return event["from"] == ["centre"]


def _together(moment: Any) -> bool:
    return sum(e["type"] == "turn" for e in moment.events) >= 2


SCRIPTING = Scripting(
    actions=ACTION_FIELDS,
    # a scripted call says how quickly it came: who calls first is decided by it
    fields={"ms": ScriptField("reaction_ms", needed="how quickly the call came (milliseconds)")},
    points={
        "snap": Point(has("snap"), "a snap won"),
        "centre-snap": Point(has("snap", _centre), "a snap on the centre"),
        "pool-formed": Point(has("pool-formed"), "a pool formed by calls made together"),
        "pool-won": Point(has("pool-won"), "a pool won with Snap Pool"),
        "penalty": Point(has("penalty", lambda e: e["paid"] > 0), "a mistaken call paid for"),
        "forfeit": Point(has("forfeit"), "a forfeit paid"),
        "double-forfeit": Point(has("forfeit", lambda e: e["owed"] >= 2), "a double forfeit"),
        "turn-over": Point(has("turn-over"), "a face-up pile turned over"),
        "together": Point(_together, "every player turning a card at the same moment"),
        "game-over": Point(has("game-over"), "the end of the game"),
    },
    required={
        "classic": ("snap",),
        "snap-pool": ("pool-formed",),
        "woolworths": ("pool-formed", "penalty"),
        "penalty-card-each": ("penalty",),
        "penalty-face-up-to-pool": ("penalty",),
        "penalty-face-down-to-pool": ("penalty",),
        "forfeits": ("forfeit",),
        "easy": ("centre-snap",),
        "speed": ("together",),
    },
    options=lambda players: {"humans": tuple(range(players))},  # every call is scripted
    prepare=_scripted_call,
    onlooker_words=_deal_words,
)

GAME_TYPE = GameType(
    name=GAME,
    order=1,
    engine=engine,
    deal_from=deal_from,
    scripting=SCRIPTING,
    sources={
        WOOLWORTHS: "Woolworths Snap (MISC.869-1986)",
        # found after the instruction card, but nothing ties it to that pack (issue 13)
        f"{WOOLWORTHS}, {BASIC}": ('"The basic rules for the game of SNAP" (a general text)'),
        DIAGRAM: "The Diagram Group, The Way to Play, p. 304",
    },
    by_itself=by_itself,
)
