"""Happy Families as the rest of the kiosk knows it: its deck, rule examples and sources."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.games.cards import Card
from kiosk.games.core import DeckRefused
from kiosk.games.game_type import GameType, Point, ScriptField, Scripting, has
from kiosk.games.happy_families import engine as engine  # this package, still being imported
from kiosk.games.happy_families.engine.deck import playable_deck
from kiosk.games.happy_families.engine.options import ACTION_FIELDS, GAME
from kiosk.games.happy_families.engine.words import spoken_deck

MIN_FAMILIES = 2


def deal_from(cards: Sequence[Card]) -> list[Card]:
    """The complete families of four, each card named as it is asked for: "Twizzle's cap"."""
    deck = spoken_deck(playable_deck(list(cards)))
    if len({c.family for c in deck}) < MIN_FAMILIES:
        raise DeckRefused(
            "needs at least two complete families of four cards (each card with"
            " family:, none flagged or missing), so the kiosk does not offer it: remove"
            " the game, or record the families"
        )
    return deck


SCRIPTING = Scripting(
    actions=ACTION_FIELDS,
    fields={
        "target": ScriptField(seat=True)
    },  # the player asked, numbered as the file numbers seats
    points={
        "give": Point(has("give"), "a card handed over"),
        "refuse": Point(has("refuse"), "a refusal passing the turn"),
        "trick": Point(
            has("trick", lambda e: not e["at_deal"]), "a family completed and laid down"
        ),
        "hand-over": Point(has("hand-over"), "a whole family handed over"),
        "game-over": Point(has("game-over"), "the end of the game"),
    },
    required={"classic": ("give", "refuse", "trick"), "variation": ("hand-over",)},
)

GAME_TYPE = GameType(
    name=GAME,
    order=2,
    engine=engine,
    deal_from=deal_from,
    scripting=SCRIPTING,
    sources={"twizzles-happy-families-rules.txt": "Twizzles Happy Families, rules card"},
)
