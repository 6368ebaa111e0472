"""A real IIIF viewer reads the kiosk's manifests (issue 25): Mirador 4.0.0 (from npm, vendored
for the tests only: tests/vendor/mirador-4.0.0.min.js, its LICENSE next to it) on a page of
another site opens the photographed set's manifest across origins (CORS), shows the set's
title on its window and draws the first canvas from the kiosk's level-0 tiles, fetched with
CORS (``crossOriginPolicy: "Anonymous"``, so a tile without the header would not draw).

Mirador's OpenSeadragon (5.0.1) builds its tile addresses from the info.json; every one it
asks for must be a tile the kiosk made (a 404 is a hole in the picture).
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from photo_content import SLUG, photo_content
from playwright.sync_api import expect

from .harness import LiveServer

VENDOR = Path(__file__).resolve().parents[1] / "vendor" / "mirador-4.0.0.min.js"
LICENSE = VENDOR.with_name("mirador-LICENSE.txt")
TITLE = "A photographed Snap pack (made up for the tests)"
FIRST = f"/iiif/image/{SLUG}--case-jpg/"  # the first canvas's image service
VIEWER_PAGE = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Another museum's viewer</title><link rel="icon" href="data:,">
<script src="{VENDOR.name}"></script></head>
<body style="margin:0"><div id="viewer" style="position:absolute;inset:0"></div>
<script>
  window.viewer = Mirador.viewer({{
    id: "viewer",
    windows: [{{ manifestId: new URLSearchParams(location.search).get("manifest") }}],
    osdConfig: {{ crossOriginPolicy: "Anonymous" }},
  }});
</script></body></html>"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    """A static file server that keeps its request log to itself."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@dataclass
class Traffic:
    """What the viewer asked the kiosk for, and what went wrong in the page."""

    kiosk: str
    answers: dict[str, int] = field(default_factory=dict)  # URL -> status
    failed: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    def watch(self, page: Any) -> None:
        page.on("response", self._response)
        page.on("requestfailed", lambda r: self.failed.append(f"{r.failure} {r.url}"))
        page.on("pageerror", lambda e: self.page_errors.append(f"{e.name}: {e.message}"))

    def _response(self, response: Any) -> None:
        if response.url.startswith(self.kiosk):
            self.answers[response.url.removeprefix(self.kiosk)] = response.status

    def tiles(self) -> dict[str, int]:
        return {url: s for url, s in self.answers.items() if url.startswith("/iiif/image/")}


@pytest.fixture(scope="module")
def content(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return photo_content(tmp_path_factory.mktemp("iiif-viewer"))


@pytest.fixture
def viewer_site(tmp_path: Path) -> Iterator[str]:
    """Another museum's page, on another site (its own server and port), that runs Mirador."""
    assert LICENSE.is_file() and "Apache License" in LICENSE.read_text(encoding="utf-8")
    shutil.copy(VENDOR, tmp_path / VENDOR.name)
    (tmp_path / "index.html").write_text(VIEWER_PAGE, encoding="utf-8")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join(10)


@pytest.fixture
def opened(
    browser: Any,
    make_server: Callable[..., LiveServer],
    content: Path,
    viewer_site: str,
) -> Iterator[tuple[Any, Traffic, Any, Any]]:
    """Mirador on the viewer's site with the kiosk's manifest (the kiosk named ``localhost``,
    the viewer ``127.0.0.1``: another site), once its first tile has answered."""
    kiosk = make_server({"CONTENT_DIR": str(content)}).at("localhost")
    manifest = f"{kiosk}/iiif/{SLUG}/manifest.json"
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        traffic = Traffic(kiosk)
        traffic.watch(page)

        def first_tile(response: Any) -> bool:
            url = response.url.removeprefix(kiosk)
            return url.startswith(FIRST) and url.endswith("/default.jpg") and response.ok

        with page.expect_response(manifest) as got, page.expect_response(first_tile) as tile:
            page.goto(f"{viewer_site}?manifest={quote(manifest, safe=':/')}")
        yield page, traffic, got.value, tile.value
    finally:
        context.close()


def test_mirador_opens_a_manifest_across_sites_and_draws_its_first_canvas(opened):
    page, traffic, manifest, tile = opened
    assert manifest.ok
    assert manifest.headers["access-control-allow-origin"] == "*"
    assert tile.headers["access-control-allow-origin"] == "*"  # fetched with CORS, and drawn
    assert tile.headers["content-type"] == "image/jpeg"
    window = page.get_by_role("region", name=f"Window: {TITLE}")
    expect(window).to_be_visible()
    expect(window.get_by_role("heading", name=TITLE).first).to_be_visible()
    expect(window.get_by_role("region", name="Item: The case.")).to_be_visible()
    expect(window.locator("canvas").first).to_be_visible()
    assert traffic.answers[f"{FIRST}info.json"] == 200
    assert traffic.page_errors == []
    body = manifest.text()  # the covered pictures are not in it, so no viewer can open them
    assert "golly" not in body.lower() and "pack-jpg" not in body


def test_every_tile_mirador_asks_for_is_one_the_kiosk_made(opened):
    page, traffic, _, _ = opened
    window = page.get_by_role("region", name=f"Window: {TITLE}")
    page.wait_for_load_state("networkidle")
    first_view = len(traffic.tiles())
    zoom_in = window.get_by_role("button", name="Zoom in")
    seen = set(traffic.tiles())
    deeper = lambda r: "/iiif/image/" in r.url and r.url not in seen  # noqa: E731
    with page.expect_response(deeper):  # a tile of a deeper level: the zoom has happened
        for _ in range(4):
            zoom_in.click()
    page.wait_for_load_state("networkidle")
    tiles = traffic.tiles()
    assert len(tiles) > max(first_view, 2), tiles
    # a tile the kiosk did not make answers 404 without CORS: the browser reports it failed
    holes = sorted(f"{status} {url}" for url, status in tiles.items() if status != 200)
    holes += sorted(failed for failed in traffic.failed if "/iiif/" in failed)
    assert holes == [], "Mirador asked for tiles the kiosk did not make:\n" + "\n".join(holes)
    assert traffic.page_errors == []
