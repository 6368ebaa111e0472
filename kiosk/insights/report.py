"""A period's counts summed the ways a curator asks (one path for the dashboard, the CSV and
``kiosk insights``); a period is whole UTC days.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from kiosk.insights.recorder import OTHER_SITES
from kiosk.insights.schema import GAME_EVENTS, MODES, TABLES
from kiosk.insights.store import Store

DEFAULT_DAYS = 7
SITES_SHOWN = 50  # embedding sites named on the dashboard and in the summary; the rest added up
MAX_DAYS = 3 * 366  # a longer period is cut to this many days, ending on its last day
CSV_COLUMNS = ("table", "hour", *dict.fromkeys(c for cs in TABLES.values() for c in cs), "n")


@dataclass(frozen=True)
class Period:
    """Whole UTC days from ``first`` to ``last``, both included."""

    first: date
    last: date

    @property
    def days(self) -> list[date]:
        return [self.first + timedelta(days=i) for i in range((self.last - self.first).days + 1)]

    @property
    def hours(self) -> tuple[str, str]:
        """The first and last hour keys of the period (``YYYY-MM-DDTHH``)."""
        return f"{self.first.isoformat()}T00", f"{self.last.isoformat()}T23"

    def __str__(self) -> str:
        return f"{self.first.isoformat()} to {self.last.isoformat()}"


def period(first: str | None = None, last: str | None = None, days: int | None = None) -> Period:
    """The period asked for, else the last ``days`` (7); ValueError naming a bad date."""
    end = _date(last, "to") if last else datetime.now(UTC).date()  # counts are filed in UTC
    span = max(1, days or DEFAULT_DAYS)
    start = _date(first, "from") if first else end - timedelta(days=span - 1)
    if start > end:
        start, end = end, start
    start = max(start, end - timedelta(days=MAX_DAYS - 1))
    return Period(start, end)


def _date(raw: str, name: str) -> date:
    try:
        return date.fromisoformat(raw.strip())
    except ValueError:
        raise ValueError(f"{name}: {raw!r} is not a date (YYYY-MM-DD)") from None


@dataclass
class Report:
    """Every count of one period, added up by day, set, game, scenario and origin."""

    period: Period
    rows: dict[str, list[dict[str, Any]]]
    views_by_day: dict[str, Counter[str]] = field(default_factory=dict)  # day -> mode -> n
    views_by_mode: Counter[str] = field(default_factory=Counter)
    views_by_kind: Counter[str] = field(default_factory=Counter)
    set_views: dict[str, Counter[str]] = field(default_factory=dict)  # set -> kind -> n
    origins: Counter[str] = field(default_factory=Counter)
    games: dict[str, Counter[str]] = field(default_factory=dict)  # game -> event -> n
    game_rows: Counter[tuple[str, ...]] = field(default_factory=Counter)
    outcomes: dict[str, Counter[str]] = field(default_factory=dict)  # game -> outcome -> n
    lengths: dict[str, Counter[str]] = field(default_factory=dict)  # game -> band -> n
    set_games: dict[str, Counter[str]] = field(default_factory=dict)  # set -> event -> n
    rules: dict[tuple[str, str], Counter[int]] = field(default_factory=dict)  # -> furthest -> n
    rule_totals: dict[tuple[str, str], int] = field(default_factory=dict)
    events: Counter[str] = field(default_factory=Counter)  # visitor event -> n
    events_by_day: dict[str, Counter[str]] = field(default_factory=dict)
    reveals: Counter[str] = field(default_factory=Counter)  # set -> cards revealed
    resets: Counter[str] = field(default_factory=Counter)  # how -> n

    @property
    def total_views(self) -> int:
        return sum(self.views_by_mode.values())

    def game_total(self, event: str) -> int:
        """Games started, finished or abandoned, every game together."""
        return sum(counts[event] for counts in self.games.values())

    @property
    def rules_watched(self) -> int:
        return sum(sum(reached.values()) for reached in self.rules.values())

    @property
    def is_empty(self) -> bool:
        return not any(self.rows.values())

    def sites(self, limit: int = SITES_SHOWN) -> tuple[list[tuple[str, int]], int]:
        """The most viewed embedding sites, the rest as "(other sites)", and how many left out."""
        named = [(o, n) for o, n in self.origins.most_common() if o != OTHER_SITES]
        shown, rest = named[:limit], named[limit:]
        other = self.origins.get(OTHER_SITES, 0) + sum(n for _, n in rest)
        return shown + ([(OTHER_SITES, other)] if other else []), len(rest)

    def rule_summary(self) -> list[dict[str, Any]]:
        """Per step-through: watched, steps, median furthest step, and the share seeing the end."""
        out = []
        for key, reached in sorted(self.rules.items()):
            watched = sum(reached.values())
            total = self.rule_totals[key]
            ordered = sorted(reached.elements())
            median = ordered[len(ordered) // 2] if ordered else 0
            out.append(
                {
                    "game": key[0],
                    "scenario": key[1],
                    "watched": watched,
                    "total": total,
                    "median": median,
                    "median_share": round(100 * median / total) if total else 0,
                    "to_the_end": round(100 * reached[total] / watched) if watched else 0,
                }
            )
        return out


def build(store: Store, which: Period) -> Report:
    """Read the period's rows of every table and add them up."""
    first, last = which.hours
    rows = {table: store.rows(table, first, last) for table in TABLES}
    report = Report(which, rows, views_by_day={d.isoformat(): Counter() for d in which.days})
    report.events_by_day = {d.isoformat(): Counter() for d in which.days}
    for row in rows["page_views"]:
        n, day = row["n"], row["hour"][:10]
        report.views_by_day.setdefault(day, Counter())[row["mode"]] += n
        report.views_by_mode[row["mode"]] += n
        report.views_by_kind[row["kind"]] += n
        if row["kind"] in ("set", "print") or row["kind"].startswith("play-"):
            report.set_views.setdefault(row["subject"], Counter())[row["kind"]] += n
        if row["mode"] == "embed":
            report.origins[row["origin"]] += n
    for row in rows["games"]:
        n, game = row["n"], row["game"]
        report.games.setdefault(game, Counter())[row["event"]] += n
        report.set_games.setdefault(row["set_slug"], Counter())[row["event"]] += n
        settings = (game, row["variant"], row["level"], str(row["bots"]), row["event"])
        report.game_rows[settings] += n
        if row["outcome"]:
            report.outcomes.setdefault(game, Counter())[row["outcome"]] += n
        if row["length_band"]:
            report.lengths.setdefault(game, Counter())[row["length_band"]] += n
    for row in rows["rule_watches"]:
        key = (row["game"], row["scenario"])
        report.rules.setdefault(key, Counter())[row["furthest"]] += row["n"]
        report.rule_totals[key] = max(report.rule_totals.get(key, 0), row["total"])
    for row in rows["visitor_events"]:
        n, event = row["n"], row["event"]
        report.events[event] += n
        report.events_by_day.setdefault(row["hour"][:10], Counter())[event] += n
        if event == "reveal":
            report.reveals[row["subject"]] += n
        elif event == "idle-reset":
            report.resets[row["detail"]] += n
    return report


def csv_text(report: Report) -> str:
    """Every hourly row of the period, one table after another, in one CSV (blank = n/a)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for table, rows in report.rows.items():
        for row in rows:
            writer.writerow({"table": table, **row})
    return out.getvalue()


def _line(label: str, value: Any) -> str:
    return f"  {label:<30} {value}"


def summary_lines(report: Report) -> Iterable[str]:
    """The period in plain lines, for ``kiosk insights``."""
    yield f"Visitor insights, {report.period} (UTC days)"
    if report.is_empty:
        yield "  no counts in this period"
        return
    yield "Page views"
    yield _line("all", report.total_views)
    for mode in MODES:
        yield _line(mode, report.views_by_mode[mode])
    for name, counts in sorted(report.set_views.items()):
        yield _line(f"set {name}", sum(counts.values()))
    for origin, n in report.sites()[0]:  # the most viewed, then the others added up
        yield _line(f"embedded by {origin}", n)
    yield "Games (started / finished / abandoned)"
    for game, counts in sorted(report.games.items()):
        yield _line(game, " / ".join(str(counts[e]) for e in GAME_EVENTS))
    yield "Rule step-throughs (watched, median step of total, watched to the end)"
    for rule in report.rule_summary():
        name = f"{rule['game']}/{rule['scenario']}"
        yield _line(
            name, f"{rule['watched']}, {rule['median']} of {rule['total']}, {rule['to_the_end']}%"
        )
    yield "Visitors' actions"
    yield _line("contested cards revealed", report.events["reveal"])
    yield _line("notes opened", report.views_by_kind["note"])
    yield _line("notes read", report.events["note-read"])
    yield _line("idle resets", report.events["idle-reset"])
    yield _line("attract-loop taps", report.events["attract-tap"])
