"""``kiosk simulate``: run games with bots (owned by the engines work)."""

from __future__ import annotations

import click


@click.command()
@click.argument("game")
def simulate(game: str) -> None:
    """Run games with bots and print a summary or JSON Lines traces."""
    raise click.ClickException("not built yet")
