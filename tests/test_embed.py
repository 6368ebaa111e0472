"""``/embed/<path>``: the same pages without the chrome, with links that stay in the embed."""

from __future__ import annotations

import shutil

import pytest
from bs4 import BeautifulSoup
from fixture_content import GOOD

from kiosk import create_app
from kiosk.config import ROOT
from kiosk.web.embed import EmbedMiddleware

PAGES = [
    "/",
    "/sets/",
    "/sets/misc-869-1986",
    "/sets/twizzles-happy-families",
    "/games/",
    "/games/snap",
    "/notes/golliwog",
    "/pages/about",
    "/rules/",
    "/rules/snap/classic/1",
    "/sets/snap-standard-deck/play",
    "/sets/twizzles-happy-families/play/happy-families",
    "/sets/snitchems-1797/play/snitchems",
]


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


@pytest.mark.parametrize("path", PAGES)
def test_embed_is_the_page_without_chrome(client, path):
    plain = client.get(path)
    embedded = client.get("/embed" + path)
    assert plain.status_code == embedded.status_code == 200
    page, frame = soup(plain), soup(embedded)
    assert page.select_one("header.site-header") is not None
    assert frame.select_one("header.site-header") is None
    assert frame.select_one("footer.site-footer") is None
    assert "is-embed" in frame.body["class"]
    assert frame.title.get_text() == page.title.get_text()
    assert frame.h1.get_text(" ", strip=True) == page.h1.get_text(" ", strip=True)


@pytest.mark.parametrize("path", PAGES)
def test_url_for_links_stay_in_the_embed(client, path):
    frame = soup(client.get("/embed" + path))
    urls = [tag.get("src") for tag in frame.select("script[src], img[src]")]
    urls += [tag["href"] for tag in frame.select("link[rel=stylesheet], link[rel=icon]")]
    urls += [form.get("action") for form in frame.select("form[action]")]
    assert urls
    for url in urls:
        assert url.startswith("/embed/"), (path, url)
    nav = [a["href"] for a in frame.select("a[href^='/']")]
    inside = [href for href in nav if href.startswith("/embed/")]
    assert len(inside) >= len(nav) / 2, (path, nav)


def test_content_links_and_pictures_stay_in_the_embed(tmp_path):
    """A curator's root-relative link and picture in markdown are served under /embed/ inside an
    embed (the picture is served there too), and stay as written on the kiosk's own page."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / "images").mkdir()
    png = GOOD / "images" / "box.png"
    shutil.copy(png, content / "images" / "box.png")
    about = content / "pages" / "about.md"
    about.write_text(about.read_text() + "\n![The closed case.](images/box.png)\n")
    client = create_app({"TESTING": True, "CONTENT_DIR": str(content)}).test_client()

    frame = soup(client.get("/embed/pages/about")).select_one(".prose")
    links = [a["href"] for a in frame.select("a[href^='/']")]
    assert "/embed/notes/golliwog" in links
    assert all(href.startswith("/embed/") for href in links), links
    src = frame.select_one("img")["src"]
    assert src == "/embed/media/images/box.png"
    with client.get(src) as embedded, client.get(src.removeprefix("/embed")) as plain:
        assert embedded.status_code == plain.status_code == 200
        assert embedded.get_data() == plain.get_data() == png.read_bytes()
    with client.get("/embed/notes/golliwog") as note:
        assert note.status_code == 200

    page = soup(client.get("/pages/about")).select_one(".prose")
    assert "/notes/golliwog" in [a["href"] for a in page.select("a[href^='/']")]
    assert page.select_one("img")["src"] == "/media/images/box.png"


def test_embed_turns_htmx_history_off_and_loads_the_height_script(client):
    frame = soup(client.get("/embed/sets/"))
    config = frame.select_one("meta[name=htmx-config]")["content"]
    assert '"history": false' in config
    assert frame.select_one("script[src^='/embed/static/js/embedded.js']") is not None
    page = soup(client.get("/sets/"))
    assert '"history"' not in page.select_one("meta[name=htmx-config]")["content"]
    assert page.select_one("script[src*='embedded.js']") is None


@pytest.mark.parametrize(
    "path", ["/embed/static/css/kiosk.css", "/embed/static/js/embed.js", "/embed/cards/icon.svg"]
)
def test_static_files_and_pictures_resolve_under_embed(client, path):
    with client.get(path) as embedded, client.get(path.removeprefix("/embed")) as plain:
        assert embedded.status_code == 200
        assert embedded.get_data() == plain.get_data()


def test_bare_embed_is_the_home_page(client):
    assert soup(client.get("/embed")).h1.get_text() == soup(client.get("/")).h1.get_text()


def test_unknown_embed_is_a_friendly_404_without_chrome(client):
    response = client.get("/embed/sets/no-such-set")
    assert response.status_code == 404
    assert soup(response).select_one("header.site-header") is None


def test_embedded_game_can_be_played_by_post(client):
    form = soup(client.get("/embed/sets/snap-standard-deck/play")).select_one("form[method=post]")
    assert form["action"] == "/embed/sets/snap-standard-deck/play"
    started = client.post(form["action"], data={"bots": "1", "level": "medium"})
    assert started.status_code == 200
    table = soup(started)
    play_form = table.select_one("#play-form")
    assert play_form["action"] == "/embed/sets/snap-standard-deck/play/act"
    token = table.select_one("input[name=token]")["value"]
    turned = client.post(play_form["action"], data={"token": token, "act": "turn"})
    assert turned.status_code == 200
    assert soup(turned).select_one("header.site-header") is None
    assert not turned.headers.getlist("Set-Cookie")


def test_middleware_only_strips_the_prefix_once():
    seen = {}

    def app(environ, start_response):
        seen.update(environ)
        return [b""]

    EmbedMiddleware(app)({"PATH_INFO": "/embed/embed/x", "SCRIPT_NAME": ""}, None)
    assert (seen["SCRIPT_NAME"], seen["PATH_INFO"], seen["kiosk.embed"]) == (
        "/embed",
        "/embed/x",
        True,
    )
    seen.clear()
    EmbedMiddleware(app)({"PATH_INFO": "/embedded", "SCRIPT_NAME": ""}, None)
    assert seen["PATH_INFO"] == "/embedded" and "kiosk.embed" not in seen


def test_play_links_stay_inside_the_embed(client):
    """Links to the games are built by url_for, so an embedded page keeps them embedded."""
    html = client.get("/embed/sets/twizzles-happy-families").get_data(as_text=True)
    assert 'href="/embed/sets/twizzles-happy-families/play"' in html
    assert 'href="/embed/sets/twizzles-happy-families/play/happy-families"' in html
    assert 'href="/sets/twizzles-happy-families/play' not in html
