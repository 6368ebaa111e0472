"""``/healthz`` and the content glue: 200 always, status and problems for operators."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fixture_content import BROKEN, GOOD
from flask import Flask

from kiosk import create_app
from kiosk.web import content, health


def make_app(content_dir: Path) -> Flask:
    """A bare app with only the content glue and /healthz: tests them apart from the pages."""
    app = Flask(__name__)
    app.config.update(TESTING=True, CONTENT_DIR=str(content_dir))
    health.init_app(app)
    return app


@pytest.fixture
def tree(tmp_path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(GOOD, target)
    return target


def test_ok(tree):
    response = make_app(tree).test_client().get("/healthz")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    body = response.get_json()
    assert body["status"] == "ok"
    assert body["content"]["problems"] == []
    assert {k: body["content"][k] for k in ("files", "sets", "games", "notes", "pages")} == {
        "files": 4,
        "sets": 1,
        "games": 1,
        "notes": 1,
        "pages": 1,
    }
    assert len(body["content"]["version"]) == 12


@pytest.mark.parametrize("case", ["yaml-syntax", "binary", "unknown-note", "empty-file"])
def test_degraded_is_still_200(tree, case):
    shutil.copytree(BROKEN / case, tree, dirs_exist_ok=True)
    response = make_app(tree).test_client().get("/healthz")
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "degraded"
    assert len(body["content"]["problems"]) == 1
    assert body["content"]["problems"][0].startswith("content/")
    assert body["content"]["sets"] == 1 and body["content"]["games"] == 1


def test_edit_shows_without_restart(tree):
    client = make_app(tree).test_client()
    before = client.get("/healthz").get_json()["content"]
    (tree / "pages" / "sources.md").write_text(
        "---\nkind: page\nslug: sources\ntitle: Sources\n---\n", encoding="utf-8"
    )
    after = client.get("/healthz").get_json()["content"]
    assert (before["pages"], after["pages"]) == (1, 2)
    assert before["version"] != after["version"]


def test_one_snapshot_per_request(tree):
    app = make_app(tree)
    with app.test_request_context("/"):
        first = content.current()
        assert content.current() is first
        assert content.catalogue().content_dir == tree


def test_no_absolute_paths_leak(tree):
    shutil.copytree(BROKEN / "empty-file", tree, dirs_exist_ok=True)
    body = make_app(tree).test_client().get("/healthz").get_data(as_text=True)
    assert str(tree) not in body


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/media/images/box.png", 200),
        ("/media/images/nope.png", 404),
        ("/media/sets/test-snap.md", 404),
        ("/media/images/../sets/test-snap.md", 404),
        ("/media/images/%2e%2e/sets/test-snap.md", 404),
        ("/media/../kiosk/config.py", 404),
    ],
)
def test_media(tree, url, status):
    response = make_app(tree).test_client().get(url)
    try:
        assert response.status_code == status
        if status == 200:
            assert response.mimetype == "image/png"
            assert "sandbox" in response.headers["Content-Security-Policy"]
            assert response.data.startswith(b"\x89PNG")
    finally:
        response.close()


def test_wired_into_the_kiosk(tree):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "CONTENT_DIR": str(tree)})
    body = app.test_client().get("/healthz").get_json()
    assert body["status"] == "ok"
    assert body["content"]["sets"] == 1


def test_init_is_idempotent(tree):
    app = make_app(tree)
    catalogue = app.extensions["catalogue"]
    content.init_app(app)
    assert app.extensions["catalogue"] is catalogue


PAGES = ["/", "/sets/", "/sets/test-1-2000", "/games/snap", "/notes/golliwog", "/pages/about"]


@pytest.mark.parametrize("case", sorted(p.name for p in BROKEN.iterdir() if p.is_dir()))
def test_every_broken_file_leaves_the_other_pages_up(tree, case):
    shutil.copytree(BROKEN / case, tree, dirs_exist_ok=True)
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "CONTENT_DIR": str(tree)})
    client = app.test_client()
    assert client.get("/healthz").get_json()["status"] == "degraded"
    assert {url: client.get(url).status_code for url in PAGES} == dict.fromkeys(PAGES, 200)


@pytest.mark.parametrize(
    ("config", "seconds"),
    [
        ({"TESTING": True}, 0.0),
        ({"SECRET_KEY": "x" * 32}, 1.0),
        ({"TESTING": True, "CONTENT_RESCAN_MS": "250"}, 0.25),
    ],
)
def test_the_content_walk_is_throttled_outside_tests(tree, config, seconds):
    app = create_app({"CONTENT_DIR": str(tree), **config})
    assert app.extensions[content.EXTENSION].rescan_s == seconds
