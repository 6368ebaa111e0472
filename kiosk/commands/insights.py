"""``kiosk insights``: the visitor counts for a period, as a summary or (``--csv``) the export."""

from __future__ import annotations

import click

from kiosk.commands.run import process_settings
from kiosk.insights import report
from kiosk.insights.store import Store


@click.command()
@click.option("--from", "first", metavar="YYYY-MM-DD", help="First day (UTC), included.")
@click.option("--to", "last", metavar="YYYY-MM-DD", help="Last day (UTC), included (today).")
@click.option(
    "--days",
    type=click.IntRange(min=1),
    default=None,
    help="The last this many days, to --to (default 7).",
)
@click.option("--csv", "as_csv", is_flag=True, help="Print every hourly count as CSV instead.")
@click.option(
    "--db",
    "database",
    default=None,
    help="The counts' SQLite file or PostgreSQL address (default: KIOSK_INSIGHTS_DB, else"
    " the app's instance folder).",
)
def insights(
    first: str | None, last: str | None, days: int | None, as_csv: bool, database: str | None
) -> None:
    """Summarise the visitor counts for a period (the last 7 days unless told), or --csv."""
    from kiosk import create_app  # here: the other commands load no Flask
    from kiosk.web.insights import database_path  # here: Flask, as above

    settings = {**process_settings(), "INSIGHTS": False}  # reading only: nothing to count
    if database:
        settings["INSIGHTS_DB"] = database
    try:
        store = Store(database_path(create_app(settings)))
        which = report.period(first, last, days)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    if not store.exists():
        raise click.ClickException(f"{store.address}: no counts yet (the kiosk makes them)")
    found = report.build(store, which)
    if as_csv:
        click.echo(report.csv_text(found), nl=False)
        return
    for line in report.summary_lines(found):
        click.echo(line)
