"""``kiosk run``: serve with waitress, the embedded default."""

from __future__ import annotations

import os
import secrets
import signal
import sys
from typing import Any

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--threads", default=8, show_default=True, type=int)
@click.option(
    "--kiosk",
    "kiosk_mode",
    is_flag=True,
    default=False,
    help="Touchscreen kiosk mode (the same as KIOSK_MODE=1): idle reset, attract loop.",
)
@click.option(
    "--preview",
    is_flag=True,
    default=False,
    help="Curators' preview (the same as KIOSK_PREVIEW=1): drafts shown, problems on every page.",
)
def run(
    host: str, port: int, threads: int, kiosk_mode: bool = False, preview: bool = False
) -> None:
    """Serve the kiosk with waitress (the embedded default; offline)."""
    import waitress  # here: only `kiosk run` loads the server

    from kiosk import create_app  # here: the other commands load no Flask

    settings = process_settings()
    if kiosk_mode:
        settings["KIOSK_MODE"] = True
    if preview:
        settings["PREVIEW"] = True
    app = create_app(settings)
    if app.config.get("KIOSK_MODE"):
        click.echo("Kiosk mode: idle reset and attract loop on.")
    if app.config.get("PREVIEW") and not app.config.get("KIOSK_MODE"):
        click.echo("Preview: drafts shown, content problems on every page (not for visitors).")
    click.echo(f"Serving the kiosk on http://{host}:{port}/")
    # waitress reads a whole body before the app sees it: the same limit, refused there (413)
    limit = app.config.get("MAX_CONTENT_LENGTH") or 1024**3
    # `systemctl stop` sends SIGTERM: exit cleanly so exit handlers (insights' last counts) run
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    waitress.serve(app, host=host, port=port, threads=threads, max_request_body_size=limit)


def process_settings(environ: os._Environ[str] | dict[str, str] | None = None) -> dict[str, Any]:
    """A random secret unless ``KIOSK_SECRET_KEY`` is set: games in play end with a restart."""
    environ = os.environ if environ is None else environ
    if environ.get("KIOSK_SECRET_KEY"):
        return {}
    return {"SECRET_KEY": secrets.token_hex(32)}
