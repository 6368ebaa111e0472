"""Browser-test machinery: live servers, Chromium, error capture, axe-core, target sizes."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import waitress
from waitress import wasyncore

from kiosk import create_app

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
AXE_PATH = ROOT / "tests" / "vendor" / "axe-core-4.14.1.min.js"

# Chromium flags that work as root in a container on a closed network: without the
# background-networking ones Chromium keeps dialling out and its connections are refused.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# What every test context looks like unless a test says otherwise: a landscape kiosk screen.
VIEWPORT = {"width": 1280, "height": 800}

# The prefix our init script gives CSP violations in the console, so they are recognisable.
CSP_PREFIX = "[csp-violation]"
CSP_LISTENER = f"""
window.addEventListener("securitypolicyviolation", (event) => {{
  console.error(
    {json.dumps(CSP_PREFIX)} + " " + event.effectiveDirective + " blocked " +
    (event.blockedURI || "(inline)") + " in " + (event.sourceFile || document.URL) + ":" +
    event.lineNumber + ":" + event.columnNumber + " (" + event.disposition + ")"
  );
}}, true);
"""

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]

MIN_TARGET = 48


def on_ci() -> bool:
    """Whether we run on CI, where a missing Chromium is a failure rather than a skip."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def find_chromium() -> str | None:
    """Debian's Chromium (Playwright's own download cannot work offline)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def find_headless_shell() -> str | None:
    """Debian's headless shell of the same Chromium (package chromium-headless-shell): the same
    Blink and V8 without the browser around them, as Playwright itself runs headless tests. It
    takes about 40 % less processor time for the same tests; what only the full browser has
    (its profiles' cookie settings) is tested on the full browser."""
    return shutil.which("chromium-headless-shell")


# --------------------------------------------------------------------------- servers


def _close_channels(server: Any) -> None:
    """Close every channel of a waitress server from outside its loop, its wake-up pipe too
    (even if it has left the map), tolerating descriptors that are already closed; the loop
    ends once its map is empty."""
    for channel in {*server._map.values(), server.trigger}:
        with contextlib.suppress(OSError):
            channel.close()
        wrapper = getattr(channel, "socket", None)  # a file dispatcher's duplicated descriptor
        if getattr(wrapper, "fd", -1) >= 0:
            with contextlib.suppress(OSError):
                wrapper.close()
            wrapper.fd = -1
    server._map.clear()


class LiveServer:
    """The real app under waitress in a daemon thread, on a free port of 127.0.0.1."""

    def __init__(self, config: Mapping[str, Any] | None = None, *, app: Any = None):
        if app is None:
            settings: dict[str, Any] = {"SECRET_KEY": "browser-test-secret"}
            settings.update(config or {})
            app = create_app(settings)
        self.app = app
        self._server = waitress.create_server(app, host="127.0.0.1", port=0, threads=8)
        self.port: int = self._server.effective_port  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{self.port}"
        self._stopping = False
        self._thread = threading.Thread(target=self._serve, name=f"waitress:{self.port}")
        self._thread.daemon = True
        self._thread.start()

    def at(self, host: str) -> str:
        """This server's base URL under another name for 127.0.0.1 (another *site* for cookies)."""
        return f"http://{host}:{self.port}"

    def _serve(self) -> None:
        """waitress's loop; a descriptor closed under it while stopping ends it quietly."""
        try:
            self._server.run()  # type: ignore[union-attr]
        except OSError:
            if not self._stopping:  # the fallback in stop() closes sockets the loop may hold
                raise

    def stop(self) -> None:
        """Close every socket from inside waitress's own loop, then end its worker threads."""
        server = self._server
        if not self._thread.is_alive():
            return
        self._stopping = True
        try:
            server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))  # type: ignore[union-attr]
        except OSError:  # the trigger's pipe is gone (seen once in CI): close from here
            _close_channels(server)
        self._thread.join(10)
        server.task_dispatcher.shutdown()  # type: ignore[union-attr]
        if self._thread.is_alive():  # pragma: no cover - a hang would be a bug worth seeing
            raise RuntimeError(f"waitress on port {self.port} did not stop")

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def html_app(body: str) -> Callable[..., list[bytes]]:
    """A WSGI app answering every path with ``body``: a school's page that embeds the kiosk."""
    data = body.encode("utf-8")

    def app(environ: dict, start_response: Callable[..., Any]) -> list[bytes]:
        if environ.get("PATH_INFO") == "/favicon.ico":
            start_response("204 No Content", [])
            return [b""]
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [data]

    return app


# --------------------------------------------------------------------------- errors


@dataclass
class ErrorLog:
    """Everything that went wrong in one browser context, in the order it happened."""

    console: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)

    @property
    def csp_violations(self) -> list[str]:
        return [line for line in self.console if CSP_PREFIX in line]

    def __bool__(self) -> bool:
        return bool(self.console or self.page_errors or self.failed_requests)

    def report(self) -> str:
        """A readable list for a failing test."""
        parts = []
        for title, items in (
            ("CSP violations", self.csp_violations),
            ("console errors", [c for c in self.console if CSP_PREFIX not in c]),
            ("uncaught page errors", self.page_errors),
            ("failed requests", self.failed_requests),
        ):
            if items:
                parts.append(f"{title}:\n" + "\n".join(f"  - {item}" for item in items))
        return "\n".join(parts)


def _ours(url: str) -> bool:
    """A request to one of our own test servers (everything local); others are not ours."""
    return urlsplit(url).hostname in {"127.0.0.1", "localhost"}


def watch_errors(context: Any) -> ErrorLog:
    """Record console errors, uncaught exceptions, failed requests and CSP violations."""
    log = ErrorLog()
    context.add_init_script(script=CSP_LISTENER)

    def on_console(message: Any) -> None:
        if message.type == "error":
            where = message.location or {}
            log.console.append(
                f"{message.text} ({where.get('url', '?')}:{where.get('lineNumber', '?')})"
            )

    def on_page_error(error: Any) -> None:
        log.page_errors.append(f"{error.name}: {error.message}".strip())

    def on_response(response: Any) -> None:
        if response.status >= 400 and _ours(response.url):
            request = response.request
            log.failed_requests.append(f"{response.status} {request.method} {response.url}")

    def on_request_failed(request: Any) -> None:
        failure = request.failure or ""
        # An aborted request is a navigation or htmx swap that superseded it, not a fault.
        if "ERR_ABORTED" not in failure:
            log.failed_requests.append(f"{failure} {request.method} {request.url}")

    def on_page(page: Any) -> None:
        page.on("console", on_console)
        page.on("pageerror", on_page_error)

    context.on("page", on_page)
    for page in context.pages:
        on_page(page)
    context.on("response", on_response)
    context.on("requestfailed", on_request_failed)
    return log


def settle(context: Any) -> None:
    """Give events still in flight (a late console error, a favicon 404) time to arrive.

    A timed wait, not an evaluate: with JavaScript disabled a page never answers a promise.
    """
    for page in context.pages:
        if not page.is_closed():
            # A page mid-navigation or crashed has nothing more to say.
            with contextlib.suppress(Exception):
                page.wait_for_timeout(100)
            return


def third_party_cookie_prefs(user_data_dir: Path, *, block: bool) -> None:
    """Write a Chromium profile whose cookie setting blocks (or allows) third-party cookies."""
    default = user_data_dir / "Default"
    default.mkdir(parents=True, exist_ok=True)
    prefs = {"profile": {"cookie_controls_mode": 1 if block else 0}}
    (default / "Preferences").write_text(json.dumps(prefs), encoding="utf-8")


# --------------------------------------------------------------------------- axe-core


def _inject_axe(frame: Any) -> None:
    """Evaluate axe-core through the DevTools protocol: the page's CSP is not involved."""
    if not frame.evaluate("() => typeof window.axe === 'object'"):
        frame.evaluate(AXE_PATH.read_text(encoding="utf-8") + "\n;0")


# Every finite animation and transition has ended (a colour half-way through a transition is
# no colour a visitor reads); endless ones and ones a test has paused do not count.
SETTLED = """() => document.getAnimations().every((a) => a.playState !== 'running'
  || (a.effect && a.effect.getTiming().iterations === Infinity))"""


def run_axe(page: Any, context: Any = None, options: Mapping[str, Any] | None = None) -> dict:
    """Run axe-core on the page (and its frames) with WCAG 2.0–2.2 A/AA and best practice, once
    its animations have ended."""
    page.wait_for_function(SETTLED)
    for frame in page.frames:
        if frame.url.startswith("http"):
            _inject_axe(frame)
    opts: dict[str, Any] = {
        "runOnly": {"type": "tag", "values": AXE_TAGS},
        "resultTypes": ["violations"],
    }
    opts.update(options or {})
    return page.evaluate(
        "async ([ctx, opts]) => await window.axe.run(ctx || document, opts)", [context, opts]
    )


NODES_SHOWN = 8


def format_violations(violations: list[dict]) -> str:
    """Each violation's id, impact, help and failing nodes' targets."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v.get('impact')}): {v['help']} <{v.get('helpUrl', '')}>")
        nodes = v["nodes"]
        for node in nodes[:NODES_SHOWN]:
            summary = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"    {' > '.join(map(str, node['target']))}: {summary}")
        if len(nodes) > NODES_SHOWN:
            lines.append(f"    … and {len(nodes) - NODES_SHOWN} more elements")
    return "\n".join(lines)


def assert_no_axe_violations(page: Any, context: Any = None) -> None:
    """Fail listing every axe-core violation on the page as it is now."""
    violations = run_axe(page, context)["violations"]
    assert not violations, f"axe-core violations on {page.url}:\n" + format_violations(violations)


# --------------------------------------------------------------------------- target size

# Which elements are targets and which are exempt is decided in the page, in one pass.
# Exempt (WCAG 2.5.8's inline exception): an inline link or button whose nearest block
# container holds other text too, i.e. a link inside running prose. Elements not rendered
# are not targets; an element hidden until focused (a skip link) is measured once focused.
TARGET_SELECTOR = (
    "a[href], button, input:not([type=hidden]), select, textarea, summary,"
    " [role=button], [role=link], [role=tab], [role=checkbox], [role=radio]"
)
_TARGETS_JS = """
(elements) => {
  const name = (el) => (el.getAttribute('aria-label')
    || (el.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
         .map((id) => document.getElementById(id)?.textContent || '').join(' ')
    || el.textContent || el.getAttribute('title') || el.querySelector('img')?.alt
    || el.getAttribute('value') || el.tagName.toLowerCase()).replace(/\\s+/g, ' ').trim();
  const block = (el) => {
    let node = el.parentElement;
    while (node && getComputedStyle(node).display.startsWith('inline')) node = node.parentElement;
    return node || document.body;
  };
  const inProse = (el) => {
    if (getComputedStyle(el).display !== 'inline') return false;
    const own = el.textContent.replace(/\\s+/g, '');
    const all = block(el).textContent.replace(/\\s+/g, '');
    return all.length > own.length;
  };
  // measured here, in one pass: a box per element (none where it is not rendered); one
  // hidden until focused (a skip link) is measured once focused
  const measure = (el) => {
    if (!el.getClientRects().length) return null;
    let r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) {
      el.focus();
      r = el.getBoundingClientRect();
      if (!el.getClientRects().length || r.width <= 1 || r.height <= 1) return null;
    }
    return {width: r.width, height: r.height};
  };
  return elements.map((el) => ({name: name(el), tag: el.tagName.toLowerCase(),
                                 box: inProse(el) ? null : measure(el)}));
}
"""


@dataclass
class Target:
    name: str
    tag: str
    width: float
    height: float

    def __str__(self) -> str:
        return f"{self.tag} {self.name!r}: {self.width:.0f}×{self.height:.0f}"


def small_targets(page: Any, minimum: int = MIN_TARGET) -> list[Target]:
    """Links and buttons (not inline in prose) whose box is under minimum×minimum CSS px."""
    offenders = []
    for info in page.locator(TARGET_SELECTOR).evaluate_all(_TARGETS_JS):
        box = info["box"]
        if box is None:
            continue  # inline in prose, or not rendered: display none, in a closed <details>, …
        if box["width"] < minimum - 0.5 or box["height"] < minimum - 0.5:
            offenders.append(Target(info["name"], info["tag"], box["width"], box["height"]))
    return offenders


def assert_targets_at_least(page: Any, minimum: int = MIN_TARGET) -> None:
    """Fail naming every link or button smaller than minimum×minimum CSS px."""
    offenders = small_targets(page, minimum)
    assert not offenders, f"targets under {minimum}×{minimum} CSS px on {page.url}:\n" + "\n".join(
        f"  - {t}" for t in offenders
    )


# --------------------------------------------------------------------------- artifacts


def snap(page: Any, name: str, *, full_page: bool = True) -> Path:
    """Save a screenshot into test-artifacts/ (gitignored) and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "page"
    path = ARTIFACTS / f"{safe}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
