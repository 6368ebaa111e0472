"""Snitch'ems' computer players, beginner and careful (snitchems/rules.md, "Bots")."""

from __future__ import annotations

from typing import Any

from kiosk.games.cards import Card
from kiosk.games.core import SeatBot
from kiosk.games.snitchems.engine.options import GAME, LEVELS


def _cards(view: dict[str, Any]) -> dict[str, Card]:
    return {
        c["id"]: Card(id=c["id"], name=c["name"], match=c["rank"], value=c["value"], rank=c["rank"])
        for c in view["deck"]
    }


def _most_adding_to(values: dict[int, int], want: int, several: bool) -> int:
    """The most table number cards whose values add up to ``want`` (0 when none do)."""
    if want < 1:
        return 0
    if not several:
        return 1 if values.get(want) else 0
    best = [-1] * (want + 1)  # best[s]: most cards adding up to s
    best[0] = 0
    for value, count in values.items():
        if value > want:
            continue
        for _ in range(count):
            for total in range(want, value - 1, -1):
                if best[total - value] >= 0:
                    best[total] = max(best[total], best[total - value] + 1)
    return max(best[want], 0)


def max_take(card: Card, table: list[Card], opts: dict[str, Any]) -> int:
    """The most cards (its own included) one card could capture from this table; 0 if none."""
    rank = card.rank or card.match
    same = sum(1 for c in table if (c.rank or c.match) == rank)
    most = same + 1 if same else 0
    if card.value is None:
        return most
    values: dict[int, int] = {}
    for c in table:
        if c.value is not None:
            values[c.value] = values.get(c.value, 0) + 1
    for target in (8, 10):
        made = _most_adding_to(values, target - card.value, opts["making_several"])
        if made:
            most = max(most, made + 1 + values.get(target, 0))
    return most


def threat(table: list[Card], unseen: list[Card], opts: dict[str, Any]) -> int:
    """The most cards one unseen card could capture from this table (its own card included)."""
    if not table:
        return 0
    worst = 0
    tried: set[tuple[str, int | None]] = set()
    for card in unseen:
        key = (card.rank or card.match, card.value)
        if key in tried:
            continue
        tried.add(key)
        worst = max(worst, max_take(card, table, opts))
    return worst


class Bot(SeatBot):
    """A computer player: ``act(view)`` returns a legal action with a ``why``."""

    GAME, TITLE, LEVELS = GAME, "Snitch'ems", LEVELS

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        """Choose the next play or capture from what this player can see."""
        legal = self.moves(view)
        if self.level == "beginner":
            action = dict(self.rng.choice(legal))
            action["why"] = "I picked a move at random."
            return action
        return self._careful(view, legal)

    def _careful(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        cards = _cards(view)
        opts = view["options"]
        seen = set(view["hand"]) | set(view["table"])
        for pile in view["captured"]:
            seen |= set(pile)
        unseen = [c for cid, c in cards.items() if cid not in seen]
        table = view["table"]
        scored: list[tuple[tuple[int, int, float], dict[str, Any]]] = []
        cache: dict[tuple[tuple[str, int], ...], int] = {}
        for a in legal:
            if a["type"] == "capture":
                taken = len(a["take"]) + 1
                gone = set(a["take"])
                left = [cards[c] for c in table if c not in gone]
                spare = 0.0
            else:
                taken = 0
                left = [cards[c] for c in table] + [cards[a["card"]]]
                v = cards[a["card"]].value
                spare = 11.0 if v is None else float(10 - v)
            key = tuple(sorted((c.rank or c.match, c.value or 0) for c in left))
            if key not in cache:
                cache[key] = threat(left, unseen, opts)
            scored.append(((taken, -cache[key], spare), a))
        best = max(key for key, _ in scored)
        choices = [a for key, a in scored if key == best]
        action = dict(self.rng.choice(choices))
        taken, danger, _ = best
        if action["type"] == "capture":
            what = f"I took {taken} cards"
            rest = (
                "and swept the table."
                if len(action["take"]) == len(table)
                else (
                    f"and left at most {-danger} for you to take."
                    if danger
                    else "and left nothing you could take."
                )
            )
            action["why"] = f"{what} {rest}"
        else:
            action["why"] = (
                "I could not capture, so I laid the card that leaves you least: "
                f"at most {-danger} cards to take."
            )
        return action


def make_bot(level: str, seat: int, seed: Any = 0) -> Bot:
    """A Snitch'ems computer player."""
    return Bot(level, seat, seed)
