"""Photographs in the content: where each is used, whether its *file* is covered (flagged by
any record naming it), and the copies ``kiosk images`` made of it; no Pillow here.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

from kiosk.catalogue.schema import AnyRecord, ContentNote, Image, SetRecord

# The widths ``kiosk images`` makes for ``srcset`` (never wider than the original)
WIDTHS = (320, 640, 1024, 1600)
# The formats made at each width: webp for browsers, jpg for everything else (IIIF viewers)
FORMATS = ("webp", "jpg")
TILE = 512  # the IIIF tile size, in pixels of the level it is cut from
DERIVED = "derived"  # the folder under the content folder where the made files are kept
MADE = "made.json"  # in each picture's folder: what was made, from which original
IIIF_ID = "{iiif-id}"  # in a stored info.json, replaced with the served address


@dataclass(frozen=True)
class Use:
    """One place a record names a picture: the set, where in it, and the flag it gives."""

    set_key: str
    where: tuple[str | int, ...]  # key path in the record, e.g. ("cards", 3, "image")
    image: Image
    flag: ContentNote | None  # the picture's own, or for a card's front its card's
    face: str | None = None  # the card's key, for a card's pictures
    side: str | None = None  # "front" or "back", for a card's pictures


def uses_in(record: AnyRecord) -> Iterator[Use]:
    """Every picture a set record names, with the flag each use gives it."""
    if not isinstance(record, SetRecord):
        return
    for i, image in enumerate(record.images):
        yield Use(record.key, ("images", i), image, image.content_note)
    for i, face in enumerate(record.cards):
        if face.image is not None:
            flag = face.image.content_note or face.content_note
            yield Use(record.key, ("cards", i, "image"), face.image, flag, face.key, "front")
        if face.back_image is not None:
            back = face.back_image
            yield Use(
                record.key, ("cards", i, "back_image"), back, back.content_note, face.key, "back"
            )


def uses(records: Iterable[AnyRecord]) -> Iterator[Use]:
    """Every picture every record names."""
    for record in records:
        yield from uses_in(record)


def flagged_files(records: Iterable[AnyRecord]) -> frozenset[str]:
    """The picture files that are covered: named flagged anywhere, in any record."""
    return frozenset(use.image.src for use in uses(records) if use.flag is not None)


def picture_id(src: str) -> str:
    """A picture's name in addresses and under derived/: images/sets/box.jpg → sets--box-jpg."""
    pure = PurePosixPath(src)
    parts = pure.parts[1:] if pure.parts[:1] == ("images",) else pure.parts
    return "--".join(parts).replace(".", "-").lower()


def shared_folders(srcs: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Originals whose names make one folder under derived/: each would get the other's copies."""
    by_id: dict[str, set[str]] = {}
    for src in srcs:
        by_id.setdefault(picture_id(src), set()).add(src)
    return {pid: tuple(sorted(names)) for pid, names in by_id.items() if len(names) > 1}


def derived_dir(content_dir: Path, src: str) -> Path:
    """Where ``kiosk images`` keeps what it made from one original."""
    return content_dir / DERIVED / picture_id(src)


@dataclass(frozen=True)
class Made:
    """What ``kiosk images`` made from one original (its ``made.json``)."""

    src: str
    sha256: str  # of the original, to tell when it has changed
    width: int  # the original's size, in pixels
    height: int
    widths: tuple[int, ...]  # the srcset widths made, in each of FORMATS
    # flagged when made: kept covered even while the record that flags it is held back
    covered: bool = False

    def height_at(self, width: int) -> int:
        """The height of the copy made ``width`` pixels wide."""
        return max(1, round(self.height * width / self.width))

    def file(self, width: int, fmt: str) -> str:
        """The made file's name in the picture's folder, e.g. ``w640.webp``."""
        return f"w{width}.{fmt}"

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)  # the tuple of widths is written as a list


def widths_for(width: int) -> tuple[int, ...]:
    """The srcset widths an original can fill, and its own below the widest (never enlarged)."""
    made = tuple(w for w in WIDTHS if w <= width)
    return made if made and made[-1] == WIDTHS[-1] else (*made, width)


def read_made(content_dir: Path, src: str) -> Made | None:
    """What was made from ``src``, or None if nothing was, or it cannot be read."""
    try:
        data = json.loads((derived_dir(content_dir, src) / MADE).read_text(encoding="utf-8"))
        return Made(
            src=str(data["src"]),
            sha256=str(data["sha256"]),
            width=int(data["width"]),
            height=int(data["height"]),
            widths=tuple(int(w) for w in data["widths"]),
            covered=bool(data.get("covered", True)),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


State = Literal["made", "stale", "missing"]


def sha256_of(path: Path) -> str:
    """The hex SHA-256 of a file's bytes, read in blocks (an original may be large)."""
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def state(content_dir: Path, src: str, covered: bool = False) -> State:
    """Whether the copies match the original and its cover (``made``), or not (``stale``)."""
    made = read_made(content_dir, src)
    if made is None:
        return "missing"
    original = content_dir / src
    if made.src != src or made.covered != covered or not original.is_file():
        return "stale"  # another original's copies (two names, one folder), or a flag changed
    try:
        return "made" if made.sha256 == sha256_of(original) else "stale"
    except OSError:
        return "stale"


def scale_factors(width: int, height: int) -> tuple[int, ...]:
    """IIIF scale factors 1, 2, 4, … down to the level where the picture fits one tile."""
    top = (
        max(0, math.ceil(math.log2(max(width, height) / TILE))) if max(width, height) > TILE else 0
    )
    return tuple(2**k for k in range(top + 1))


def tiles(
    width: int, height: int
) -> Iterator[tuple[tuple[int, int, int, int], tuple[int, int], str]]:
    """Every level-0 tile (region, size, path) at the addresses OpenSeadragon builds for IIIF 3."""
    for s in scale_factors(width, height):
        level_w, level_h = math.ceil(width / s), math.ceil(height / s)
        if level_w < TILE and level_h < TILE:
            size = "max" if s == 1 else f"{level_w},{level_h}"
            yield (0, 0, width, height), (level_w, level_h), f"full/{size}/0/default.jpg"
            continue
        step = TILE * s
        for ty in range(math.ceil(level_h / TILE)):
            for tx in range(math.ceil(level_w / TILE)):
                x, y = tx * step, ty * step
                w, h = min(step, width - x), min(step, height - y)
                region = "full" if (x, y, w, h) == (0, 0, width, height) else f"{x},{y},{w},{h}"
                sw, sh = min(TILE, level_w - tx * TILE), min(TILE, level_h - ty * TILE)
                size = "max" if (sw, sh) == (width, height) else f"{sw},{sh}"
                yield (x, y, w, h), (sw, sh), f"{region}/{size}/0/default.jpg"


def info_json(made: Made) -> dict:
    """The IIIF Image API 3 level-0 description of a picture's tiles; ``id`` is IIIF_ID."""
    return {
        "@context": "http://iiif.io/api/image/3/context.json",
        "id": IIIF_ID,
        "type": "ImageService3",
        "protocol": "http://iiif.io/api/image",
        "profile": "level0",
        "width": made.width,
        "height": made.height,
        "sizes": [{"width": w, "height": h} for (w, h), _ in size_paths(made)],
        "tiles": [{"width": TILE, "scaleFactors": list(scale_factors(made.width, made.height))}],
    }


def size_paths(made: Made) -> Iterator[tuple[tuple[int, int], str]]:
    """One whole-picture size a zoom level: OpenSeadragon 5 reads the sizes as its levels."""
    for s in reversed(scale_factors(made.width, made.height)):
        w, h = math.ceil(made.width / s), math.ceil(made.height / s)
        size = "max" if s == 1 else f"{w},{h}"
        yield (w, h), f"full/{size}/0/default.jpg"


# The words a visitor reads for a rights address (the statements' and licences' own names)
RIGHTS_NAMES = {
    "InC": "In Copyright",
    "InC-OW-EU": "In Copyright – EU Orphan Work",
    "InC-EDU": "In Copyright – Educational Use Permitted",
    "InC-NC": "In Copyright – Non-Commercial Use Permitted",
    "InC-RUU": "In Copyright – Rights-holder(s) Unlocatable or Unidentifiable",
    "NoC-CR": "No Copyright – Contractual Restrictions",
    "NoC-NC": "No Copyright – Non-Commercial Use Only",
    "NoC-OKLR": "No Copyright – Other Known Legal Restrictions",
    "NoC-US": "No Copyright – United States",
    "CNE": "Copyright Not Evaluated",
    "UND": "Copyright Undetermined",
    "NKC": "No Known Copyright",
}


def rights_name(rights: str) -> str:
    """A rights address in a visitor's words: ``CC BY-NC 4.0``, or a statement's name."""
    parts = [p for p in rights.split("://", 1)[-1].split("/") if p]
    if parts and parts[0] == "rightsstatements.org" and len(parts) >= 3:
        return RIGHTS_NAMES.get(parts[2], parts[2])
    if parts and parts[0] == "creativecommons.org" and len(parts) >= 4:
        kind, name, version = parts[1], parts[2], parts[3]
        if kind == "publicdomain":
            return {"zero": f"CC0 {version}", "mark": f"Public Domain Mark {version}"}.get(
                name, f"Public domain ({name} {version})"
            )
        return f"CC {name.upper()} {version}"
    return rights


# Rights that let a visitor print the picture and take it home (print and play)
PRINTABLE = (
    "creativecommons.org/licenses/",
    "creativecommons.org/publicdomain/",
    "/NoC-NC/",
    "/NoC-US/",
    "/NKC/",
)


def printable(rights: str) -> bool:
    """Whether a visitor may print the picture and keep it (an open licence, no known copyright)."""
    return any(mark in rights for mark in PRINTABLE)
