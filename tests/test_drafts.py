"""Drafts (issue 15): ``draft: true`` is checked like any file and shown only in preview, at its
own address: never in kiosk mode, lists, the attract loop, embeds or oEmbed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

from kiosk import create_app
from kiosk.commands.check import check
from kiosk.commands.run import run
from kiosk.config import ROOT, from_environment

DRAFT_SET = """---
kind: set
slug: draft-pack
title: A draft pack (not ready)
summary: A set a curator is still writing.
draft: true
back:
  description: A plain back, drawn by the kiosk.
cards:
  - name: The Sun
    caption: A smiling sun.
    copies: 4
games: [snap]
sources:
  - title: A test source
---
Still being written.
"""
DRAFT_NOTE = """---
kind: note
slug: draft-note
title: A draft note
summary: Not ready.
draft: true
sources:
  - title: A test source
---
Draft text.
"""


def content_with_drafts(tmp_path: Path) -> Path:
    """The real content with a draft set and a draft note added."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / "sets" / "draft-pack.md").write_text(DRAFT_SET, encoding="utf-8")
    (content / "notes" / "draft-note.md").write_text(DRAFT_NOTE, encoding="utf-8")
    return content


def client_for(content: Path, **config):
    """A test client on ``content`` with ``config`` (e.g. PREVIEW=True)."""
    return create_app({"TESTING": True, "CONTENT_DIR": str(content), **config}).test_client()


DRAFT_URLS = ("/sets/draft-pack", "/notes/draft-note", "/cards/draft-pack/the-sun.svg")
LISTS = ("/", "/sets/", "/games/", "/games/snap", "/notes/golliwog", "/attract/1")


@pytest.fixture
def content(tmp_path):
    return content_with_drafts(tmp_path)


def test_a_draft_is_checked_like_any_file(content):
    (content / "sets" / "draft-pack.md").write_text(
        DRAFT_SET.replace("copies: 4", "copies: 9"), encoding="utf-8"
    )
    result = CliRunner().invoke(check, [str(content)])
    assert result.exit_code == 1
    assert "draft-pack.md:12:13: cards[0].copies" in result.stdout


def test_a_good_draft_passes_the_check(content):
    assert CliRunner().invoke(check, [str(content), "--fatal"]).exit_code == 0


@pytest.mark.parametrize("url", DRAFT_URLS)
def test_a_draft_is_not_served_without_preview(content, url):
    assert client_for(content).get(url).status_code == 404


@pytest.mark.parametrize("url", DRAFT_URLS)
@pytest.mark.parametrize("config", [{"PREVIEW": True, "KIOSK_MODE": True}, {"KIOSK_MODE": True}])
def test_a_draft_never_reaches_kiosk_mode(content, url, config):
    assert client_for(content, **config).get(url).status_code == 404


@pytest.mark.parametrize("url", DRAFT_URLS)
def test_a_draft_is_served_in_preview(content, url):
    assert client_for(content, PREVIEW=True).get(url).status_code == 200


def test_a_draft_page_says_it_is_a_draft_in_preview(content):
    html = client_for(content, PREVIEW=True).get("/sets/draft-pack").get_data(as_text=True)
    bar = BeautifulSoup(html, "html.parser").select_one("aside.preview-bar")
    assert bar is not None
    assert "This page is a draft" in bar.get_text()
    assert "content/sets/draft-pack.md" in bar.get_text()


@pytest.mark.parametrize("url", ["/embed/sets/draft-pack", "/embed/notes/draft-note"])
def test_a_draft_is_never_embedded_even_in_preview(content, url):
    assert client_for(content, PREVIEW=True).get(url).status_code == 404


@pytest.mark.parametrize("preview", [True, False])
@pytest.mark.parametrize("url", LISTS)
def test_a_draft_is_in_no_list(content, url, preview):
    response = client_for(content, PREVIEW=preview).get(url)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "draft-pack" not in html and "draft-note" not in html
    assert "A draft pack" not in html


def test_the_attract_loop_never_shows_a_draft(content):
    client = client_for(content, KIOSK_MODE=True, PREVIEW=True)
    for n in range(1, 40):
        response = client.get(f"/attract/{n}")
        if response.status_code == 404:
            break
        assert "draft-pack" not in response.get_data(as_text=True)


@pytest.mark.parametrize("preview", [True, False])
def test_oembed_never_offers_a_draft(content, preview):
    client = client_for(content, PREVIEW=preview)
    url = "http://localhost/sets/draft-pack"
    assert client.get("/oembed", query_string={"url": url}).status_code == 404


def test_no_preview_bar_without_preview(content):
    html = client_for(content).get("/").get_data(as_text=True)
    assert "preview-bar" not in html


def test_preview_is_set_from_the_environment_and_the_run_command():
    assert from_environment({"KIOSK_PREVIEW": "1"}) == {"PREVIEW": True}
    assert "--preview" in CliRunner().invoke(run, ["--help"]).stdout


def test_a_published_card_may_not_point_at_a_draft_note(content):
    path = content / "sets" / "misc-869-1986.md"
    path.write_text(path.read_text().replace("note: golliwog", "note: draft-note"))
    result = CliRunner().invoke(check, [str(content)])
    assert result.exit_code == 1
    assert "content_note.note: the note 'draft-note' is a draft, never shown to visitors" in (
        result.stdout
    )


def test_a_published_rule_example_may_not_use_a_draft_game(content):
    path = content / "games" / "snap.md"
    path.write_text(path.read_text().replace("kind: game\n", "kind: game\ndraft: true\n", 1))
    result = CliRunner().invoke(check, [str(content)])
    assert result.exit_code == 1
    # each set that lists it says so; its rule examples, held back with their sets, add nothing
    assert "misc-869-1986.md:" in result.stdout
    assert ": the game 'snap' is a draft, never shown to visitors" in result.stdout
    assert "rules/" not in result.stdout and "scenarios" not in result.stdout
    client = client_for(content, KIOSK_MODE=True)
    assert client.get("/").status_code == 200
    assert client.get("/attract/2").status_code in (200, 404)
