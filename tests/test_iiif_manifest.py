"""IIIF Presentation 3 manifests (issue 25): built with iiif-prezi3, read back by it, every
address in them answering, covered pictures left out, readable from any origin."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from iiif_prezi3 import Manifest
from photo_content import (
    CC_BY,
    FLAGGED_FRONT,
    FLAGGED_PACK,
    FRONTS,
    IN_COPYRIGHT,
    SLUG,
    editable_copy,
    photo_content,
    pictures_of,
)

from kiosk import create_app
from kiosk.catalogue.pictures import derived_dir, picture_id, read_made, scale_factors, tiles
from kiosk.web.content import entry
from kiosk.web.iiif import manifest_url

URL = f"/iiif/{SLUG}/manifest.json"
SET_FILE = Path("sets") / f"{SLUG}.md"
TITLE = "A photographed Snap pack (made up for the tests)"
SUMMARY = "A pack made up for the tests, with made-up photographs of every part."
ATTRACT_SUMMARY = "A pack made up for the tests."
CREDIT = "Photograph made up for the kiosk's tests"
LABELS = [
    "The case.",
    "The box.",
    "The instruction card.",
    *(f"{name} (front)" for name in FRONTS),
    "Harbour Light (back)",
]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    return photo_content(tmp_path_factory.mktemp("manifest"))


@pytest.fixture(scope="module")
def client(made):
    return create_app({"TESTING": True, "CONTENT_DIR": str(made)}).test_client()


@pytest.fixture
def content(made, tmp_path):
    """A copy of the photographed content that a test may change."""
    return editable_copy(made, tmp_path)


def client_for(content: Path, **config):
    return create_app({"TESTING": True, "CONTENT_DIR": str(content), **config}).test_client()


def edit_set(content: Path, old: str, new: str) -> None:
    path = content / SET_FILE
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def manifest_of(client) -> dict:
    response = client.get(URL)
    assert response.status_code == 200
    return response.get_json(force=True)


def answer(client, url: str):
    """The response to ``url``, its file closed (a file response holds it open)."""
    response = client.get(url)
    response.get_data()
    response.close()
    return response


def path_of(url: str) -> str:
    parts = urlsplit(url)
    assert parts.scheme == "http" and parts.netloc == "localhost", url  # absolute, ours
    return parts.path


def labels_of(data: dict) -> list[str]:
    return [canvas["label"]["en"][0] for canvas in data["items"]]


def metadata_of(resource: dict) -> dict[str, str]:
    return {m["label"]["en"][0]: m["value"]["en"][0] for m in resource.get("metadata", [])}


def test_it_is_presentation_3_with_cors_and_public_caching(client):
    response = client.get(URL)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == (
        'application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"'
    )
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    cache = response.headers["Cache-Control"]
    assert "public" in cache and "max-age=3600" in cache


def test_iiif_prezi3_reads_it_back(client):
    data = manifest_of(client)
    again = Manifest(**data)
    assert again.type == "Manifest"
    assert json.loads(again.json()) == data  # nothing in it that the library drops or changes
    assert data["@context"] == "http://iiif.io/api/presentation/3/context.json"
    assert path_of(data["id"]) == URL


def test_its_label_summary_homepage_and_provider(client):
    data = manifest_of(client)
    assert data["label"] == {"en": [TITLE]}
    assert data["summary"] == {"en": [SUMMARY]}  # names no contested imagery: the summary
    [home] = data["homepage"]
    assert path_of(home["id"]) == f"/sets/{SLUG}"
    assert home["type"] == "Text" and home["format"] == "text/html"
    assert client.get(path_of(home["id"])).status_code == 200
    [provider] = data["provider"]
    assert provider["type"] == "Agent" and path_of(provider["homepage"][0]["id"]) == "/"


def test_a_summary_that_names_contested_imagery_gives_way_to_the_attract_summary(content):
    edit_set(content, SUMMARY, "A pack made up for the tests, with a golliwog among its cards.")
    data = manifest_of(client_for(content))
    assert data["summary"] == {"en": [ATTRACT_SUMMARY]}
    assert "golliwog" not in json.dumps(data)


def test_its_metadata_is_what_the_record_has_and_nothing_not_recorded(client):
    data = manifest_of(client)
    metadata = metadata_of(data)
    assert metadata["Object type"] == "Card game (Snap)"
    assert "Date" not in metadata  # the record says "not recorded"
    assert "not recorded" not in json.dumps(data).lower()


def test_the_metadata_of_a_fully_recorded_set_without_its_citations(content):
    edit_set(
        content,
        "date: not recorded\n",
        "accession: TEST.1-2026\ndate: 1950s [@vam-misc-869]\nmaker: Woolworths [@vam-misc-869]\n"
        "place: England (our inference)\nmaterials: Printed card\ndimensions: 9 x 6 cm\n"
        "credit_line: Given by a tester\n",
    )
    data = manifest_of(client_for(content))
    metadata = metadata_of(data)
    assert metadata["Accession number"] == "TEST.1-2026"
    assert metadata["Date"] == "1950s"
    assert metadata["Maker or publisher"] == "Woolworths"
    assert metadata["Place"] == "England (our inference)"
    assert metadata["Materials and techniques"] == "Printed card"
    assert metadata["Dimensions"] == "9 x 6 cm"
    assert data["requiredStatement"]["value"]["en"] == [
        "Given by a tester",
        f"Photograph: {CREDIT}",
    ]


def test_attribution_and_rights(client):
    data = manifest_of(client)
    assert data["requiredStatement"] == {
        "label": {"en": ["Attribution"]},
        "value": {"en": [f"Photograph: {CREDIT}"]},
    }
    assert "rights" not in data  # one picture is In Copyright, the others CC BY: no one answer
    rights = dict(zip(labels_of(data), (c["rights"] for c in data["items"]), strict=True))
    assert rights["The Milk Cart (front)"] == IN_COPYRIGHT
    assert {r for label, r in rights.items() if label != "The Milk Cart (front)"} == {CC_BY}
    for canvas in data["items"]:
        assert canvas["requiredStatement"]["value"] == {"en": [f"Photograph: {CREDIT}"]}


def test_the_manifest_has_rights_where_every_picture_agrees(content):
    edit_set(content, IN_COPYRIGHT, CC_BY)
    assert manifest_of(client_for(content))["rights"] == CC_BY


def test_one_canvas_for_each_of_the_twelve_pictures_a_visitor_may_see(client, made):
    data = manifest_of(client)
    assert labels_of(data) == LABELS
    for canvas in data["items"]:
        assert canvas["type"] == "Canvas"
        [page] = canvas["items"]
        [annotation] = page["items"]
        assert annotation["motivation"] == "painting"
        assert annotation["target"] == canvas["id"]
        body = annotation["body"]
        pid = path_of(body["id"]).split("/")[3]
        found = read_made(made, next(u for u in pictures_of(made) if picture_id(u) == pid))
        assert (canvas["width"], canvas["height"]) == (found.width, found.height)
        widest = found.widths[-1]
        assert path_of(body["id"]) == f"/media/pictures/{pid}/w{widest}.jpg"
        assert body["type"] == "Image" and body["format"] == "image/jpeg"
        assert (body["width"], body["height"]) == (widest, found.height_at(widest))
        [service] = body["service"]
        assert service["type"] == "ImageService3" and service["profile"] == "level0"
        assert path_of(service["id"]) == f"/iiif/image/{pid}"
        alt = metadata_of(canvas)["Alt text"]
        assert alt and alt != "The flagged card, photographed."


def test_covered_pictures_are_left_out_entirely(client):
    text = client.get(URL).get_data(as_text=True)
    for leak in (
        "golly",
        "Golly",
        picture_id(FLAGGED_FRONT),
        picture_id(FLAGGED_PACK),
        "pack.jpg",
        "laid out",
        "The flagged card",
        "The whole pack",
    ):
        assert leak not in text, leak


def test_covered_pictures_are_left_out_where_the_set_lets_view_card_show_them(content):
    edit_set(content, "games: [snap]\n", "games: [snap]\nview_flagged_photographs: true\n")
    client = client_for(content)
    own = {"Sec-Fetch-Site": "same-origin"}  # View card, pressed on our own page
    assert "/media/covered/" in client.get(
        f"/sets/{SLUG}?view=golly-oh-golly", headers=own
    ).get_data(as_text=True)  # the opt-in is on
    text = client.get(URL).get_data(as_text=True)
    assert len(json.loads(text)["items"]) == 12
    assert "golly" not in text.lower() and "/media/covered/" not in text


def test_a_picture_covered_when_it_was_made_is_left_out(content):
    """A file ``kiosk images`` made as covered stays out, whatever the record says now."""
    made_json = derived_dir(content, f"images/{SLUG}/case.jpg") / "made.json"
    made_json.write_text(
        made_json.read_text(encoding="utf-8").replace('"covered": false', '"covered": true')
    )
    data = manifest_of(client_for(content))
    assert labels_of(data) == LABELS[1:]
    assert "case" not in json.dumps(data)


def test_a_picture_not_made_yet_is_left_out(content):
    shutil.rmtree(derived_dir(content, f"images/{SLUG}/box.jpg"))
    data = manifest_of(client_for(content))
    assert labels_of(data) == [label for label in LABELS if label != "The box."]
    assert path_of(data["thumbnail"][0]["id"]).startswith(f"/media/pictures/{SLUG}--case-jpg/")


def test_a_set_with_none_of_its_pictures_made_has_no_manifest(content):
    shutil.rmtree(content / "derived")
    client = client_for(content)
    assert answer(client, URL).status_code == 404
    with client.application.test_request_context():
        found = entry("set", SLUG)
        assert found is not None and manifest_url(found.record) is None


def test_templates_get_the_manifests_address(client):
    with client.application.test_request_context():
        assert manifest_url(entry("set", SLUG).record) == URL
        assert manifest_url(entry("set", "misc-869-1986").record) is None
        assert client.application.jinja_env.globals["manifest_url"] is manifest_url


def test_every_address_in_it_answers(client):
    data = manifest_of(client)
    for thumbnail in [*data["thumbnail"], *(c["thumbnail"][0] for c in data["items"])]:
        image = answer(client, path_of(thumbnail["id"]))
        assert image.status_code == 200 and image.mimetype == "image/jpeg"
    for canvas in data["items"]:
        body = canvas["items"][0]["items"][0]["body"]
        image = answer(client, path_of(body["id"]))
        assert image.status_code == 200 and image.mimetype == "image/jpeg"
        service = path_of(body["service"][0]["id"])
        info = client.get(service + "/info.json")
        assert info.status_code == 200
        assert info.headers["Access-Control-Allow-Origin"] == "*"
        described = info.get_json(force=True)
        assert path_of(described["id"]) == service
        assert (described["width"], described["height"]) == (canvas["width"], canvas["height"])
        assert described["profile"] == "level0"


@pytest.mark.parametrize("name", ["case", "instructions", "harbour-light", "back"])
def test_every_tile_a_viewer_asks_for_is_there(client, made, name):
    src = f"images/{SLUG}/{name}.jpg"
    found = read_made(made, src)
    info = client.get(f"/iiif/image/{picture_id(src)}/info.json").get_json(force=True)
    asked = [path for _, _, path in tiles(info["width"], info["height"])]
    asked += [f"full/{s['width']},{s['height']}/0/default.jpg" for s in info["sizes"][:-1]]
    assert len(asked) > 5 and (info["width"], info["height"]) == (found.width, found.height)
    for path in asked:
        response = answer(client, f"/iiif/image/{picture_id(src)}/{path}")
        assert response.status_code == 200, path
        assert response.mimetype == "image/jpeg", path
        assert response.headers["Access-Control-Allow-Origin"] == "*"


def js_round(x: float) -> int:
    """JavaScript's Math.round (halves up), not Python's (halves to even)."""
    return math.floor(x + 0.5)


def osd5_tile_paths(info: dict) -> list[str]:
    """Every tile path OpenSeadragon 5.0.1 (the one inside Mirador 4.0.0) builds from a
    level-0 info.json: its IIIFTileSource's levels and getTileUrl, ported line by line. It
    takes ``sizes`` for its levels whenever there are as many as levels (or one fewer),
    whatever they are (OpenSeadragon 6 checks them against the scale factors first)."""
    width, height = info["width"], info["height"]
    [tile] = info["tiles"]
    tw, th = tile["width"], tile.get("height", tile["width"])
    max_level = js_round(math.log2(max(tile["scaleFactors"])))
    sizes = info.get("sizes") or []
    levels = None
    if len(sizes) in (max_level, max_level + 1):
        levels = [(s["width"], s["height"]) for s in sorted(sizes, key=lambda s: s["width"])]
        levels += [(width, height)] if len(sizes) == max_level else []
    paths = []
    for level in range(max_level + 1):
        scale = 0.5 ** (max_level - level)
        if levels:
            lw, lh = levels[level]
            nx, ny = math.ceil(lw / tw), math.ceil(lh / th)
        else:
            lw, lh = math.ceil(width * scale), math.ceil(height * scale)
            nx, ny = math.ceil(scale * width / tw), math.ceil(scale * height / th)
        rw, rh = js_round(tw / scale), js_round(th / scale)
        for y in range(ny):
            for x in range(nx):
                if lw < tw and lh < th:
                    region = "full"
                    size = "max" if (lw, lh) == (width, height) else f"{lw},{lh}"
                else:
                    left, top = x * rw, y * rh
                    w, h = min(rw, width - left), min(rh, height - top)
                    whole = (left, top, w, h) == (0, 0, width, height)
                    region = "full" if whole else f"{left},{top},{w},{h}"
                    sw, sh = min(tw, lw - x * tw), min(th, lh - y * th)
                    size = "max" if (sw, sh) == (width, height) else f"{sw},{sh}"
                paths.append(f"{region}/{size}/0/default.jpg")
    return paths


@pytest.mark.parametrize(
    "src",
    [f"images/{SLUG}/{n}.jpg" for n in ("case", "box", "instructions", "harbour-light", "back")],
)
def test_every_tile_mirador_4_asks_for_is_there(client, src):
    """Mirador 4.0.0 (tests/browser/test_iiif_viewer.py) asks for these: each must be made."""
    pid = picture_id(src)
    info = client.get(f"/iiif/image/{pid}/info.json").get_json(force=True)
    asked = osd5_tile_paths(info)
    assert len(asked) > 5
    holes = [p for p in asked if answer(client, f"/iiif/image/{pid}/{p}").status_code != 200]
    assert holes == [], f"{len(holes)} of {len(asked)} tiles missing"


def test_the_port_of_openseadragon_5_builds_the_kiosks_tiles_from_levels_it_computes():
    """The control: given no sizes, the port asks for exactly the tiles the kiosk makes."""
    for width, height in ((2400, 1800), (1500, 2100), (1200, 1800), (700, 500), (300, 200)):
        info = {
            "width": width,
            "height": height,
            "tiles": [{"width": 512, "scaleFactors": list(scale_factors(width, height))}],
        }
        made = sorted(path for _, _, path in tiles(width, height))
        assert sorted(osd5_tile_paths(info)) == made, (width, height)


def test_a_draft_has_a_manifest_only_in_the_preview(content):
    edit_set(content, "order: 90\n", "order: 90\ndraft: true\n")
    assert answer(client_for(content), URL).status_code == 404
    preview = client_for(content, PREVIEW=True)
    assert labels_of(manifest_of(preview)) == LABELS


@pytest.mark.parametrize(
    "url",
    [
        "/iiif/misc-869-1986/manifest.json",  # a set without photographs
        "/iiif/snap-standard-deck/manifest.json",
        "/iiif/no-such-set/manifest.json",
        "/iiif/NOT%20A%20SLUG/manifest.json",
        "/iiif/..%2Fsets/manifest.json",
        f"/iiif/{SLUG.upper()}/manifest.json",
        f"/iiif/{SLUG}/manifest.json/",
        "/iiif/golliwog/manifest.json",  # a note, not a set
        "/iiif/image/no-such-picture/info.json",
        f"/iiif/image/{SLUG}--case-jpg/../../made.json",
        f"/iiif/image/{SLUG}--case-jpg/full/9999,9999/0/default.jpg",
        f"/iiif/image/{SLUG}--case-jpg/{{iiif-id}}/full/max/0/default.jpg",
    ],
)
def test_what_is_not_there_is_404(client, url):
    assert answer(client, url).status_code == 404
