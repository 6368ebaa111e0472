"""What ``kiosk images`` makes from an original (kiosk.images.derive): the srcset copies, the
IIIF level-0 tiles and made.json; when an original is current, stale or missing; and that one
original it cannot read is said, never raised, while the others are still made."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from kiosk.catalogue import pictures
from kiosk.catalogue.pictures import derived_dir, read_made, tiles
from kiosk.images import derive


def picture(content: Path, src: str, size=(700, 500), mode="RGB", colour=(90, 60, 30)) -> Path:
    """A generated original under the content folder (never a photograph of a real object)."""
    path = content / src
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new(mode, size, colour if mode != "I;16" else 40000).save(path)
    return path


@pytest.fixture
def content(tmp_path: Path) -> Path:
    folder = tmp_path / "content"
    folder.mkdir()
    return folder


def test_make_writes_every_size_in_both_formats_tiles_and_made_json(content):
    picture(content, "images/a/box.jpg", (1300, 900))
    made = derive.make(content, "images/a/box.jpg")
    folder = derived_dir(content, "images/a/box.jpg")
    assert folder.name == "a--box-jpg"
    assert made.widths == (320, 640, 1024, 1300)  # never wider than the original
    for width in made.widths:
        for fmt in ("webp", "jpg"):
            with Image.open(folder / f"w{width}.{fmt}") as copy:
                assert copy.size == (width, made.height_at(width))
                assert copy.format == {"webp": "WEBP", "jpg": "JPEG"}[fmt]
    for _, size, path in tiles(1300, 900):
        with Image.open(folder / "iiif" / path) as tile:
            assert tile.size == size, path
    info = json.loads((folder / "iiif" / "info.json").read_text())
    assert (info["width"], info["height"], info["profile"]) == (1300, 900, "level0")
    assert read_made(content, "images/a/box.jpg") == made
    assert not folder.with_name(folder.name + ".partial").exists()


def test_a_small_original_is_never_enlarged(content):
    picture(content, "images/tiny.png", (200, 100))
    assert derive.make(content, "images/tiny.png").widths == (200,)


@pytest.mark.parametrize(
    ("mode", "colour", "expected"),
    [
        ("RGB", (90, 60, 30), (90, 60, 30)),
        ("RGBA", (0, 0, 0, 0), (255, 255, 255)),  # transparent: on white
        ("LA", (0, 0), (255, 255, 255)),
        ("P", 3, None),
        ("L", 100, (100, 100, 100)),
        ("CMYK", (0, 0, 0, 0), (255, 255, 255)),
        ("I;16", None, (155, 155, 155)),  # a 16-bit scan scaled, not clipped to white
    ],
)
def test_every_kind_of_original_becomes_rgb(content, mode, colour, expected):
    path = content / "images" / "x.tif"
    path.parent.mkdir(parents=True)
    Image.new(mode, (40, 30), colour if colour is not None else 40000).save(path)
    derive.make(content, "images/x.tif")
    with Image.open(derived_dir(content, "images/x.tif") / "w40.jpg") as copy:
        assert copy.mode == "RGB"
        if expected is not None:
            assert all(
                abs(a - b) <= 3 for a, b in zip(copy.getpixel((20, 15)), expected, strict=True)
            )


def test_a_photograph_is_made_upright_by_its_exif_orientation(content):
    path = content / "images" / "turned.jpg"
    path.parent.mkdir(parents=True)
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 clockwise to view"
    Image.new("RGB", (600, 400), (10, 20, 30)).save(path, exif=exif)
    made = derive.make(content, "images/turned.jpg")
    assert (made.width, made.height) == (400, 600)


def test_no_copy_carries_the_photographs_personal_data(content):
    """A phone's photograph: where it was taken, by whom, with what, and a comment (issue 46)."""
    path = content / "images" / "phone.jpg"
    path.parent.mkdir(parents=True)
    exif = Image.Exif()
    exif[0x013B] = "A. Curator"  # Artist
    exif[0x010F], exif[0x0110] = "PhoneMaker", "Phone 12"  # Make, Model
    exif.get_ifd(0x8825)[2] = (51.0, 30.0, 0.0)  # GPSLatitude
    xmp = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>'
    Image.new("RGB", (700, 500), (90, 60, 30)).save(
        path, exif=exif, comment=b"Taken at 12 Acacia Road", xmp=xmp
    )
    with Image.open(path) as original:
        assert original.info.get("comment") and original.getexif()  # the original has it all
    derive.make(content, "images/phone.jpg")
    copies = [p for p in derived_dir(content, "images/phone.jpg").rglob("*") if p.is_file()]
    made = [p for p in copies if p.suffix in (".jpg", ".webp")]
    assert made and len(made) > 4
    for copy in made:
        with Image.open(copy) as opened:
            kept = {
                k for k in ("exif", "comment", "xmp", "XML:com.adobe.xmp") if opened.info.get(k)
            }
            assert not kept and not opened.getexif(), (copy.name, kept)
        assert b"Acacia" not in copy.read_bytes() and b"A. Curator" not in copy.read_bytes()


def test_state_missing_made_stale(content):
    src = "images/box.jpg"
    picture(content, src)
    assert derive.state(content, src) == "missing"
    derive.make(content, src)
    assert derive.state(content, src) == "made"
    assert derive.state(content, src, covered=True) == "stale"  # flagged since
    picture(content, src, colour=(200, 10, 10))
    assert derive.state(content, src) == "stale"  # the original changed
    derive.make(content, src)
    (content / src).unlink()
    assert derive.state(content, src) == "stale"


def test_another_originals_copies_are_never_taken_for_its_own(content):
    """``a-b.jpg`` and ``a.b.jpg`` share a folder name: the one made is not the other's."""
    picture(content, "images/a.b.jpg")
    picture(content, "images/a-b.jpg")
    derive.make(content, "images/a.b.jpg")
    assert derive.state(content, "images/a-b.jpg") == "stale"


def test_state_and_digest_live_in_pictures_without_pillow():
    """kiosk check uses them: the catalogue imports no Pillow, derive re-exports them."""
    assert derive.state is pictures.state and derive.sha256_of is pictures.sha256_of
    code = (
        "import sys, kiosk.catalogue.crosscheck, kiosk.catalogue.pictures;"
        " sys.exit('PIL' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_run_makes_what_is_not_current_and_finds_orphans(content):
    for name in ("a", "b", "c"):
        picture(content, f"images/{name}.jpg")
    derive.make(content, "images/a.jpg")
    (content / "derived" / "gone-jpg").mkdir()
    report = derive.run(content, ["images/a.jpg", "images/b.jpg", "images/c.jpg"])
    assert report.made == ("images/b.jpg", "images/c.jpg")
    assert report.current == ("images/a.jpg",)
    assert report.orphans == ("gone-jpg",)
    again = derive.run(content, ["images/a.jpg", "images/b.jpg", "images/c.jpg"])
    assert again.made == () and len(again.current) == 3


def test_run_check_only_makes_nothing(content):
    picture(content, "images/a.jpg")
    picture(content, "images/b.jpg")
    derive.make(content, "images/a.jpg", covered=False)
    report = derive.run(
        content, ["images/a.jpg", "images/b.jpg"], frozenset({"images/a.jpg"}), True
    )
    assert (report.stale, report.missing, report.made) == (("images/a.jpg",), ("images/b.jpg",), ())
    assert not derived_dir(content, "images/b.jpg").exists()


def write_bad(content: Path, kind: str) -> None:
    path = content / "images" / f"{kind}.jpg"
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "junk":
        path.write_bytes(b"this is not a picture at all")
    elif kind == "truncated":
        picture(content, "images/whole.jpg", (800, 600))
        whole = (content / "images" / "whole.jpg").read_bytes()
        (content / "images" / "whole.jpg").unlink()
        path.write_bytes(whole[: len(whole) // 2])


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("missing", "image file not found"),
        ("junk", "not a picture the kiosk can read (Pillow cannot tell its format)"),
        ("truncated", "the file is incomplete (truncated): copy it again from the original"),
    ],
)
def test_one_bad_original_is_said_and_the_others_are_still_made(content, kind, said):
    write_bad(content, kind)
    picture(content, "images/good.jpg")
    report = derive.run(content, [f"images/{kind}.jpg", "images/good.jpg"])
    assert report.made == ("images/good.jpg",)
    assert len(report.failed) == 1
    src, why = report.failed[0]
    assert src == f"images/{kind}.jpg"
    assert why.startswith(said), why


def test_a_decompression_bomb_is_said_not_raised(content, monkeypatch):
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 100)
    picture(content, "images/huge.png", (40, 40))
    report = derive.run(content, ["images/huge.png"])
    assert report.failed[0][1].startswith("too large to open"), report.failed


def test_two_names_for_one_folder_make_neither(content):
    picture(content, "images/a.b.jpg")
    picture(content, "images/a-b.jpg")
    picture(content, "images/c.jpg")
    report = derive.run(content, ["images/a.b.jpg", "images/a-b.jpg", "images/c.jpg"])
    assert report.made == ("images/c.jpg",)
    assert dict(report.failed) == {
        "images/a-b.jpg": "its copies would share a folder under derived/ with images/a.b.jpg:"
        " rename one",
        "images/a.b.jpg": "its copies would share a folder under derived/ with images/a-b.jpg:"
        " rename one",
    }


def test_prune_deletes_only_orphan_folders(content):
    picture(content, "images/kept.jpg")
    derive.make(content, "images/kept.jpg")
    (content / "derived" / "old-jpg" / "iiif").mkdir(parents=True)
    (content / "derived" / "stray.txt").write_text("not a folder")
    report = derive.run(content, ["images/kept.jpg"])
    assert derive.prune(content, report.orphans) == ["old-jpg"]
    assert sorted(p.name for p in (content / "derived").iterdir()) == ["kept-jpg", "stray.txt"]
    assert derive.prune(content, ("..", "kept-jpg/../..")) == []


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (FileNotFoundError(2, "No such file"), "image file not found"),
        (OSError("image file is truncated (3 bytes not processed)"), "the file is incomplete"),
        (ValueError("bad"), "could not be made (ValueError): bad"),
        (RuntimeError(), "could not be made (RuntimeError): RuntimeError"),
    ],
)
def test_why_not_made_says_it_for_a_curator(error, said):
    assert derive.why_not_made(error).startswith(said)
