"""Make what the kiosk serves from a curator's original photograph: ``srcset`` sizes in webp
and jpg, and IIIF Image API 3 level-0 static tiles, kept under ``derived/`` with the content.

Made once (``kiosk images``), never while a visitor waits: the web layer only reads them.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PIL import Image as Pil
from PIL import ImageOps

from kiosk.catalogue.pictures import (
    MADE,
    Made,
    derived_dir,
    info_json,
    read_made,
    size_paths,
    tiles,
    widths_for,
)

QUALITY = {"webp": 78, "jpg": 82}
State = Literal["made", "stale", "missing"]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def state(content_dir: Path, src: str, covered: bool = False) -> State:
    """``made`` if the derived files match the original (and its cover), ``stale`` if the
    original changed since or was flagged or unflagged, ``missing`` if nothing was made."""
    made = read_made(content_dir, src)
    if made is None:
        return "missing"
    original = content_dir / src
    if not original.is_file() or made.sha256 != sha256_of(original) or made.covered != covered:
        return "stale"
    return "made"


def _rgb(picture: Pil.Image) -> Pil.Image:
    picture = ImageOps.exif_transpose(picture)
    if picture.mode in ("RGBA", "LA", "P"):
        picture = picture.convert("RGBA")
        flat = Pil.new("RGB", picture.size, (255, 255, 255))
        flat.paste(picture, mask=picture.getchannel("A"))
        return flat
    return picture.convert("RGB")


def _save(picture: Pil.Image, path: Path, fmt: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "webp":
        picture.save(path, "WEBP", quality=QUALITY["webp"], method=4)
    else:
        picture.save(path, "JPEG", quality=QUALITY["jpg"], optimize=True, progressive=True)


def make(content_dir: Path, src: str, covered: bool = False) -> Made:
    """Make (again) every derived file for one original; returns what was made."""
    original = content_dir / src
    with Pil.open(original) as opened:
        picture = _rgb(opened)
    width, height = picture.size
    made = Made(src, sha256_of(original), width, height, widths_for(width), covered)
    folder = derived_dir(content_dir, src)
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    for w in made.widths:
        copy = picture if w == width else picture.resize((w, made.height_at(w)), Pil.LANCZOS)
        for fmt in QUALITY:
            _save(copy, partial / made.file(w, fmt), fmt)
    iiif = partial / "iiif"
    for (w, h), path in size_paths(made):
        _save(
            picture.resize((w, h), Pil.LANCZOS) if (w, h) != picture.size else picture,
            iiif / path,
            "jpg",
        )
    for (x, y, w, h), size, path in tiles(width, height):
        region = picture.crop((x, y, x + w, y + h))
        _save(
            region if region.size == size else region.resize(size, Pil.LANCZOS), iiif / path, "jpg"
        )
    (iiif / "info.json").write_text(json.dumps(info_json(made), indent=2), encoding="utf-8")
    (partial / MADE).write_text(made.to_json(), encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    partial.rename(folder)
    return made


@dataclass(frozen=True)
class Report:
    """What one run of ``kiosk images`` did and found."""

    made: tuple[str, ...]  # originals whose files were made now
    current: tuple[str, ...]  # already made and unchanged
    stale: tuple[str, ...]  # changed since they were made (when only checking)
    missing: tuple[str, ...]  # never made (when only checking)
    orphans: tuple[str, ...]  # folders under derived/ that no original has any more


def run(
    content_dir: Path,
    srcs: list[str],
    covered: frozenset[str] = frozenset(),
    check_only: bool = False,
) -> Report:
    """Bring the derived files of ``srcs`` up to date (or only say which are not); ``covered``
    are the flagged ones (kiosk.catalogue.pictures.flagged_files)."""
    made, current, stale, missing = [], [], [], []
    for src in sorted(set(srcs)):
        now = state(content_dir, src, src in covered)
        if now == "made":
            current.append(src)
        elif check_only:
            (stale if now == "stale" else missing).append(src)
        else:
            make(content_dir, src, src in covered)
            made.append(src)
    wanted = {derived_dir(content_dir, src).name for src in srcs}
    root = derived_dir(content_dir, "images/x").parent
    orphans = (
        sorted(p.name for p in root.iterdir() if p.is_dir() and p.name not in wanted)
        if root.is_dir()
        else []
    )
    return Report(tuple(made), tuple(current), tuple(stale), tuple(missing), tuple(orphans))
