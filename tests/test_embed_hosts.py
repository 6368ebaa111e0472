"""The one step per host: "Embed this" and the teachers' page say it; WordPress's step works."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

HOSTS = ["WordPress", "Moodle", "Google Sites", "Any other page"]


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


@pytest.mark.parametrize(
    ("path", "address"),
    [
        ("/sets/misc-869-1986", "http://localhost/sets/misc-869-1986"),
        ("/games/snap", "http://localhost/games/snap"),
        ("/rules/snap/classic/3", "http://localhost/rules/snap/classic/1"),
    ],
)
def test_embed_this_gives_one_step_per_host(client, path, address):
    steps = soup(client.get(path)).select(".teach__hosts li")
    assert [li.strong.get_text() for li in steps] == HOSTS
    wordpress = steps[0].code.get_text()
    assert wordpress == address
    # the address WordPress is given is one our oEmbed provider answers
    answer = client.get("/oembed", query_string={"url": wordpress, "format": "json"})
    assert answer.status_code == 200 and "<iframe" in answer.get_json()["html"]


def test_the_teachers_page_gives_one_step_per_host(client):
    text = soup(client.get("/pages/teachers")).get_text(" ")
    for host in HOSTS:
        assert f"{host}:" in text or f"{host} :" in text, host


def test_no_panel_inside_an_embed(client):
    assert soup(client.get("/embed/sets/misc-869-1986")).select(".teach__hosts") == []
