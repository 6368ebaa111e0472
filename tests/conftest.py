"""Shared fixtures: app, client, runner (as Flask's tutorial has them).

Under ``CI`` Hypothesis runs derandomized: a landing must not hang on which examples a run
happened to draw. Local runs keep exploring, and what they find becomes a fixed test.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from kiosk import create_app

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


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
