"""Drafts in a real browser (issue 15): a draft never reaches kiosk mode, even on a server
started with preview; in preview (not kiosk mode) its page says it is a draft."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from kiosk.config import ROOT

from .harness import assert_no_axe_violations

DRAFT = """---
kind: set
slug: draft-pack
title: A draft pack (not ready)
summary: A set a curator is still writing.
draft: true
back:
  description: A plain back, drawn by the kiosk.
cards:
  - name: The Sun
    copies: 4
sources:
  - title: A test source
---
Still being written.
"""


def content_with_drafts(tmp_path: Path) -> Path:
    """The real content and one draft set."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / "sets" / "draft-pack.md").write_text(DRAFT, encoding="utf-8")
    return content


@pytest.mark.expect_page_errors  # the draft's address answers 404, on purpose
def test_a_draft_never_reaches_kiosk_mode(make_server, page, tmp_path):
    content = content_with_drafts(tmp_path)
    server = make_server({"KIOSK_MODE": True, "PREVIEW": True, "CONTENT_DIR": str(content)})
    response = page.goto(server.url + "/sets/draft-pack")
    assert response is not None and response.status == 404
    page.goto(server.url + "/")
    expect(page.locator("h1").first).to_be_visible()
    assert "A draft pack" not in page.content()
    assert page.locator(".preview-bar").count() == 0
    page.goto(server.url + "/sets/")
    assert page.locator("a[href='/sets/draft-pack']").count() == 0


def test_a_draft_in_preview_says_so(make_server, page, tmp_path):
    content = content_with_drafts(tmp_path)
    server = make_server({"PREVIEW": True, "CONTENT_DIR": str(content)})
    page.goto(server.url + "/sets/draft-pack")
    expect(page.locator("h1")).to_contain_text("A draft pack")
    bar = page.get_by_role("complementary", name="Preview for curators")
    expect(bar).to_contain_text("This page is a draft")
    assert_no_axe_violations(page)
