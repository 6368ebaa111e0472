"""Golden playthroughs of Snitch'ems under each reading of its rules, diffed against files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.games import trace
from kiosk.games.cards import standard_deck
from kiosk.games.snitchems import engine as sn

CASES = [
    ("classic", {}, 1),
    ("classic", {}, 2),
    ("pairing-any", {"pairing_takes_all": False, "pairing_made_takes_all": False}, 3),
    ("making-one", {"making_several": False}, 4),
]


def name(label: str, seed: int) -> str:
    return f"golden/{label}-seed{seed}.txt"


def playthrough(label: str, overrides: dict, seed: int) -> str:
    """One game, careful (seat 0) against beginner (seat 1): a line per event."""
    options = sn.options_for("classic", **overrides)
    bots = [sn.make_bot("careful", 0, seed), sn.make_bot("beginner", 1, seed)]

    def choose(state, seat):
        return bots[seat].act(sn.view(state, seat))

    lines = list(trace.trace_game(sn, standard_deck(), options, seed, choose))
    out = [
        f"# snitchems {label} {json.dumps(overrides, sort_keys=True)}, seed {seed}; "
        "seat 0 careful, seat 1 beginner"
    ]
    for line in lines[1:]:
        event = dict(line["event"])
        moves = event.pop("moves", [])
        kind = event.pop("type")
        text = f"{line['seq']:4d} {kind} {json.dumps(event, sort_keys=True)}"
        if kind != "shuffle":
            text += "".join(
                f"\n       {m['from']} -> {m['to']}: {' '.join(m['cards'])}" for m in moves
            )
        out.append(text)
    out.append("# final places")
    out += [f"{place}: {' '.join(cards)}" for place, cards in lines[-1]["state"]["places"].items()]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(("label", "overrides", "seed"), CASES)
def test_snitchems_playthrough_matches_golden(golden, label, overrides, seed):
    golden.check(name(label, seed), playthrough(label, overrides, seed))


def test_every_case_has_a_golden_file():
    folder = Path(__file__).parent
    for label, _, seed in CASES:
        assert (folder / name(label, seed)).exists(), name(label, seed)
