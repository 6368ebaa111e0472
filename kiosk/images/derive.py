"""Make the ``srcset`` sizes (webp, jpg) and IIIF level-0 tiles of an original under
``derived/``, once (``kiosk images``), never while a visitor waits.
"""

from __future__ import annotations

import json
import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image as Pil
from PIL import ImageOps, UnidentifiedImageError

from kiosk.catalogue.pictures import (
    DERIVED,
    MADE,
    Made,
    derived_dir,
    info_json,
    picture_id,
    sha256_of,
    shared_folders,
    size_paths,
    state,
    tiles,
    widths_for,
)

QUALITY = {"webp": 78, "jpg": 82}


def _rgb(picture: Pil.Image) -> Pil.Image:
    """The picture upright (its EXIF orientation) in 8-bit RGB, transparency on white, and
    none of its metadata: no copy may say where, by whom or with what a photograph was taken."""
    picture = ImageOps.exif_transpose(picture)
    if picture.mode.startswith("I;16") or picture.mode == "I":
        # a 16-bit scan: scaled to 8 bits (a plain conversion clips it to white)
        wide = picture.mode.startswith("I;16") or picture.getextrema()[1] > 255
        top = 65535 if wide else 255
        picture = picture.convert("I").point(lambda v: v * 255 / top).convert("L")
    if picture.mode in ("RGBA", "LA", "P", "PA"):
        picture = picture.convert("RGBA")
        flat = Pil.new("RGB", picture.size, (255, 255, 255))
        flat.paste(picture, mask=picture.getchannel("A"))
        picture = flat
    picture = picture.convert("RGB")
    picture.info = {}  # Pillow writes a JPEG's comment (and XMP) from here into every copy
    return picture


def _save(picture: Pil.Image, path: Path, fmt: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "webp":
        picture.save(path, "WEBP", quality=QUALITY["webp"], method=4)
    else:
        picture.save(path, "JPEG", quality=QUALITY["jpg"], optimize=True, progressive=True)


def make(content_dir: Path, src: str, covered: bool = False) -> Made:
    """Make (again) every derived file for one original; returns what was made."""
    original = content_dir / src
    with warnings.catch_warnings():
        # a big scan need not warn: Pillow still refuses a decompression bomb (twice its limit)
        warnings.simplefilter("ignore", Pil.DecompressionBombWarning)
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


def why_not_made(exc: Exception) -> str:
    """What a curator reads when an original cannot be made into copies."""
    if isinstance(exc, FileNotFoundError):
        return "image file not found"
    if isinstance(exc, UnidentifiedImageError):
        return (
            "not a picture the kiosk can read (Pillow cannot tell its format): save it as"
            " JPEG, PNG, WebP or TIFF"
        )
    if isinstance(exc, Pil.DecompressionBombError):
        return f"too large to open ({exc}): save a smaller copy, e.g. 8000 pixels on its long side"
    if isinstance(exc, OSError) and "truncated" in str(exc):
        return "the file is incomplete (truncated): copy it again from the original"
    detail = str(exc) or type(exc).__name__
    return f"could not be made ({type(exc).__name__}): {detail}"


@dataclass(frozen=True)
class Report:
    """What one run of ``kiosk images`` did and found."""

    made: tuple[str, ...]  # originals whose files were made now
    current: tuple[str, ...]  # already made and unchanged
    stale: tuple[str, ...]  # changed since they were made (when only checking)
    missing: tuple[str, ...]  # never made (when only checking)
    orphans: tuple[str, ...]  # folders under derived/ that no original has any more
    # originals that cannot be made, each with what is wrong (missing, not a picture...)
    failed: tuple[tuple[str, str], ...] = ()


def run(
    content_dir: Path,
    srcs: list[str],
    covered: frozenset[str] = frozenset(),
    check_only: bool = False,
    named: list[str] | None = None,
) -> Report:
    """Bring the copies of ``srcs`` up to date (or say which are not), each failure on its own."""
    made, current, stale, missing = [], [], [], []
    failed: list[tuple[str, str]] = []
    shared = {src: names for names in shared_folders(srcs).values() for src in names}
    for src in sorted(set(srcs)):
        if src in shared:
            others = ", ".join(name for name in shared[src] if name != src)
            failed.append(
                (src, f"its copies would share a folder under derived/ with {others}: rename one")
            )
            continue
        if not (content_dir / src).is_file():
            failed.append((src, "image file not found"))
            continue
        now = state(content_dir, src, src in covered)
        if now == "made":
            current.append(src)
        elif check_only:
            (stale if now == "stale" else missing).append(src)
        else:
            try:
                make(content_dir, src, src in covered)
            except Exception as exc:  # one bad original is its own problem, never the run's
                failed.append((src, why_not_made(exc)))
            else:
                made.append(src)
    wanted = {picture_id(src) for src in (srcs if named is None else named)}
    root = content_dir / DERIVED
    orphans = (
        sorted(p.name for p in root.iterdir() if p.is_dir() and p.name not in wanted)
        if root.is_dir()
        else []
    )
    return Report(
        tuple(made), tuple(current), tuple(stale), tuple(missing), tuple(orphans), tuple(failed)
    )


def prune(content_dir: Path, orphans: tuple[str, ...]) -> list[str]:
    """Delete the orphan folders under derived/ (only folder names found there by ``run``)."""
    root = content_dir / DERIVED
    gone = []
    for name in orphans:
        folder = root / name
        if "/" in name or name in ("", ".", "..") or not folder.is_dir() or folder.is_symlink():
            continue
        shutil.rmtree(folder)
        gone.append(name)
    return gone
