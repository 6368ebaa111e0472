"""Bot-driven simulations and the ``kiosk simulate`` command."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kiosk.cli import main
from kiosk.games import simulate as sim
from kiosk.games import trace
from kiosk.games.cards import standard_deck
from kiosk.games.core import OptionsError
from kiosk.games.snap import engine as snap


def run_cli(*args: str):
    return CliRunner().invoke(main, ["simulate", *args])


def test_list_variants_prints_one_name_a_line() -> None:
    result = run_cli("snap", "--list-variants")
    assert result.exit_code == 0
    assert result.output.splitlines() == list(snap.VARIANTS)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["snap", "--players", "1"], "at least two players"),
        (["snap", "--variant", "easy", "--players", "2", "--max-turns", "0"], "0"),
        (["snap", "--variant", "bogus"], "unknown Snap variant"),
        (["snap", "--level", "wizard"], "unknown level"),
        (["chess"], "unknown game"),
    ],
)
def test_bad_options_exit_2_with_a_clear_error(args, words) -> None:
    result = run_cli(*args)
    assert result.exit_code == 2
    assert words in result.output


def test_easy_and_speed_together_is_refused() -> None:
    with pytest.raises(OptionsError, match="Easy Snap and Speed Snap"):
        sim.make_options(snap, "easy", 2, "medium", speed=True)


def test_json_summary_counts_games_wins_and_calls() -> None:
    result = run_cli(
        "snap",
        "--variant",
        "woolworths",
        "--players",
        "3",
        "--games",
        "12",
        "--bound",
        "--json",
        "--seed",
        "5",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 12 and data["finished"] == 12
    assert sum(data["wins_by_seat"]) >= 12  # shared wins count for each winner
    assert data["turns"]["max"] <= snap.KIOSK_MAX_TURNS
    assert data["turns"]["median"] <= data["turns"]["p95"] <= data["turns"]["max"]
    assert data["snaps"] > 0 and abs(data["events"]["turn"] - data["turns"]["mean"] * 12) < 0.1
    for key in ("pools", "penalties", "mistaken_calls"):
        assert key in data


def test_text_summary_names_the_figures() -> None:
    result = run_cli("snap", "--games", "3", "--bound")
    assert result.exit_code == 0
    for words in ("3 games", "turns: mean", "wins by seat", "snaps:", "penalties:"):
        assert words in result.output


def test_trace_prints_a_header_then_checkable_lines() -> None:
    result = run_cli(
        "snap",
        "--variant",
        "snap-pool",
        "--players",
        "3",
        "--seed",
        "7",
        "--trace",
        "--max-turns",
        "30",
    )
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert set(lines[0]) == {"game", "variant", "options", "seed", "deck"}
    assert lines[0]["variant"] == "snap-pool" and lines[0]["seed"] == 7
    assert trace.check_lines(lines, snap) == len(lines) - 1
    again = run_cli(
        "snap",
        "--variant",
        "snap-pool",
        "--players",
        "3",
        "--seed",
        "7",
        "--trace",
        "--max-turns",
        "30",
    )
    assert again.output == result.output  # same seed, same game


def test_several_traced_games_each_have_a_header() -> None:
    result = run_cli("snap", "--trace", "--games", "2", "--max-turns", "5")
    heads = [json.loads(line) for line in result.output.splitlines()]
    heads = [line for line in heads if "deck" in line]
    assert [h["seed"] for h in heads] == [1, 2]


def test_play_is_deterministic_and_summary_percentiles() -> None:
    options = snap.options_for(players=2, max_turns=60)
    a = sim.play(snap, standard_deck(), options, 3, "medium")
    b = sim.play(snap, standard_deck(), options, 3, "medium")
    assert a.actions == b.actions and a.result == b.result
    assert a.seconds >= len(a.actions) * sim.SECONDS_PER_ACTION
    assert sim.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95) == 10
    assert sim.percentile([5, 1, 3], 50) == 3
    assert sim.distribution([]) == {"mean": 0.0, "median": 0.0, "p95": 0.0, "max": 0.0}


def test_capped_games_are_reported_unfinished() -> None:
    options = snap.options_for(players=2)
    run = sim.play(snap, standard_deck(), options, 3, "medium", cap=10)
    assert not run.finished and len(run.actions) == 10
    data = sim.summary([run], 2)
    assert data["finished"] == 0 and data["end_reasons"] == {"unfinished": 1}


def test_kiosk_bound_keeps_95_percent_of_games_within_three_minutes() -> None:
    """The default bound, re-checked on a sample (study: games/snap/benchmarks/bench_snap.py)."""
    for variant, players in (("classic", 2), ("woolworths", 4), ("speed", 3), ("forfeits", 2)):
        options = snap.options_for(variant, players=players, **snap.kiosk_bound())
        runs = sim.run_games(snap, standard_deck(), options, 100, 60, "medium")
        assert sim.summary(runs, players)["within_3_minutes"] >= 0.95, (variant, players)
