"""Fixtures for the browser tests (tests/browser/, kiosk/games/<game>/tests/browser/): live
servers, Debian's Chromium, pages that fail on errors. A plugin: the root conftest.py loads it."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from .harness import (
    CHROMIUM_ARGS,
    VIEWPORT,
    ErrorLog,
    LiveServer,
    find_chromium,
    find_headless_shell,
    html_app,
    on_ci,
    settle,
    third_party_cookie_prefs,
    watch_errors,
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "expect_page_errors: the test provokes console/page/request/CSP errors on purpose "
        "(the page fixtures then do not fail on them; inspect them with `page_errors`)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test in a browser/ folder is a browser test (`-m "not browser"` leaves them out)."""
    for item in items:
        if item.path.parent.name == "browser":
            item.add_marker(pytest.mark.browser)


# --------------------------------------------------------------------------- servers


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    """The real app, default configuration and real content, served by waitress."""
    with LiveServer() as server:
        yield server


@pytest.fixture
def make_server() -> Iterator[Callable[..., LiveServer]]:
    """Start more servers with their own config (another origin, kiosk mode, tmp content)."""
    servers: list[LiveServer] = []

    def start(config: Mapping[str, Any] | None = None, *, app: Any = None) -> LiveServer:
        server = LiveServer(config, app=app)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def host_page(make_server: Callable[..., LiveServer]) -> Callable[[str], str]:
    """Serve some HTML from another *site* and return its URL: a school's page, say.

    Our servers listen on 127.0.0.1; the page's URL names ``localhost``, which is another
    site for cookies (and another origin for CSP) while staying on the loopback network.
    """

    def serve(body: str) -> str:
        server = make_server(app=html_app(body))
        return server.at("localhost") + "/"

    return serve


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's Chromium; absent, the browser tests skip (fail on CI, where it must be)."""
    path = find_chromium()
    if path is None:
        message = "Debian's chromium is not installed (make browser-deps installs it)"
        if on_ci():
            pytest.fail(message + " and CI=true: browser tests must run on CI")
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    driver = sync_playwright().start()
    yield driver
    driver.stop()


@pytest.fixture(scope="session")
def browser(playwright_driver: Any, chromium_path: str) -> Iterator[Any]:
    """The browser of the pages: Chromium's headless shell (the full Chromium where the shell is
    not installed, except on CI, where both must be)."""
    path = find_headless_shell()
    if path is None:
        if on_ci():
            pytest.fail("Debian's chromium-headless-shell is not installed and CI=true")
        path = chromium_path
    browser = playwright_driver.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def full_browser(playwright_driver: Any, chromium_path: str) -> Iterator[Any]:
    """The full Chromium, for what only it has: its off-the-record profiles' cookie setting."""
    browser = playwright_driver.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


def _fail_on_errors(request: pytest.FixtureRequest, logs: list[ErrorLog]) -> None:
    if request.node.get_closest_marker("expect_page_errors"):
        return
    found = [log for log in logs if log]
    if found:
        pytest.fail(
            "the browser reported errors (mark the test `expect_page_errors` if intended):\n"
            + "\n".join(log.report() for log in found),
            pytrace=False,
        )


@pytest.fixture
def new_context(
    request: pytest.FixtureRequest, browser: Any, make_server: Callable[..., LiveServer]
) -> Iterator[Callable[..., Any]]:
    """Open browser contexts (any Playwright option) whose errors fail the test at teardown;
    ``full=True`` opens one in the full Chromium (``full_browser``).

    (It depends on ``make_server`` so that the test's servers outlive its pages: a page
    still fetching its icon from a stopped server would report a refused connection.)

    Each context's ErrorLog is on ``context.errors``. Contexts made by ``browser.new_context``
    are off-the-record profiles: Chromium already blocks third-party cookies in them.
    """
    contexts: list[Any] = []

    def open_context(*, full: bool = False, **options: Any) -> Any:
        options.setdefault("viewport", VIEWPORT)
        chromium = request.getfixturevalue("full_browser") if full else browser
        context = chromium.new_context(**options)
        context.set_default_timeout(15_000)
        context.errors = watch_errors(context)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        settle(context)
    logs = [context.errors for context in contexts]
    for context in contexts:
        context.close()
    _fail_on_errors(request, logs)


@pytest.fixture
def persistent_context(
    request: pytest.FixtureRequest,
    playwright_driver: Any,
    chromium_path: str,
    tmp_path_factory: pytest.TempPathFactory,
    make_server: Callable[..., LiveServer],
) -> Iterator[Callable[..., Any]]:
    """Open a context on a real profile whose cookie setting we choose (a browser of its own).

    ``persistent_context(third_party_cookies="block")`` is the setting a school's browser
    may have; "allow" is the control that shows a cookie test can tell the difference.
    """
    contexts: list[Any] = []

    def open_context(*, third_party_cookies: str = "block", **options: Any) -> Any:
        if third_party_cookies not in {"block", "allow"}:
            raise ValueError("third_party_cookies is 'block' or 'allow'")
        profile = tmp_path_factory.mktemp("chromium-profile")
        third_party_cookie_prefs(profile, block=third_party_cookies == "block")
        options.setdefault("viewport", VIEWPORT)
        context = playwright_driver.chromium.launch_persistent_context(
            str(profile), executable_path=chromium_path, args=CHROMIUM_ARGS, **options
        )
        context.set_default_timeout(15_000)
        context.errors = watch_errors(context)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        settle(context)
    logs = [context.errors for context in contexts]
    for context in contexts:
        context.close()
    _fail_on_errors(request, logs)


@pytest.fixture
def page(new_context: Callable[..., Any]) -> Any:
    """A page in a fresh 1280×800 context; console/page/request/CSP errors fail the test."""
    return new_context().new_page()


@pytest.fixture
def touch_page(new_context: Callable[..., Any]) -> Any:
    """A touchscreen page: taps (``locator.tap()``) on a 1280×800 screen, not a phone."""
    return new_context(has_touch=True, is_mobile=False).new_page()


@pytest.fixture
def reduced_motion_page(new_context: Callable[..., Any]) -> Any:
    """A touchscreen page whose visitor asked for reduced motion."""
    return new_context(has_touch=True, is_mobile=False, reduced_motion="reduce").new_page()


@pytest.fixture
def page_errors(page: Any) -> ErrorLog:
    """The error log of ``page``'s context (for tests marked ``expect_page_errors``)."""
    return page.context.errors
