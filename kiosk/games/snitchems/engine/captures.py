"""Snitch'ems captures: every way one card can take cards from the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.games.cards import Card
from kiosk.games.snitchems.engine.options import SnitchemsOptions

TARGETS = (8, 10)
KINDS = ("pairing", "making-8", "making-10", "pairing-8", "pairing-10")


def rank_of(card: Card) -> str:
    """What pairing compares: the rank, or the Snap match key for a deck without ranks."""
    return card.rank or card.match


@dataclass(frozen=True, slots=True)
class Capture:
    """One legal capture: the played card, the table cards it takes and why."""

    card: str
    kind: str
    take: tuple[str, ...]
    pair_royal: bool = False

    def action(self, player: int) -> dict[str, Any]:
        """The capture as an action dict, as legal_actions lists it."""
        return {
            "type": "capture",
            "player": player,
            "card": self.card,
            "kind": self.kind,
            "take": list(self.take),
        }


def _subsets(items: list[Card], want: int, several: bool) -> list[list[Card]]:
    """Every set of table number cards whose values add up to ``want``, in table order."""
    if not several:
        return [[c] for c in items if c.value == want]
    found: list[list[Card]] = []

    def walk(start: int, left: int, chosen: list[Card]) -> None:
        for i in range(start, len(items)):
            v = items[i].value
            assert v is not None
            if v == left:
                found.append([*chosen, items[i]])
            elif v < left:
                walk(i + 1, left - v, [*chosen, items[i]])

    walk(0, want, [])
    return found


def _nonempty_subsets(items: list[Card]) -> list[list[Card]]:
    out = []
    for mask in range(1, 1 << len(items)):
        out.append([c for i, c in enumerate(items) if mask >> i & 1])
    return out


def captures_for(card: Card, table: list[Card], opts: SnitchemsOptions) -> list[Capture]:
    """Every capture the card can make from this table, pairing first, no two alike."""
    found: list[Capture] = []
    seen: set[frozenset[str]] = set()

    def add(kind: str, take: list[Card], pair_royal: bool = False) -> None:
        key = frozenset(c.id for c in take)
        if key in seen:
            return
        seen.add(key)
        order = {c.id: i for i, c in enumerate(table)}
        ids = tuple(sorted(key, key=order.__getitem__))
        found.append(Capture(card.id, kind, ids, pair_royal))

    same = [c for c in table if rank_of(c) == rank_of(card)]
    if same:
        groups = [same] if opts.pairing_takes_all else _nonempty_subsets(same)
        for group in groups:
            add("pairing", group, pair_royal=len(group) >= 2)
    if card.value is None:
        return found
    numbers = [c for c in table if c.value is not None]
    made: dict[int, list[list[Card]]] = {}
    for target in TARGETS:
        want = target - card.value
        made[target] = _subsets(numbers, want, opts.making_several) if want >= 1 else []
        for group in made[target]:
            add(f"making-{target}", group)
    for target in TARGETS:
        for group in made[target]:
            pairs = [c for c in numbers if c.value == target and c not in group]
            if not pairs:
                continue
            extra = [pairs] if opts.pairing_made_takes_all else _nonempty_subsets(pairs)
            for more in extra:
                add(f"pairing-{target}", group + more)
    return found
