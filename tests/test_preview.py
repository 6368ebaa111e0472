"""The curators' preview of problems (issue 15): in preview every page shows a bar with the
content's problems (file:line and message) and a link to a page of them all."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from kiosk import create_app
from kiosk.config import ROOT

BROKEN = "---\nkind: note\nslug: broken\ntitle: Broken: a colon\nsummary: S.\n---\nText.\n"
WHERE = "content/notes/broken.md:4:14"
PAGES = (
    "/",
    "/sets/",
    "/sets/misc-869-1986",
    "/notes/golliwog",
    "/games/snap",
    "/rules/snap/classic/3",
    "/sets/misc-869-1986/play",
    "/no/such/page",
)


def content_with(tmp_path: Path, broken: int = 1) -> Path:
    """The real content and ``broken`` notes with a YAML slip each."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    for n in range(broken):
        name = "broken.md" if n == 0 else f"broken-{n}.md"
        (content / "notes" / name).write_text(BROKEN, encoding="utf-8")
    return content


def soup_of(client, url: str) -> BeautifulSoup:
    return BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")


def client_for(content: Path, **config):
    return create_app({"TESTING": True, "CONTENT_DIR": str(content), **config}).test_client()


@pytest.mark.parametrize("url", PAGES)
def test_every_page_shows_the_problems_in_preview(tmp_path, url):
    bar = soup_of(client_for(content_with(tmp_path), PREVIEW=True), url).select_one(
        "main aside.preview-bar"
    )
    assert bar is not None, url
    items = [li.get_text(" ", strip=True) for li in bar.select(".problem-list li")]
    assert items == [
        f"{WHERE} YAML: mapping values are not allowed here: put the value in"
        " quotes if it contains ': '"
    ]
    assert bar.select_one("a[href='/curators/problems']")


@pytest.mark.parametrize("config", [{}, {"PREVIEW": True, "KIOSK_MODE": True}])
def test_no_bar_outside_preview_or_in_kiosk_mode(tmp_path, config):
    client = client_for(content_with(tmp_path), **config)
    for url in ("/", "/sets/misc-869-1986"):
        assert soup_of(client, url).select_one(".preview-bar") is None


def test_no_bar_inside_an_embed(tmp_path):
    client = client_for(content_with(tmp_path), PREVIEW=True)
    assert soup_of(client, "/embed/sets/misc-869-1986").select_one(".preview-bar") is None


def test_the_bar_lists_five_and_links_to_them_all(tmp_path):
    client = client_for(content_with(tmp_path, broken=7), PREVIEW=True)
    bar = soup_of(client, "/").select_one(".preview-bar")
    assert len(bar.select(".problem-list li")) == 5
    assert "7 problems" in bar.get_text()
    assert bar.select_one("a[href='/curators/problems']").get_text() == ("All content problems (7)")
    page = soup_of(client, "/curators/problems")
    assert len(page.select("#problems-heading + ul li")) == 7


def test_the_bar_says_when_there_is_nothing_to_fix():
    client = create_app({"TESTING": True, "PREVIEW": True}).test_client()
    bar = soup_of(client, "/").select_one(".preview-bar")
    assert "The content has no problems." in bar.get_text()


def test_the_problems_page_lists_problems_warnings_and_picked_emblems(tmp_path):
    content = content_with(tmp_path)
    note = content / "notes" / "golliwog.md"
    note.write_text(note.read_text() + "\n<script>alert(1)</script>\n")
    page = soup_of(client_for(content, PREVIEW=True), "/curators/problems")
    assert page.select_one("#problems-heading").get_text() == "Problems (1)"
    warning = page.select_one("#warnings-heading + ul li").get_text(" ", strip=True)
    assert warning.startswith("content/notes/golliwog.md:") and "a <script> is removed" in warning
    assert "drawn with the crown emblem" in page.select_one("#notes-heading ~ ul").get_text()


@pytest.mark.parametrize("config", [{"KIOSK_MODE": True}, {"KIOSK_MODE": True, "PREVIEW": True}])
def test_the_problems_page_is_not_there_in_kiosk_mode(config):
    client = create_app({"TESTING": True, **config}).test_client()
    assert client.get("/curators/problems").status_code == 404
