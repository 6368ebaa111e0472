"""Issue 27, item 5: mistakes a curator makes that ``kiosk check`` used to let through or
tell badly. Each case is a broken fixture of its own (``tests/fixtures/checks/<case>/``),
laid over the good fixture tree: it gets exactly one message, at the slip's own place."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from fixture_content import GOOD

from kiosk.catalogue.links import LINKED_BY_THE_KIOSK
from kiosk.catalogue.store import Catalogue

FIXTURES = Path(__file__).parent / "fixtures" / "checks"
TEMPLATES = Path(__file__).parent.parent / "templates"

# case → (level, the one message, in full up to its path:line:col and first words)
CASES = {
    "note-misspelt": (
        "error",
        "content/sets/test-snap.md:29:13: cards[2].content_note.note: unknown note 'golliwogg'",
    ),
    "flag-removed": (
        "error",
        "content/sets/test-snap.md:25:5: cards[2]: 'Golly' names contested imagery",
    ),
    "unclosed-quote": (
        "error",
        'content/sets/test-snap.md:3:8: the double quote (") that starts this value is not'
        ' closed on its line: end the value with ", or remove the quote',
    ),
    "bad-indent": (
        "error",
        "content/sets/test-snap.md:15:4: this line is indented 3 spaces, which lines it up"
        " with no field above it: to go with 'name:' on the line above, indent it 4 spaces",
    ),
    "broken-link": (
        "error",
        "content/pages/about.md:6:69: link to '/sets/no-such-set': there is no set 'no-such-set'",
    ),
    "broken-card-link": (
        "error",
        "content/pages/about.md:6:41: link to '/sets/test-1-2000#card-our-fisherman': the set"
        " 'test-1-2000' has no card 'our-fisherman' (did you mean '#card-our-fishermen'?)",
    ),
    "orphan-page": (
        "warning",
        "content/pages/hidden.md:3:1: warning: no page links to the page 'hidden'",
    ),
    "emblem-shared": (
        "error",
        "content/sets/test-snap.md:21:13: cards[1].emblem: 'anchor' is already the emblem of"
        " cards[0] 'Road Up!'",
    ),
    "attract-summary-missing": (
        "error",
        "content/sets/test-snap.md:7:1: summary: 'golliwog' names the contested image, and the"
        " attract loop shows the summary without the note: add 'attract_summary:'",
    ),
}


def laid_over_good(tmp_path: Path, *cases: str) -> Path:
    """The good tree with each case's files written over it."""
    content = tmp_path / "content"
    shutil.copytree(GOOD, content)
    for case in cases:
        shutil.copytree(FIXTURES / case, content, dirs_exist_ok=True)
    return content


@pytest.mark.parametrize("case", CASES)
def test_each_mistake_gets_one_message_at_its_place(case, tmp_path):
    level, expected = CASES[case]
    snapshot = Catalogue(laid_over_good(tmp_path, case)).current()
    said = [str(p) for p in (*snapshot.problems, *snapshot.warnings)]
    assert len(said) == 1, said
    assert said[0].startswith(expected), said
    assert len(snapshot.problems) == (1 if level == "error" else 0)


def test_the_rule_examples_on_a_good_set_pass(tmp_path):
    """The examples the note-misspelt case holds back are good on their own: their silence
    there is the held-back set's, not theirs."""
    content = laid_over_good(tmp_path)
    shutil.copytree(FIXTURES / "note-misspelt" / "games", content / "games", dirs_exist_ok=True)
    snapshot = Catalogue(content).current()
    assert snapshot.problems == ()
    assert {"snap/example-1", "snap/example-2"} <= set(snapshot.scenarios)


def test_a_set_held_back_holds_back_its_examples(tmp_path):
    snapshot = Catalogue(laid_over_good(tmp_path, "note-misspelt")).current()
    assert "test-1-2000" not in snapshot.sets
    assert not {"snap/example-1", "snap/example-2"} & set(snapshot.scenarios)


@pytest.mark.parametrize(
    "front",
    [
        'title: "Snap: the game"\nnote: "it\'s fine"\n',
        "title: 'It''s Snap'\n",
        'summary: >-\n  "Road Up!\n  and more"\ntitle: x\n',
    ],
)
def test_good_quotes_are_not_taken_for_slips(front):
    from kiosk.catalogue.yaml_slips import unclosed_quote

    lines = front.splitlines()
    assert unclosed_quote(lines, len(lines) - 1) is None


def test_the_fixed_pages_are_the_ones_the_templates_link_to():
    linked = set()
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        linked |= set(re.findall(r"url_for\(['\"]pages\.page['\"], slug=['\"]([a-z0-9-]+)", text))
    assert linked == LINKED_BY_THE_KIOSK
