"""Golden playthroughs of every Snap variant: the engine's events, diffed against files."""

from __future__ import annotations

import json
import random

import pytest

from kiosk.games import trace
from kiosk.games.cards import standard_deck
from kiosk.games.snap import engine as snap

CASES = [
    (variant, players, seed) for variant in snap.VARIANTS for players, seed in ((2, 1), (3, 2))
]


SCRIPTED = ["snap-pool", "woolworths", "penalty-card-each", "penalty-face-down-to-pool", "easy"]


def scripted_chooser(players: int):
    """Every seat a person, calling by a fixed script: ties, Snap Pool calls, mistakes."""
    queue: list[dict] = []

    def choose(state, seat):
        if queue:
            return queue.pop(0)
        w = state.window
        if w is not None and not w.calls:
            t = w.turn
            calls = []
            if w.snap and t % 2 == 0:  # two people together
                calls += [("call", 0, 500.0), ("call", 1, 530.0)]
            elif w.snap:
                calls += [("call", t % players, 450.0), ("call", (t + 1) % players, 700.0)]
            if w.pool:
                calls += [("call-pool", (t + 2) % players, 400.0)]
            if not (w.snap or w.pool) and t % 9 == 0:
                calls += [("call", t % players, 600.0)]  # a call in error
            calls = [c for c in calls if not state.out[c[1]]]
            if calls:
                queue.extend(
                    {"type": k, "player": p, "turn": t, "reaction_ms": ms} for k, p, ms in calls
                )
                queue.append({"type": "close", "player": seat})
                return queue.pop(0)
        kinds = [a["type"] for a in snap.legal_actions(state, seat)]
        return {"type": "turn" if "turn" in kinds else "close", "player": seat}

    return choose


def render(lines: list[dict], title: str) -> str:
    """A readable, diffable record of a game: one line per event, then the final places."""
    out = [title]
    for line in lines[1:]:
        event = dict(line["event"])
        moves = event.pop("moves", [])
        kind = event.pop("type")
        text = f"{line['seq']:4d} {kind} {json.dumps(event, sort_keys=True)}"
        if kind not in ("shuffle", "deal"):
            text += "".join(
                f"\n       {m['from']} -> {m['to']} ({m['at']}): {' '.join(m['cards'])}"
                for m in moves
            )
        out.append(text)
    final = lines[-1]["state"]["places"]
    out.append("# final places")
    out += [f"{place}: {' '.join(cards)}" for place, cards in final.items()]
    return "\n".join(out) + "\n"


def playthrough(variant: str, players: int, seed: int) -> str:
    """One bounded game of computer players at the easy level."""
    options = snap.options_for(variant, players=players, max_turns=40, level="easy")
    choose = trace.bot_chooser(snap, players, "easy", seed)
    lines = list(trace.trace_game(snap, standard_deck(), options, seed, choose))
    return render(lines, f"# snap {variant}, {players} players, seed {seed}, 40 turns at most")


def scripted(variant: str, seed: int) -> str:
    """One bounded game of three people calling by a script (so ties and pools happen)."""
    options = snap.options_for(variant, players=3, max_turns=60, humans=(0, 1, 2))
    lines = list(trace.trace_game(snap, standard_deck(), options, seed, scripted_chooser(3)))
    assert trace.check_lines(lines, snap) == len(lines) - 1
    return render(lines, f"# snap {variant}, 3 people calling by script, seed {seed}")


@pytest.mark.parametrize(("variant", "players", "seed"), CASES)
def test_snap_playthrough_matches_golden(golden, variant: str, players: int, seed: int) -> None:
    golden.check(f"golden/{variant}-{players}p-seed{seed}.txt", playthrough(variant, players, seed))


@pytest.mark.parametrize("variant", SCRIPTED)
def test_scripted_playthrough_matches_golden(golden, variant: str) -> None:
    text = scripted(variant, 8)
    golden.check(f"golden/{variant}-scripted-seed8.txt", text)
    if variant != "easy":
        assert "pool-formed" in text or "penalty" in text


def test_every_variant_has_golden_files() -> None:
    from pathlib import Path

    folder = Path(__file__).parent / "golden"
    names = {p.name for p in folder.glob("*.txt")}
    for variant, players, seed in CASES:
        assert f"{variant}-{players}p-seed{seed}.txt" in names


def visitors_chooser(seed: int):
    """Two visitors at one screen (seats 0 and 1) with a computer player (seat 2): on a
    match, one, the other or both call, as kiosk/games/snap/web.py posts them (their calls,
    then a close if the window is still open); reactions from a seeded script."""
    rng = random.Random(f"visitors:{seed}")
    queue: list[dict] = []

    def choose(state, seat):
        w = state.window
        if queue:
            action = queue.pop(0)
            if action["type"] != "close":
                return action
            if w is not None and w.turn == action["turn"]:  # one visitor called: judged now
                return {"type": "close", "player": action["player"]}
        if w is not None and not w.calls and (w.snap or w.pool):
            kind = "call" if w.snap else "call-pool"
            who = rng.choice([(0,), (1,), (0, 1), (1, 0)])
            calls = [
                {"type": kind, "player": p, "turn": w.turn, "reaction_ms": rng.choice(REACTIONS)}
                for p in who
                if not state.out[p]
            ]
            if calls:
                queue.extend(calls)
                queue.append({"type": "close", "player": calls[0]["player"], "turn": w.turn})
                return queue.pop(0)
        kinds = [a["type"] for a in snap.legal_actions(state, seat)]
        return {"type": "turn" if "turn" in kinds else "close", "player": seat}

    return choose


REACTIONS = (350.0, 480.0, 480.0, 505.0, 900.0, 1500.0)  # ties, near ties and slow calls


def visitors(variant: str, seed: int) -> str:
    """A bounded game of two visitors and one computer player (easy) calling by a script."""
    options = snap.options_for(variant, players=3, max_turns=60, humans=(0, 1), level="easy")
    choose = visitors_chooser(seed)
    lines = list(trace.trace_game(snap, standard_deck(), options, seed, choose))
    assert trace.check_lines(lines, snap) == len(lines) - 1
    return render(lines, f"# snap {variant}, two visitors and a computer player, seed {seed}")


@pytest.mark.parametrize("variant", ["classic", "snap-pool"])
def test_two_visitors_playthrough_matches_golden(golden, variant: str) -> None:
    text = visitors(variant, 3)
    golden.check(f"golden/{variant}-two-visitors-seed3.txt", text)
    assert '"player": 1' in text and '"human": true' in text
