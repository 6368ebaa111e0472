"""The oEmbed provider: our pages become iframes of their /embed/ URL; nothing else does."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from bs4 import BeautifulSoup

BASE = "http://localhost"


def oembed(client, **params):
    return client.get("/oembed", query_string=params)


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/sets/misc-869-1986",
        "/games/snap",
        "/rules/snap/classic/1",
        "/pages/about",
        "/sets/snap-standard-deck/play",
    ],
)
def test_rich_iframe_for_our_pages(client, path):
    response = oembed(client, url=BASE + path, format="json")
    assert response.status_code == 200
    body = response.get_json()
    assert (body["version"], body["type"]) == ("1.0", "rich")
    assert body["provider_name"]
    assert (body["width"], body["height"]) == (800, 600)
    frame = BeautifulSoup(body["html"], "html.parser").iframe
    assert frame["src"] == BASE + "/embed" + path
    assert frame["title"] == body["title"] and body["title"]
    assert (frame["width"], frame["height"]) == ("800", "600")
    page_title = BeautifulSoup(client.get(path).get_data(as_text=True), "html.parser").title
    assert page_title.get_text().startswith(body["title"])


def test_embed_url_is_accepted_too(client):
    body = oembed(client, url=BASE + "/embed/sets/misc-869-1986").get_json()
    assert 'src="http://localhost/embed/sets/misc-869-1986"' in body["html"]


@pytest.mark.parametrize(
    ("maxwidth", "maxheight", "expected"),
    [("500", None, (500, 600)), (None, "300", (800, 300)), ("2000", "2000", (800, 600))],
)
def test_max_dimensions_are_honoured(client, maxwidth, maxheight, expected):
    params = {"url": BASE + "/sets/", "maxwidth": maxwidth, "maxheight": maxheight}
    body = oembed(client, **{k: v for k, v in params.items() if v is not None}).get_json()
    assert (body["width"], body["height"]) == expected
    frame = BeautifulSoup(body["html"], "html.parser").iframe
    assert (int(frame["width"]), int(frame["height"])) == expected


@pytest.mark.parametrize(
    "url",
    [
        "http://elsewhere.example/sets/misc-869-1986",
        "ftp://localhost/sets/",
        BASE + "/sets/no-such-set",
        BASE + "/nowhere",
        BASE + "/healthz",
        BASE + "/static/css/kiosk.css",
        BASE + "/cards/icon.svg",
        BASE + "/oembed?url=x",
        "not a url",
    ],
)
def test_urls_that_are_not_our_pages_are_404(client, url):
    assert oembed(client, url=url, format="json").status_code == 404


def test_other_formats_are_501(client):
    assert oembed(client, url=BASE + "/", format="xml").status_code == 501


def test_an_empty_format_means_json(client):
    assert oembed(client, url=BASE + "/", format="").get_json()["type"] == "rich"


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"url": ""},
        {"url": BASE + "/", "maxwidth": "wide"},
        {"url": BASE + "/", "maxheight": "-5"},
        {"url": BASE + "/", "maxwidth": "\u00b9"},
        {"url": BASE + "/", "maxwidth": "\u0663"},
    ],
)
def test_missing_url_or_bad_sizes_are_400(client, params):
    assert oembed(client, **params).status_code == 400


def test_a_revealed_card_is_not_embedded_uncovered(client):
    body = oembed(client, url=BASE + "/sets/misc-869-1986?view=golly-oh-golly").get_json()
    assert "view=" not in body["html"]


@pytest.mark.parametrize("path", ["/", "/sets/misc-869-1986", "/rules/snap/classic/1"])
def test_discovery_link_on_every_page(client, path):
    page = BeautifulSoup(client.get(path).get_data(as_text=True), "html.parser")
    link = page.select_one("link[rel=alternate][type='application/json+oembed']")
    assert link is not None and link["title"]
    href = urlsplit(link["href"])
    # absolute: WordPress fetches the href as it finds it (WP_oEmbed::discover)
    assert (href.scheme, href.netloc, href.path) == ("http", "localhost", "/oembed")
    query = parse_qs(href.query)
    assert query == {"url": [BASE + path], "format": ["json"]}
    assert client.get(link["href"]).status_code == 200


def test_no_discovery_link_on_an_error_page(client):
    page = BeautifulSoup(client.get("/sets/no-such-set").get_data(as_text=True), "html.parser")
    assert page.select_one("link[type='application/json+oembed']") is None


def test_the_offered_frame_displays_on_another_site(client):
    """The iframe an answer offers is an embed page that any other site may frame."""
    body = oembed(client, url=BASE + "/sets/misc-869-1986/play").get_json()
    src = BeautifulSoup(body["html"], "html.parser").iframe["src"]
    framed = client.get(urlsplit(src).path)
    assert framed.status_code == 200
    assert framed.headers["Content-Security-Policy"].endswith("frame-ancestors *")


@pytest.mark.parametrize(
    ("setting", "status"),
    [("'self'", 404), ("'none'", 404), ("'self' https://school.example", 200)],
)
def test_no_frame_is_offered_where_no_other_site_may_show_it(setting, status):
    """An embed only the kiosk may frame would be a blank box on the asker's site: not offered."""
    from kiosk import create_app

    client = create_app({"TESTING": True, "FRAME_ANCESTORS": setting}).test_client()
    assert oembed(client, url=BASE + "/sets/misc-869-1986").status_code == status


@pytest.mark.parametrize(
    "url",
    [
        BASE + "/sets/snap-standard-deck/play",
        BASE + "/embed/sets/snap-standard-deck/play",
        BASE + "/sets/misc-869-1986?view=golly-oh-golly",
    ],
)
def test_the_answer_says_what_it_is_before_the_frame_and_fits_it_after(client, url):
    """The blockquote WordPress keeps as a fallback names the page and links to it on the full
    kiosk (never a revealing address); embed.js follows the frame, for hosts that keep scripts."""
    body = oembed(client, url=url).get_json()
    html = BeautifulSoup(body["html"], "html.parser")
    quote, frame, script = html.contents
    assert (quote.name, frame.name, script.name) == ("blockquote", "iframe", "script")
    assert quote.a.get_text() == body["title"]
    assert quote.a["href"] == url.replace("/embed/", "/").split("?view=")[0]
    assert "museum kiosk" in quote.get_text()
    assert script["src"] == BASE + "/static/js/embed.js"
