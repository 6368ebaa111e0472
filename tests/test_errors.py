"""Friendly error pages: the kiosk's look, a way home, and never an error page that fails."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from flask import abort

from kiosk import create_app
from kiosk.web import errors


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


@pytest.fixture
def broken_app():
    """An app whose test routes fail in each way, with exceptions handled as in production."""
    app = create_app({"TESTING": True, "PROPAGATE_EXCEPTIONS": False})

    @app.get("/test/bad-request")
    def bad_request():
        abort(400)

    @app.get("/test/crash")
    def crash():
        raise RuntimeError("boom")

    @app.get("/test/teapot")
    def teapot():
        abort(418)

    return app


def assert_friendly(response, code: int, heading: str) -> BeautifulSoup:
    assert response.status_code == code
    assert response.mimetype == "text/html"
    soup = soup_of(response)
    assert heading in soup.h1.get_text()
    assert f"Error {code}" in soup.select_one(".error__code").get_text()
    assert soup.select_one("a.button[href='/']").get_text(strip=True) == "Go to the home page"
    assert not soup.select("[style]") and not soup.find_all("style")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    return soup


def test_404_is_in_the_kiosk_look(client):
    soup = assert_friendly(client.get("/no/such/page"), 404, "We can't find that page")
    assert soup.select_one("header.site-header") and soup.select_one("footer.site-footer")
    assert "can't find" in soup.title.get_text()


def test_404_as_an_htmx_fragment(client):
    response = client.get("/no/such/page", headers={"HX-Request": "true"})
    soup = assert_friendly(response, 404, "We can't find that page")
    assert not soup.find("html") and not soup.select("header.site-header")


def test_405_keeps_the_allow_header(client):
    response = client.post("/")
    assert_friendly(response, 405, "That can't be done here")
    assert "GET" in response.headers["Allow"]


def test_400(broken_app):
    assert_friendly(
        broken_app.test_client().get("/test/bad-request"), 400, "Something went wrong with that"
    )


def test_unhandled_exception_is_a_friendly_500(broken_app, caplog):
    response = broken_app.test_client().get("/test/crash")
    assert_friendly(response, 500, "Something went wrong on our side")
    assert "boom" not in response.get_data(as_text=True), "no internals shown to visitors"
    assert any("boom" in str(r.exc_info) for r in caplog.records if r.exc_info)


def test_other_codes_get_the_generic_page(broken_app):
    assert_friendly(broken_app.test_client().get("/test/teapot"), 418, "Something went wrong")


def test_the_fallback_when_the_template_itself_fails(broken_app, monkeypatch, caplog):
    def fail(*args, **kwargs):
        raise RuntimeError("template broken")

    monkeypatch.setattr(errors, "render_template", fail)
    response = broken_app.test_client().get("/test/crash")
    soup = assert_friendly(response, 500, "Something went wrong on our side")
    assert soup.select_one("link[rel=stylesheet][href='/static/css/kiosk.css']")
    assert any("error page template failed" in r.getMessage() for r in caplog.records)


def test_redirects_are_not_errors(client):
    response = client.get("/sets")
    assert response.status_code in (301, 308)
    assert response.headers["Location"].endswith("/sets/")


@pytest.mark.parametrize("code", sorted(errors.MESSAGES))
def test_every_message_points_home(code):
    heading, message = errors.MESSAGES[code]
    assert heading and "home page" in message
