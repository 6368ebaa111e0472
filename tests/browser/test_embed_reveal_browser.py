"""A school's page frames the covered card's ``?view=`` address: it stays covered (issue 16).

Only the pupil's own tap on "View card" inside the frame uncovers it. Without JavaScript that
tap is a GET form of our own page inside the frame, which Chromium marks
``Sec-Fetch-Site: same-origin``; the host page's own address for the frame is cross-site.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from .harness import LiveServer

FLAGGED = "/embed/sets/misc-869-1986?view=golly-oh-golly"
FRAMABLE = {"FRAME_ANCESTORS": "'self' http://localhost:*"}


@pytest.fixture
def server(make_server: Callable[..., LiveServer]) -> LiveServer:
    return make_server(FRAMABLE)


def lesson(server: LiveServer) -> str:
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Lesson</title>"
        f"</head><body><iframe src='{server.url}{FLAGGED}' title='Cards' width='1000'"
        " height='800'></iframe></body></html>"
    )


@pytest.mark.parametrize("scripts", [True, False])
def test_a_framed_view_address_stays_covered_until_the_pupil_taps(
    new_context, server, host_page, scripts
):
    page = new_context(java_script_enabled=scripts).new_page()
    page.goto(host_page(lesson(server)))
    frame = page.frame_locator("iframe")
    flagged = frame.locator(".flagged").first
    expect(flagged.get_by_role("button", name="View card")).to_be_visible()
    expect(frame.locator(".flagged.is-revealed")).to_have_count(0)
    flagged.get_by_role("button", name="View card").click()
    expect(frame.locator(".flagged.is-revealed")).to_have_count(1)
