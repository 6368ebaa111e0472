"""Card pictures as SVG (drawn by kiosk.web.cardfaces) with ETags by content version, and the
template globals that give every page the same card URLs.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from flask import Blueprint, Flask, Response, abort, g, request, url_for

from kiosk.catalogue.looks import set_looks
from kiosk.catalogue.schema import CardFace, SetRecord
from kiosk.web import cardfaces, content
from kiosk.web.modes import is_preview
from kiosk.web.pictures import Picture, picture

bp = Blueprint("cards", __name__, url_prefix="/cards")

SVG_TYPE = "image/svg+xml; charset=utf-8"
STANDARD = "standard"
# The made copy a photograph is placed at: a card in play is at most ~310 CSS px (a phone's ~95
# at x3), a record page's bigger, a printed one 63 mm (640: ~260 dpi).
PLAY_WIDTH = 320
PAGE_WIDTH = 640
PRINT_WIDTH = 640
PHOTO_CLASS = "card-img--photo"  # play.css, rules.css, print.css: a photograph fills the card


def _svg_response(svg: str, etag_parts: tuple[str, ...], max_age: int) -> Response:
    """An SVG with an ETag made of the drawing version and whatever the picture depends on."""
    tag = hashlib.sha1("\0".join((cardfaces.DRAWING_VERSION, *etag_parts)).encode()).hexdigest()
    response = Response(svg, content_type=SVG_TYPE)
    response.set_etag(tag[:20])
    response.headers["Cache-Control"] = f"public, max-age={max_age}"
    return response.make_conditional(request)


def find_face(set_record: SetRecord, face_slug: str) -> CardFace | None:
    """The face of a set with this slug, or None."""
    return next((face for face in set_record.cards if face.key == face_slug), None)


@bp.get("/icon.svg")
def icon() -> Response:
    """The kiosk's icon (also answers ``/favicon.ico``)."""
    return _svg_response(cardfaces.icon_svg(), ("icon",), 86400)


@bp.get("/standard/back.svg")
def standard_back() -> Response:
    """The kiosk's own back for a plain 52-card pack."""
    return _svg_response(cardfaces.back_svg(cardfaces.DEFAULT_BACK), ("standard-back",), 3600)


@bp.get("/standard/<card_id>.svg")
def standard(card_id: str) -> Response:
    """A face of the 52-card pack, e.g. ``/cards/standard/QH.svg``."""
    if not cardfaces.is_standard_id(card_id):
        abort(404)
    return _svg_response(cardfaces.standard_svg(card_id), ("standard", card_id), 3600)


@bp.get("/<set_slug>/back.svg")
def back(set_slug: str) -> Response:
    """A set's back, drawn from its record (the Woolworths back: dark blue, a pattern of Ws)."""
    record: SetRecord = content.entry_or_404("set", set_slug).record  # type: ignore[assignment]
    svg = cardfaces.back_svg(record.back, record.title)
    return _svg_response(svg, ("back", set_slug, content.current().version), 300)


@bp.get("/<set_slug>/<face_slug>.svg")
def face(set_slug: str, face_slug: str) -> Response:
    """A named set's face, in its set's look; a flagged face is drawn as its historic title only."""
    record: SetRecord = content.entry_or_404("set", set_slug).record  # type: ignore[assignment]
    found = find_face(record, face_slug)
    if found is None:
        if record.deck == "standard-52" and cardfaces.is_standard_id(face_slug):
            return standard(face_slug)
        abort(404)
    look = set_looks(record).get(found.key)
    svg = cardfaces.face_svg(found, record.title, look)
    return _svg_response(svg, ("face", set_slug, face_slug, content.current().version), 300)


@dataclass(frozen=True)
class Face:
    """A card's face where a table places it; a photograph needs a class, a drawing has corners."""

    src: str
    photo: bool = False

    @property
    def css(self) -> str:
        """The class that makes a photograph fill the card's shape ("" for a drawing)."""
        return PHOTO_CLASS if self.photo else ""


def front_picture(face: CardFace, printable_only: bool = False) -> Picture | None:
    """A card front's made copies, or None: covered, not made yet, or (paper) not printable."""
    if face.image is None or face.content_note is not None:
        return None
    found = picture(face.image)  # None for a covered file
    if found is None or found.made is None or (printable_only and not found.printable):
        return None
    return found


@bp.app_template_global()
def face_src(set_record: SetRecord, face: CardFace, width: int = PAGE_WIDTH) -> str:
    """A face's photograph (made copy) or our drawing; a flagged face is always the drawing."""
    found = front_picture(face)
    if found is not None:
        return found.src(width)
    return url_for("cards.face", set_slug=set_record.key, face_slug=face.key)


@bp.app_template_global()
def face_alt(set_record: SetRecord, face: CardFace) -> str:
    """The alt text of a face's picture: the curator's, or the drawing's own title."""
    if front_picture(face) is not None:
        assert face.image is not None
        return face.image.alt
    title = cardfaces.face_title(face)
    return title + (": its title only" if face.content_note is not None else "")


@bp.app_template_global()
def back_src(set_record: SetRecord | None = None) -> str:
    """A set's back (or the kiosk's plain back when there is no set)."""
    if set_record is None:
        return url_for("cards.standard_back")
    return url_for("cards.back", set_slug=set_record.key)


@bp.app_template_global()
def standard_src(card_id: str) -> str:
    """A 52-card face, e.g. ``standard_src("QH")``."""
    return url_for("cards.standard", card_id=card_id)


def _card_face(face_key: str, width: int, printable_only: bool) -> Face:
    set_slug, _, face_slug = face_key.partition("/")
    if set_slug == STANDARD:
        return Face(standard_src(face_slug))
    record = content.set_record(set_slug)  # the set an engine card's face key names
    found = find_face(record, face_slug) if record is not None else None
    photo = front_picture(found, printable_only) if found is not None else None
    if photo is not None:
        return Face(photo.src(width), photo=True)
    return Face(url_for("cards.face", set_slug=set_slug, face_slug=face_slug))


def card_face(face_key: str, width: int = PLAY_WIDTH, printable_only: bool = False) -> Face:
    """An engine card's face (photograph or drawing); kept per snapshot: asked for every action."""
    printable_only = printable_only or g.get("paper", False)
    faces = content.derived().faces
    key = (face_key, width, printable_only, is_preview(), request.script_root)
    found = faces.get(key)
    if found is None:
        found = faces.setdefault(key, _card_face(face_key, width, printable_only))
    return found


bp.add_app_template_global(cardfaces.standard_name, "standard_name")


def init_app(app: Flask) -> None:
    """Register the card pictures, and the icon at ``/favicon.ico`` where browsers look."""
    app.register_blueprint(bp)
    app.add_url_rule("/favicon.ico", "favicon", icon)


def dom_id(card_id: str) -> str:
    """A card id as a DOM id and view-transition-name part (``AS~2`` → ``AS_2``)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", card_id)
