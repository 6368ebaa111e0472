"""``kiosk run``: serve with waitress, the embedded default."""

from __future__ import annotations

import os
import secrets

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--threads", default=8, show_default=True, type=int)
def run(host: str, port: int, threads: int) -> None:
    """Serve the kiosk with waitress (the embedded default; offline)."""
    import waitress

    from kiosk import create_app

    app = create_app(process_settings())
    click.echo(f"Serving the kiosk on http://{host}:{port}/")
    waitress.serve(app, host=host, port=port, threads=threads)


def process_settings(environ: os._Environ[str] | dict[str, str] | None = None) -> dict[str, str]:
    """A random secret for this process unless ``KIOSK_SECRET_KEY`` is set.

    A fresh touchscreen then starts with no configuration; games in progress simply do not
    survive a restart, because their signed tokens no longer verify.
    """
    environ = os.environ if environ is None else environ
    if environ.get("KIOSK_SECRET_KEY"):
        return {}
    return {"SECRET_KEY": secrets.token_hex(32)}
