"""Happy Families' rules checked on a written trace, from its lines alone (docs/trace.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.core import Event, TraceContext
from kiosk.games.happy_families.engine.deck import FAMILY_SIZE


def _families_by_match(cards: Mapping[str, Mapping[str, Any]]) -> dict[str, str] | None:
    """Family of each card: the header's ``family``, else its ``match`` when that groups fours."""
    if all(card.get("family") for card in cards.values()):
        return {cid: card["family"] for cid, card in cards.items()}
    counts: dict[str, int] = {}
    for card in cards.values():
        counts[card["match"]] = counts.get(card["match"], 0) + 1
    if any(n != FAMILY_SIZE for n in counts.values()):
        return None
    return {cid: card["match"] for cid, card in cards.items()}


def check_event(context: TraceContext, before: Mapping[str, list[str]], event: Event) -> str | None:
    """Why one event breaks the rules, given the places before it (None if it does not)."""
    memo = context.memo
    if "families" not in memo:
        memo["families"] = _families_by_match(context.cards)
    fam = memo["families"]
    kind, e = event.type, event.data
    if kind == "ask":
        hand = before.get(f"hand:{e['player']}", [])
        if e["card"] in hand:
            return "asked for a card the asker already holds"
        if not before.get(f"hand:{e['target']}"):
            return "asked a player who holds no cards"
        if fam is not None and not any(fam[c] == fam[e["card"]] for c in hand):
            return "asked for a card of a family the asker does not hold"
    elif kind == "give" and e["card"] not in before.get(f"hand:{e['player']}", []):
        return "gave a card the player does not hold"
    elif kind == "refuse" and "card" in e:
        if e["card"] in before.get(f"hand:{e['player']}", []):
            return "said no while holding the card"
    elif kind == "trick":
        laid = e["moves"][0]["cards"]
        if len(laid) != FAMILY_SIZE:
            return "a trick is four cards"
        if fam is not None and len({fam[c] for c in laid}) != 1:
            return "a trick is one whole family"
    return None
