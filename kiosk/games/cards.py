"""Cards as the engines see them: an id, a name, and what makes two cards alike."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = {
    "A": "Ace",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    **{r: r for r in RANKS[1:10]},
}
SUITS = (("S", "Spades"), ("H", "Hearts"), ("D", "Diamonds"), ("C", "Clubs"))


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card. ``match`` is the key Snap compares; ``value`` is a number or None."""

    id: str
    name: str
    match: str
    value: int | None = None
    family: str | None = None
    rank: str | None = None
    suit: str | None = None
    face: str | None = None  # key of the face picture the views draw; engines ignore it
    role: str | None = None  # the card's part in its family ("master"), as its set records it

    def header(self) -> dict:
        """The card as the trace header lists it (``family`` only where the card has one)."""
        data = {"id": self.id, "name": self.name, "match": self.match, "value": self.value}
        if self.family is not None:
            data["family"] = self.family
        return data


def standard_deck() -> list[Card]:
    """The 52-card deck: A-10 worth 1-10, court cards worth nothing; Snap matches by rank."""
    deck = []
    for suit, suit_name in SUITS:
        for i, rank in enumerate(RANKS):
            value = i + 1 if i < 10 else None
            deck.append(
                Card(
                    id=f"{rank}{suit}",
                    name=f"{RANK_NAMES[rank]} of {suit_name}",
                    match=rank,
                    value=value,
                    rank=rank,
                    suit=suit,
                    face=f"standard/{rank}{suit}",
                )
            )
    return deck


def stock_order(deck: Iterable[Card], rng: random.Random, shuffle: bool) -> list[str]:
    """The card ids as they go into the stock (top last): shuffled, or as dealt for scenarios."""
    order = [card.id for card in deck]
    if shuffle:
        rng.shuffle(order)
    else:
        order.reverse()
    return order
