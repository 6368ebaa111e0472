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


# what settles a match of each kind shown when a call window opens (docs/trace.md)
SETTLES = {"snap": ("snap", "pool-formed"), "pool": ("pool-won",)}  # or unclaimed, tie
SETTLING_WORDS = {"snap": "snap, pool-formed or unclaimed", "pool": "pool-won, tie or unclaimed"}


def _unsettled(memo: dict[str, Any]) -> str | None:
    """Why the last window's matches were left without a settling event (None if none were)."""
    shown = memo.get("shown")
    if shown and shown["kinds"]:
        kind = sorted(shown["kinds"])[-1]  # "snap" before "pool", for the message
        return (
            f"the {'Snap Pool ' if kind == 'pool' else ''}match shown on turn {shown['turn']} "
            f"was never settled (no {SETTLING_WORDS[kind]})"
        )
    return None


def _settled(context: TraceContext, before: Mapping[str, list[str]], event: Event) -> str | None:
    """Why a match shown when a window opened was not settled by its own turn's events."""
    memo, t, e = context.memo, event.type, event.data
    if context.options.get("forfeits"):
        return None  # nobody calls: a forfeit settles itself (checked below)
    if t == "turn":
        shown = memo.get("shown")
        if shown is not None and shown["turn"] != e["turn"]:
            problem = _unsettled(memo)
            if problem:
                return problem
        after = {k: list(v) for k, v in before.items()}  # the turned card's one move
        for move in e.get("moves", []):
            del after.setdefault(move["from"], [])[-len(move["cards"]) :]
            after.setdefault(move["to"], []).extend(move["cards"])
        central = context.options.get("layout") == "central"
        kinds = {"snap"} if _tops_match(after, context.cards, central) else set()
        if _pool_matches(after, context.cards, central):
            kinds.add("pool")
        memo["shown"] = {"turn": e["turn"], "kinds": kinds}
    elif t == "game-over":
        return _unsettled(memo)
    else:
        shown = memo.get("shown")
        if shown is not None and e.get("turn") == shown["turn"]:
            for kind in list(shown["kinds"]):
                if t in SETTLES[kind] or (t in ("unclaimed", "tie") and e.get("kind") == kind):
                    shown["kinds"].discard(kind)
    return None


def check_event(context: TraceContext, before: Mapping[str, list[str]], event: Event) -> str | None:
    """Why a trace event breaks Snap's rules (None if it is legal): used by trace checking."""
    problem = _settled(context, before, event)
    if problem:
        return problem
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
