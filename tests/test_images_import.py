"""``kiosk images import MANIFEST --set SLUG``: a museum's IIIF Presentation 3 manifest and its
images, downloaded beforehand, become the set's pictures, offline. Every manifest and image
here is written by the test (the pictures generated with Pillow): never a real object's."""

from __future__ import annotations

import json
import shutil
import socket
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fixture_content import GOOD
from PIL import Image

from kiosk.catalogue.pictures import read_made
from kiosk.catalogue.store import Catalogue
from kiosk.cli import main
from kiosk.images import importer

HOST = "iiif.museum.example"
CC_BY = "https://creativecommons.org/licenses/by/4.0/"
IN_COPYRIGHT = "http://rightsstatements.org/vocab/InC/1.0/"
SET = """---
kind: set
slug: plain-pack
title: A plain pack made up for the tests
summary: A pack made up for the tests, to import pictures into.
back:
  description: Plain.
cards:
  - name: Road Up!
order: 5
---
The pack's text.
"""


def image_url(n: int) -> str:
    return f"https://{HOST}/iiif/obj{n}/full/max/0/default.jpg"


def canvas(n: int, label: str | None, **extra) -> dict:
    """A canvas painted with one image (``body`` replaces the image, e.g. with a Choice)."""
    body = extra.pop("body", {"id": image_url(n), "type": "Image", "format": "image/jpeg"})
    found = {
        "id": f"https://{HOST}/obj/canvas/{n}",
        "type": "Canvas",
        "height": 300,
        "width": 400,
        "items": [
            {
                "id": f"https://{HOST}/obj/page/{n}",
                "type": "AnnotationPage",
                "items": [
                    {
                        "id": f"https://{HOST}/obj/annotation/{n}",
                        "type": "Annotation",
                        "motivation": "painting",
                        "target": f"https://{HOST}/obj/canvas/{n}",
                        "body": body,
                    }
                ],
            }
        ],
        **extra,
    }
    if label is not None:
        found["label"] = {"en": [label]}
    return found


def manifest(*canvases: dict, **extra) -> dict:
    top = {
        "@context": "http://iiif.io/api/presentation/3/context.json",
        "id": f"https://{HOST}/obj/manifest",
        "type": "Manifest",
        "label": {"en": ["Snap cards, made up for the tests"]},
        "requiredStatement": {
            "label": {"en": ["Attribution"]},
            "value": {"en": ["<span>&copy; The Test Museum, London</span>"]},
        },
        "rights": IN_COPYRIGHT,
        "items": list(canvases),
    }
    top.update(extra)
    return {k: v for k, v in top.items() if v is not None}


def three_canvases() -> dict:
    return manifest(
        canvas(1, "The box, front"),
        canvas(2, "The box, back", summary={"en": ["The back of the box, with the maker's name."]}),
        canvas(3, "Card: Road Up!", rights=CC_BY),
    )


def download(folder: Path, n: int, layout: str = "wget", colour=(120, 80, 40)) -> Path:
    """Save canvas ``n``'s image as a connected machine would have (``wget -x``: host/path)."""
    rel = f"{HOST}/iiif/obj{n}/full/max/0/default.jpg" if layout == "wget" else f"obj{n}.jpg"
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (400 + n, 300), colour).save(path, "JPEG")
    return path


@pytest.fixture
def content(tmp_path: Path) -> Path:
    folder = tmp_path / "content"
    shutil.copytree(GOOD, folder)
    (folder / "sets" / "plain-pack.md").write_text(SET, encoding="utf-8")
    return folder


@pytest.fixture
def downloads(tmp_path: Path) -> Path:
    folder = tmp_path / "downloads"
    folder.mkdir()
    return folder


def write_manifest(downloads: Path, data: dict | str) -> Path:
    path = downloads / "manifest.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def run(*args: str):
    result = CliRunner().invoke(main, ["images", "import", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_a_manifest_becomes_the_sets_pictures(content, downloads):
    for n in (1, 2):
        download(downloads, n)
    download(downloads, 3, layout="flat")  # found by its address's last part
    (downloads / "obj3.jpg").rename(downloads / "default3.jpg")
    data = three_canvases()
    data["items"][2]["items"][0]["items"][0]["body"]["id"] = f"https://{HOST}/files/default3.jpg"
    path = write_manifest(downloads, data)
    result = run(str(path), "--set", "plain-pack", str(content))
    assert result.exit_code == 0, result.output
    text = (content / "sets" / "plain-pack.md").read_text(encoding="utf-8")
    credit = "© The Test Museum, London"
    assert text == SET.replace(
        "order: 5\n",
        "order: 5\n"
        f"# imported from https://{HOST}/obj/manifest by `kiosk images import`: review each"
        " alt text: it is the museum's label, not yet a description for a visitor\n"
        "images:\n"
        "  - src: images/plain-pack/01-the-box-front.jpg\n"
        "    alt: The box, front\n"
        "    caption: The box, front\n"
        f"    credit: {credit}\n"
        f"    rights: {IN_COPYRIGHT}\n"
        "  - src: images/plain-pack/02-the-box-back.jpg\n"
        "    alt: The box, back\n"
        "    caption: The back of the box, with the maker's name.\n"
        f"    credit: {credit}\n"
        f"    rights: {IN_COPYRIGHT}\n"
        "  - src: images/plain-pack/03-card-road-up.jpg\n"
        '    alt: "Card: Road Up!"\n'
        '    caption: "Card: Road Up!"\n'
        f"    credit: {credit}\n"
        f"    rights: {CC_BY}\n",
    )
    snapshot = Catalogue(content).current()
    assert snapshot.problems == ()
    record = snapshot.sets["plain-pack"].record
    assert [i.rights for i in record.images] == [IN_COPYRIGHT, IN_COPYRIGHT, CC_BY]
    assert {i.credit for i in record.images} == {"© The Test Museum, London"}
    for n, image in enumerate(record.images, start=1):
        with Image.open(content / image.src) as copied:
            assert copied.size == (400 + n, 300)
        assert read_made(content, image.src) is not None  # kiosk images ran for them
    assert "review each alt text" in result.output
    assert f"{content}/images/plain-pack/01-the-box-front.jpg: canvas 1, alt: 'The box, front'" in (
        result.output
    )
    assert f"{content}/images/plain-pack/03-card-road-up.jpg: made (" in result.output


def refused(content: Path, *args: str) -> str:
    """Run an import that must be refused, and check that nothing was written."""
    before = (content / "sets" / "plain-pack.md").read_bytes()
    result = run(*args, str(content))
    assert result.exit_code == 1, result.output
    assert (content / "sets" / "plain-pack.md").read_bytes() == before
    assert not (content / "images" / "plain-pack").exists()
    assert result.output.rstrip().endswith("nothing was imported")
    return result.output


def rights_of(data: dict, n: int, value: str | None) -> dict:
    data["items"][n - 1]["rights"] = value
    return data


@pytest.mark.parametrize(
    ("change", "said"),
    [
        # an image not downloaded: each canvas with a problem says it, one run tells all
        (
            lambda d, dl: (dl / f"{HOST}/iiif/obj2/full/max/0/default.jpg").unlink(),
            f"canvas 2 (The box, back): its image {image_url(2)} is not in",
        ),
        # a rights value that is no address at all (iiif-prezi3 refuses it)
        (
            lambda d, dl: rights_of(d, 1, "CC BY 4.0"),
            "canvas 1 (The box, front): rights 'CC BY 4.0' is not a web address: the kiosk"
            " needs a rightsstatements.org or creativecommons.org address",
        ),
        # an address, but not a rights statement
        (
            lambda d, dl: rights_of(d, 3, "https://museum.example/terms"),
            "canvas 3 (Card: Road Up!): rights 'https://museum.example/terms' is not a rights"
            " statement: the kiosk needs a rightsstatements.org or creativecommons.org address",
        ),
        (
            lambda d, dl: d.pop("rights"),
            "canvas 1 (The box, front): the manifest gives no rights",
        ),
        (
            lambda d, dl: d.pop("requiredStatement"),
            "canvas 1 (The box, front): the manifest names no one to credit (no"
            " requiredStatement, provider or attribution): give one with --credit",
        ),
        (
            lambda d, dl: (dl / f"{HOST}/iiif/obj1/full/max/0/default.jpg").write_bytes(b"junk"),
            "is not a picture the kiosk can read",
        ),
        (
            lambda d, dl: d["items"][0]["items"][0]["items"][0].update(motivation="commenting"),
            "canvas 1 (The box, front): has no image (no painting annotation with an Image)",
        ),
    ],
)
def test_a_canvas_that_cannot_be_imported_stops_the_import(content, downloads, change, said):
    for n in (1, 2, 3):
        download(downloads, n)
    data = three_canvases()
    change(data, downloads)
    output = refused(content, str(write_manifest(downloads, data)), "--set", "plain-pack")
    assert said in output


def test_every_canvas_problem_is_said_in_one_run(content, downloads):
    download(downloads, 2)
    data = rights_of(three_canvases(), 2, "https://museum.example/terms")
    output = refused(content, str(write_manifest(downloads, data)), "--set", "plain-pack")
    said = [line for line in output.splitlines() if line.startswith("canvas ")]
    assert [line.split(":")[0] for line in said] == [
        "canvas 1 (The box, front)",
        "canvas 2 (The box, back)",
        "canvas 3 (Card",
    ]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{not json", "manifest.json:1:2: not JSON: Expecting property name"),
        ("[1, 2]", "not a IIIF manifest (a JSON object is expected)"),
        (
            json.dumps(
                {
                    "@context": "http://iiif.io/api/presentation/2/context.json",
                    "@id": "https://x.example/m",
                    "@type": "sc:Manifest",
                }
            ),
            "this is a IIIF Presentation 2 manifest: only Presentation 3 is read",
        ),
        (
            json.dumps({"type": "Collection", "id": "https://x.example/c"}),
            "its type is not Manifest",
        ),
        (
            json.dumps(manifest(label=None)),
            "manifest.json: label: Field required (not valid IIIF Presentation 3)",
        ),
        (json.dumps(manifest()), "the manifest has no canvases: there is nothing to import"),
    ],
)
def test_a_file_that_is_no_presentation_3_manifest_is_refused(content, downloads, text, said):
    output = refused(content, str(write_manifest(downloads, text)), "--set", "plain-pack")
    assert said in output


def test_a_set_that_already_has_images_is_refused_without_replace(content, downloads):
    for n in (1, 2, 3):
        download(downloads, n)
    path = write_manifest(downloads, three_canvases())
    result = run(str(path), "--set", "test-1-2000", str(content))
    assert result.exit_code == 1
    assert (
        f"{content}/sets/test-snap.md:32:1: the set already has images: add --replace to"
        " replace them with the manifest's"
    ) in result.output


def test_replace_swaps_the_images_block_and_keeps_every_other_byte(content, downloads):
    for n in (1, 2, 3):
        download(downloads, n)
    set_file = content / "sets" / "test-snap.md"
    before = set_file.read_text(encoding="utf-8")
    old_block = before[before.index("images:\n") : before.index("sources:\n")]
    assert "images/box.png" in old_block
    path = write_manifest(downloads, three_canvases())
    result = run(str(path), "--set", "test-1-2000", "--replace", str(content))
    assert result.exit_code == 0, result.output
    after = set_file.read_text(encoding="utf-8")
    new_block = after[after.index("# imported from") : after.index("sources:\n")]
    assert after == before.replace(old_block, new_block)
    assert "images/test-1-2000/01-the-box-front.jpg" in new_block
    assert "images/box.png" not in after.split("---")[1].split("cards:")[1].split("sources:")[1]
    assert (content / "images" / "box.png").exists()  # the old files are left where they are
    assert Catalogue(content).current().problems == ()
    again = run(str(path), "--set", "test-1-2000", "--replace", str(content))
    assert again.exit_code == 0, again.output
    assert set_file.read_text(encoding="utf-8") == after  # the same import twice: the same file


def test_a_file_of_the_same_name_is_not_overwritten_without_replace(content, downloads):
    for n in (1, 2, 3):
        download(downloads, n)
    (content / "images" / "plain-pack").mkdir()
    Image.new("RGB", (10, 10)).save(content / "images" / "plain-pack" / "02-the-box-back.jpg")
    path = write_manifest(downloads, three_canvases())
    result = run(str(path), "--set", "plain-pack", str(content))
    assert result.exit_code == 1
    assert "images/plain-pack/02-the-box-back.jpg is already there and is another file" in (
        result.output
    )
    assert "images:" not in (content / "sets" / "plain-pack.md").read_text()


def test_an_unknown_set_is_refused(content, downloads):
    output = refused(content, str(write_manifest(downloads, three_canvases())), "--set", "nope")
    assert "no set 'nope' in" in output
    assert "write the set's file first" in output


def test_a_set_with_problems_of_its_own_is_refused(content, downloads):
    path = content / "sets" / "plain-pack.md"
    path.write_text(SET.replace("title: A plain", "titel: A plain"), encoding="utf-8")
    before = path.read_bytes()
    result = run(
        str(write_manifest(downloads, three_canvases())), "--set", "plain-pack", str(content)
    )
    assert result.exit_code == 1
    assert "the set file has problems of its own: fix them first (`kiosk check`)" in result.output
    assert f"{content}/sets/plain-pack.md:4:1: unknown field 'titel'" in result.output
    assert path.read_bytes() == before


def test_credit_from_the_provider_else_from_the_command(content, downloads):
    for n in (1, 2, 3):
        download(downloads, n)
    data = three_canvases()
    data.pop("requiredStatement")
    data["items"][0]["provider"] = [
        {"id": "https://museum.example/", "type": "Agent", "label": {"en": ["The Test Museum"]}}
    ]
    data["items"][1]["requiredStatement"] = {
        "label": {"en": ["Photograph"]},
        "value": {"none": ["Jane Smith"]},
    }
    path = write_manifest(downloads, data)
    result = run(
        str(path), "--set", "plain-pack", "--credit", "The Test Museum, London", str(content)
    )
    assert result.exit_code == 0, result.output
    credits = [i.credit for i in Catalogue(content).current().sets["plain-pack"].record.images]
    assert credits == ["The Test Museum", "Jane Smith", "The Test Museum, London"]


def test_a_choice_of_images_imports_the_first(content, downloads):
    download(downloads, 1)
    choice = {
        "type": "Choice",
        "items": [
            {"id": image_url(1), "type": "Image", "format": "image/jpeg"},
            {"id": f"https://{HOST}/iiif/infrared.jpg", "type": "Image"},
        ],
    }
    path = write_manifest(downloads, manifest(canvas(1, "The box", body=choice)))
    assert run(str(path), "--set", "plain-pack", str(content)).exit_code == 0
    assert (content / "images" / "plain-pack" / "01-the-box.jpg").is_file()


def test_a_canvas_without_a_label_gets_alt_text_to_review(content, downloads):
    download(downloads, 1)
    path = write_manifest(downloads, manifest(canvas(1, None)))
    assert run(str(path), "--set", "plain-pack", str(content)).exit_code == 0
    image = Catalogue(content).current().sets["plain-pack"].record.images[0]
    assert (image.src, image.alt, image.caption) == (
        "images/plain-pack/01.jpg",
        "Snap cards, made up for the tests, picture 1",
        None,
    )


def test_two_downloads_of_one_name_are_not_guessed_between(content, downloads):
    for n in (1, 2):
        (downloads / f"copy{n}").mkdir()
        Image.new("RGB", (8, 8)).save(downloads / f"copy{n}" / "default.jpg")
    path = write_manifest(downloads, manifest(canvas(1, "The box")))
    output = refused(content, str(path), "--set", "plain-pack")
    assert "several downloaded files are called 'default.jpg'" in output


def test_an_address_never_leads_out_of_the_download_folder(content, tmp_path, downloads):
    Image.new("RGB", (8, 8)).save(tmp_path / "secret.jpg")
    body = {"id": f"https://{HOST}/../../secret.jpg", "type": "Image"}
    inner = downloads / "inner"
    inner.mkdir()
    path = write_manifest(downloads, manifest(canvas(1, "The box", body=body)))
    output = refused(content, str(path), "--set", "plain-pack", "--from", str(inner))
    assert "is not in" in output


def test_the_download_folder_may_be_given(content, tmp_path, downloads):
    elsewhere = tmp_path / "elsewhere"
    download(elsewhere, 1)
    path = write_manifest(downloads, manifest(canvas(1, "The box")))
    result = run(str(path), "--set", "plain-pack", "--from", str(elsewhere), str(content))
    assert result.exit_code == 0, result.output


def test_the_network_is_never_reached(content, downloads, monkeypatch):
    for n in (1, 2, 3):
        download(downloads, n)

    def no_network(*args, **kwargs):
        raise AssertionError("the import tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    path = write_manifest(downloads, three_canvases())
    assert run(str(path), "--set", "plain-pack", str(content)).exit_code == 0


def test_urls_lists_the_images_to_download(downloads):
    result = CliRunner().invoke(
        main, ["images", "import", str(write_manifest(downloads, three_canvases())), "--urls"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [image_url(1), image_url(2), image_url(3)]


def test_a_set_is_needed(downloads):
    result = run(str(write_manifest(downloads, three_canvases())))
    assert result.exit_code == 2
    assert "say which set the pictures are of: --set <its slug>" in result.output


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_the_curators_line_ends_and_byte_order_mark_are_kept(content, downloads, newline, bom):
    download(downloads, 1)
    path = content / "sets" / "plain-pack.md"
    path.write_bytes((bom + SET.replace("\n", newline)).encode("utf-8"))
    assert (
        run(
            str(write_manifest(downloads, manifest(canvas(1, "The box")))),
            "--set",
            "plain-pack",
            str(content),
        ).exit_code
        == 0
    )
    after = path.read_bytes().decode("utf-8")
    assert after.startswith(bom + "---" + newline)
    assert after.count("\n") == after.count(newline) if newline == "\r\n" else "\r" not in after
    assert Catalogue(content).current().problems == ()


@pytest.mark.parametrize(
    "value",
    [
        "The box, front",
        "Card: Road Up!",
        "Yes",
        "1950",
        "true",
        "null",
        "# not a comment",
        "a #tag",
        "© V&A",
        "[in brackets]",
        "- a list?",
        "ends with a colon:",
        'a "quoted" word',
        "it's",
        "back\\slash",
        "100%",
        "@name",
    ],
)
def test_yaml_text_reads_back_as_written(value):
    assert yaml.safe_load(f"k: {importer.yaml_text(value)}") == {"k": value}


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("The box, front", "03-the-box-front.jpg"),
        (None, "03.jpg"),
        ("!!!", "03.jpg"),
        ("A very long label " * 10, "03-a-very-long-label-a-very-long-label-a-very-long-la.jpg"),
    ],
)
def test_file_names_sort_as_the_manifest_does(label, name):
    assert importer.file_name(3, label, ".jpg") == name
