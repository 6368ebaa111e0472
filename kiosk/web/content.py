"""Flask glue for the catalogue: one ``Catalogue`` per app, one snapshot per request, and the
content folder's pictures under ``/media/images/``.
"""

from __future__ import annotations

import html
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    g,
    send_from_directory,
)
from werkzeug.security import safe_join

from kiosk.catalogue.pictures import flagged_files, read_made, uses_in
from kiosk.catalogue.render import MEDIA_PREFIX
from kiosk.catalogue.schema import SetRecord
from kiosk.catalogue.snapshot import KINDS
from kiosk.catalogue.store import Catalogue, Entry, Snapshot
from kiosk.games.cards import Card
from kiosk.web.modes import is_preview

EXTENSION = "catalogue"
MEDIA_TYPES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg"}
# A picture is never a document: if one is opened directly, nothing in it may run.
MEDIA_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox"
MEDIA_IN_HTML = re.compile(MEDIA_PREFIX + r"""(images/[^"'?#\s<>]+)""")  # a body's pictures

bp = Blueprint("content", __name__)


def catalogue() -> Catalogue:
    """The app's catalogue (made by ``init_app``)."""
    return current_app.extensions[EXTENSION]


def current() -> Snapshot:
    """The catalogue snapshot for this request: the same one however often a view asks."""
    snapshot = g.get("_kiosk_snapshot")
    if snapshot is None:
        snapshot = g._kiosk_snapshot = catalogue().current()
    return snapshot


@dataclass
class Derived:
    """What an action derives from the content, per snapshot (docs/architecture.md, "Caches")."""

    # (game, set) → the set's deck for the game and its fingerprint ([] and "" if it cannot)
    decks: dict[tuple[str, str], tuple[list[Card], str]] = field(default_factory=dict)
    # (game, set, mount point) → a game's setup context (kiosk.web.play.flow.setup_context)
    setups: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)
    # (game, "title" | "variants" | "levels") → the game's words from its file (PlayGame)
    words: dict[tuple[str, str], Any] = field(default_factory=dict)
    # (face key, width, printable only, preview, mount point) → a card's Face (kiosk.web.cards)
    faces: dict[tuple[str, int, bool, bool, str], Any] = field(default_factory=dict)


def derived() -> Derived:
    """The values derived from this request's snapshot (a new, empty one for a new snapshot)."""
    return current().kept(Derived, Derived)


def entry(kind: str, slug: str) -> Entry | None:
    """One published entry, or in preview a draft: the only way a draft is ever served."""
    snapshot = current()
    found = snapshot.of_kind(kind).get(slug)
    if found is None and is_preview():
        found = snapshot.drafts.get(kind, {}).get(slug)
    return found


def entry_or_404(kind: str, slug: str) -> Entry:
    """The entry to show at this address (a draft only in preview), else 404."""
    found = entry(kind, slug)
    if found is None:
        abort(404)
    return found


def set_record(slug: str) -> SetRecord | None:
    """A set's record (a draft's only in preview), or None."""
    found = entry("set", slug)
    return found.record if found is not None and isinstance(found.record, SetRecord) else None


def set_records() -> list[Any]:
    """Every set's record, drafts too: a picture any of them flags is covered everywhere."""
    snapshot = current()
    return [e.record for e in (*snapshot.sets.values(), *snapshot.drafts.get("set", {}).values())]


def is_covered(src: str) -> bool:
    """Flagged now, or when ``kiosk images`` made its copies (a held-back record flags nothing)."""
    if src in flagged_files(set_records()):
        return True
    made = read_made(catalogue().content_dir, src)
    return made is not None and made.covered


def named_pictures() -> set[str]:
    """Files under images/ a readable record names: no other is served (worked out per ask)."""
    snapshot = current()
    entries = [e for kind in KINDS for e in snapshot.of_kind(kind).values()]
    if is_preview():
        entries += [e for table in snapshot.drafts.values() for e in table.values()]
    found = {use.image.src for entry in entries for use in uses_in(entry.record)}
    for entry in entries:
        found.update(unquote(html.unescape(m)) for m in MEDIA_IN_HTML.findall(entry.html))
    return found


def regular_file_inside(root: Path, src: str) -> bool:
    """A regular file under ``root`` reached through no link (a link could lead anywhere)."""
    path = safe_join(str(root), src)
    if path is None:
        return False
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) and os.path.realpath(path) == os.path.normpath(path)


@bp.get(MEDIA_PREFIX.rstrip("/") + "/<path:src>")
def media(src: str) -> Response:
    """A picture from the content folder's images/ (nothing else under content/ is served)."""
    pure = PurePosixPath(src)
    inside = pure.parts[:1] == ("images",) and ".." not in pure.parts
    if not inside or pure.suffix.lower() not in MEDIA_TYPES:
        abort(404)
    root = catalogue().content_dir.resolve()
    name = pure.as_posix()  # "//" and "/./" read as a browser reads them
    if name not in named_pictures() or is_covered(name) or not regular_file_inside(root, name):
        abort(404)  # unnamed or covered: the same answer as none, so a name tells nothing
    response = send_from_directory(root, name, max_age=3600)
    response.headers["Content-Security-Policy"] = MEDIA_CSP
    return response


def rescan_seconds(app: Flask) -> float:
    """How long a walk of the content folder is trusted (``CONTENT_RESCAN_MS``)."""
    ms = app.config.get("CONTENT_RESCAN_MS")
    if ms is None:
        return 0.0 if app.testing or app.debug else 1.0
    try:
        return max(0.0, int(ms) / 1000)
    except (TypeError, ValueError):
        raise ValueError(f"CONTENT_RESCAN_MS must be a whole number, not {ms!r}") from None


def init_app(app: Flask) -> None:
    """Put ``Catalogue(app.config["CONTENT_DIR"])`` in ``app.extensions`` and serve /media/."""
    if EXTENSION in app.extensions:
        return
    app.extensions[EXTENSION] = Catalogue(app.config["CONTENT_DIR"], rescan_s=rescan_seconds(app))
    app.register_blueprint(bp)
