"""``kiosk check``: validate content for curators (owned by the catalogue work)."""

from __future__ import annotations

import click


@click.command()
@click.argument("content_dir", required=False)
def check(content_dir: str | None) -> None:
    """Validate content; print path:line:col: message for every problem; exit 1 if any."""
    raise click.ClickException("not built yet")
