"""Shared fixtures: app, client, runner (as Flask's tutorial has them)."""

from __future__ import annotations

import pytest

from kiosk import create_app


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
