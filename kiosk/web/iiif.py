"""IIIF Presentation 3 manifests (``/iiif/<slug>/manifest.json``, with iiif-prezi3): one canvas a
visible picture with its level-0 tiles; a covered picture is left out entirely.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, abort, current_app, url_for
from iiif_prezi3 import Manifest, ServiceV3

from kiosk.catalogue.citations import plain
from kiosk.catalogue.pictures import DERIVED, Made, Use, picture_id, read_made, uses_in
from kiosk.catalogue.schema import SetRecord
from kiosk.catalogue.terms import contested, find_term
from kiosk.web.content import catalogue, current, is_covered, set_record
from kiosk.web.oembed import PROVIDER
from kiosk.web.pages import FACT_FIELDS, NOT_RECORDED, SHOWS_WORDS

bp = Blueprint("iiif", __name__)

PRESENTATION_TYPE = 'application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"'
MAX_AGE = 3600
# The set page's facts but its long prose: a viewer's side panel shows short ones
PROSE = frozenset({"physical_description", "marks", "history"})
METADATA = tuple((name, label) for name, label in FACT_FIELDS if name not in PROSE)


def _made_in_full(made: Made | None) -> bool:
    """A picture whose copies and tiles are all there: a canvas never names a missing file."""
    if made is None or not made.widths or made.width < 1 or made.height < 1:
        return False
    folder = catalogue().content_dir / DERIVED / picture_id(made.src)
    largest = folder / made.file(made.widths[-1], "jpg")
    return largest.is_file() and (folder / "iiif" / "info.json").is_file()


def shown(record: SetRecord) -> list[tuple[Use, Made]]:
    """The pictures a manifest gives, each file once: uncovered, with every copy made."""
    uses = list(uses_in(record))
    ordered = [u for u in uses if u.face is None]
    ordered += [u for u in uses if u.side == "front"] + [u for u in uses if u.side == "back"]
    found: dict[str, tuple[Use, Made]] = {}
    for use in ordered:
        src = use.image.src
        if src in found or use.flag is not None or is_covered(src):
            continue
        made = read_made(catalogue().content_dir, src)
        if made is not None and _made_in_full(made):
            found[src] = (use, made)
    return list(found.values())


def manifest_url(record: SetRecord) -> str | None:
    """The address of the set's manifest, or None if it has no picture to give."""
    return url_for("iiif.manifest", slug=record.key) if shown(record) else None


def summary_of(record: SetRecord) -> str | None:
    """The summary, or the attract summary where it names contested imagery (no cover there)."""
    terms = contested(e.record for e in current().terms.values())
    for text in (record.summary, record.attract_summary):
        if text and find_term(terms, (text,)) is None:
            return plain(text)
    return None


def _label(use: Use, record: SetRecord) -> str:
    """What a canvas is called: the caption, else the card and side, else what it shows."""
    image = use.image
    if image.caption:
        return image.caption
    if use.face is not None:
        face = next(f for f in record.cards if f.key == use.face)
        if face.content_note is not None:
            return "The back of a card"  # a flagged card's name is not said out of context
        return f"{face.name} ({use.side})"
    return SHOWS_WORDS.get(image.shows or "", "A picture of the set")


def _value(value: object) -> str | None:
    """A record field as metadata, or None when it is empty or says it is not recorded."""
    if value is None or value == "":
        return None
    text = plain(str(value)).strip()
    return None if not text or text.lower().startswith(NOT_RECORDED) else text


def _image_resource(pid: str, made: Made, width: int) -> dict:
    return {
        "id": url_for("pictures.made", pid=pid, name=made.file(width, "jpg"), _external=True),
        "type": "Image",
        "format": "image/jpeg",
        "width": width,
        "height": made.height_at(width),
    }


def _page(url: str, label: str) -> dict:
    """A homepage entry: a web page of ours and its name."""
    return {"id": url, "type": "Text", "label": {"en": [label]}, "format": "text/html"}


def build(record: SetRecord) -> Manifest:
    """The set's manifest: label, summary, metadata, attribution, rights, one canvas a picture."""
    pictures = shown(record)
    base = url_for("iiif.manifest", slug=record.key, _external=True).removesuffix("/manifest.json")
    home = url_for("pages.home", _external=True)
    manifest = Manifest(
        id=f"{base}/manifest.json",
        label={"en": [plain(record.title)]},
        homepage=[
            _page(url_for("pages.set_record", slug=record.key, _external=True), plain(record.title))
        ],
        provider=[
            {
                "id": home,
                "type": "Agent",
                "label": {"en": [PROVIDER]},
                "homepage": [_page(home, PROVIDER)],
            }
        ],
    )
    summary = summary_of(record)
    if summary:
        manifest.summary = {"en": [summary]}
    for field, label in METADATA:
        value = _value(getattr(record, field))
        if value:
            manifest.add_metadata({"en": [label]}, {"en": [value]})
    credits = list(dict.fromkeys(use.image.credit for use, _ in pictures))
    attribution = [plain(record.credit_line)] if _value(record.credit_line) else []
    word = "Photograph" if len(credits) == 1 else "Photographs"
    attribution.append(f"{word}: " + "; ".join(credits))
    manifest.requiredStatement = {
        "label": {"en": ["Attribution"]},
        "value": {"en": attribution},
    }
    rights = {use.image.rights for use, _ in pictures}
    if len(rights) == 1:
        manifest.rights = rights.pop()
    for n, (use, made) in enumerate(pictures, start=1):
        pid = picture_id(use.image.src)
        canvas = manifest.make_canvas(
            id=f"{base}/canvas/{n}",
            label={"en": [_label(use, record)]},
            width=made.width,
            height=made.height,
        )
        canvas.add_metadata({"en": ["Alt text"]}, {"en": [use.image.alt]})
        canvas.requiredStatement = {
            "label": {"en": ["Attribution"]},
            "value": {"en": [f"Photograph: {use.image.credit}"]},
        }
        canvas.rights = use.image.rights
        canvas.thumbnail = [_image_resource(pid, made, made.widths[0])]
        largest = _image_resource(pid, made, made.widths[-1])
        page = canvas.add_image(
            largest["id"],
            anno_id=f"{base}/annotation/{n}",
            anno_page_id=f"{base}/page/{n}",
            format="image/jpeg",
            width=largest["width"],
            height=largest["height"],
        )
        service = url_for("pictures.iiif_info", pid=pid, _external=True)
        page.items[0].body.service = [
            ServiceV3(id=service.removesuffix("/info.json"), type="ImageService3", profile="level0")
        ]
    if pictures:
        use, made = pictures[0]
        manifest.thumbnail = [_image_resource(picture_id(use.image.src), made, made.widths[0])]
    return manifest


@bp.get("/iiif/<slug>/manifest.json")
def manifest(slug: str) -> Response:
    """A set's IIIF Presentation 3 manifest (404 if it has no picture a visitor may see)."""
    record = set_record(slug)
    if record is None or not shown(record):
        abort(404)
    response = current_app.response_class(build(record).json(), mimetype="application/json")
    response.headers["Content-Type"] = PRESENTATION_TYPE
    response.headers["Access-Control-Allow-Origin"] = "*"
    response.cache_control.public = True
    response.cache_control.max_age = MAX_AGE
    return response


def init_app(app: Flask) -> None:
    """Serve the manifests; templates get ``manifest_url(record)``."""
    app.register_blueprint(bp)
    app.jinja_env.globals["manifest_url"] = manifest_url
