"""Shared fixtures: app, client, runner (as Flask's tutorial has them).

Under ``CI`` Hypothesis runs derandomized: a landing must not hang on which examples a run
happened to draw. Local runs keep exploring, and what they find becomes a fixed test. For the
same reason every game a test deals has a nonce made from the test's name and a counter
(``fixed_deals``), so a test that searches for a kind of deal finds the same one every run.
"""

from __future__ import annotations

import hashlib
import itertools
import os

import pytest
from hypothesis import settings

from kiosk import create_app

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def fixed_deals(request, monkeypatch):
    """The same deals on every run (``@pytest.mark.random_deals`` for truly fresh nonces)."""
    if request.node.get_closest_marker("random_deals"):
        return
    from kiosk.web import tokens

    name = hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:12]
    count = itertools.count()
    monkeypatch.setattr(tokens, "new_nonce", lambda: f"t{name}{next(count)}")


@pytest.fixture
def app():
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret"})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
