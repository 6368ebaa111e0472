"""Visitor-facing words in content (issue 15, first piece): the warning at the top of a set
with a flagged card comes from the card's own content_note, with a default."""

from __future__ import annotations

import shutil
from pathlib import Path

from bs4 import BeautifulSoup

from kiosk import create_app
from kiosk.config import ROOT

BANNER = "One card in this set shows a racist caricature."


def banner_on(content: Path) -> str:
    client = create_app({"TESTING": True, "CONTENT_DIR": str(content)}).test_client()
    html = client.get("/sets/misc-869-1986").get_data(as_text=True)
    return BeautifulSoup(html, "html.parser").select_one(".notice--warning strong").get_text()


def test_the_flagged_banner_is_in_the_curators_words(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    path = content / "sets" / "misc-869-1986.md"
    path.write_text(path.read_text().replace(
        "      note: golliwog\n", f"      note: golliwog\n      banner: {BANNER}\n", 1
    ))
    assert banner_on(content) == BANNER


def test_the_flagged_banner_has_a_default():
    assert banner_on(ROOT / "content") == "This set contains a racist image."
