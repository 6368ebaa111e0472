"""Golden files for every game's golden tests: ``golden.check(name, text)``, ``name`` beside
the test (``golden/classic-seed1.txt``). A plugin: the root conftest.py loads it.

Regenerate with ``pytest kiosk/games/<game>/tests/test_golden_<game>.py --regen-golden`` (or
``KIOSK_REGEN_GOLDEN=1``); review the diff before committing it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=False,
        help="rewrite the golden files from the engines instead of comparing",
    )


class Golden:
    """Compares text with a committed golden file (or rewrites it when regenerating)."""

    def __init__(self, regen: bool, folder: Path) -> None:
        self.regen = regen
        self.folder = folder

    def path(self, name: str) -> Path:
        """Where golden file ``name`` (e.g. ``golden/classic-seed1.txt``) lives."""
        return self.folder / name

    def check(self, name: str, text: str) -> None:
        """Fail with a unified diff if ``text`` differs from the golden file ``name``."""
        path = self.path(name)
        if self.regen:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"no golden file {name}: run its test with --regen-golden")
        want = path.read_text(encoding="utf-8")
        if want != text:
            diff = "".join(
                difflib.unified_diff(
                    want.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    fromfile=name,
                    tofile="engine now",
                    n=2,
                )
            )
            pytest.fail(f"{name} differs from the engine's playthrough:\n{diff[:6000]}")


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Golden:
    """The golden-file helper, regenerating when asked to."""
    regen = bool(request.config.getoption("--regen-golden", default=False)) or bool(
        os.environ.get("KIOSK_REGEN_GOLDEN")
    )
    return Golden(regen, request.path.parent)
