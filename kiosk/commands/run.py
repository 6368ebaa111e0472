"""``kiosk run``: serve with waitress, the embedded default."""

from __future__ import annotations

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--threads", default=8, show_default=True, type=int)
def run(host: str, port: int, threads: int) -> None:
    """Serve the kiosk with waitress (the embedded default; offline)."""
    import waitress

    from kiosk import create_app

    app = create_app()
    click.echo(f"Serving the kiosk on http://{host}:{port}/")
    waitress.serve(app, host=host, port=port, threads=threads)
