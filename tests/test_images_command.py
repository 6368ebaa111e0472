"""``kiosk images [CONTENT_DIR]``: makes the copies of every picture the sets name (published
and draft), says per file what it made, what was current, what is wrong and what is an orphan;
``--check`` only says (exit 1 if anything is stale or missing), ``--prune`` deletes orphans.
A picture it cannot make, or a set it cannot read, is a line of its own, never a traceback."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from fixture_content import GOOD
from PIL import Image

from kiosk.catalogue.pictures import derived_dir, read_made
from kiosk.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "checks"
NOT_MADE = shutil.ignore_patterns(
    "derived"
)  # the good tree as a curator has it, before `kiosk images`
PICTURES = ["images/box.png", "images/fishermen.png", "images/golly.png", "images/pack.png"]
COVERED = {"images/golly.png", "images/pack.png"}  # a flagged card's front; the pack shot


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """The good fixture tree and the photographed fixture set (four pictures, two covered)."""
    folder = tmp_path / "content"
    shutil.copytree(GOOD, folder, ignore=NOT_MADE)
    shutil.copytree(FIXTURES / "pictures-good", folder, dirs_exist_ok=True)
    return folder


def images(*args: str):
    result = CliRunner().invoke(main, ["images", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def lines(result) -> list[str]:
    return result.output.splitlines()


def test_the_first_run_makes_every_picture_and_says_so(content):
    result = images(str(content))
    assert result.exit_code == 0, result.output
    said = lines(result)
    assert said[-1] == "4 pictures, 4 made, 0 current"
    made = [line for line in said if ": made (" in line]
    assert [line.split(":")[0] for line in made] == [f"{content}/{src}" for src in PICTURES]
    assert f"{content}/images/pack.png: made (1 px wide, webp and jpg; IIIF tiles; covered:" in (
        result.output
    )
    for src in PICTURES:
        made_json = read_made(content, src)
        assert made_json is not None and made_json.covered == (src in COVERED), src


def test_a_second_run_finds_everything_current(content):
    images(str(content))
    result = images(str(content))
    assert result.exit_code == 0
    assert lines(result) == [f"{content}/{src}: current" for src in PICTURES] + [
        "4 pictures, 0 made, 4 current"
    ]


def test_check_says_stale_and_missing_and_fails_for_ci(content):
    images(str(content))
    Image.new("RGB", (5, 5), (1, 2, 3)).save(content / "images" / "box.png")  # changed
    shutil.rmtree(derived_dir(content, "images/golly.png"))  # never made
    result = images("--check", str(content))
    assert result.exit_code == 1
    assert f"{content}/images/box.png: stale: the file, or its flag, changed since" in (
        result.output
    )
    assert f"{content}/images/golly.png: missing: not made yet" in result.output
    assert lines(result)[-1] == "4 pictures, 2 current, 1 stale, 1 missing"
    assert not derived_dir(content, "images/golly.png").exists()  # --check makes nothing


def test_check_passes_when_all_is_made(content):
    images(str(content))
    result = images(str(content), "--check")
    assert result.exit_code == 0, result.output
    assert lines(result)[-1] == "4 pictures, 4 current"


def test_a_flag_taken_off_is_stale_until_made_again(content):
    images(str(content))
    path = content / "sets" / "test-photos.md"
    pack_flag = (
        "    content_note:\n      shows: the pack laid out, a golliwog card among them\n"
        "      note: golliwog\n"
    )
    assert pack_flag in path.read_text()
    path.write_text(path.read_text().replace(pack_flag, ""))
    result = images("--check", str(content))
    assert result.exit_code == 1
    assert f"{content}/images/pack.png: stale" in result.output
    images(str(content))
    assert read_made(content, "images/pack.png").covered is False


@pytest.mark.parametrize(
    ("broken", "said"),
    [
        ("missing", "image file not found"),
        ("junk", "not a picture the kiosk can read (Pillow cannot tell its format)"),
    ],
)
def test_a_picture_that_cannot_be_made_is_one_line_and_the_others_are_made(content, broken, said):
    if broken == "missing":
        (content / "images" / "golly.png").unlink()
    else:
        (content / "images" / "golly.png").write_bytes(b"not a picture")
    result = images(str(content))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert f"{content}/images/golly.png: {said}" in result.output
    assert f"(named in {content}/sets/test-photos.md, cards[1].image)" in result.output
    assert lines(result)[-1] == "4 pictures, 3 made, 0 current, 1 cannot be made"
    assert all(read_made(content, src) for src in PICTURES if src != "images/golly.png")


@pytest.mark.parametrize(
    ("src", "said"),
    [
        ("../../outside.png", "must be a path inside the content folder"),
        ("notes/golliwog.md", "must be under images/"),
        ("images/out.png", "leads outside the content folder"),
        ("images/link.png", "is a link to another file"),
    ],
)
def test_a_picture_path_the_kiosk_may_not_read_is_refused(content, tmp_path, src, said):
    Image.new("RGB", (4, 4)).save(tmp_path / "outside.png")
    os.symlink(tmp_path / "outside.png", content / "images" / "out.png")
    os.symlink(content / "images" / "box.png", content / "images" / "link.png")
    path = content / "sets" / "test-photos.md"
    path.write_text(path.read_text().replace("src: images/pack.png", f"src: {src}"))
    result = images(str(content))
    assert result.exit_code == 1
    assert f"{content}/{src}: image '{src}' {said}" in result.output
    assert f"(named in {content}/sets/test-photos.md, images[1])" in result.output
    assert not (content / "derived" / "out-png").exists()
    assert not (content / "derived" / "link-png").exists()


def test_a_set_that_cannot_be_read_is_named_and_its_pictures_not_made(content):
    path = content / "sets" / "test-photos.md"
    path.write_text(path.read_text().replace("title: Test photographs\n", "titel: x\n"))
    result = images(str(content))
    assert result.exit_code == 1
    assert (
        f"{content}/sets/test-photos.md:2:1: missing required field 'title' (this set file"
        " cannot be read, so its pictures are not made; `kiosk check` says 1 more problem)"
    ) in result.output
    assert "images/pack.png" not in result.output
    assert lines(result)[-1] == "2 pictures, 2 made, 0 current, 1 set file not read"


def test_drafts_and_sets_another_file_holds_back_are_made_too(content):
    path = content / "sets" / "test-photos.md"
    text = path.read_text().replace("kind: set\n", "kind: set\ndraft: true\n")
    path.write_text(text.replace("note: golliwog\n", "note: no-such-note\n", 1))
    result = images(str(content))
    assert result.exit_code == 0, result.output
    assert lines(result)[-1] == "4 pictures, 4 made, 0 current"
    assert read_made(content, "images/golly.png").covered  # its flag is still its flag


def test_orphans_are_said_and_pruned_on_request(content):
    images(str(content))
    (content / "derived" / "old-photo-jpg").mkdir()
    said = images(str(content))
    assert f"{content}/derived/old-photo-jpg: orphan: no picture names it now (--prune" in (
        said.output
    )
    assert lines(said)[-1] == "4 pictures, 0 made, 4 current, 1 orphan"
    pruned = images("--prune", str(content))
    assert f"{content}/derived/old-photo-jpg: orphan: deleted" in pruned.output
    assert not (content / "derived" / "old-photo-jpg").exists()
    assert all(derived_dir(content, src).is_dir() for src in PICTURES)


def test_nothing_is_pruned_while_a_set_file_cannot_be_read(content):
    """Its pictures' copies look like orphans, and a flagged one's made.json keeps it covered
    while its set is broken: they are kept until the set file is read again."""
    images(str(content))
    path = content / "sets" / "test-photos.md"
    path.write_text(path.read_text().replace("title: Test photographs\n", ""))
    result = images("--prune", str(content))
    assert result.exit_code == 1
    assert (
        f"{content}/derived/pack-png: orphan: no set file that can be read names it (kept"
        in result.output
    )
    assert read_made(content, "images/pack.png").covered


def test_a_picture_that_cannot_be_made_now_keeps_its_copies(content):
    images(str(content))
    (content / "images" / "pack.png").write_bytes(b"broken")
    result = images("--prune", str(content))
    assert "orphan" not in result.output
    assert read_made(content, "images/pack.png").covered


def test_check_never_deletes(content):
    images(str(content))
    (content / "derived" / "old-photo-jpg").mkdir()
    result = images("--check", "--prune", str(content))
    assert result.exit_code == 2
    assert "--check only says what is not made, and deletes nothing" in result.output
    assert (content / "derived" / "old-photo-jpg").is_dir()


def test_the_default_content_folder_is_the_kiosks(content, monkeypatch, tmp_path):
    monkeypatch.setenv("KIOSK_CONTENT_DIR", str(content))
    monkeypatch.chdir(tmp_path)
    result = images()
    assert result.exit_code == 0, result.output
    assert lines(result)[0] == "content/images/box.png: made (1 px wide, webp and jpg; IIIF tiles)"


def test_no_such_folder_and_arguments_in_the_wrong_order(tmp_path):
    assert "no such content folder" in images(str(tmp_path / "nope")).output
    result = images(str(tmp_path), "import", "m.json")
    assert result.exit_code == 2
    assert "give the content folder after the subcommand's arguments" in result.output


def test_a_folder_without_pictures_says_so(tmp_path):
    shutil.copytree(GOOD, tmp_path / "content", ignore=NOT_MADE)
    for path in (tmp_path / "content" / "sets").glob("*.md"):
        path.unlink()
    result = images(str(tmp_path / "content"))
    assert lines(result) == ["no set names a picture", "0 pictures, 0 made, 0 current"]
