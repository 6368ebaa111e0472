"""``kiosk check``: validate content for curators, compiler-style, every problem at once."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import click

from kiosk.catalogue.store import Catalogue
from kiosk.config import DEFAULTS, from_environment
from kiosk.games.core import plural


def default_content_dir() -> str:
    """The app's content folder: ``KIOSK_CONTENT_DIR`` if set, else the built-in default."""
    return str(from_environment().get("CONTENT_DIR", DEFAULTS["CONTENT_DIR"]))


def _label(content_dir: str, given: bool) -> str:
    """Paths are printed as given on the command line; the default folder relative to cwd."""
    if given:
        return content_dir
    try:
        return os.path.relpath(content_dir)
    except ValueError:  # pragma: no cover - another drive on Windows
        return content_dir


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
    given = content_dir is not None
    folder = content_dir if content_dir is not None else default_content_dir()
    if not Path(folder).is_dir():
        raise click.ClickException(f"{folder}: no such content folder")
    # The problems are the output here; the store's run-time log lines would only repeat them.
    logger = logging.getLogger("kiosk.catalogue")
    quiet, logger.propagate = logging.NullHandler(), False
    logger.addHandler(quiet)
    try:
        snapshot = Catalogue(folder, label=_label(folder, given)).current()
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
