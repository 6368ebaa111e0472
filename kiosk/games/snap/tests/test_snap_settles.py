"""Every match a Snap trace shows is settled by an event: snap, pool-formed or unclaimed
(a Snap Pool match: pool-won, tie or unclaimed), even when the card that made it ends the
game (kiosk/games/snap/rules.md, "Running out, going out, winning")."""

from __future__ import annotations

import pytest

from kiosk.games import simulate as sim
from kiosk.games import trace
from kiosk.games.cards import Card
from kiosk.games.snap import engine as snap

DECK = sim.default_deck(snap)
CALLING = [name for name in snap.VARIANTS if not snap.options_for(name).forfeits]
SETTLES = {"snap": {"snap", "pool-formed"}, "pool": {"pool-won"}}  # and unclaimed, tie


def shows(places: dict[str, list[str]], match: dict[str, str], central: bool) -> set[str]:
    """What can be called on a table: "snap" (two tops alike), "pool" (a top like the pool's)."""
    kinds = set()
    if central:
        c = places.get("centre", [])
        tops = c[-1:]
        if len(c) >= 2 and match[c[-1]] == match[c[-2]]:
            kinds.add("snap")
    else:
        tops = [v[-1] for k, v in places.items() if k.startswith("up:") and v]
        if len({match[t] for t in tops}) < len(tops):
            kinds.add("snap")
    pool = places.get("pool", [])
    if pool and any(match[t] == match[pool[-1]] for t in tops):
        kinds.add("pool")
    return kinds


def unsettled(lines: list[dict]) -> list[tuple[int, str, list[str]]]:
    """Each (turn, kind, events after it) whose match no event of that turn settled.

    A turn's table is the one after its last card (Speed Snap turns several, with perhaps a
    face-up pile turned over between them); its window's events are the ones up to the next
    turn's first event."""
    head, body = lines[0], [line["event"] for line in lines[1:]]
    match = {c["id"]: c["match"] for c in head["deck"]}
    central = head["options"].get("layout") == "central"
    found = []
    i = 0
    while i < len(body):
        if body[i]["type"] != "turn":
            i += 1
            continue
        t, j = body[i]["turn"], i
        while j + 1 < len(body):  # the rest of this turn: its cards, a pile turned over
            nxt = body[j + 1]
            if nxt["type"] == "turn" and nxt["turn"] == t:
                j += 1
            elif nxt["type"] == "turn-over" and j + 2 < len(body):
                after = body[j + 2]
                if after["type"] != "turn" or after["turn"] != t:
                    break
                j += 1
            else:
                break
        table = lines[j + 1]["state"]["places"]
        k = j + 1
        while k < len(body) and body[k]["type"] not in ("turn", "turn-over"):
            k += 1
        window = body[j + 1 : k]
        for kind in sorted(shows(table, match, central)):
            if not any(
                e.get("turn") == t
                and (
                    e["type"] in SETTLES[kind]
                    or (e["type"] in ("unclaimed", "tie") and e.get("kind") == kind)
                )
                for e in window
            ):
                found.append((t, kind, [e["type"] for e in window]))
        i = k
    return found


def played(variant: str, players: int, seed: int, level: str, **options) -> list[dict]:
    """One bot game's trace, checked line by line by the engine's own checker."""
    opts = sim.make_options(snap, variant, players, level, **options)
    lines = list(
        trace.trace_game(snap, DECK, opts, seed, trace.bot_chooser(snap, players, level, seed))
    )
    assert trace.check_lines(lines, snap) == len(lines) - 1
    return lines


@pytest.mark.parametrize("variant", CALLING)
def test_every_match_in_many_seeded_games_is_settled(variant: str) -> None:
    matches = 0
    for players in (2, 3, 4):
        for seed in range(60):
            level = snap.LEVELS[seed % len(snap.LEVELS)]
            lines = played(variant, players, seed, level, **snap.kiosk_bound())
            assert unsettled(lines) == [], (variant, players, seed, level)
            head = lines[0]
            match = {c["id"]: c["match"] for c in head["deck"]}
            central = head["options"].get("layout") == "central"
            matches += sum(
                bool(shows(line["state"]["places"], match, central))
                for line in lines[1:]
                if line["event"]["type"] == "turn"
            )
    assert matches > 50  # the games did show matches to settle


def test_the_issues_game_settles_the_last_cards_match() -> None:
    """`kiosk simulate snap --variant easy --players 2 --seed 50000 --level medium
    --max-turns 100 --trace --json`: seat 1's last card, on turn 52, makes a match."""
    lines = played("easy", 2, 50000, "medium", max_turns=100)
    events = [line["event"] for line in lines[1:]]
    at = next(i for i, e in enumerate(events) if e["type"] == "turn" and e["turn"] == 52)
    assert [e["type"] for e in events[at:]] == ["turn", "unclaimed", "out", "collect", "game-over"]
    assert events[at + 1] == {"type": "unclaimed", "kind": "snap", "turn": 52}
    assert unsettled(lines) == []


def deal(*cards: str) -> list[Card]:
    """An unshuffled deck: card i goes to seat i % players; a seat turns its last card first."""
    return [Card(id=f"c{i}{key}", name=f"card {key}", match=key) for i, key in enumerate(cards)]


def test_a_last_card_that_makes_a_match_and_ends_the_game_is_unclaimed() -> None:
    opts = snap.options_for("easy", players=2, shuffle=False, humans=(0, 1))
    state, _ = snap.new_game(deal("X", "A", "A"), opts, seed=1)  # seat 0 turns A, then X; seat 1: A
    state, _ = snap.apply(state, {"type": "turn", "player": 0})
    rng = state.rng.getstate()
    state, events = snap.apply(state, {"type": "turn", "player": 1})
    assert [e.type for e in events] == ["turn", "unclaimed", "out", "collect", "game-over"]
    assert events[1].data == {"kind": "snap", "turn": 2}
    assert state.winners == [0] and state.snaps == 0  # nobody could call: the game was over
    assert state.rng.getstate() == rng  # nothing drawn: no window opened


def test_going_out_on_the_kiosk_bounds_last_turn_still_settles_its_window() -> None:
    opts = snap.options_for("easy", players=3, shuffle=False, humans=(0, 1, 2), max_turns=3)
    # seats turn X, A and A (seat 2's only card, on the bound's last turn)
    state, _ = snap.new_game(deal("Y", "Z", "A", "X", "A"), opts, seed=1)
    for p in (0, 1):
        state, _ = snap.apply(state, {"type": "turn", "player": p})
    state, events = snap.apply(state, {"type": "turn", "player": 2})
    assert [e.type for e in events] == ["turn", "out"] and not state.over
    assert state.window is not None and state.window.snap  # the others may still call
    state, events = snap.apply(state, {"type": "close", "player": 0})
    assert [e.type for e in events] == ["unclaimed", "game-over"]
    assert state.reason == "kiosk-bound"


def test_the_checker_refuses_a_match_left_unsettled() -> None:
    lines = played("easy", 2, 50000, "medium", max_turns=100)
    cut = next(
        i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "unclaimed"
    )
    bad = lines[:cut] + [{**line, "seq": line["seq"] - 1} for line in lines[cut + 1 :]]
    with pytest.raises(trace.TraceError, match="turn 52 was never settled"):
        trace.check_lines(bad, snap)
