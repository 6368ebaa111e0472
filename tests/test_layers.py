"""The layers hold at import time: engines and catalogue load without Flask."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kiosk.games.registry import ENGINES


@pytest.mark.parametrize(
    "module",
    [*ENGINES.values(), "kiosk.games.simulate", "kiosk.catalogue.store", "kiosk.catalogue.looks"],
)
def test_module_loads_without_flask(module: str):
    code = (
        f"import sys, {module}; print(sorted(m for m in ('flask', 'werkzeug') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]", f"importing {module} loaded {out.strip()}"


def test_create_app_is_still_importable_from_the_package():
    from kiosk import create_app

    assert create_app({"TESTING": True, "SECRET_KEY": "x"}).name == "kiosk"
