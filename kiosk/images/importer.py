"""Import a downloaded IIIF Presentation 3 manifest (read by ``iiif-prezi3``) and its images
into a set's ``images:``, offline; every canvas's problem is said, and then nothing is written.
"""

from __future__ import annotations

import html
import json
import os
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml
from iiif_prezi3 import Manifest
from PIL import Image as Pil
from pydantic import AnyUrl, RootModel, ValidationError

from kiosk.catalogue.problems import Problem
from kiosk.catalogue.read import SourceFile, read_text
from kiosk.catalogue.schema import RIGHTS, slug_from_accession
from kiosk.catalogue.validate import validate_source

# The formats a curator's original may be in, by Pillow's name, with the file ending given
FORMATS = {"JPEG": ".jpg", "PNG": ".png", "TIFF": ".tif", "WEBP": ".webp", "GIF": ".gif"}
LANGUAGES = ("en", "en-GB", "en-US", "none")  # a label's language map, read in this order
PRESENTATION_2 = (
    "this is a IIIF Presentation 2 manifest: only Presentation 3 is read. Ask the museum for"
    " its Presentation 3 manifest (most IIIF services publish both), and download that"
)
MARK = "imported from"  # the first words of the comment an import writes above images:
RIGHTS_HINT = (
    "the kiosk needs a rightsstatements.org or creativecommons.org address, e.g."
    " http://rightsstatements.org/vocab/InC/1.0/ or"
    " https://creativecommons.org/licenses/by/4.0/: ask the museum which applies"
)
REVIEW = "review each alt text: it is the museum's label, not yet a description for a visitor"


class Refused(Exception):
    """The import cannot go ahead; ``reasons`` says each thing to fix (nothing was written)."""

    def __init__(self, reasons: Iterable[str]) -> None:
        self.reasons = tuple(reasons)
        super().__init__("; ".join(self.reasons))


@dataclass(frozen=True)
class Picture:
    """One canvas's picture, ready to be copied and named in the set."""

    canvas: int  # 1-based, as a curator counts them in a viewer
    url: str  # the image's address in the manifest
    found: Path  # the downloaded file
    src: str  # where it goes, e.g. images/<slug>/01-the-box.jpg
    alt: str
    caption: str | None
    credit: str
    rights: str


@dataclass(frozen=True)
class Imported:
    """What an import wrote: the set file and the pictures now named in it."""

    set_file: Path
    pictures: tuple[Picture, ...]
    replaced: bool  # the set's ``images:`` was replaced (``--replace``)


def _plain(value: Any) -> Any:
    """A prezi3 value without its wrappers (RootModel, AnyUrl)."""
    while isinstance(value, RootModel):
        value = value.root
    return str(value) if isinstance(value, AnyUrl) else value


def _items(value: Any) -> list[Any]:
    """A prezi3 list (or one value, or none) as a plain list of unwrapped values."""
    value = _plain(value)
    if value is None:
        return []
    values = value if isinstance(value, list) else [value]
    return [_plain(v) for v in values]


_TAG = re.compile(r"<[^>]*>")


def _text(language_map: Any) -> str | None:
    """A IIIF language map's words, English first, HTML taken out: ``{"en": ["A box"]}``."""
    found = _plain(language_map)
    if isinstance(found, str):
        values = [found]
    elif isinstance(found, dict) and found:
        key = next((k for k in LANGUAGES if k in found), next(iter(found)))
        values = [str(v) for v in found[key]]
    else:
        return None
    words = "; ".join(
        " ".join(html.unescape(_TAG.sub(" ", v)).split()) for v in values if v and v.strip()
    )
    return words or None


def read_manifest(path: Path) -> tuple[Manifest, dict[str, Any]]:
    """The manifest as iiif-prezi3 reads it, with its JSON (for what prezi3 leaves out)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise Refused([f"{path}: cannot be read: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError:
        raise Refused([f"{path}: not a manifest (not UTF-8 text)"]) from None
    except json.JSONDecodeError as exc:
        raise Refused([f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}"]) from None
    if not isinstance(data, dict):
        raise Refused([f"{path}: not a IIIF manifest (a JSON object is expected)"])
    context = json.dumps(data.get("@context", ""))
    if "presentation/2" in context or data.get("@type") == "sc:Manifest":
        raise Refused([f"{path}: {PRESENTATION_2}"])
    if data.get("type") != "Manifest":
        raise Refused([f"{path}: not a IIIF Presentation 3 manifest (its type is not Manifest)"])
    try:
        manifest = Manifest(**data)
    except ValidationError as exc:
        raise Refused(_manifest_errors(path, data, exc)) from None
    return manifest, data


def _manifest_errors(path: Path, data: dict[str, Any], exc: ValidationError) -> list[str]:
    """prezi3's errors, each said of the canvas it is in ("canvas 2 (The box): rights: ...")."""
    said = []
    for error in exc.errors():
        loc = list(error["loc"])
        where = str(path)
        if len(loc) >= 2 and loc[0] == "items" and isinstance(loc[1], int):
            where += f": {_canvas_name(data, loc[1])}"
            loc = loc[2:]
        field = ".".join(str(part) for part in loc) or "the manifest"
        value = error.get("input")
        shown = f" {value!r}" if isinstance(value, str | int | float) else ""
        if loc and loc[-1] == "rights":
            said.append(f"{where}: rights{shown} is not a web address: {RIGHTS_HINT}")
        else:
            said.append(f"{where}: {field}{shown}: {error['msg']} (not valid IIIF Presentation 3)")
    return list(dict.fromkeys(said))


def _canvas_name(data: dict[str, Any], index: int) -> str:
    """``canvas 2 (The box, front)``: its number, and its label where the JSON gives one."""
    canvases = data.get("items")
    label = None
    if isinstance(canvases, list) and index < len(canvases) and isinstance(canvases[index], dict):
        label = _text(canvases[index].get("label"))
    return f"canvas {index + 1}" + (f" ({label})" if label else "")


def _image_url(canvas: Any) -> str | None:
    """The address of a canvas's painted image (the first; a Choice's first image)."""
    for page in _items(getattr(canvas, "items", None)):
        for annotation in _items(getattr(page, "items", None)):
            motivation = _items(getattr(annotation, "motivation", None))
            if motivation and "painting" not in motivation:
                continue
            for body in _items(getattr(annotation, "body", None)):
                if getattr(body, "type", None) == "Choice":
                    bodies = _items(getattr(body, "items", None))
                else:
                    bodies = [body]
                for found in bodies:
                    if getattr(found, "type", None) == "Image" and getattr(found, "id", None):
                        return str(_plain(found.id))
    return None


def _credit(canvas: Any, manifest: Manifest, data: dict[str, Any], index: int) -> str | None:
    """Who holds the picture: a required statement, else the provider, else an ``attribution``."""
    for owner in (canvas, manifest):
        statement = getattr(owner, "requiredStatement", None)
        if statement is not None:
            words = _text(getattr(statement, "value", None))
            if words:
                return words
    for owner in (canvas, manifest):
        names = [_text(getattr(p, "label", None)) for p in _items(getattr(owner, "provider", None))]
        if any(names):
            return "; ".join(n for n in names if n)
    canvases = data.get("items") or []
    raw_canvas = canvases[index] if index < len(canvases) else {}
    for owner in (raw_canvas, data):
        if isinstance(owner, dict) and owner.get("attribution"):
            return _text(owner["attribution"])
    return None


def wget_path(url: str, download_dir: Path) -> Path | None:
    """Where ``wget -x`` saved ``url`` (``<host>/<path>``), if it is there inside the folder."""
    parts = urlsplit(url)
    root = download_dir.resolve()
    for host in dict.fromkeys(h for h in (parts.netloc, parts.hostname) if h):
        for rel in dict.fromkeys((unquote(parts.path).lstrip("/"), parts.path.lstrip("/"))):
            if not rel:
                continue
            candidate = (download_dir / host / rel).resolve()
            if candidate.is_relative_to(root) and candidate.is_file():
                return candidate
    return None


def locate(
    url: str, download_dir: Path, by_name: dict[str, list[Path]], claimed: frozenset[Path]
) -> Path | str:
    """The downloaded file of ``url`` (``wget -x``'s, else the one of its name), or why not."""
    found = wget_path(url, download_dir)
    if found is not None:
        return found
    parts = urlsplit(url)
    name = PurePosixPath(unquote(parts.path)).name
    named = [p for p in by_name.get(name, []) if p not in claimed] if name else []
    if len(named) == 1:
        return named[0]
    root = download_dir.resolve()
    if len(named) > 1:
        shown = ", ".join(str(p.relative_to(root)) for p in named[:3])
        return f"several downloaded files are called '{name}' ({shown}): download with wget -x"
    wget = f"{parts.netloc}{unquote(parts.path)}"
    return f"its image {url} is not in {download_dir} (looked for {wget} or a file '{name}')"


def files_by_name(download_dir: Path) -> dict[str, list[Path]]:
    """Every file in the download folder by its name (links out of it are not followed)."""
    root = download_dir.resolve()
    found: dict[str, list[Path]] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(folder, name)
            if path.resolve().is_relative_to(root) and path.is_file():
                found.setdefault(name, []).append(path.resolve())
    return found


def _format_of(path: Path) -> str | None:
    """The file's picture format (JPEG, PNG...), or None when Pillow cannot read it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Pil.DecompressionBombWarning)  # a large scan
            with Pil.open(path) as picture:
                kind = picture.format
                picture.verify()
    except Exception:  # anything Pillow trips over is a file it cannot read: said as such
        return None
    return kind


def file_name(canvas: int, label: str | None, ending: str) -> str:
    """``01-the-box-front.jpg``: the canvas's number (files sort as the manifest) and label."""
    words = slug_from_accession(label or "")[:50].strip("-")
    return f"{canvas:02d}" + (f"-{words}" if words else "") + ending


def plan(
    manifest: Manifest,
    data: dict[str, Any],
    download_dir: Path,
    slug: str,
    credit: str | None = None,
) -> list[Picture]:
    """Every canvas's picture, or Refused with every canvas's problem."""
    canvases = _items(manifest.items)
    if not canvases:
        raise Refused(["the manifest has no canvases: there is nothing to import"])
    by_name = files_by_name(download_dir)
    urls = [url for url in map(_image_url, canvases) if url is not None]
    claimed = frozenset(p for p in (wget_path(u, download_dir) for u in urls) if p is not None)
    pictures: list[Picture] = []
    problems: list[str] = []
    manifest_rights = _plain(getattr(manifest, "rights", None))
    for index, canvas in enumerate(canvases):
        name = _canvas_name(data, index)
        label = _text(getattr(canvas, "label", None))
        url = _image_url(canvas)
        if url is None:
            problems.append(f"{name}: has no image (no painting annotation with an Image)")
            continue
        found = locate(url, download_dir, by_name, claimed)
        kind = _format_of(found) if isinstance(found, Path) else None
        rights = _plain(getattr(canvas, "rights", None)) or manifest_rights
        who = _credit(canvas, manifest, data, index) or credit
        wrong = []
        if isinstance(found, str):
            wrong.append(found)
        elif kind is None:
            wrong.append(f"{found} is not a picture the kiosk can read (JPEG, PNG, TIFF, WebP...)")
        if not rights:
            wrong.append(f"the manifest gives no rights: {RIGHTS_HINT}")
        elif not RIGHTS.match(str(rights)):
            wrong.append(f"rights '{rights}' is not a rights statement: {RIGHTS_HINT}")
        if not who:
            wrong.append(
                "the manifest names no one to credit (no requiredStatement, provider or"
                " attribution): give one with --credit"
            )
        problems += [f"{name}: {why}" for why in wrong]
        if wrong or not isinstance(found, Path) or kind is None:
            continue
        manifest_label = _text(manifest.label) or "The object"
        alt = label or f"{manifest_label}, picture {index + 1}"
        caption = _text(getattr(canvas, "summary", None)) or label
        src = f"images/{slug}/{file_name(index + 1, label, FORMATS.get(kind, '.' + kind.lower()))}"
        pictures.append(Picture(index + 1, url, found, src, alt, caption, str(who), str(rights)))
    if problems:
        raise Refused(problems)
    return pictures


def yaml_text(value: str) -> str:
    """A value as YAML: bare where YAML reads it back as the same text, else double-quoted."""
    if value == value.strip() and "\n" not in value and not value.startswith(("'", '"')):
        try:
            if yaml.safe_load(f"k: {value}") == {"k": value}:
                return value
        except yaml.YAMLError:
            pass
    return json.dumps(value, ensure_ascii=False)


def images_block(pictures: Iterable[Picture], source: str, newline: str = "\n") -> str:
    """The ``images:`` entries for the pictures, as YAML lines of the set's front matter."""
    lines = [f"# {MARK} {source} by `kiosk images import`: {REVIEW}", "images:"]
    for picture in pictures:
        lines.append(f"  - src: {yaml_text(picture.src)}")
        lines.append(f"    alt: {yaml_text(picture.alt)}")
        if picture.caption:
            lines.append(f"    caption: {yaml_text(picture.caption)}")
        lines.append(f"    credit: {yaml_text(picture.credit)}")
        lines.append(f"    rights: {yaml_text(picture.rights)}")
    return newline.join(lines) + newline


def _front_lines(text: str) -> tuple[list[str], int]:
    """The file's lines (ends kept) and the index of the line closing its front matter."""
    lines = text.splitlines(keepends=True)
    for n, line in enumerate(lines[1:], start=1):
        if re.fullmatch(r"-{3,}[ \t]*\r?\n?", line):
            return lines, n
    raise Refused(["the set file's front matter is not closed: run `kiosk check`"])


def with_images(text: str, source: SourceFile, block: str, replace: bool) -> tuple[str, bool]:
    """The set file with ``block`` as its ``images:``, every other byte as it was."""
    lines, closing = _front_lines(text)
    data = source.data or {}
    if "images" not in data:
        return "".join(lines[:closing]) + block + "".join(lines[closing:]), False
    if not replace:
        line = source.key_positions.get(("images",), (0, 0))[0]
        raise Refused(
            [
                f"{source.path}:{line}:1: the set already has images: add --replace to replace"
                " them with the manifest's (the files they name are left in images/)"
            ]
        )
    key_line = source.key_positions[("images",)][0] - 1
    later = [
        pos[0] - 1
        for key, pos in source.key_positions.items()
        if len(key) == 1 and pos[0] - 1 > key_line
    ]
    end = min(later, default=closing)
    start = key_line
    if start > 0 and lines[start - 1].startswith(f"# {MARK}"):
        start -= 1  # the note a former import wrote above it
    while end - 1 > start and (not lines[end - 1].strip() or lines[end - 1].startswith("#")):
        end -= 1  # blank lines and comments just above the next field belong to it
    return "".join(lines[:start]) + block + "".join(lines[end:]), True


BOM = "\ufeff"


def find_set(
    content_dir: Path, slug: str, label: str | None = None
) -> tuple[Path, str, SourceFile]:
    """The set file of this slug: its path, its text exactly as written, and what was read."""
    folder = content_dir / "sets"
    candidates = sorted(folder.glob("*.md")) if folder.is_dir() else []
    for path in candidates:
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        shown = f"{label}/sets/{path.name}" if label is not None else str(path)
        source = read_text(shown, text.removeprefix(BOM))
        data = source.data or {}
        key = data.get("slug") or slug_from_accession(str(data.get("accession") or ""))
        if data.get("kind") == "set" and key == slug:
            return path, text, source
    known = ", ".join(sorted(p.stem for p in candidates)) or "none"
    raise Refused(
        [
            f"no set '{slug}' in {folder} (the sets there: {known}): write the set's file"
            " first (docs/curators.md, Adding a set), then import its pictures"
        ]
    )


def _problems(source: SourceFile) -> list[Problem]:
    record, problems = validate_source(source)
    return [] if record is not None else problems


def import_manifest(
    content_dir: Path,
    manifest_path: Path,
    slug: str,
    download_dir: Path | None = None,
    replace: bool = False,
    credit: str | None = None,
    label: str | None = None,
) -> Imported:
    """Copy every canvas's image into images/<slug>/ and name them in the set, or nothing."""
    set_file, text, source = find_set(content_dir, slug, label)
    before = _problems(source)
    if before:
        raise Refused(
            ["the set file has problems of its own: fix them first (`kiosk check`)"]
            + [str(p) for p in before]
        )
    manifest, data = read_manifest(manifest_path)
    folder = download_dir if download_dir is not None else manifest_path.parent
    if not folder.is_dir():
        raise Refused([f"{folder}: no such download folder"])
    pictures = plan(manifest, data, folder, slug, credit)
    newline = "\r\n" if "\r\n" in text else "\n"
    block = images_block(pictures, str(_plain(manifest.id)), newline)
    bom = BOM if text.startswith(BOM) else ""
    new_text, replaced = with_images(text.removeprefix(BOM), source, block, replace)
    after = _problems(read_text(source.path, new_text))
    if after:
        raise Refused(["the set would not be valid with these pictures:"] + [str(p) for p in after])
    clashes = [
        f"{p.src} is already there and is another file: add --replace to overwrite it"
        for p in pictures
        if (content_dir / p.src).exists()
        and not replace
        and (content_dir / p.src).read_bytes() != p.found.read_bytes()
    ]
    if clashes:
        raise Refused(clashes)
    for picture in pictures:
        (content_dir / picture.src).parent.mkdir(parents=True, exist_ok=True)
        _write(content_dir / picture.src, picture.found.read_bytes())
    _write(set_file, (bom + new_text).encode("utf-8"))
    return Imported(set_file, tuple(pictures), replaced)


def _write(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (a crash leaves the curator's file as it was)."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_bytes(data)
    partial.replace(path)


def image_urls(manifest: Manifest) -> Iterator[str]:
    """Every canvas's image address, for the curator to download on a connected machine."""
    for canvas in _items(manifest.items):
        url = _image_url(canvas)
        if url is not None:
            yield url
