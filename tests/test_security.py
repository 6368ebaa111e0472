"""Hardening: the security headers on every kind of response, framing, the secret rule."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kiosk import create_app
from kiosk.commands import run as run_command
from kiosk.config import DEV_SECRET

GAME = "/sets/snap-standard-deck/play"
CSP_PARTS = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
]

# (what, method, path, extra request arguments, expected status)
RESPONSES = [
    ("page", "get", "/sets/misc-869-1986", {}, 200),
    ("fragment", "get", "/sets/", {"headers": {"HX-Request": "true"}}, 200),
    ("static file", "get", "/static/css/kiosk.css", {}, 200),
    ("svg", "get", "/cards/icon.svg", {}, 200),
    ("json", "get", "/rules/snap/classic/steps.json", {}, 200),
    ("redirect", "get", "/sets", {}, 308),
    ("not found", "get", "/no/such/page", {}, 404),
    ("bad token", "post", GAME + "/act", {"data": {"token": "forged", "act": "turn"}}, 400),
    ("method not allowed", "delete", "/", {}, 405),
    ("healthz", "get", "/healthz", {}, 200),
    ("oembed", "get", "/oembed?url=http://localhost/sets/&format=json", {}, 200),
    ("oembed 404", "get", "/oembed?url=http://elsewhere/", {}, 404),
    ("embed", "get", "/embed/sets/misc-869-1986", {}, 200),
    ("embed static", "get", "/embed/static/js/embedded.js", {}, 200),
    ("game", "post", GAME, {"data": {"bots": "1"}}, 200),
]


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status"),
    [row[1:] for row in RESPONSES],
    ids=[row[0] for row in RESPONSES],
)
def test_every_response_carries_the_headers(client, method, path, kwargs, status):
    with getattr(client, method)(path, **kwargs) as response:
        assert response.status_code == status
        headers = response.headers
        policy = headers["Content-Security-Policy"]
        for part in CSP_PARTS:
            assert part in policy, (path, part)
        framing = "*" if path.startswith("/embed/") else "'self'"
        assert policy.endswith(f"frame-ancestors {framing}"), path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"]
        assert "camera=()" in headers["Permissions-Policy"]
        assert "X-Frame-Options" not in headers
        assert not headers.getlist("Set-Cookie")


def test_a_revalidated_page_carries_the_headers_too(client):
    etag = client.get("/sets/").headers["ETag"]
    response = client.get("/sets/", headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]


def frame_ancestors(response) -> str:
    """The frame-ancestors sources of a response's CSP."""
    policy = response.headers["Content-Security-Policy"]
    found = [d.strip() for d in policy.split(";") if d.strip().startswith("frame-ancestors ")]
    assert len(found) == 1, policy
    return found[0].removeprefix("frame-ancestors ")


EMBED_PAGES = [
    "/embed/",
    "/embed/sets/misc-869-1986",
    "/embed/sets/misc-869-1986/play",
    "/embed/games/snap",
    "/embed/rules/snap/classic/1",
    "/embed/sets/misc-869-1986/print",
    "/embed/no/such/page",
]
OWN_PAGES = [
    "/",
    "/sets/misc-869-1986",
    "/sets/misc-869-1986/play",
    "/games/snap",
    "/rules/snap/classic/1",
    "/sets/misc-869-1986/print",
    "/pages/teachers",
    "/no/such/page",
]


@pytest.mark.parametrize("path", EMBED_PAGES)
def test_embed_pages_may_be_framed_by_any_site_by_default(client, path):
    assert frame_ancestors(client.get(path)) == "*"


@pytest.mark.parametrize("path", OWN_PAGES)
def test_every_other_page_is_framed_only_by_the_kiosk(client, path):
    assert frame_ancestors(client.get(path)) == "'self'"


def test_frame_ancestors_from_the_environment_narrow_embeds_only(monkeypatch):
    monkeypatch.setenv("KIOSK_FRAME_ANCESTORS", "'self' https://school.example")
    client = create_app({"TESTING": True}).test_client()
    response = client.get("/embed/sets/")
    assert frame_ancestors(response) == "'self' https://school.example"
    assert "X-Frame-Options" not in response.headers
    assert frame_ancestors(client.get("/sets/")) == "'self'"


def test_own_pages_stay_self_whatever_the_setting():
    """KIOSK_FRAME_ANCESTORS is for embeds: it never lets a site frame the kiosk's own pages."""
    client = create_app({"TESTING": True, "FRAME_ANCESTORS": "*"}).test_client()
    assert frame_ancestors(client.get("/")) == "'self'"
    assert frame_ancestors(client.get("/embed/")) == "*"


def test_run_makes_a_secret_for_the_process_unless_one_is_set():
    one, two = run_command.process_settings({}), run_command.process_settings({})
    assert len(one["SECRET_KEY"]) >= 32 and one["SECRET_KEY"] != two["SECRET_KEY"]
    assert one["SECRET_KEY"] != DEV_SECRET
    assert run_command.process_settings({"KIOSK_SECRET_KEY": "from-env"}) == {}


def test_kiosk_run_starts_with_no_configuration(monkeypatch):
    monkeypatch.delenv("KIOSK_SECRET_KEY", raising=False)
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    served = {}

    def serve(app, **kwargs):
        served["app"] = app
        served.update(kwargs)

    monkeypatch.setattr("waitress.serve", serve)
    result = CliRunner().invoke(run_command.run, ["--port", "8123"])
    assert result.exit_code == 0, result.output
    app = served["app"]
    assert served["port"] == 8123
    assert not app.testing and not app.debug
    assert app.config["SECRET_KEY"] != DEV_SECRET


def test_development_secret_is_refused_in_production(monkeypatch):
    monkeypatch.delenv("KIOSK_SECRET_KEY", raising=False)
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    with pytest.raises(RuntimeError, match="development SECRET_KEY"):
        create_app()
    monkeypatch.setenv("FLASK_DEBUG", "1")
    assert create_app().debug


def test_no_session_is_kept_even_if_code_writes_one(app):
    """A view that wrote to ``session`` would get an error, never a cookie."""
    from flask import session

    with app.test_request_context("/"):
        app.preprocess_request()
        assert session.__class__.__name__ == "NullSession"
        with pytest.raises(RuntimeError):
            session["x"] = 1
