"""Checking a Snap trace event by event against the rules (see docs/trace.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.core import Event, TraceContext


def _tops_match(
    places: Mapping[str, list[str]], cards: Mapping[str, Mapping[str, Any]], central: bool
) -> bool:
    """Whether a snap match shows in ``places``."""
    if central:
        c = places.get("centre", [])
        return len(c) >= 2 and cards[c[-1]]["match"] == cards[c[-2]]["match"]
    keys = [cards[v[-1]]["match"] for k, v in places.items() if k.startswith("up:") and v]
    return len(set(keys)) < len(keys)


def _pool_matches(
    places: Mapping[str, list[str]], cards: Mapping[str, Mapping[str, Any]], central: bool
) -> bool:
    """Whether a face-up top (Easy Snap: the centre's) is like the pool's top in ``places``."""
    pool = places.get("pool", [])
    if not pool:
        return False
    key = cards[pool[-1]]["match"]
    prefix = "centre" if central else "up:"
    return any(
        v and cards[v[-1]]["match"] == key for k, v in places.items() if k.startswith(prefix)
    )


def check_event(context: TraceContext, before: Mapping[str, list[str]], event: Event) -> str | None:
    """Why a trace event breaks Snap's rules (None if it is legal): used by trace checking."""
    cards, options, memo = context.cards, context.options, context.memo
    t, e = event.type, event.data
    central = options.get("layout") == "central"
    if memo.get("last") == "turn" and t not in ("turn", "turn-over"):
        memo["window"] = {k: list(v) for k, v in before.items()}  # the table calls were made on
    memo["last"] = t
    window = memo.get("window", before)
    moves = e.get("moves", [])
    if t == "turn":
        down = before.get(f"down:{e['player']}", [])
        if not down or down[-1] != e["card"]:
            return "the card turned is not the top of the player's face-down pile"
        if e["match"] != cards[e["card"]]["match"]:
            return "the match key is not the card's"
        memo["last"] = "turn"
    elif t in ("snap", "pool-formed"):
        if options.get("forfeits"):
            return "the forfeits game has no calls"
        if not _tops_match(window, cards, central):
            return "no two face-up top cards matched"
        if t == "pool-formed" and not options.get("pool"):
            return "a pool formed in a game without Snap Pool"
        for move in moves:
            pile = before.get(move["from"], [])
            want = pile[::-1] if t == "snap" else pile
            if move["cards"] != want or not pile:
                return f"{move['from']} was not taken whole"
            if cards[pile[-1]]["match"] not in e["matches"]:
                return f"{move['from']}'s top card does not show a match"
        tops = [cards[m["cards"][0 if t == "snap" else -1]]["match"] for m in moves]
        if not central and any(tops.count(k) < 2 for k in e["matches"]):
            return "a match key shows on fewer than two piles taken"
        if len(moves) < (1 if central else 2):
            return "a snap takes the matching piles"
    elif t == "pool-won":
        if not _pool_matches(window, cards, central):
            return "no face-up top matched the pool's top"
        pool = before.get("pool", [])
        if not moves or moves[0]["cards"] != pool[::-1]:
            return "the pool was not taken whole"
    elif t in ("penalty", "mistaken-call"):
        kind = e["call"]
        if kind == "snap" and _tops_match(window, cards, central):
            return "a call on a real match was penalised"
        if kind == "pool" and _pool_matches(window, cards, central):
            return "a Snap Pool call on a real pool match was penalised"
        rule = options.get("penalty", "none")
        if e["rule"] != rule:
            return f"penalty {e['rule']!r} in a game with penalty {rule!r}"
        p = e["player"]
        if rule == "card-each":
            if len(moves) > options["players"] - 1:
                return "more than one card to each other player"
            for move in moves:
                if move["from"] != f"down:{p}" or len(move["cards"]) != 1:
                    return "a card-each penalty moves one face-down card of the caller"
        elif rule in ("face-up-to-pool", "face-down-to-pool"):
            src = f"up:{p}" if rule == "face-up-to-pool" else f"down:{p}"
            for move in moves:
                if move["from"] != src or move["to"] != "pool":
                    return f"the penalty moves {src} to the pool"
                if sorted(move["cards"]) != sorted(before.get(src, [])):
                    return f"the penalty moves all of {src}"
        elif moves:
            return "a mistaken call without a penalty moved cards"
    elif t == "forfeit":
        if not options.get("forfeits"):
            return "a forfeit outside the forfeits game"
        a = before.get(f"up:{e['payer']}", [])
        b = before.get(f"up:{e['player']}", [])
        if not a or not b or [a[-1], b[-1]] != e["cards"]:
            return "the forfeit's cards are not the two players' tops"
        if cards[a[-1]]["match"] != cards[b[-1]]["match"]:
            return "the two cards do not match"
    return None
