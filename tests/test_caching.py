"""Versioned static URLs with long lifetimes; catalogue pages with ETags and 304s."""

from __future__ import annotations

import re

import pytest

from kiosk import create_app

STATIC = re.compile(r'(/static/[^"?]+)\?v=([0-9a-f]+)"')


def static_urls(client, path="/"):
    return STATIC.findall(client.get(path).get_data(as_text=True))


def test_every_static_url_is_versioned_with_a_long_lifetime(client):
    found = static_urls(client)
    assert {p for p, _ in found} >= {"/static/css/kiosk.css", "/static/js/kiosk.js"}
    for path, version in found:
        with client.get(f"{path}?v={version}") as response:
            assert response.status_code == 200
            assert response.cache_control.max_age == 365 * 24 * 60 * 60
            assert response.cache_control.public and response.cache_control.immutable


@pytest.mark.parametrize("query", ["", "?v=stale0000000"])
def test_unversioned_or_stale_urls_are_not_kept(client, query):
    with client.get("/static/css/kiosk.css" + query) as response:
        assert response.status_code == 200
        assert response.cache_control.max_age is None


def test_a_changed_file_gets_a_new_url(tmp_path):
    static = tmp_path / "static"
    static.mkdir()
    (static / "a.css").write_text("a {}")
    app = create_app({"TESTING": True})
    app.static_folder = str(static)
    with app.test_request_context():
        from flask import url_for

        first = url_for("static", filename="a.css")
        (static / "a.css").write_text("a { color: red }")
        second = url_for("static", filename="a.css")
        missing = url_for("static", filename="nope.css")
    assert first != second and "?v=" in first and "?v=" in second
    assert missing == "/static/nope.css"


@pytest.mark.parametrize("path", ["/", "/sets/", "/sets/misc-869-1986", "/games/snap"])
def test_catalogue_pages_answer_304_for_their_etag(client, path):
    first = client.get(path)
    etag = first.headers["ETag"]
    assert first.cache_control.no_cache
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == etag
    assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200


def test_etags_differ_by_variant(client):
    tags = {
        client.get("/sets/").headers["ETag"],
        client.get("/sets/", headers={"HX-Request": "true"}).headers["ETag"],
        client.get("/embed/sets/").headers["ETag"],
        client.get("/sets/misc-869-1986").headers["ETag"],
    }
    assert len(tags) == 4


def test_a_preview_and_a_published_page_never_share_an_etag():
    """A browser switching between a preview server and the kiosk on one address refetches."""
    apps = [create_app({"TESTING": True, "PREVIEW": preview}) for preview in (False, True)]
    tags = {app.test_client().get("/sets/").headers["ETag"] for app in apps}
    assert len(tags) == 2


def test_content_change_changes_the_etag(tmp_path):
    import shutil

    from kiosk.config import ROOT

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    app = create_app({"TESTING": True, "CONTENT_DIR": str(content)})
    client = app.test_client()
    before = client.get("/pages/about").headers["ETag"]
    about = next(content.rglob("about*"))
    assert "One more sentence." not in client.get("/pages/about").get_data(as_text=True)
    about.write_text(about.read_text() + "\nOne more sentence.\n")
    response = client.get("/pages/about", headers={"If-None-Match": before})
    assert response.status_code == 200
    assert response.headers["ETag"] != before
    assert "One more sentence." in response.get_data(as_text=True)  # not the cached page


def test_a_star_does_not_hide_a_missing_page(client):
    assert client.get("/sets/no-such-set", headers={"If-None-Match": "*"}).status_code == 404


def test_errors_and_games_have_no_etag(client):
    assert "ETag" not in client.get("/sets/no-such-set").headers
    assert "ETag" not in client.post("/sets/snap-standard-deck/play", data={"bots": "1"}).headers


def test_a_catalogue_page_is_rendered_once_per_version(client, monkeypatch):
    """The second visitor gets the same bytes without the view running again."""
    from kiosk.web import pages

    first = client.get("/sets/misc-869-1986")
    calls = []
    real = pages.render_template
    monkeypatch.setattr(pages, "render_template", lambda *a, **k: calls.append(a) or real(*a, **k))
    again = client.get("/sets/misc-869-1986")
    assert again.status_code == 200 and again.get_data() == first.get_data()
    assert again.headers["ETag"] == first.headers["ETag"]
    assert calls == []
    other_host = client.get("/sets/misc-869-1986", base_url="http://127.0.0.1")
    assert "127.0.0.1" in other_host.get_data(as_text=True)
    assert calls  # a different host is a different page (its oEmbed link names the host)


def test_the_page_cache_is_bounded(app, client):
    pages = app.extensions["kiosk-pages"]
    pages.size = 2
    for path in ("/", "/sets/misc-869-1986", "/games/snap"):
        assert client.get(path).status_code == 200
    assert len(pages) == 2
