"""Snap's bot levels: calibrated reaction times, misses, false calls; the turning bot."""

from __future__ import annotations

import random
import statistics

import pytest

from kiosk.games.snap.engine import bots as snap_bots


@pytest.mark.parametrize(("name", "median"), [("easy", 900), ("medium", 600), ("hard", 420)])
def test_levels_draw_around_their_median_never_below_the_floor(name, median) -> None:
    level = snap_bots.level(name)
    rng = random.Random(1)
    draws = [level.draw(rng) for _ in range(4000)]
    hits = [d for d in draws if d is not None]
    assert min(hits) >= snap_bots.FLOOR_MS
    assert abs(statistics.median(hits) - median) < 0.06 * median
    assert abs((len(draws) - len(hits)) / len(draws) - level.miss) < 0.03


def test_levels_are_ordered_slowest_first_and_slower_ones_vary_more() -> None:
    levels = [snap_bots.LEVEL_INFO[n] for n in snap_bots.LEVELS]
    assert [lv.median_ms for lv in levels] == sorted((lv.median_ms for lv in levels), reverse=True)
    assert [lv.sigma for lv in levels] == sorted((lv.sigma for lv in levels), reverse=True)
    assert all(lv.median_ms > 380 for lv in levels)  # above go/no-go recognition (facts.md)


def test_unknown_level_is_named() -> None:
    with pytest.raises(ValueError, match="choose from easy, medium, hard"):
        snap_bots.level("wizard")


def test_bot_turns_when_it_may_and_closes_otherwise() -> None:
    bot = snap_bots.SnapBot("hard", 2)
    assert bot.act({"actions": ["turn", "close"]}) == {"type": "turn", "player": 2}
    assert bot.act({"actions": ["close"]}) == {"type": "close", "player": 2}
    with pytest.raises(ValueError):
        bot.act({"actions": []})
