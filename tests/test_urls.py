"""The url_for memo: the URLs Flask would build, kept per mount point, never for static files."""

from __future__ import annotations

import pytest
from flask import Flask, url_for

from kiosk.web.urls import MEMO_SIZE, KioskFlask


@pytest.mark.parametrize(
    ("endpoint", "values"),
    [
        ("play.setup", {"slug": "misc-869-1986"}),
        ("play.act_post", {"slug": "snap-standard-deck"}),
        ("cards.face", {"set_slug": "misc-869-1986", "face_slug": "snap"}),
        ("pages.set_record", {"slug": "misc-869-1986", "extra": "a b"}),  # extra → query string
    ],
)
@pytest.mark.parametrize("mount", ["", "/embed"])
def test_the_memo_gives_what_flask_builds(app, endpoint, values, mount):
    with app.test_request_context(f"{mount}/", environ_overrides={"SCRIPT_NAME": mount}):
        built = Flask.url_for(app, endpoint, **values)
        assert url_for(endpoint, **values) == built  # built and kept
        assert url_for(endpoint, **values) == built  # from the memo
        assert built.startswith(f"{mount}/")


def test_mount_points_are_kept_apart(app):
    with app.test_request_context("/"):
        plain = url_for("play.setup", slug="misc-869-1986")
    with app.test_request_context("/", environ_overrides={"SCRIPT_NAME": "/embed"}):
        embedded = url_for("play.setup", slug="misc-869-1986")
    assert embedded == "/embed" + plain


def test_static_external_and_outside_requests_are_never_kept(app):
    assert isinstance(app, KioskFlask)
    with app.test_request_context("/"):
        url_for("static", filename="css/kiosk.css")
        url_for("play.setup", slug="misc-869-1986", _external=True)
        url_for("play.setup", slug="misc-869-1986", _anchor="top")
        assert not app._url_memo
        url_for("play.setup", slug="misc-869-1986")
        assert len(app._url_memo) == 1
    app.config["SERVER_NAME"] = "kiosk.example"
    with app.app_context():
        assert url_for("play.setup", slug="x").startswith("http")  # external outside requests
    assert len(app._url_memo) == 1


def test_equal_values_of_other_types_are_kept_apart(app):
    with app.test_request_context("/"):
        assert url_for("play.setup", slug="misc", n=1) == "/sets/misc/play?n=1"
        assert url_for("play.setup", slug="misc", n=True) == "/sets/misc/play?n=True"
        assert url_for("play.setup", slug="misc", n=1.0) == "/sets/misc/play?n=1.0"


def test_the_memo_is_bounded(app):
    with app.test_request_context("/"):
        for n in range(MEMO_SIZE + 10):
            url_for("play.setup", slug=f"set-{n}")
        assert len(app._url_memo) <= MEMO_SIZE
        assert url_for("play.setup", slug="set-1") == "/sets/set-1/play"


def test_debug_builds_every_time():
    from kiosk import create_app

    app = create_app({"TESTING": True, "DEBUG": True, "SECRET_KEY": "s"})
    with app.test_request_context("/"):
        url_for("play.setup", slug="misc-869-1986")
        assert not app._url_memo
