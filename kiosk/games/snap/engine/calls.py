"""Snap's call window: opened on a turned card with the computer seats' calls pre-drawn, settled
by the earliest call (snap/rules.md, docs/play.md "A fair race")."""

from __future__ import annotations

from kiosk.games.core import Event
from kiosk.games.snap.engine.ending import check_end, check_out, next_active
from kiosk.games.snap.engine.options import FALSE_START_MS, MAX_REACTION_MS, BadReaction
from kiosk.games.snap.engine.state import SnapState, Window, add_event


def matches(s: SnapState) -> list[int]:
    """Seats whose face-up top matches another seat's top (Easy Snap: [] or the centre)."""
    m = s.match
    if s.options.layout == "central":
        c = s.centre
        return [-1] if len(c) >= 2 and m[c[-1]] == m[c[-2]] else []
    tops = [m[pile[-1]] for pile in s.up if pile]
    if len(set(tops)) == len(tops):
        return []
    keys: dict[str, list[int]] = {}
    for p, pile in enumerate(s.up):
        if pile:
            keys.setdefault(m[pile[-1]], []).append(p)
    return [p for seats in keys.values() if len(seats) > 1 for p in seats]


def pool_match(s: SnapState) -> bool:
    """Whether a face-up top (Easy Snap: the centre's) is like the pool's top."""
    if not s.pool:
        return False
    key = s.match[s.pool[-1]]
    m = s.match
    if s.options.layout == "central":
        return bool(s.centre) and m[s.centre[-1]] == key
    return any(pile and m[pile[-1]] == key for pile in s.up)


def open_window(s: SnapState) -> None:
    """Open this turn's call window and pre-draw every computer seat's calls from the RNG."""
    if s.central:
        snap = bool(matches(s))
        pool = pool_match(s) if s.pool else False
    else:
        m = s.match
        tops = [m[pile[-1]] for pile in s.up if pile]
        snap = len(set(tops)) < len(tops)
        pool = bool(s.pool) and m[s.pool[-1]] in tops
    w = Window(s.turn, snap, pool)
    s.window = w
    rng = s.rng
    out = s.out
    if not (snap or pool):
        # at most one false call a turn: one draw, each seat owning a slice of [0, 1) as wide
        # as its false-call rate (two in one turn would be rarer than 1 in 10,000)
        if s.false_total:
            u = rng.random()
            if u < s.false_total:
                for edge, p, lvl in s.false_slices:
                    if u < edge:
                        if not out[p]:
                            w.bot_calls += ((lvl.reaction_ms(rng), p, "snap"),)
                        break
        return
    for p, lvl in s.bots:
        if out[p]:
            continue
        if snap:
            ms = lvl.draw(rng)
            if ms is not None:
                w.bot_calls += ((ms, p, "snap"),)
        if pool:
            ms = lvl.draw(rng)
            if ms is not None:
                w.bot_calls += ((ms, p, "pool"),)


def unclaimed_at_end(s: SnapState, events: list[Event] | None) -> None:
    """Easy Snap's last card matched and left one player: the match is nobody's (no RNG draw)."""
    for kind, present in (("pool", pool_match(s)), ("snap", bool(matches(s)))):
        if present:
            add_event(events, "unclaimed", {"kind": kind, "turn": s.turn})


def _to_bottom(s: SnapState, seat: int, src: str, cards: list[str], ev: list | None) -> None:
    """Turn ``cards`` (a face-up pile, bottom first) over and put them under ``seat``'s pack."""
    flipped = cards[::-1]
    s.down[seat][:0] = flipped
    if ev is not None:
        ev.append({"cards": flipped, "from": src, "to": f"down:{seat}", "at": "bottom"})


def settle(s: SnapState, events: list[Event] | None) -> None:
    """Settle the open window: pool calls, then snap calls, then mistaken calls' penalties."""
    w = s.window
    s.window = None
    if w is None:
        return
    o = s.options
    if not w.has_to_settle():
        if o.max_turns is not None and s.turn >= o.max_turns:
            check_end(s, events)
        return
    bot_calls = w.bot_calls
    if o.wait_for_people and w.calls:
        # at your own pace: every person's call (at most MAX_REACTION_MS) is before any computer
        # call on this card, which is heard a minute later: a person is never beaten to it
        bot_calls = tuple((ms + MAX_REACTION_MS, p, kind) for ms, p, kind in bot_calls)
    calls = sorted(bot_calls + w.calls)
    humans = o.humans
    mistaken: list[tuple[float, int, str]] = []
    for kind, present in (("pool", w.pool), ("snap", w.snap)):
        valid = [c for c in calls if c[2] == kind]
        if not present:
            mistaken += valid
            continue
        if not valid:
            add_event(events, "unclaimed", {"kind": kind, "turn": w.turn})
            continue
        first = valid[0][0]
        together = []
        for c in valid:  # sorted: the calls "together" with the first come first
            if c[0] - first > o.tie_window_ms:
                break
            if c[1] not in [t[1] for t in together]:
                together.append(c)
        order = (
            [{"player": c[1], "reaction_ms": c[0], "human": c[1] in humans} for c in valid]
            if events is not None
            else []
        )
        tied = len(together) > 1
        if kind == "pool":
            if tied:
                add_event(
                    events,
                    "tie",
                    {
                        "kind": "pool",
                        "turn": w.turn,
                        "calls": order,
                        "players": [t[1] for t in together],
                        "outcome": "pool-stays",
                    },
                )
                continue
            _win_pool(s, valid[0][1], order, w.turn, events)
            continue
        if tied and o.pool:
            _form_pool(s, order, [t[1] for t in together], w.turn, events)
            continue
        winner = valid[0][1]
        broken = False
        if tied:
            exact = [t[1] for t in together if t[0] == first]
            if len(exact) > 1:
                winner = s.rng.choice(exact)
                broken = True
        _win_snap(s, winner, order, w.turn, tied, broken, events)
    for ms, p, kind in sorted(mistaken):
        _penalise(s, p, kind, ms, w.turn, events)
    check_out(s, events)
    if not s.over and s.out[s.current]:
        s.current = next_active(s, s.current)


def _win_snap(s, winner, order, turn, tied, broken, events) -> None:
    """The first caller takes the matching piles (Easy Snap: the centre) under their pack."""
    seats = matches(s)
    moves: list | None = [] if events is not None else None
    central = seats == [-1]
    tops = [s.centre[-1], s.centre[-2]] if central else [s.up[p][-1] for p in seats]
    count = 0
    if central:
        count = len(s.centre)
        _to_bottom(s, winner, "centre", s.centre, moves)
        s.centre = []
    else:
        for p in seats:
            count += len(s.up[p])
            _to_bottom(s, winner, f"up:{p}", s.up[p], moves)
            s.up[p] = []
    s.snaps += 1
    add_event(
        events,
        "snap",
        {
            "player": winner,
            "turn": turn,
            "matches": sorted({s.match[c] for c in tops}),
            "tops": tops,
            "from": ["centre"] if central else [f"up:{p}" for p in seats],
            "won": count,
            "calls": order,
            "tie": tied,
            "tie_broken_by_lot": broken,
            "moves": moves,
        },
    )


def _form_pool(s, order, players, turn, events) -> None:
    """Calls together in a game with Snap Pool: the matching piles go into the pool."""
    seats = matches(s)
    moves = []
    tops = [s.up[p][-1] for p in seats]
    keys = sorted({s.match[c] for c in tops})
    for p in seats:
        cards = s.up[p]
        s.pool.extend(cards)
        moves.append({"cards": list(cards), "from": f"up:{p}", "to": "pool", "at": "top"})
        s.up[p] = []
    add_event(
        events,
        "pool-formed",
        {
            "turn": turn,
            "players": players,
            "calls": order,
            "matches": keys,
            "tops": tops,
            "from": [f"up:{p}" for p in seats],
            "moves": moves,
        },
    )


def _win_pool(s, winner, order, turn, events) -> None:
    """The first to call Snap Pool takes the pool under their pack."""
    moves: list | None = [] if events is not None else None
    top = s.pool[-1]
    count = len(s.pool)
    _to_bottom(s, winner, "pool", s.pool, moves)
    s.pool = []
    s.pools += 1
    add_event(
        events,
        "pool-won",
        {
            "player": winner,
            "turn": turn,
            "match": s.match[top],
            "pool_top": top,
            "won": count,
            "calls": order,
            "moves": moves,
        },
    )


def _penalise(s, p, kind, ms, turn, events) -> None:
    """A call with nothing to call: the variant's penalty, or none."""
    o = s.options
    rule = o.penalty
    moves: list = []
    if rule != "none":
        s.penalties += 1
    if rule == "card-each":
        for k in range(1, o.players):
            q = (p + k) % o.players
            if s.out[q] or not s.down[p]:
                continue
            card = s.down[p].pop()
            s.down[q].insert(0, card)
            moves.append({"cards": [card], "from": f"down:{p}", "to": f"down:{q}", "at": "bottom"})
    elif rule == "face-up-to-pool" and s.up[p]:
        cards = s.up[p]
        s.pool.extend(cards)
        moves.append({"cards": list(cards), "from": f"up:{p}", "to": "pool", "at": "top"})
        s.up[p] = []
    elif rule == "face-down-to-pool" and s.down[p]:
        cards = s.down[p][::-1]  # picked up and turned face up: the bottom card shows
        s.pool.extend(cards)
        moves.append({"cards": cards, "from": f"down:{p}", "to": "pool", "at": "top"})
        s.down[p] = []
    add_event(
        events,
        "penalty" if rule != "none" else "mistaken-call",
        {
            "player": p,
            "turn": turn,
            "call": kind,
            "reaction_ms": ms,
            "human": p in o.humans,
            "rule": rule,
            "paid": sum(len(m["cards"]) for m in moves),
            "moves": moves,
        },
    )


def reaction(action: dict) -> float:
    """A call's reaction_ms, refused unless finite and 0..MAX_REACTION_MS (NaN fails too)."""
    ms = action.get("reaction_ms")
    if isinstance(ms, bool) or not isinstance(ms, int | float) or not 0 <= ms <= MAX_REACTION_MS:
        raise BadReaction(f"a call needs reaction_ms between 0 and {MAX_REACTION_MS}")
    return float(ms)


def human_call(s: SnapState, action: dict, events: list[Event] | None) -> None:
    """A person's call, measured by their browser: counted if it answers the open window."""
    p = action["player"]
    kind = "pool" if action["type"] == "call-pool" else "snap"
    ms = reaction(action)
    turn = action.get("turn")
    w = s.window
    # a false start answers the card before this one: its window has gone (never a win,
    # never a penalty), and this card's window stays open for a real call
    false_start = ms < FALSE_START_MS
    stale = false_start or w is None or turn != w.turn or any(c[1] == p for c in w.calls)
    if stale:
        why = (
            "false start"
            if false_start
            else ("already called" if w is not None and turn == w.turn else "window closed")
        )
        add_event(
            events,
            "late-call",
            {"player": p, "kind": kind, "turn": turn, "current_turn": s.turn, "why": why},
        )
        return
    w.calls += ((ms, p, kind),)
    add_event(events, "call", {"player": p, "kind": kind, "turn": turn, "reaction_ms": ms})
    waiting = [h for h in s.options.humans if not s.out[h] and all(c[1] != h for c in w.calls)]
    if not waiting:
        settle(s, events)
