"""Card pictures chosen in markdown (issue 15): ``emblem:`` and ``colour:`` on a card, the
kiosk's own pick said by ``kiosk check --notes``, and the gallery of every emblem."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner
from fixture_content import GOOD

from kiosk import create_app
from kiosk.catalogue.looks import EMBLEM_ORDER, PALETTE, Look, colour_problem, set_looks
from kiosk.catalogue.store import Catalogue
from kiosk.commands.check import check
from kiosk.config import ROOT
from kiosk.web.cardfaces import emblem_svg

GALLERY = ROOT / "test-artifacts" / "emblems.html"


def a_set(cards: str) -> str:
    """A small set with ``cards`` (YAML under ``cards:``)."""
    return (
        "---\nkind: set\nslug: new-set\ntitle: A new set\nsummary: For the test.\n"
        "back:\n  description: Plain.\ncards:\n"
        + cards
        + "sources:\n  - title: A test source\n---\nText.\n"
    )


def snapshot_with(tmp_path: Path, cards: str):
    content = tmp_path / "content"
    shutil.copytree(GOOD, content)
    (content / "sets" / "new-set.md").write_text(a_set(cards), encoding="utf-8")
    return Catalogue(content).current(), content


def test_a_chosen_emblem_and_colour_are_drawn(tmp_path):
    cards = (
        '  - name: Road Up!\n    emblem: anchor\n    colour: "#2e6b3a"\n'
        "  - name: Jolly Jack Tar\n"
    )  # its words ask for the anchor too: it yields
    snapshot, _ = snapshot_with(tmp_path, cards)
    assert snapshot.problems == ()
    looks = set_looks(snapshot.sets["new-set"].record)
    assert looks["road-up"] == Look("anchor", "#2e6b3a")
    assert looks["jolly-jack-tar"].emblem != "anchor"


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        (
            "    emblem: anchr\n",
            "sets/new-set.md:10:13: cards[0].emblem: unknown emblem"
            " 'anchr' (did you mean 'anchor'?)",
        ),
        (
            '    colour: "#e0a82e"\n',
            "sets/new-set.md:10:13: cards[0].colour: '#e0a82e' is"
            " too pale for the cream words on it (1.9:1, at least 4.5:1 is needed)",
        ),
        (
            "    colour: navy\n",
            "sets/new-set.md:10:13: cards[0].colour: 'navy' is not a colour code",
        ),
    ],
)
def test_an_emblem_or_colour_the_kiosk_cannot_use(tmp_path, card, expected):
    snapshot, _ = snapshot_with(tmp_path, "  - name: Road Up!\n" + card)
    assert [str(p) for p in snapshot.problems] == [
        p for p in map(str, snapshot.problems) if p.startswith("content/" + expected)
    ]
    assert len(snapshot.problems) == 1


def test_check_notes_say_which_emblem_the_kiosk_picked(tmp_path):
    _, content = snapshot_with(
        tmp_path, "  - name: Road Up!\n  - name: The Sun\n    emblem: star\n"
    )
    plain = CliRunner().invoke(check, [str(content)])
    assert "note:" not in plain.stdout
    noted = CliRunner().invoke(check, [str(content), "--notes"])
    assert noted.exit_code == 0
    mine = [line for line in noted.stdout.splitlines() if "new-set.md" in line]
    assert mine == [
        f"{content}/sets/new-set.md:9:5: note: cards[0] 'Road Up!' is drawn with the lamp"
        " emblem: write 'emblem: lamp' to keep it, or choose another"
    ]


def test_the_emblems_page_shows_every_emblem(tmp_path):
    client = create_app({"TESTING": True}).test_client()
    soup = BeautifulSoup(client.get("/curators/emblems").get_data(as_text=True), "html.parser")
    names = [f.figcaption.get_text() for f in soup.select(".emblem-gallery figure")]
    assert names == list(EMBLEM_ORDER)
    for figure in soup.select(".emblem-gallery figure"):
        svg = figure.find("svg")
        assert svg["role"] == "img" and svg["aria-label"] == figure.figcaption.get_text()


@pytest.mark.parametrize("config", [{"KIOSK_MODE": True}, {}])
def test_the_emblems_page_is_never_shown_in_kiosk_mode_or_embedded(config):
    client = create_app({"TESTING": True, **config}).test_client()
    url = "/curators/emblems" if config else "/embed/curators/emblems"
    assert client.get(url).status_code == 404


def test_no_visitor_page_links_to_the_emblems_page():
    client = create_app({"TESTING": True, "KIOSK_MODE": True}).test_client()
    for url in ("/", "/sets/", "/sets/misc-869-1986", "/pages/about"):
        assert "/curators/" not in client.get(url).get_data(as_text=True)


def test_every_emblem_is_drawn_in_a_gallery():
    """Each emblem as valid SVG, and all of them on one page in test-artifacts/ to look at."""
    figures = []
    for name in EMBLEM_ORDER:
        svg = emblem_svg(name, "#1d4e89")
        root = ET.fromstring(svg)
        assert len(root) == 1 and len(root[0]) > 2, name  # the medallion and a drawing
        figures.append(f"<figure>{svg}<figcaption>{name}</figcaption></figure>")
    GALLERY.parent.mkdir(exist_ok=True)
    GALLERY.write_text("<!doctype html><title>Emblems</title>" + "".join(figures))
    assert len(set(map(emblem_svg, EMBLEM_ORDER))) == len(figures)


@pytest.mark.parametrize("name", EMBLEM_ORDER)
def test_the_curators_guide_shows_each_emblem_as_drawn(name):
    path = ROOT / "docs" / "emblems" / f"{name}.svg"
    assert path.read_text() == emblem_svg(name) + "\n"
    assert f"![{name}](emblems/{name}.svg)" in (ROOT / "docs" / "curators.md").read_text()


@pytest.mark.parametrize("ink", PALETTE)
def test_the_kiosks_own_inks_pass_its_contrast_check(ink):
    assert colour_problem(ink) is None
