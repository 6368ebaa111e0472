"""Page weight of a set page with twelve photographs on a phone's first view (issue 25).

Run from the repository root (needs Debian's Chromium and the project's virtualenv):

    .venv/bin/python benchmarks/bench_page_weight.py            # 5 runs a device
    .venv/bin/python benchmarks/bench_page_weight.py --runs 3 --content /tmp/made/content
    .venv/bin/python benchmarks/bench_page_weight.py --3g   # and on DevTools' Fast 3G

It writes the tests' photographed content (tests/photo_content.py: generated photographs,
never a real object's, with ``kiosk images`` run on them) into a temporary folder, serves it
with ``kiosk run`` (waitress, gzip for text, as a museum runs it) on a free 127.0.0.1 port, and
opens the page in Chromium at 390×844 as a phone (mobile, touch) at a device pixel ratio of
3 and of 2, each run in a fresh browser context (an empty cache), without scrolling. It counts
what crossed the wire until the network is quiet: every response's bytes as Chromium's
DevTools protocol reports them when it finishes loading (``Network.loadingFinished``'s
``encodedDataLength``: the compressed body and its headers), by kind (html, css, js, images,
other), and the photographs fetched. Printed: the median of the runs for each device, the
first run's list of pictures, and the target: under 300 KB (300,000 bytes). With ``--3g``
each device again on DevTools' Fast 3G, where Chromium loads lazy pictures from further down
the page before any scrolling.
Exit status 1 when a device's median is over it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import servers

ROOT = Path(__file__).resolve().parents[1]
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
TARGET = 300_000  # bytes: the "under 300 KB"
PHONE = {"width": 390, "height": 844}
DEVICES = (("phone, DPR 3", 3), ("phone, DPR 2", 2))
KINDS = ("html", "css", "js", "images", "other")
PICTURES = "/media/pictures/"
# DevTools' "Fast 3G" (bytes a second): Chromium then loads lazy pictures from further below
# the screen (its margin grows on a slower connection), the harder case for the first view
FAST_3G = {
    "offline": False,
    "latency": 563,
    "downloadThroughput": 180_000,
    "uploadThroughput": 84_000,
}


@dataclass
class Load:
    """What one first view fetched: bytes by kind, and the photographs' addresses."""

    bytes_by_kind: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    pictures: list[tuple[str, int]] = field(default_factory=list)
    requests: int = 0
    connection: str = ""  # navigator.connection.effectiveType, what Chromium's lazy loading reads

    @property
    def total(self) -> int:
        return sum(self.bytes_by_kind.values())


def kind_of(resource_type: str, mime: str) -> str:
    """html, css, js, images or other, from what Chromium says the response was."""
    if resource_type == "Document":
        return "html"
    if resource_type == "Stylesheet" or mime == "text/css":
        return "css"
    if resource_type == "Script" or "javascript" in mime:
        return "js"
    if resource_type == "Image" or mime.startswith("image/"):
        return "images"
    return "other"


def photographed_content() -> str:
    """The tests' content with a photographed set, its copies made (about 15 s)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from photo_content import build  # the tests' generated photographs, never a real object's

    return str(build(Path(tempfile.mkdtemp(prefix="page-weight-")) / "content"))


def start_kiosk(port: int, content: str) -> subprocess.Popen[bytes]:
    """``kiosk run`` (waitress) on the content, in its own process group, answering."""
    return servers.start(
        [str(ROOT / ".venv" / "bin" / "kiosk"), "run", "--port", str(port)],
        port,
        "kiosk run",
        env={**os.environ, "KIOSK_CONTENT_DIR": content},
    )


def first_view(browser: Any, url: str, dpr: int, slow: bool = False) -> Load:
    """Open ``url`` once in a fresh phone context and count what it fetched, unscrolled
    (``slow``: on DevTools' Fast 3G)."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=dpr, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    seen: dict[str, tuple[str, str, str]] = {}
    load = Load()

    def on_response(event: dict[str, Any]) -> None:
        response = event["response"]
        seen[event["requestId"]] = (
            event.get("type", ""),
            response.get("mimeType", ""),
            response["url"],
        )

    def on_finished(event: dict[str, Any]) -> None:
        resource_type, mime, address = seen.get(event["requestId"], ("", "", ""))
        size = int(event.get("encodedDataLength", 0))
        kind = kind_of(resource_type, mime)
        load.bytes_by_kind[kind] += size
        load.requests += 1
        if PICTURES in address:
            load.pictures.append((address.split(PICTURES, 1)[1], size))

    cdp.on("Network.responseReceived", on_response)
    cdp.on("Network.loadingFinished", on_finished)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if slow:
        cdp.send("Network.emulateNetworkConditions", FAST_3G)
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("devicePixelRatio") == dpr
    load.connection = page.evaluate(
        "navigator.connection ? navigator.connection.effectiveType : ''"
    )
    context.close()
    return load


def kb(n: float) -> str:
    return f"{n / 1000:.1f} KB"


def report(name: str, loads: list[Load]) -> bool:
    """Print one device's medians and breakdown; True when it meets the target."""
    median_total = statistics.median(load.total for load in loads)
    parts = ", ".join(
        f"{k} {kb(statistics.median(load.bytes_by_kind[k] for load in loads))}" for k in KINDS
    )
    pictures = statistics.median(len(load.pictures) for load in loads)
    ok = median_total < TARGET
    print(
        f"{name}: {kb(median_total)} median of {len(loads)} runs "
        f"(min {kb(min(x.total for x in loads))}, max {kb(max(x.total for x in loads))}); "
        f"target < {kb(TARGET)}: {'met' if ok else 'NOT MET'}"
    )
    print(f"  by kind (medians): {parts}")
    print(
        f"  requests {loads[0].requests}, connection {loads[0].connection or '?'}, "
        f"photographs fetched {pictures:.0f}:"
    )
    for address, size in loads[0].pictures:
        print(f"    {address} {kb(size)}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--path", default="/sets/test-photographs")
    parser.add_argument("--content", help="a content folder already made (default: make one)")
    parser.add_argument("--3g", dest="slow", action="store_true", help="also on Fast 3G")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    content = args.content or photographed_content()
    port = servers.free_port()
    proc = start_kiosk(port, content)
    url = f"http://127.0.0.1:{port}{args.path}"
    print(f"{url} at {PHONE['width']}x{PHONE['height']}, {CHROME}, kiosk run, unscrolled")
    results = []
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROME, args=CHROME_ARGS)
            for name, dpr in DEVICES:
                loads = [first_view(browser, url, dpr) for _ in range(args.runs)]
                results.append(report(name, loads))
                if args.slow:
                    loads = [first_view(browser, url, dpr, slow=True) for _ in range(args.runs)]
                    results.append(report(f"{name}, Fast 3G", loads))
            browser.close()
    finally:
        servers.stop(proc)
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
