"""Golden files shared by every game's golden tests: ``golden.check(name, text)``.

Regenerate with ``pytest tests/golden --regen-golden`` (the option is registered here, so
pytest must be pointed at this folder) or ``KIOSK_REGEN_GOLDEN=1 pytest``; review the diff
before committing it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/**/* from the engines instead of comparing",
    )


class Golden:
    """Compares text with a committed golden file (or rewrites it when regenerating)."""

    def __init__(self, regen: bool) -> None:
        self.regen = regen

    def path(self, name: str) -> Path:
        """Where golden file ``name`` (e.g. ``snap/classic-seed1.txt``) lives."""
        return HERE / name

    def check(self, name: str, text: str) -> None:
        """Fail with a unified diff if ``text`` differs from the golden file ``name``."""
        path = self.path(name)
        if self.regen:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"no golden file {name}: run pytest tests/golden --regen-golden")
        want = path.read_text(encoding="utf-8")
        if want != text:
            diff = "".join(
                difflib.unified_diff(
                    want.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    fromfile=f"golden/{name}",
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
    return Golden(regen)
