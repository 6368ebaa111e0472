"""Photographs as served: the copies and IIIF tiles ``kiosk images`` made (never the original),
a covered one only by a signed, short-lived address; covered is 404 everywhere else.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from flask import Blueprint, Flask, Response, abort, current_app, send_from_directory, url_for
from itsdangerous import BadSignature, URLSafeTimedSerializer

from kiosk.catalogue.pictures import (
    DERIVED,
    IIIF_ID,
    Made,
    picture_id,
    printable,
    read_made,
    rights_name,
    uses,
)
from kiosk.catalogue.schema import Image, SetRecord
from kiosk.web.content import MEDIA_CSP, catalogue, is_covered, set_record, set_records
from kiosk.web.modes import is_embed, runs_as_kiosk

bp = Blueprint("pictures", __name__)

MADE_FILE = re.compile(r"^w[0-9]{2,5}\.(webp|jpg)$")
TILE_PATH = re.compile(r"^(full|[0-9]+,[0-9]+,[0-9]+,[0-9]+)/(max|[0-9]+,[0-9]+)/0/default\.jpg$")
PUBLIC_MAX_AGE = 3600
COVERED_SALT = "kiosk.covered-picture"
COVERED_MAX_AGE = 600  # seconds a View card address stays good: long enough to look
COVERED_WIDTH = 1024  # the copy View card shows
IIIF_IMAGE_TYPE = 'application/ld+json;profile="http://iiif.io/api/image/3/context.json"'


@dataclass(frozen=True)
class Picture:
    """One picture as a template places it: its copies for srcset, its zoom, its words."""

    image: Image
    made: Made | None  # None until ``kiosk images`` has made its copies
    pid: str

    @property
    def width(self) -> int | None:
        return self.made.width if self.made else None

    @property
    def height(self) -> int | None:
        return self.made.height if self.made else None

    def srcset(self, fmt: str) -> str:
        """``srcset`` of the made copies in ``fmt`` ("webp" or "jpg")."""
        if self.made is None:
            return ""
        return ", ".join(
            f"{url_for('pictures.made', pid=self.pid, name=self.made.file(w, fmt))} {w}w"
            for w in self.made.widths
        )

    def src(self, width: int = 640) -> str:
        """One copy about ``width`` wide (jpg): the ``src`` of an ``<img>`` with a srcset."""
        if self.made is None:
            return url_for("content.media", src=self.image.src)
        w = min(self.made.widths, key=lambda m: (m < width, abs(m - width)))
        return url_for("pictures.made", pid=self.pid, name=self.made.file(w, "jpg"))

    @property
    def largest(self) -> str:
        """The widest copy made (jpg): where "Look closely" goes without JavaScript."""
        return self.src(self.made.widths[-1]) if self.made else self.src()

    @property
    def zoom(self) -> str | None:
        """The IIIF info.json deep zoom opens, or None before its tiles are made."""
        return url_for("pictures.iiif_info", pid=self.pid) if self.made else None

    @property
    def title(self) -> str:
        """What the picture is called where it is shown alone (deep zoom): caption, else alt."""
        return self.image.caption or self.image.alt

    @property
    def rights_name(self) -> str:
        return rights_name(self.image.rights)

    @property
    def rights_href(self) -> str | None:
        """The rights as a link, or None on the kiosk, where a link out is a dead end."""
        return None if runs_as_kiosk() else self.image.rights

    @property
    def printable(self) -> bool:
        return printable(self.image.rights)


def picture(image: Image | None) -> Picture | None:
    """The picture to place for ``image``, or None if it is absent or covered."""
    if image is None or is_covered(image.src):
        return None
    return Picture(image, read_made(catalogue().content_dir, image.src), picture_id(image.src))


def _srcs_by_id() -> dict[str, str]:
    """picture id → original, for every picture a published (or draft) set names."""
    return {picture_id(u.image.src): u.image.src for u in uses(set_records())}


def _uncovered_src(pid: str) -> str:
    """The original behind ``pid``, or 404 if no set names it or it is covered."""
    src = _srcs_by_id().get(pid)
    if src is None or is_covered(src):
        abort(404)
    return src


def _send_made(pid: str, path: str, max_age: int | None = PUBLIC_MAX_AGE) -> Response:
    folder = catalogue().content_dir.resolve() / DERIVED / pid
    if not (folder / path).is_file():
        abort(404)
    response = send_from_directory(folder, path, max_age=max_age)
    response.headers["Content-Security-Policy"] = MEDIA_CSP
    return response


def _cors(response: Response) -> Response:
    """Any viewer on any site may read it (IIIF viewers fetch across origins)."""
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


@bp.get("/media/pictures/<pid>/<name>")
def made(pid: str, name: str) -> Response:
    """A copy ``kiosk images`` made, e.g. ``/media/pictures/sets--box-jpg/w640.webp``."""
    if not MADE_FILE.match(name):
        abort(404)
    _uncovered_src(pid)
    return _send_made(pid, name)


@bp.get("/iiif/image/<pid>/info.json")
def iiif_info(pid: str) -> Response:
    """The IIIF Image API 3 (level 0) description of a picture's tiles, with its address."""
    _uncovered_src(pid)
    path = catalogue().content_dir / DERIVED / pid / "iiif" / "info.json"
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        abort(404)
    if not isinstance(info, dict):
        abort(404)  # a hand-edited or damaged info.json is no picture, not an error
    info["id"] = url_for("pictures.iiif_info", pid=pid, _external=True).removesuffix("/info.json")
    response = current_app.response_class(json.dumps(info), mimetype="application/json")
    response.headers["Content-Type"] = IIIF_IMAGE_TYPE
    response.cache_control.public = True
    response.cache_control.max_age = PUBLIC_MAX_AGE
    return _cors(response)


@bp.get("/iiif/image/<pid>/<path:tile>")
def iiif_tile(pid: str, tile: str) -> Response:
    """One level-0 tile or size, e.g. ``/iiif/image/<pid>/0,0,1024,1024/512,512/0/default.jpg``."""
    if not TILE_PATH.match(tile) or IIIF_ID in tile:
        abort(404)
    _uncovered_src(pid)
    return _cors(_send_made(pid, f"iiif/{tile}"))


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=COVERED_SALT)


def covered_url(record: SetRecord, image: Image | None) -> str | None:
    """View card's signed, short-lived address of a covered photograph, if allowed here."""
    if image is None or not record.view_flagged_photographs or is_embed():
        return None
    made = read_made(catalogue().content_dir, image.src)
    if made is None:
        return None
    token = _serializer().dumps({"set": record.key, "src": image.src})
    return url_for("pictures.covered", token=token)


@bp.get("/media/covered/<token>")
def covered(token: str) -> Response:
    """A covered photograph behind View card, where its set allows it; kept by no cache."""
    if is_embed():
        abort(404)  # a host's page never shows it, whoever asks
    try:
        asked = _serializer().loads(token, max_age=COVERED_MAX_AGE)
        set_key, src = str(asked["set"]), str(asked["src"])
    except (BadSignature, KeyError, TypeError):
        abort(404)
    record = set_record(set_key)
    if record is None or not record.view_flagged_photographs:
        abort(404)
    if src not in {u.image.src for u in uses([record]) if u.flag is not None}:
        abort(404)
    made = read_made(catalogue().content_dir, src)
    if made is None or not made.widths:
        abort(404)
    width = min(made.widths, key=lambda w: abs(w - COVERED_WIDTH))
    response = _send_made(picture_id(src), made.file(width, "jpg"), max_age=None)
    response.cache_control.no_store = True
    response.cache_control.private = True
    response.cache_control.public = False
    response.cache_control.max_age = None
    response.headers["X-Robots-Tag"] = "noindex"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def init_app(app: Flask) -> None:
    """Serve the made copies, the IIIF tiles and View card's covered photographs."""
    app.register_blueprint(bp)
    app.jinja_env.globals["picture"] = picture
    app.jinja_env.globals["covered_url"] = covered_url
