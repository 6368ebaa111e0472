"""For teachers: the "Embed this" panel's snippet; the panel shows neither in kiosk mode nor
inside an embed.
"""

from __future__ import annotations

from flask import Flask, request
from markupsafe import escape

from kiosk.web.embed import PREFIX
from kiosk.web.modes import is_embed, is_kiosk_mode
from kiosk.web.oembed import DEFAULT_HEIGHT, DEFAULT_WIDTH, host_script


def embed_snippet(path: str, title: str) -> str:
    """The HTML a teacher pastes: the iframe of ``path``, and embed.js to fit its height."""
    script = host_script()  # the address docs/embedding.md gives: it is pasted once
    frame = (
        f'<iframe src="{escape(embed_page_url(path, PREFIX))}" title="{escape(title)}"'
        f' width="{DEFAULT_WIDTH}" height="{DEFAULT_HEIGHT}" loading="lazy"'
        ' style="border:0; width:100%"></iframe>'
    )
    return f'{frame}\n<script src="{escape(script)}" defer></script>'


def embed_page_url(path: str, mount: str = "") -> str:
    """The page's absolute address, or under ``mount`` (``/embed``: the snippet's)."""
    return request.url_root.rstrip("/") + mount + (path.removeprefix(request.script_root) or "/")


def shows_embed_panel() -> bool:
    """The panel is for a teacher browsing the kiosk: not in kiosk mode, not inside an embed."""
    return not (is_kiosk_mode() or is_embed())


def init_app(app: Flask) -> None:
    """Give templates the snippet and the panel's rule (globals: no processor per render)."""
    app.add_template_global(embed_snippet, "embed_snippet")
    app.add_template_global(embed_page_url, "embed_page_url")
    app.add_template_global(shows_embed_panel, "shows_embed_panel")
