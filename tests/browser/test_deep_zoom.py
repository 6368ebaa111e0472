"""Deep zoom by touch (issue 25), in Chromium: "Look closely" on a set's picture and on a card
opens the picture's IIIF tiles in OpenSeadragon inside a modal dialog, on a portrait kiosk
(1080×1920, a touchscreen) and a phone (390×844).

A pinch (two touch points moving apart, sent through the DevTools protocol), a double-tap and
our own buttons zoom; the arrow keys and + / - do when the picture has focus; the credit and
rights stay on the screen; Escape closes and gives focus back; axe-core finds nothing on the
open dialog. OpenSeadragon is fetched only when a picture is first opened; without JavaScript
"Look closely" is a link to the largest copy; in kiosk mode the idle reset closes the zoom.
The content is tests/photo_content.py's generated photographs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from photo_content import SLUG, photo_content
from playwright.sync_api import expect

from .harness import LiveServer, assert_no_axe_violations, assert_targets_at_least, snap

PAGE = f"/sets/{SLUG}"
SCREENS = {
    "kiosk-1080x1920": {"viewport": {"width": 1080, "height": 1920}, "is_mobile": False},
    "phone-390x844": {"viewport": {"width": 390, "height": 844}, "is_mobile": True},
}
MORE_SCREENS = {
    **SCREENS,
    "landscape-1920x1080": {"viewport": {"width": 1920, "height": 1080}, "is_mobile": False},
    "laptop-1366x768": {"viewport": {"width": 1366, "height": 768}, "is_mobile": False},
}
OPENERS = {
    "set picture": "#pictures .photo-gallery__item:first-child [data-zoom-open]",
    "card": "#card-kite-day [data-zoom-open]",
}
DIALOG = "dialog#zoom-dialog"
ZOOM = "() => window.kioskZoom.viewer.viewport.getZoom(true)"
LOADED = """() => { const v = window.kioskZoom && window.kioskZoom.viewer;
  const item = v && v.world.getItemAt(0); return !!item && item.getFullyLoaded(); }"""
TILE = "/iiif/image/"


@pytest.fixture(scope="module")
def content(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return photo_content(tmp_path_factory.mktemp("zoom"))


@pytest.fixture
def server(make_server: Callable[..., LiveServer], content: Path) -> LiveServer:
    return make_server({"CONTENT_DIR": str(content)})


def touch_page(new_context: Callable[..., Any], screen: str, **options: Any) -> Any:
    return new_context(has_touch=True, **SCREENS.get(screen, MORE_SCREENS.get(screen)), **options)


def open_zoom(page: Any, opener: Any, tap: bool = True) -> None:
    """Press "Look closely"; return once the dialog shows the picture's tiles on its canvas."""
    tile = lambda r: TILE in r.url and r.url.endswith("/default.jpg") and r.status == 200  # noqa: E731
    with page.expect_response(tile):
        if tap:
            opener.tap()
        else:
            opener.click()
    expect(page.locator(DIALOG)).to_be_visible()
    expect(page.locator(f"{DIALOG}[data-zoom-ready]")).to_have_count(1)
    expect(page.locator("#zoom-viewer canvas").first).to_be_visible()
    page.wait_for_function(LOADED)


def zoom_now(page: Any) -> float:
    return page.evaluate(ZOOM)


def wait_zoom(page: Any, test: str, value: float) -> None:
    """Wait until the viewer's current zoom passes ``test`` against ``value`` (springs move)."""
    page.wait_for_function(f"(z) => {{ const now = ({ZOOM})(); return {test}; }}", arg=value)


def centre(page: Any) -> tuple[float, float]:
    box = page.locator("#zoom-viewer").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def pinch_out(page: Any) -> None:
    """Two fingers on the picture moving apart, as the touchscreen sends them."""
    cdp = page.context.new_cdp_session(page)
    x, y = centre(page)

    def send(kind: str, spread: float | None) -> None:
        points = (
            []
            if spread is None
            else [
                {"x": x - spread, "y": y, "id": 0},
                {"x": x + spread, "y": y, "id": 1},
            ]
        )
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    send("touchStart", 20)
    for step in range(1, 13):
        send("touchMove", 20 + step * 10)
    send("touchEnd", None)
    cdp.detach()


def inside_viewport(page: Any, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None, f"{selector} is not shown"
    assert box["width"] > 0 and box["height"] > 0, selector
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= size["width"] + 0.5, (selector, box, size)
    assert box["y"] + box["height"] <= size["height"] + 0.5, (selector, box, size)


# --------------------------------------------------------------------------- by touch


@pytest.mark.parametrize("opener", OPENERS)
@pytest.mark.parametrize("screen", SCREENS)
def test_deep_zoom_opens_and_zooms_by_touch(new_context, server, screen, opener):
    page = touch_page(new_context, screen).new_page()
    page.goto(server.url + PAGE)
    button = page.locator(OPENERS[opener])
    open_zoom(page, button)
    home = zoom_now(page)
    assert home > 0

    pinch_out(page)
    wait_zoom(page, "now > z * 1.5", home)
    page.locator("[data-zoom-reset]").tap()
    wait_zoom(page, "Math.abs(now - z) < z * 0.02", home)

    x, y = centre(page)
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)
    wait_zoom(page, "now > z * 1.5", home)
    page.locator("[data-zoom-reset]").tap()
    wait_zoom(page, "Math.abs(now - z) < z * 0.02", home)

    page.locator("[data-zoom-in]").tap()
    wait_zoom(page, "now > z * 1.4", home)
    zoomed = page.evaluate("() => window.kioskZoom.viewer.viewport.getZoom()")
    page.locator("[data-zoom-out]").tap()
    wait_zoom(page, "now < z * 0.8", zoomed)

    for part in (".zoom__credit", ".zoom__rights", "#zoom-title", "[data-zoom-close]"):
        inside_viewport(page, f"{DIALOG} {part}")
    expect(page.locator(f"{DIALOG} .zoom__credit")).to_contain_text("Photograph: ")
    expect(page.locator(f"{DIALOG} .zoom__rights")).to_have_attribute(
        "href", "https://creativecommons.org/licenses/by/4.0/"
    )
    snap(page, f"deep-zoom-{opener}-{screen}", full_page=False)

    page.keyboard.press("Escape")
    expect(page.locator(DIALOG)).to_be_hidden()
    expect(button).to_be_focused()
    assert page.evaluate("() => !window.kioskZoom.viewer.isOpen()")  # its tiles let go


def test_the_viewer_says_what_the_picture_is_and_the_keys_zoom(new_context, server):
    page = touch_page(new_context, "kiosk-1080x1920").new_page()
    page.goto(server.url + PAGE)
    button = page.locator(OPENERS["card"])
    open_zoom(page, button, tap=False)
    dialog = page.get_by_role("dialog", name="“Kite Day”")
    expect(dialog).to_be_visible()
    expect(page.locator("[data-zoom-close]")).to_be_focused()  # focus moved in
    picture = dialog.get_by_role("img", name="The Kite Day card, a coloured picture on cream card.")
    expect(picture).to_have_attribute("aria-describedby", "zoom-keys")

    home = zoom_now(page)
    page.keyboard.press("Tab")  # from Close to the picture itself
    expect(picture).to_be_focused()
    page.keyboard.press("Equal")  # the + / = key: a step a press, as the button's
    wait_zoom(page, "now > z * 1.4", home)
    before = page.evaluate("() => window.kioskZoom.viewer.viewport.getCenter(true).x")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "(x) => window.kioskZoom.viewer.viewport.getCenter(true).x > x + 0.01", arg=before
    )
    zoomed = page.evaluate("() => window.kioskZoom.viewer.viewport.getZoom()")
    page.keyboard.press("Minus")
    wait_zoom(page, "now < z * 0.9", zoomed)
    page.keyboard.press("Equal")
    page.keyboard.press("0")  # the whole picture again
    wait_zoom(page, "Math.abs(now - z) < z * 0.02", home)

    for name in ("Zoom in", "Zoom out", "Whole picture"):  # the buttons are reachable by Tab
        page.keyboard.press("Tab")
        expect(page.get_by_role("button", name=name)).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator(DIALOG)).to_be_hidden()
    expect(button).to_be_focused()


@pytest.mark.parametrize("screen", MORE_SCREENS)
def test_the_open_dialog_passes_axe_and_its_targets_are_big(new_context, server, screen):
    page = touch_page(new_context, screen).new_page()
    page.goto(server.url + PAGE)
    open_zoom(page, page.locator(OPENERS["set picture"]), tap=False)
    for part in (".zoom__credit", ".zoom__rights", "[data-zoom-in]", "[data-zoom-close]"):
        inside_viewport(page, f"{DIALOG} {part}")
    assert_no_axe_violations(page, DIALOG)
    for selector in ("[data-zoom-close]", "[data-zoom-in]", "[data-zoom-out]", "[data-zoom-reset]"):
        box = page.locator(selector).bounding_box()
        assert box["width"] >= 48 and box["height"] >= 48, (selector, box)


def test_the_set_page_passes_axe_with_its_photographs(new_context, server):
    page = touch_page(new_context, "phone-390x844").new_page()
    page.goto(server.url + PAGE)
    expect(page.locator("[data-zoom-open]").first).to_be_visible()
    assert_no_axe_violations(page, "#main")
    assert_targets_at_least(page)


def test_reduced_motion_zooms_without_animation(new_context, server):
    page = touch_page(new_context, "phone-390x844", reduced_motion="reduce").new_page()
    page.goto(server.url + PAGE)
    open_zoom(page, page.locator(OPENERS["set picture"]))
    springs = page.evaluate(
        "() => { const v = window.kioskZoom.viewer; return [v.animationTime,"
        " v.viewport.zoomSpring.animationTime, v.gestureSettingsTouch.flickEnabled]; }"
    )
    assert springs == [0, 0, False]


# --------------------------------------------------------------------------- what loads


def test_openseadragon_is_fetched_only_when_a_picture_is_opened(new_context, server):
    page = touch_page(new_context, "phone-390x844").new_page()
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(server.url + PAGE)
    page.wait_for_load_state("networkidle")
    assert not [u for u in fetched if "openseadragon" in u or TILE in u]
    expect(page.locator("[data-zoom-fallback]").first).to_be_hidden()  # zoom.js showed buttons
    open_zoom(page, page.locator(OPENERS["set picture"]))
    assert len([u for u in fetched if "openseadragon-6.1.1.min.js" in u]) == 1
    page.keyboard.press("Escape")
    open_zoom(page, page.locator(OPENERS["card"]))  # the same viewer, another picture
    assert len([u for u in fetched if "openseadragon-6.1.1.min.js" in u]) == 1


def test_without_javascript_look_closely_is_the_largest_copy(new_context, server):
    page = new_context(java_script_enabled=False, viewport={"width": 390, "height": 844}).new_page()
    page.goto(server.url + PAGE)
    link = page.locator("#pictures [data-zoom-fallback]").first
    expect(link).to_be_visible()
    expect(page.locator("[data-zoom-open]").first).to_be_hidden()
    href = link.get_attribute("href")
    assert href == "/media/pictures/test-photographs--case-jpg/w1600.jpg"
    largest = page.request.get(server.url + href)
    assert largest.ok and largest.headers["content-type"] == "image/jpeg"


# --------------------------------------------------------------------------- kiosk mode


def test_the_idle_reset_closes_the_zoom(new_context, make_server, content):
    server = make_server(
        {
            "CONTENT_DIR": str(content),
            "KIOSK_MODE": True,
            "TESTING": True,
            "IDLE_SECONDS": 2,
            "COUNTDOWN_SECONDS": 2,
        }
    )
    page = touch_page(new_context, "kiosk-1080x1920").new_page()
    page.goto(server.url + PAGE)
    open_zoom(page, page.locator(OPENERS["set picture"]))
    page.locator("[data-zoom-in]").tap()
    wait_zoom(page, "now > z", 1.0)
    # heard after zoom.js's own listener: what the reset left before the page is replaced
    page.evaluate(
        """() => document.addEventListener("kiosk:reset", () => {
             const v = window.kioskZoom.viewer;
             console.info("after-reset " + JSON.stringify({
               open: document.getElementById("zoom-dialog").open,
               tiles: v.isOpen()}));
           })"""
    )
    with page.expect_console_message(lambda m: m.text.startswith("after-reset ")) as said:
        expect(page.locator("dialog#kiosk-idle")).to_be_visible(timeout=8000)
    assert said.value.text == 'after-reset {"open":false,"tiles":false}'
    page.wait_for_url(server.url + "/", timeout=8000)
