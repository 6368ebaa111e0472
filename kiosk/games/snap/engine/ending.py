"""When a Snap player is out, and when the game is over (who won, and why)."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.games.core import Event
from kiosk.games.snap.engine.state import SnapState, add_event


def active(s: SnapState) -> list[int]:
    """The seats still in the game."""
    return [p for p in range(s.options.players) if not s.out[p]]


def next_active(s: SnapState, after: int) -> int:
    """The next seat round the table still in the game (``after`` itself if none is)."""
    n = s.options.players
    for k in range(1, n + 1):
        p = (after + k) % n
        if not s.out[p]:
            return p
    return after


def held(s: SnapState, p: int) -> int:
    """How many cards seat ``p`` has: its face-down and face-up piles."""
    return len(s.down[p]) + len(s.up[p])


def check_out(s: SnapState, events: list[Event] | None) -> None:
    """After a settled call: everyone it left with no cards is out, then perhaps the end."""
    if s.options.forfeits:
        check_end(s, events)
        return
    gone = [p for p in range(s.options.players) if not s.out[p] and not held(s, p)]
    out_at_once(s, gone, events)


def go_out(s: SnapState, gone: list[int], events: list[Event] | None) -> None:
    """W card rule 6: who has lost all his cards is out at once (kiosk/games/snap/rules.md)."""
    for p in gone:
        s.out[p] = True
        add_event(events, "out", {"player": p, "why": "no cards"})


def out_at_once(s: SnapState, gone: list[int], events: list[Event] | None) -> None:
    """Everyone in ``gone`` is out at once (:func:`go_out`), then perhaps the end."""
    go_out(s, gone, events)
    check_end(s, events, gone)


def finish(s: SnapState, winners: list[int], reason: str, events: list[Event] | None) -> None:
    """The game is over: who won and why."""
    s.over = True
    s.window = None
    s.reason = reason
    s.winners = winners
    add_event(
        events,
        "game-over",
        {
            "winners": winners,
            "reason": reason,
            "turn": s.turn,
            "cards": [held(s, p) for p in range(s.options.players)],
            "counters": list(s.counters) if s.options.forfeits else None,
        },
    )


def check_end(s: SnapState, events: list[Event] | None, gone: Sequence[int] = ()) -> None:
    """End the game when one player is left (or none: ``gone`` share it), or at the bound."""
    if s.over:
        return
    o = s.options
    playing = active(s)
    if not playing and gone and not o.forfeits:  # the last players went out together
        finish(s, sorted(gone), "out-together", events)
        return
    if o.forfeits:
        if len(playing) <= 1:
            finish(s, playing, "last-with-counters", events)
            return
    elif len(playing) <= 1:
        if playing:
            winner = playing[0]
            moves: list = []
            for place, pile in (("centre", s.centre), ("pool", s.pool)):
                if pile:
                    moves.append(
                        {"cards": pile[::-1], "from": place, "to": f"down:{winner}", "at": "bottom"}
                    )
                    s.down[winner][:0] = pile[::-1]
            s.centre, s.pool = [], []
            if moves:
                add_event(events, "collect", {"player": winner, "moves": moves})
        finish(s, playing, "all-cards", events)
        return
    bound = (o.max_turns is not None and s.turn >= o.max_turns and s.window is None) or (
        o.max_snaps is not None and s.snaps >= o.max_snaps
    )
    if bound:
        if o.forfeits:
            score = [s.counters[p] if not s.out[p] else -1 for p in range(o.players)]
        else:
            score = [held(s, p) for p in range(o.players)]
        best = max(score)
        finish(s, [p for p in range(o.players) if score[p] == best], "kiosk-bound", events)
