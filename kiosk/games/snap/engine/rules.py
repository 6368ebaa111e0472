"""Snap's turns and the engine's entry points: deal, apply, replay, and what may happen next."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kiosk.games.cards import Card
from kiosk.games.core import Event, IllegalAction
from kiosk.games.snap.engine.calls import (
    human_call,
    open_window,
    reaction,
    settle,
    unclaimed_at_end,
)
from kiosk.games.snap.engine.ending import active, check_end, go_out, held, next_active, out_at_once
from kiosk.games.snap.engine.options import ACTION_TYPES, SnapOptions
from kiosk.games.snap.engine.state import SnapState, add_event, deal


def _turn_one(s: SnapState, p: int, events: list[Event] | None) -> None:
    """Player ``p`` turns one card (turning their face-up pile over first if they must)."""
    o = s.options
    down = s.down[p]
    if not down and o.layout == "piles" and s.up[p]:
        flipped = s.up[p][::-1]
        s.down[p] = down = flipped
        s.up[p] = []
        add_event(
            events,
            "turn-over",
            {
                "player": p,
                "cards": len(flipped),
                "moves": [
                    {
                        "cards": list(flipped),
                        "from": f"up:{p}",
                        "to": f"down:{p}",
                        "at": "top",
                    }
                ],
            },
        )
    card = down.pop()
    if o.layout == "central":
        s.centre.append(card)
        dest = "centre"
    else:
        s.up[p].append(card)
        dest = f"up:{p}"
    if events is not None:  # every turn: replay, which keeps no events, skips building it
        add_event(
            events,
            "turn",
            {
                "player": p,
                "turn": s.turn,
                "card": card,
                "match": s.match[card],
                "moves": [{"cards": [card], "from": f"down:{p}", "to": dest, "at": "top"}],
            },
        )


def _forfeit(s: SnapState, p: int, events: list[Event] | None) -> None:
    """The forfeits game: a card like the previous player's top snaps them for a counter."""
    prev = s.last_turner
    card = s.up[p][-1]
    if (
        prev is None
        or prev == p
        or s.out[prev]
        or not s.up[prev]
        or (s.match[s.up[prev][-1]] != s.match[card])
    ):
        s.chain = 0
        return
    owed = 1 if s.chain == 0 else s.chain * 2
    s.chain = owed
    paid = min(owed, s.counters[prev])
    s.counters[prev] -= paid
    s.kitty += paid
    s.snaps += 1
    add_event(
        events,
        "forfeit",
        {
            "player": p,
            "payer": prev,
            "turn": s.turn,
            "match": s.match[card],
            "cards": [s.up[prev][-1], card],
            "owed": owed,
            "paid": paid,
            "counters": list(s.counters),
        },
    )
    if s.counters[prev] == 0:
        s.out[prev] = True
        add_event(events, "out", {"player": prev, "why": "no counters"})


def can_turn(s: SnapState) -> bool:
    """Whether another card may be turned (not over, and the kiosk bound not reached)."""
    o = s.options
    return not s.over and not (o.max_turns is not None and s.turn >= o.max_turns)


def _do_turn(s: SnapState, player: int, events: list[Event] | None) -> None:
    """A turn: settle the last window, pass over who cannot turn, turn, open a window."""
    o = s.options
    w = s.window
    if w is not None:
        if w.has_to_settle():
            settle(s, events)
            if s.over:
                return
        else:  # nothing to settle (and the bound cannot be reached: a turn was allowed)
            s.window = None
    # a player who cannot turn is out (Easy Snap: an empty pack; else no cards at all)
    while True:
        p = s.current
        if s.down[p] and not s.out[p]:
            break
        if s.out[p]:
            s.current = next_active(s, p)
            continue
        if o.layout == "central" or not s.up[p]:
            s.out[p] = True
            add_event(events, "out", {"player": p, "why": "no cards to turn"})
            check_end(s, events)
            if s.over:
                return
            continue
        break
    if not o.speed and player != s.current:
        # the caller went out as the window settled: no card turned
        add_event(events, "turn-passed", {"from": player, "to": s.current})
        return
    s.turn += 1
    if o.speed:
        turners = [p for p in active(s) if s.down[p] or s.up[p]]
        for p in turners:
            _turn_one(s, p, events)
        s.last_turner = turners[-1]
    else:
        p = s.current
        _turn_one(s, p, events)
        if o.forfeits:
            _forfeit(s, p, events)
        s.last_turner = p
        if s.central and not s.down[p]:  # Easy Snap: the last card played, nothing left
            if len(active(s)) <= 2:  # one other left: the game is over before any call
                unclaimed_at_end(s, events)
                out_at_once(s, [p], events)
                return
            # others play on: this card's window opens below and is settled like any
            # other, and the kiosk bound waits for it (kiosk/games/snap/rules.md, "Running out")
            go_out(s, [p], events)
    q = s.last_turner + 1
    if q == o.players:
        q = 0
    s.current = q if not s.out[q] else next_active(s, s.last_turner)
    if o.forfeits:
        check_end(s, events)
        return
    open_window(s)


def new_game(
    deck: Sequence[Card], options: SnapOptions, seed: int | str
) -> tuple[SnapState, list[Event]]:
    """Shuffle with the game's own RNG and deal; return the state and the deal's events."""
    events: list[Event] = []
    return _new_game(deck, options, seed, events), events


def _new_game(
    deck: Sequence[Card], options: SnapOptions, seed: int | str, events: list[Event] | None
) -> SnapState:
    """The dealt game: a seat dealt no cards is out before the first turn."""
    s = deal(deck, options, seed, events)
    for p in range(options.players):
        if not s.down[p]:
            s.out[p] = True
            add_event(events, "out", {"player": p, "why": "dealt no cards"})
    check_end(s, events)
    return s


def apply(state: SnapState, action: Mapping[str, Any]) -> tuple[SnapState, list[Event]]:
    """The state after ``action`` and the events it caused; ``state`` is left as it was."""
    events: list[Event] = []
    s = state.copy()
    _apply(s, action, events)
    s.last = events
    return s, events


def replay(
    deck: Sequence[Card], options: SnapOptions, seed: int | str, actions: Iterable[Any]
) -> SnapState:
    """Rebuild a game on the one state this deals, no copies, no events: nobody else holds it."""
    s = _new_game(deck, options, seed, None)
    for action in actions:
        _apply(s, action, None)
    return s


def _apply(s: SnapState, action: dict[str, Any], events: list[Event] | None) -> None:
    """Check ``action`` and do it on ``s`` itself, adding its events unless None."""
    if not isinstance(action, dict):
        raise IllegalAction("an action is a dict with a type and a player")
    kind = action.get("type")
    p = action.get("player")
    if (
        kind == "turn"
        and p == s.current
        and type(p) is int
        and not s.over
        and not s.options.speed
        and (s.options.max_turns is None or s.turn < s.options.max_turns)
    ):  # the common case, checked quickly
        _do_turn(s, p, events)
        s.actions += 1
        return
    if kind not in ACTION_TYPES:
        raise IllegalAction(f"unknown action type {kind!r}: one of {', '.join(ACTION_TYPES)}")
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < s.options.players:
        raise IllegalAction(f"no player {p!r} at this table")
    if s.over:
        if kind in ("call", "call-pool"):
            reaction(action)  # a bad reaction is a bad request, over or not
            add_event(
                events,
                "late-call",
                {
                    "player": p,
                    "turn": action.get("turn"),
                    "current_turn": s.turn,
                    "why": "game over",
                },
            )
            s.actions += 1
            return
        raise IllegalAction("the game is over")
    if kind == "turn":
        if not can_turn(s):
            raise IllegalAction("no more turns: the kiosk bound is reached (close the window)")
        if s.out[p]:
            raise IllegalAction(f"player {p} is out of the game")
        if not s.options.speed and p != s.current:
            raise IllegalAction(f"it is player {s.current}'s turn, not player {p}'s")
        _do_turn(s, p, events)
    elif kind == "close":
        if s.window is None:
            raise IllegalAction("no call window is open")
        settle(s, events)
    else:
        if s.options.forfeits:
            raise IllegalAction("the forfeits game has no calls: a match snaps by itself")
        if p not in s.options.humans:
            raise IllegalAction(f"player {p} is a computer seat: its calls are drawn by the game")
        if s.out[p]:
            raise IllegalAction(f"player {p} is out of the game")
        human_call(s, action, events)
    s.actions += 1


def legal_actions(state: SnapState, player: int) -> list[dict[str, Any]]:
    """The actions ``player`` may send now (calls carry the current turn; add reaction_ms)."""
    s = state
    if s.over or s.out[player]:
        return []
    out: list[dict[str, Any]] = []
    if can_turn(s) and (s.options.speed or player == s.current):
        out.append({"type": "turn", "player": player})
    w = s.window
    if w is not None:
        if player in s.options.humans and all(c[1] != player for c in w.calls):
            out.append({"type": "call", "player": player, "turn": w.turn})
            if s.pool or w.pool:
                out.append({"type": "call-pool", "player": player, "turn": w.turn})
        if not can_turn(s):
            out.append({"type": "close", "player": player})
    return out


def to_move(state: SnapState) -> list[int]:
    """The seat whose turn (or closing of the last window) the game waits for; [] when over."""
    if state.over:
        return []
    if state.options.speed:
        return [active(state)[0]]
    return [state.current]


def is_over(state: SnapState) -> bool:
    """Whether the game has ended."""
    return state.over


def result(state: SnapState) -> dict[str, Any]:
    """The winners, why the game ended, and each seat's cards (and counters)."""
    o = state.options
    return {
        "over": state.over,
        "winners": list(state.winners),
        "reason": state.reason,
        "turns": state.turn,
        "cards": [held(state, p) for p in range(o.players)],
        "counters": list(state.counters) if o.forfeits else None,
        "snaps": state.snaps,
        "pools": state.pools,
        "penalties": state.penalties,
    }
