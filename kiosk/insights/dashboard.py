"""The dashboard's figures: four charts (views by day, games, rules watched, notes against
reveals), each with its numbers in a table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from kiosk.insights import charts
from kiosk.insights.recorder import MAX_ORIGINS_PER_DAY
from kiosk.insights.report import Report
from kiosk.insights.schema import GAME_EVENTS

MODE_NAMES = {"kiosk": "Gallery kiosk", "site": "Website", "embed": "Embedded"}
EVENT_NAMES = {"started": "Started", "finished": "Finished", "abandoned": "Abandoned"}
DAYS_SHOWN = 31  # up to a month is drawn day by day; longer periods by week, then by month


@dataclass(frozen=True)
class Figure:
    """A chart (SVG markup) with its legend and its numbers as a table."""

    ident: str
    svg: str
    legend: list[tuple[str, str]]  # (css, name)
    head: list[str]
    body: list[list[Any]]


def bucket_of(day: date, days: int) -> str:
    """The label a day is shown under: itself, its week (from Monday) or its month."""
    if days <= DAYS_SHOWN:
        return day.strftime("%d %b")
    if days <= 7 * 26:
        return "w/c " + (day - timedelta(days=day.weekday())).strftime("%d %b")
    return day.strftime("%b %Y")


def by_bucket(per_day: Mapping[str, Counter[str]], days: list[date]) -> dict[str, Counter[str]]:
    """Day counts added up into the buckets a chart of this many days shows, in order."""
    out: dict[str, Counter[str]] = {}
    for day in days:
        out.setdefault(bucket_of(day, len(days)), Counter()).update(
            per_day.get(day.isoformat(), Counter())
        )
    return out


def _by_day(
    report: Report,
    ident: str,
    title: str,
    per_day: Mapping[str, Counter[str]],
    names: Mapping[str, str],
    summary: str,
    total: bool = False,
) -> Figure:
    """A column per day (or week, or month) for each of ``names``; ``total``: an "All" column."""
    buckets = by_bucket(per_day, report.period.days)
    labels = list(buckets)
    series = [charts.Series(name, [buckets[b][k] for b in labels], k) for k, name in names.items()]
    svg = charts.columns(ident, title, labels, series, summary)
    body = [
        [b, *(buckets[b][k] for k in names), *([sum(buckets[b].values())] if total else [])]
        for b in labels
    ]
    head = ["Day", *names.values(), *(["All"] if total else [])]
    return Figure(ident, svg, list(names.items()), head, body)


def views_figure(report: Report) -> Figure:
    summary = (
        f"{report.total_views} page views in the period, kiosk, website and embeds side by side."
    )
    return _by_day(
        report, "views", "Page views by day", report.views_by_day, MODE_NAMES, summary, total=True
    )


def games_figure(report: Report, titles: Mapping[str, str]) -> Figure:
    names = sorted(report.games)
    labels = [titles.get(g, g) for g in names]
    series = [
        charts.Series(EVENT_NAMES[e], [report.games[g][e] for g in names], e) for e in GAME_EVENTS
    ]
    started = sum(report.games[g]["started"] for g in names)
    finished = sum(report.games[g]["finished"] for g in names)
    svg = charts.columns(
        "games",
        "Games started and finished",
        labels,
        series,
        f"{started} games started and {finished} finished in the period, per game.",
    )
    body = [
        [titles.get(g, g), *(report.games[g][e] for e in GAME_EVENTS), _share(report.games[g])]
        for g in names
    ]
    head = ["Game", *EVENT_NAMES.values(), "Finished of started"]
    return Figure("games", svg, [(e, EVENT_NAMES[e]) for e in GAME_EVENTS], head, body)


def _share(counts: Counter[str]) -> str:
    started = counts["started"]
    return f"{round(100 * counts['finished'] / started)}%" if started else "–"


def rules_figure(report: Report, titles: Mapping[str, str]) -> Figure:
    summary = report.rule_summary()
    labels = [titles.get(f"{r['game']}/{r['scenario']}", r["scenario"]) for r in summary]
    series = [
        charts.Series("Median share of the steps", [r["median_share"] for r in summary], "end")
    ]
    svg = charts.rows(
        "rules",
        "How far rules are watched",
        labels,
        series,
        "For each rule step-through, how far the median visitor watched it, as a share of its"
        " steps.",
        top=100,
        unit="%",
    )
    body = [
        [label, r["watched"], f"{r['median']} of {r['total']}", f"{r['to_the_end']}%"]
        for label, r in zip(labels, summary, strict=True)
    ]
    head = ["Step-through", "Watched", "Median step reached", "Watched to the end"]
    return Figure("rules", svg, [("end", "Median share of the steps reached")], head, body)


NOTE_NAMES = {"reveal": "Cards revealed", "note-open": "Notes opened", "note-read": "Notes read"}


def notes_figure(report: Report, note_views: Mapping[str, int]) -> Figure:
    per_day = {
        day: Counter({**counts, "note-open": note_views.get(day, 0)})
        for day, counts in report.events_by_day.items()
    }
    summary = (
        f"{report.events['reveal']} contested cards revealed, "
        f"{report.events['note-read']} notes read to the end in the period."
    )
    return _by_day(
        report, "notes", "Notes read next to cards revealed", per_day, NOTE_NAMES, summary
    )


def note_views_by_day(report: Report) -> dict[str, int]:
    """Note pages opened, per day."""
    out: Counter[str] = Counter()
    for row in report.rows["page_views"]:
        if row["kind"] == "note":
            out[row["hour"][:10]] += row["n"]
    return dict(out)


def set_table(report: Report, titles: Mapping[str, str]) -> list[list[Any]]:
    """Per set: its page, its games' pages, games started and finished, cards revealed."""
    slugs = sorted(set(report.set_views) | set(report.set_games), key=lambda s: titles.get(s, s))
    out = []
    for slug in slugs:
        views = report.set_views.get(slug, Counter())
        plays = sum(n for kind, n in views.items() if kind.startswith("play-"))
        games = report.set_games.get(slug, Counter())
        out.append(
            [
                titles.get(slug, slug),
                views["set"],
                plays,
                games["started"],
                games["finished"],
                report.reveals[slug],
            ]
        )
    return out


SET_HEAD = ["Set", "Record viewed", "Game pages", "Games started", "Games finished", "Revealed"]


def figures(report: Report, titles: Mapping[str, str]) -> dict[str, Any]:
    """Everything the dashboard template shows for one report (at most SITES_SHOWN sites)."""
    sites, left_out = report.sites()
    return {
        "views": views_figure(report),
        "games": games_figure(report, titles),
        "rules": rules_figure(report, titles),
        "notes": notes_figure(report, note_views_by_day(report)),
        "sets": set_table(report, titles),
        "set_head": SET_HEAD,
        "variants": sorted(report.game_rows.items()),
        "outcomes": {g: dict(c) for g, c in sorted(report.outcomes.items())},
        "lengths": {g: dict(c) for g, c in sorted(report.lengths.items())},
        "origins": sites,
        "sites_left_out": left_out,
        "sites_kept": MAX_ORIGINS_PER_DAY,
        "resets": dict(report.resets),
    }
