"""Fixtures shared by tests/ and each game's kiosk/games/<game>/tests/: app, client, runner (as
Flask's tutorial has them); a PostgreSQL server for the whole run (``postgres_server``,
tests/postgres.py) and a fresh counts database on each backend (``insights_db``). The browser
tests' fixtures and the golden files' are plugins loaded here (only the root conftest may).

Under ``CI`` Hypothesis runs derandomized: a landing must not hang on which examples a run
happened to draw. Local runs keep exploring, and what they find becomes a fixed test. For the
same reason every game a test deals has a nonce made from the test's name and a counter
(``fixed_deals``), so a test that searches for a kind of deal finds the same one every run.
"""

from __future__ import annotations

import hashlib
import itertools
import os

import flask
import postgres
import pytest
from hypothesis import settings
from jinja2 import MemcachedBytecodeCache

from kiosk import create_app

pytest_plugins = ["browser.fixtures", "golden_files"]  # from tests/, on pytest's pythonpath

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


class _Templates(dict):
    """Compiled templates kept for the whole run, keyed by name and source checksum."""

    def set(self, key: str, value: bytes, timeout: int | None = None) -> None:
        self[key] = value


# Every app a test makes compiles the same templates: compile each once per process (an
# edited template has another checksum, so it is compiled again).
flask.Flask.jinja_options = {
    **flask.Flask.jinja_options,
    "bytecode_cache": MemcachedBytecodeCache(_Templates()),
}


@pytest.fixture(scope="session", autouse=True)
def own_counts(tmp_path_factory):
    """Apps that name no counts database count into one of this process's own, not into the
    checkout's instance folder, which tests running side by side (pytest-xdist) would share."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KIOSK_INSIGHTS_DB", str(tmp_path_factory.mktemp("counts") / "counts.sqlite3"))
        yield


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


@pytest.fixture(scope="session")
def postgres_server():
    """One throwaway PostgreSQL server for the run: skipped with the reason where it cannot be
    started (no PostgreSQL installed: ``make postgres-deps``), a failure under ``CI``."""
    reason = postgres.unavailable()
    if reason:
        (pytest.fail if os.environ.get("CI") else pytest.skip)(reason)
    with postgres.running() as server:
        yield server


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def insights_db(request, tmp_path):
    """The address of a new, empty counts database (``KIOSK_INSIGHTS_DB``): a SQLite file in
    the test's folder, or a PostgreSQL database of its own on ``postgres_server``."""
    if request.param == "sqlite":
        return str(tmp_path / "insights.sqlite3")
    return request.getfixturevalue("postgres_server").new_database()
