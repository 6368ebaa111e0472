"""Valid HTML: the Nu HTML checker (vnu.jar) reports no error on any kind of page.

Every page type is fetched through the test client (plain, in kiosk mode, inside an embed,
games under way, error pages) and the whole lot is checked in one run of the checker (one
JVM start). ``make nu-deps`` installs it: the npm package ``vnu-jar`` under ``.venv/nu`` and
Debian's Java. Without them the test is skipped, except on CI, where it fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from kiosk import create_app
from kiosk.config import ROOT

VNU = Path(
    os.environ.get("KIOSK_VNU_JAR", ROOT / ".venv/nu/node_modules/vnu-jar/build/dist/vnu.jar")
)
SNAP_SET = "/sets/misc-869-1986"
HF = "/sets/twizzles-happy-families/play/happy-families"
SNITCHEMS = "/sets/snitchems-1797/play/snitchems"

GETS = {
    "home": "/",
    "sets": "/sets/",
    "set": SNAP_SET,
    "set-standard": "/sets/snap-standard-deck",
    "set-card-viewed": SNAP_SET + "?view=golly-oh-golly",
    "games": "/games/",
    "game": "/games/snap",
    "note": "/notes/golliwog",
    "page": "/pages/about",
    "teachers": "/pages/teachers",
    "patterns": "/patterns",
    "rules": "/rules/",
    "rule-step": "/rules/snap/classic/3",
    "rule-step-hf": "/rules/happy-families/classic/2",
    "snap-setup": SNAP_SET + "/play",
    "hf-setup": HF,
    "snitchems-setup": SNITCHEMS,
    "print": SNAP_SET + "/print",
    "print-standard": "/sets/snitchems-1797/print",
    "embed-set": "/embed" + SNAP_SET,
    "embed-game": "/embed" + SNAP_SET + "/play",
    "embed-rule-step": "/embed/rules/snap/classic/1",
    "curators-emblems": "/curators/emblems",
    "curators-problems": "/curators/problems",
    "not-found": "/no/such/page",
}
POSTS = {
    "snap-game": (SNAP_SET + "/play", {"bots": "1"}),
    "hf-game": (HF, {"bots": "2", "level": "remembering", "variant": "classic"}),
    "snitchems-game": (SNITCHEMS, {"level": "careful"}),
    "bad-token": (SNAP_SET + "/play/act", {"token": "forged", "act": "turn"}),
}
KIOSK_GETS = {
    "kiosk-home": "/",
    "kiosk-set": SNAP_SET,
    "kiosk-attract": "/attract/1",
    "kiosk-attract-rule": "/attract/2",  # a rule slide: its frames each draw the game's table
}


def vnu_command() -> list[str] | None:
    """``java -jar vnu.jar`` when both are installed, else None."""
    java = shutil.which("java")
    if java is None or not VNU.is_file():
        return None
    return [java, "-Xss8m", "-jar", str(VNU), "--errors-only", "--format", "json"]


def save_pages(client: FlaskClient, pages: dict[str, str], folder: Path, prefix: str = "") -> None:
    """Fetch each page and write it to ``folder/<name>.html``."""
    for name, url in pages.items():
        with client.get(url) as response:
            assert response.mimetype == "text/html", url
            (folder / f"{prefix}{name}.html").write_bytes(response.data)


def save_posts(client: FlaskClient, folder: Path) -> None:
    """Start a game of each kind (and send a forged token) and write the pages answered."""
    for name, (url, data) in POSTS.items():
        with client.post(url, data=data) as response:
            assert response.mimetype == "text/html", url
            (folder / f"{name}.html").write_bytes(response.data)


@pytest.fixture
def pages(tmp_path: Path, client: FlaskClient) -> Path:
    """Every kind of page, as files."""
    save_pages(client, GETS, tmp_path)
    save_posts(client, tmp_path)
    kiosk = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "KIOSK_MODE": True})
    save_pages(kiosk.test_client(), KIOSK_GETS, tmp_path)
    return tmp_path


def errors_of(report: str, folder: Path) -> list[str]:
    """The checker's JSON report as lines ``file:line: message``."""

    def said(m: dict) -> str:
        return (
            f"{Path(m.get('url', '')).name}:{m.get('lastLine', '?')}: {m.get('message')}"
            f" [{m.get('extract', '').strip()[:80]}]"
        )

    return [said(m) for m in json.loads(report)["messages"] if m.get("type") == "error"]


def test_every_page_type_is_valid_html(pages: Path):
    command = vnu_command()
    if command is None:
        if os.environ.get("CI"):
            pytest.fail("the Nu HTML checker is missing on CI: `make nu-deps` installs it")
        pytest.skip("the Nu HTML checker is not installed (`make nu-deps`)")
    files = sorted(pages.glob("*.html"))
    assert len(files) == len(GETS) + len(POSTS) + len(KIOSK_GETS)
    done = subprocess.run(
        [*command, *map(str, files)], capture_output=True, text=True, timeout=300, check=False
    )
    errors = errors_of(done.stderr, pages)  # vnu writes its report to stderr
    assert not errors, f"{len(errors)} HTML errors:\n" + "\n".join(errors)
