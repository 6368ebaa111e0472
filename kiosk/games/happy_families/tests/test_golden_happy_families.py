"""Golden playthroughs of Happy Families and its variation: engine events diffed against files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.games import trace
from kiosk.games.happy_families import engine as hf

CASES = [
    (variant, players, families, seed)
    for variant in hf.VARIANTS
    for players, families, seed in ((3, 3, 1), (4, 6, 2), (5, 4, 3))
]


def name(variant: str, players: int, families: int, seed: int) -> str:
    return f"golden/{variant}-{players}p-{families}f-seed{seed}.txt"


def playthrough(variant: str, players: int, families: int, seed: int) -> str:
    """One game, a remembering bot against forgetful ones: a line per event, with reasons."""
    options = hf.options_for(variant, players=players)
    bots = [hf.make_bot("remembering" if s == 0 else "forgetful", s, seed) for s in range(players)]

    def choose(state, seat):
        return bots[seat].act(hf.view(state, seat))

    lines = list(trace.trace_game(hf, hf.generic_deck(families), options, seed, choose))
    out = [
        f"# happy-families {variant}, {players} players, {families} families, seed {seed}; "
        "seat 0 remembers, the others forget"
    ]
    for line in lines[1:]:
        event = dict(line["event"])
        moves = event.pop("moves", [])
        kind = event.pop("type")
        text = f"{line['seq']:4d} {kind} {json.dumps(event, sort_keys=True)}"
        if kind in ("deal", "sort"):
            hands: dict[str, list[str]] = {}
            for m in moves:
                hands.setdefault(m["to"], []).extend(m["cards"])
            text += "".join(f"\n       {p}: {' '.join(c)}" for p, c in sorted(hands.items()))
        elif kind != "shuffle":
            text += "".join(
                f"\n       {m['from']} -> {m['to']}: {' '.join(m['cards'])}" for m in moves
            )
        if kind in ("ask", "claim") and line.get("action", {}).get("why"):
            text += f"\n       why: {line['action']['why']}"
        out.append(text)
    out.append("# final places")
    out += [f"{place}: {' '.join(cards)}" for place, cards in lines[-1]["state"]["places"].items()]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(("variant", "players", "families", "seed"), CASES)
def test_happy_families_playthrough_matches_golden(golden, variant, players, families, seed):
    golden.check(
        name(variant, players, families, seed), playthrough(variant, players, families, seed)
    )


def test_every_variant_has_golden_files():
    folder = Path(__file__).parent
    for case in CASES:
        assert (folder / name(*case)).exists(), name(*case)
    assert {v for v, *_ in CASES} == set(hf.VARIANTS)
