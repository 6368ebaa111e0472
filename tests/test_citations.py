"""Citations (issue 27): Pandoc's ``[@key]`` in markdown, held by ``kiosk check``, drawn as
numbered notes linked both ways. Each check has a broken file of its own, laid over the good
fixture tree, and the file that passes it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner
from fixture_content import GOOD

from kiosk import create_app
from kiosk.catalogue.citations import Cited, decode, find, mark, plain, unmark
from kiosk.catalogue.render import render_audited
from kiosk.catalogue.store import Catalogue
from kiosk.commands.check import check

SOURCES = (
    "---\nkind: sources\nslug: sources\ntitle: Sources\nsources:\n"
    "  - key: vam-snap\n    author: V&A Museum of Childhood\n    title: Snap\n"
    "    url: http://www.vam.ac.uk/moc/collections/snap/\n"
    "  - key: diagram-group\n    author: The Diagram Group\n    title: The Way to Play\n"
    "---\n"
)
NOTE = (
    "---\nkind: note\nslug: cited\ntitle: A cited note\nsummary: For the test.\n---\n"
    "Snap came in 1866. {first}\n\nIt is noisy. [@diagram-group, p. 304]\n"
)


def tree(tmp_path: Path, files: dict[str, str]) -> Path:
    """The good fixture tree with ``files`` written over it."""
    content = tmp_path / "content"
    shutil.copytree(GOOD, content)
    for rel, text in files.items():
        (content / rel).write_text(text, encoding="utf-8")
    return content


def problems_of(content: Path) -> list[str]:
    return [str(p) for p in Catalogue(content).current().problems]


# ----------------------------------------------------------------- the syntax


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("Snap came in 1866 [@vam-snap].", [[("vam-snap", "", "")]]),
        ("Two [@vam-snap; @diagram-group].", [[("vam-snap", "", ""), ("diagram-group", "", "")]]),
        ("A page [@diagram-group, p. 304].", [[("diagram-group", "p. 304", "")]]),
        ("[see @diagram-group, pp. 33-35]", [[("diagram-group", "pp. 33-35", "see")]]),
        ("Write to [bob@example.org] or [me @ noon].", []),
        ("A link [to @vam](https://example.org) is not one.", []),
        (
            "Split over\nlines [@vam-snap;\n @diagram-group].",
            [[("vam-snap", "", ""), ("diagram-group", "", "")]],
        ),
    ],
)
def test_citations_are_found_as_pandoc_writes_them(text, keys):
    found = [[(c.key, c.locator, c.prefix) for c in cite.items] for cite in find(text)]
    assert found == keys


def test_code_is_never_a_citation():
    body = "Write `[@vam-snap]` to cite.\n\n```\n[@diagram-group]\n```\n\nBut [@vam-snap] is.\n"
    assert [c.items[0].key for c in find(body, markdown=True)] == ["vam-snap"]


def test_a_marked_body_keeps_its_citations_through_markdown_and_the_sanitiser():
    html = render_audited("Snap *came* in 1866 [@vam-snap, p. 3].\n\n| a | b [@x] |\n|--|--|\n")[0]
    assert "[@" not in html and "<em>came</em>" in html
    tokens = [decode(t) for t in __import__("re").findall("\ufff9([0-9a-f]*)\ufffb", html)]
    assert tokens == [(Cited("vam-snap", "p. 3"),), (Cited("x"),)]
    assert "1866" + "\ufff9" in html  # the space before a citation goes: the number sits close
    assert unmark(html).count("\ufff9") == 0


def test_a_curator_cannot_forge_a_token():
    assert "\ufff9" not in mark("Sneaky \ufff9 740 \ufffb text")


def test_plain_takes_citations_out_of_a_field():
    assert plain("1950s [@vam-misc-869]") == "1950s"
    assert plain("England [@a; @b] and more") == "England and more"


# ----------------------------------------------------------------- kiosk check


def test_an_unknown_key_is_an_error_at_its_line_with_the_nearest_key(tmp_path):
    content = tree(
        tmp_path, {"sources.md": SOURCES, "notes/cited.md": NOTE.format(first="[@vam-snaps]")}
    )
    assert problems_of(content) == [
        "content/notes/cited.md:7:21: unknown source '@vam-snaps' (did you mean '@vam-snap'?):"
        " add it to content/sources.md, or correct the key"
    ]


def test_an_unknown_key_in_a_folded_field_is_found_on_its_own_line(tmp_path):
    note = (
        "---\nkind: note\nslug: cited\ntitle: A cited note\nsummary: >-\n"
        "  For the test, on two\n  lines [@vam-snap; @diagrm-group].\n---\nText.\n"
    )
    content = tree(tmp_path, {"sources.md": SOURCES, "notes/cited.md": note})
    assert problems_of(content) == [
        "content/notes/cited.md:7:21: unknown source '@diagrm-group' (did you mean"
        " '@diagram-group'?): add it to content/sources.md, or correct the key"
    ]


def test_the_file_with_an_unknown_key_is_skipped_and_the_others_published(tmp_path):
    content = tree(
        tmp_path, {"sources.md": SOURCES, "notes/cited.md": NOTE.format(first="[@nope]")}
    )
    snapshot = Catalogue(content).current()
    assert "cited" not in snapshot.notes and "golliwog" in snapshot.notes
    assert CliRunner().invoke(check, [str(content)]).exit_code == 1


def test_citing_with_no_sources_file_says_so_once_a_citation(tmp_path):
    content = tree(tmp_path, {"notes/cited.md": NOTE.format(first="[@vam-snap]")})
    found = problems_of(content)
    assert len(found) == 2 and all("there is no sources file: add sources.md" in p for p in found)


def test_a_broken_sources_file_is_the_one_message(tmp_path):
    broken = SOURCES.replace("    title: Snap\n", "    title: [Snap\n")
    content = tree(
        tmp_path, {"sources.md": broken, "notes/cited.md": NOTE.format(first="[@vam-snap]")}
    )
    found = problems_of(content)
    assert len(found) == 1 and found[0].startswith("content/sources.md:"), found


def test_an_unused_source_is_a_warning_fatal_only_with_fatal(tmp_path):
    content = tree(tmp_path, {"sources.md": SOURCES, "notes/cited.md": NOTE.format(first="")})
    snapshot = Catalogue(content).current()
    assert snapshot.problems == ()
    assert [str(w) for w in snapshot.warnings] == [
        "content/sources.md:6:10: warning: source 'vam-snap' is cited nowhere: cite it as"
        " [@vam-snap] where it is used, or remove it"
    ]
    assert CliRunner().invoke(check, [str(content)]).exit_code == 0
    assert CliRunner().invoke(check, [str(content), "--fatal"]).exit_code == 1


def test_a_source_needs_an_author_or_a_site_and_its_own_key(tmp_path):
    nameless = SOURCES.replace("    author: The Diagram Group\n", "")
    twice = SOURCES.replace("key: diagram-group", "key: vam-snap")
    assert problems_of(tree(tmp_path / "a", {"sources.md": nameless})) == [
        "content/sources.md:10:5: sources[1]: a source needs an author or a site: add"
        " 'author:' or 'site:'"
    ]
    assert problems_of(tree(tmp_path / "b", {"sources.md": twice})) == [
        "content/sources.md:10:10: sources[1].key: 'vam-snap' is already the key of sources[0]:"
        " give each source its own key"
    ]


CLAIM_SET = (
    "---\nkind: set\nslug: claimed\ntitle: A claimed set\nsummary: For the test.\n{field}\n"
    "back:\n  description: Plain.\ncards:\n  - name: Sun\n    copies: 2\n---\nText.\n"
)


@pytest.mark.parametrize(
    ("field", "problem"),
    [
        ("date: 1950s", "content/sets/claimed.md:6:7: date: '1950s' states a fact with no source"),
        ("maker: Woolworths", "content/sets/claimed.md:6:8: maker: 'Woolworths' states a fact"),
        ("place: England", "content/sets/claimed.md:6:8: place: 'England' states a fact"),
        ("history: Given in 1986", "content/sets/claimed.md:6:10: history: 'Given in 1986'"),
        ('date: "1950s [@vam-snap]"', None),
        ("date: Not recorded", None),
        ('date: "About 1950 (our inference from the pictures)"', None),
    ],
)
def test_a_claim_field_needs_a_citation_or_says_it_has_none(tmp_path, field, problem):
    set_file = CLAIM_SET.format(field=field)
    files = {"sources.md": SOURCES, "sets/claimed.md": set_file}
    found = [p for p in problems_of(tree(tmp_path, files)) if "claimed" in p]
    if problem is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].startswith(problem), found


# ----------------------------------------------------------------- the notes on the page


@pytest.fixture
def cited_client(tmp_path):
    files = {
        "sources.md": SOURCES,
        "notes/cited.md": NOTE.format(first="[@vam-snap; @diagram-group]"),
    }
    app = create_app({"TESTING": True, "CONTENT_DIR": str(tree(tmp_path, files))})
    return app.test_client()


def test_notes_are_numbered_and_linked_both_ways(cited_client):
    soup = BeautifulSoup(cited_client.get("/notes/cited").get_data(as_text=True), "html.parser")
    refs = soup.select(".prose sup.cite a")
    assert [a.get_text() for a in refs] == ["Note 1", "Note 2"]  # "Note " for screen readers
    assert [a.select_one(".visually-hidden").get_text() for a in refs] == ["Note "] * 2
    notes = soup.select("section.notes ol.notes__list > li.note")
    assert [li["id"] for li in notes] == ["cite-note-1", "cite-note-2"]
    for n, (ref, note) in enumerate(zip(refs, notes, strict=True), start=1):
        assert ref["href"] == f"#{note['id']}"
        back = note.select_one("a.note__back")
        assert back["href"] == f"#cite-ref-{n}" and soup.select_one(f"sup#cite-ref-{n}")
    first = [a["href"] for a in notes[0].select("a.note__title")]
    assert first == ["/pages/sources#source-vam-snap", "/pages/sources#source-diagram-group"]
    assert "p. 304" in notes[1].get_text()
    assert "[@" not in soup.get_text()


def test_the_sources_page_lists_the_file_and_where_each_is_used(cited_client, tmp_path):
    page = "---\nkind: page\nslug: sources\ntitle: Sources\n---\nAll of them.\n"
    (tmp_path / "content" / "pages" / "sources.md").write_text(page, encoding="utf-8")
    soup = BeautifulSoup(cited_client.get("/pages/sources").get_data(as_text=True), "html.parser")
    listed = soup.select(".sources--all li.source")
    assert [li["id"] for li in listed] == ["source-vam-snap", "source-diagram-group"]
    for li in listed:
        assert [a["href"] for a in li.select(".source__pages a")] == ["/notes/cited"]
