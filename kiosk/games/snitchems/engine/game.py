"""Snitch'ems as the rest of the kiosk knows it: a standard pack, its rule examples, sources."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kiosk.games.cards import Card, standard_deck
from kiosk.games.core import DeckRefused
from kiosk.games.game_type import GameType, Point, Scripting, has
from kiosk.games.snitchems import engine as engine  # this package, still being imported
from kiosk.games.snitchems.engine.captures import captures_for
from kiosk.games.snitchems.engine.options import ACTION_FIELDS, GAME

STANDARD_IDS = frozenset(card.id for card in standard_deck())
COULD_LAY = "could-lay"  # the player held a card that could capture nothing: they had a choice


def deal_from(cards: Sequence[Card]) -> list[Card]:
    """The whole standard pack, as the 1797 game is played."""
    ids = [card.id for card in cards]
    if len(ids) != len(STANDARD_IDS) or set(ids) != STANDARD_IDS:
        raise DeckRefused(
            "needs a standard pack of 52, so the kiosk does not offer it: write"
            " deck: standard-52, or remove the game"
        )
    return list(cards)


def marks(state: Any, action: dict[str, Any]) -> frozenset[str]:
    """A capture made while another card in hand could have been laid (capture is compulsory)."""
    if action.get("type") != "capture":
        return frozenset()
    table = [state.cards[c] for c in state.places["table"]]
    hand = [state.cards[c] for c in state.places[f"hand:{action['player']}"]]
    could_lay = any(not captures_for(c, table, state.options) for c in hand)
    return frozenset({COULD_LAY}) if could_lay else frozenset()


def _compulsory(moment: Any) -> bool:
    return COULD_LAY in moment.marks and any(e["type"] == "capture" for e in moment.events)


def _capture(kind: str, pair_royal: bool | None = None) -> Any:
    def test(event: dict[str, Any]) -> bool:
        return event["kind"] == kind and (pair_royal is None or event["pair_royal"] == pair_royal)

    return has("capture", test)


SCRIPTING = Scripting(
    actions=ACTION_FIELDS,
    points={
        "deal": Point(has("deal", lambda e: e["number"] >= 2), "a second deal"),
        "pairing": Point(_capture("pairing", pair_royal=False), "a capture by pairing"),
        "pair-royal": Point(has("capture", lambda e: e["pair_royal"]), "a pair-royal"),
        "making-8": Point(_capture("making-8"), "a capture making 8"),
        "making-10": Point(_capture("making-10"), "a capture making 10"),
        "pairing-made": Point(
            has("capture", lambda e: e["kind"].startswith("pairing-")), "a made 8 or 10 paired"
        ),
        "compulsory": Point(
            _compulsory, "a capture made although another card could have been laid"
        ),
        "sweep": Point(has("sweep"), "a sweep"),
        "last-capture": Point(has("last-capture"), "the last capturer taking the table"),
    },
    marks=marks,
)

GAME_TYPE = GameType(
    name=GAME,
    order=3,
    engine=engine,
    deal_from=deal_from,
    scripting=SCRIPTING,
    sources={"snitchems-rules.txt": "Snitch'ems card game rules, gamerules.com"},
)
