"""``python -m kiosk``: the ``kiosk`` command, where the venv's scripts are not on PATH."""

from __future__ import annotations

from kiosk.cli import main

if __name__ == "__main__":
    main(prog_name="kiosk")
