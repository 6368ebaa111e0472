"""The ``kiosk`` command: run, check, images, simulate, insights (each in ``kiosk/commands``)."""

from __future__ import annotations

import click

from kiosk.commands import check, images, insights, run, simulate


@click.group()
@click.version_option(package_name="kiosk", prog_name="kiosk")
def main() -> None:
    """The Snap & Happy Families museum kiosk."""


main.add_command(run.run)
main.add_command(check.check)
main.add_command(images.images)
main.add_command(simulate.simulate)
main.add_command(insights.insights)
