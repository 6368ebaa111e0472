"""``kiosk check``: validate content for curators, compiler-style, every problem at once."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import click

from kiosk.catalogue.store import Catalogue
from kiosk.config import DEFAULTS, from_environment
from kiosk.games.core import plural


def content_folder(given: str | None) -> tuple[Path, str]:
    """The folder (given, else the app's) and its label: as given, else relative to here."""
    if given is None:
        given = os.path.relpath(from_environment().get("CONTENT_DIR", DEFAULTS["CONTENT_DIR"]))
    if not Path(given).is_dir():
        raise click.ClickException(f"{given}: no such content folder")
    return Path(given), given.rstrip("/\\") or given


@click.command()
@click.argument("content_dir", required=False)
@click.option(
    "--fatal",
    is_flag=True,
    help="Warnings fail the check too (problems always do), as Pelican's --fatal.",
)
@click.option(
    "--notes",
    is_flag=True,
    help="Also say which emblem the kiosk picked for each card without 'emblem:'.",
)
def check(content_dir: str | None, fatal: bool, notes: bool = False) -> None:
    """Validate content; print path:line:col: message for every problem and warning (and with
    --notes each emblem the kiosk picked); exit 1 if any problem (--fatal: any warning)."""
    folder, label = content_folder(content_dir)
    # The problems are the output here; the store's run-time log lines would only repeat them.
    logger = logging.getLogger("kiosk.catalogue")
    quiet, logger.propagate = logging.NullHandler(), False
    logger.addHandler(quiet)
    try:
        snapshot = Catalogue(folder, label=label).current()
    finally:
        logger.removeHandler(quiet)
        logger.propagate = True
    remarks = snapshot.remarks if notes else ()
    for problem in sorted([*snapshot.problems, *snapshot.warnings, *remarks]):
        click.echo(str(problem))
    click.echo(_summary(snapshot.files, len(snapshot.problems), len(snapshot.warnings)))
    if snapshot.problems or (fatal and snapshot.warnings):
        raise SystemExit(1)


def _summary(files: int, problems: int, warnings: int) -> str:
    """ "10 files, 0 problems", with ", 2 warnings" only when there are any."""
    text = f"{plural(files, 'file')}, {plural(problems, 'problem')}"
    return text + (f", {plural(warnings, 'warning')}" if warnings else "")
