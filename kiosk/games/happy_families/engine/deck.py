"""Happy Families packs: complete families of four, a plain lettered pack for tests and demos."""

from __future__ import annotations

from kiosk.games.cards import Card
from kiosk.games.core import OptionsError

FAMILY_SIZE = 4


def generic_deck(families: int = 6) -> list[Card]:
    """A plain deck of lettered families for tests and demos (not a historic pack)."""
    if not 2 <= families <= 26:
        raise OptionsError("a generic deck has from 2 to 26 families")
    deck = []
    for f in range(families):
        letter = chr(ord("A") + f)
        family = f"Family {letter}"
        for i in range(FAMILY_SIZE):
            deck.append(
                Card(
                    id=f"{letter}{i + 1}",
                    name=f"{family}, card {i + 1}",
                    match=family,
                    family=family,
                    face=f"generic/{letter}{i + 1}",
                )
            )
    return deck


def default_deck() -> list[Card]:
    """The deck simulations and tests play with: six lettered families."""
    return generic_deck()


def playable_deck(deck: list[Card]) -> list[Card]:
    """Keep only complete families of four: a catalogue deck may miss cards or flagged ones."""
    counts: dict[str, int] = {}
    for card in deck:
        if card.family is not None:
            counts[card.family] = counts.get(card.family, 0) + 1
    return [c for c in deck if c.family is not None and counts[c.family] == FAMILY_SIZE]


def check_deck(deck: list[Card]) -> list[str]:
    """The families in deck order, or OptionsError when the deck cannot be played."""
    ids = [c.id for c in deck]
    if len(set(ids)) != len(ids):
        raise OptionsError("every card in a Happy Families deck needs its own id")
    families: dict[str, int] = {}
    for card in deck:
        if card.family is None:
            raise OptionsError(f"card {card.id} belongs to no family")
        families[card.family] = families.get(card.family, 0) + 1
    short = [f for f, n in families.items() if n != FAMILY_SIZE]
    if short:
        raise OptionsError(
            f"families must have {FAMILY_SIZE} cards each: {', '.join(short)} "
            "(playable_deck keeps only complete families)"
        )
    if len(families) < 2:
        raise OptionsError("Happy Families needs at least two complete families")
    return list(families)
