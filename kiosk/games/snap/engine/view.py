"""What Snap shows: every card's place, the public counters, and one seat's view."""

from __future__ import annotations

from typing import Any

from kiosk.games.snap.engine.options import GAME
from kiosk.games.snap.engine.rules import legal_actions, result, to_move
from kiosk.games.snap.engine.state import SnapState, card_json


def places(state: SnapState) -> dict[str, list[str]]:
    """Every card id in exactly one place, bottom first (empty places included)."""
    s = state
    out = {"stock": [], "aside": list(s.aside), "pool": list(s.pool)}
    if s.options.layout == "central":
        out["centre"] = list(s.centre)
    for p in range(s.options.players):
        out[f"down:{p}"] = list(s.down[p])
        if s.options.layout == "piles":
            out[f"up:{p}"] = list(s.up[p])
    return out


def public_state(state: SnapState) -> dict[str, Any]:
    """Turn counter, whose turn, counters, scores: everything public besides the cards."""
    s = state
    return {
        "turn": s.turn,
        "current": None if s.over else to_move(s)[0],
        "window_open": s.window is not None,
        "out": list(s.out),
        "counters": list(s.counters) if s.options.forfeits else None,
        "kitty": s.kitty if s.options.forfeits else None,
        "snaps": s.snaps,
        "pools": s.pools,
        "penalties": s.penalties,
        "over": s.over,
        "winners": list(s.winners),
    }


def _outcome(s: SnapState, player: int) -> list[dict[str, Any]]:
    """The last action's outcomes, trimmed of hidden cards, ready to be put into words."""
    hidden = {"moves", "card", "tops", "pool_top", "cards"}  # moved cards may now lie face down
    out = []
    for e in s.last:
        if e.type in ("shuffle", "deal"):
            continue
        data = {k: v for k, v in e.data.items() if k not in hidden}
        if e.type == "turn":
            data["card"] = card_json(s.cards[e.data["card"]])
        data["type"] = e.type
        data["you"] = data.get("player") == player
        out.append(data)
    return out


def view(state: SnapState, player: int) -> dict[str, Any]:
    """What ``player`` may see: counts of face-down piles, face-up tops, pool, turn, outcome."""
    s = state
    o = s.options
    cards = s.cards
    seats = []
    for p in range(o.players):
        up = s.up[p]
        seats.append(
            {
                "seat": p,
                "you": p == player,
                "human": p in o.humans,
                "level": None if p in o.humans else o.seat_level(p),
                "down": len(s.down[p]),
                "up": len(up),
                "top": card_json(cards[up[-1]]) if up else None,
                "counters": s.counters[p] if o.forfeits else None,
                "out": s.out[p],
            }
        )
    w = s.window
    actions = [a["type"] for a in legal_actions(s, player)] if 0 <= player < o.players else []
    return {
        "game": GAME,
        "variant": o.variant,
        "player": player,
        "players": seats,
        "centre": {
            "count": len(s.centre),
            "top": card_json(cards[s.centre[-1]]) if s.centre else None,
            "below": card_json(cards[s.centre[-2]]) if len(s.centre) > 1 else None,
        }
        if o.layout == "central"
        else None,
        "pool": {"count": len(s.pool), "top": card_json(cards[s.pool[-1]]) if s.pool else None},
        "aside": len(s.aside),
        "turn": s.turn,
        "current": None if s.over else to_move(s)[0],
        "window": None if w is None else {"turn": w.turn, "called": [c[1] for c in w.calls]},
        "actions": actions,
        "kitty": s.kitty if o.forfeits else None,
        "snaps": s.snaps,
        "last": _outcome(s, player),
        "over": s.over,
        "result": result(s) if s.over else None,
    }
