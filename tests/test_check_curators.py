"""What ``kiosk check`` catches that a curator would miss (issue 15): each check has a file
that fails it and one that passes, laid over the good fixture tree."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from fixture_content import GOOD
from game_files import words_yaml

from kiosk.catalogue.store import Catalogue
from kiosk.catalogue.terms import find_term, is_vague
from kiosk.commands.check import check


def a_set(cards: str, extra: str = "", body: str = "Text.") -> str:
    """A small set file: ``cards`` is the YAML under ``cards:``, ``extra`` more top lines."""
    return (
        "---\nkind: set\nslug: new-set\ntitle: A new set\nsummary: For the test.\n"
        f"{extra}back:\n  description: Plain.\ncards:\n{cards}"
        "sources:\n  - title: A test source\n---\n" + body + "\n"
    )


MINSTREL = "  - name: The Minstrel\n"
FLAGGED = "  - name: The Minstrel\n    content_note:\n      shows: {shows}\n      note: golliwog\n"
PAIRS = "  - name: Sun\n    copies: 4\n  - name: Moon\n    copies: 4\n    missing: 1\n"
FAMILY = "".join(
    f"  - name: {fam} {n}\n    family: {fam}\n" for fam in ("Bun", "Pot") for n in range(1, 5)
)
HF_GAME = (
    "---\nkind: game\nslug: happy-families\ntitle: Happy Families\nengine: happy-families\n"
    "summary: Collect families.\nsources:\n  - title: A test source\n"
    + words_yaml("happy-families")
    + "---\nText.\n"
)
SNAP_WORDS = words_yaml("snap")
TERMS = "---\nkind: terms\nslug: terms\ntitle: Terms\nterms:\n{terms}sources:\n  - title: A\n---\n"
SET = "sets/new-set.md"

# case → (files that fail, files that pass, what the one problem says, and where)
CASES: dict[str, tuple[dict[str, str], dict[str, str], str]] = {
    "contested-term": (
        {SET: a_set(MINSTREL)},
        {SET: a_set(FLAGGED.format(shows="a man in blackface make-up, from minstrel shows"))},
        "sets/new-set.md:9:5: cards[0]: 'Minstrel' names contested imagery: flag the card",
    ),
    "curators-own-term": (
        {SET: a_set("  - name: The Jollywog\n"), "terms.md": TERMS.format(terms="  - jollywog\n")},
        {SET: a_set("  - name: The Jollywog\n"), "terms.md": TERMS.format(terms="  - golly\n")},
        "sets/new-set.md:9:5: cards[0]: 'Jollywog' names contested imagery",
    ),
    "vague-content-note": (
        {SET: a_set(FLAGGED.format(shows="offensive content"))},
        {SET: a_set(FLAGGED.format(shows="a golliwog, a racist caricature"))},
        "sets/new-set.md:11:14: cards[0].content_note.shows: 'offensive content' does not"
        " say what the card shows",
    ),
    "card-count": (
        {SET: a_set(PAIRS, "card_count: 8\n")},
        {SET: a_set(PAIRS, "card_count: 7\n")},
        "sets/new-set.md:6:13: card_count: 8, but the cards listed add up to 7 (copies less"
        " missing)",
    ),
    "date-unquoted": (
        {SET: a_set(PAIRS, "date: 1935\n")},
        {SET: a_set(PAIRS, 'date: "1935 (our inference)"\n')},
        'sets/new-set.md:6:7: date: write dates in quotes: date: "1935"',
    ),
    "colour-unquoted": (
        {SET: a_set(PAIRS).replace("  description", "  colour: #8a2b1d\n  description")},
        {SET: a_set(PAIRS).replace("  description", '  colour: "#8a2b1d"\n  description')},
        "sets/new-set.md:7:10: back.colour: a colour must be quoted",
    ),
    "yaml-slip-reported-once": (
        {
            "games/snap.md": "---\nkind: game\nslug: snap\ntitle: Snap: the game\nengine: snap\n"
            "summary: S.\nsources:\n  - title: A\n---\n"
        },
        {
            "games/snap.md": '---\nkind: game\nslug: snap\ntitle: "Snap: the game"\nengine: snap\n'
            "summary: S.\nsources:\n  - title: A\n" + SNAP_WORDS + "---\n"
        },
        "games/snap.md:4:12: YAML: mapping values are not allowed here",
    ),
    "variant-without-words": (
        {
            "games/snap.md": "---\nkind: game\nslug: snap\ntitle: Snap\nengine: snap\n"
            "summary: S.\nsources:\n  - title: A\n"
            + SNAP_WORDS.replace(
                "  speed:\n    title: speed rules\n    description: How speed goes.\n", ""
            )
            + "---\n"
        },
        {
            "games/snap.md": "---\nkind: game\nslug: snap\ntitle: Snap\nengine: snap\n"
            "summary: S.\nsources:\n  - title: A\n" + SNAP_WORDS + "---\n"
        },
        "games/snap.md:9:1: variants: the rule variant 'speed' has no words for visitors",
    ),
    "variant-description-missing": (
        {
            "games/snap.md": "---\nkind: game\nslug: snap\ntitle: Snap\nengine: snap\n"
            "summary: S.\nsources:\n  - title: A\n"
            + SNAP_WORDS.replace("    description: How speed goes.\n", "")
            + "---\n"
        },
        {
            "games/snap.md": "---\nkind: game\nslug: snap\ntitle: Snap\nengine: snap\n"
            "summary: S.\nsources:\n  - title: A\n" + SNAP_WORDS + "---\n"
        },
        "games/snap.md:",
    ),
    "variant-misspelt": (
        {
            "games/snap.md": "---\nkind: game\nslug: snap\ntitle: Snap\nengine: snap\n"
            "summary: S.\nsources:\n  - title: A\n"
            + SNAP_WORDS.replace("  speed:\n", "  sped:\n")
            + "---\n"
        },
        {
            "games/snap.md": "---\nkind: game\nslug: snap\ntitle: Snap\nengine: snap\n"
            "summary: S.\nsources:\n  - title: A\n" + SNAP_WORDS + "---\n"
        },
        "games/snap.md:34:3: variants: 'sped' is not a rule variant of snap"
        " (did you mean 'speed'?)",
    ),
}


def tree(tmp_path: Path, files: dict[str, str]) -> Path:
    """The good tree with ``files`` written over it."""
    content = tmp_path / "content"
    shutil.copytree(GOOD, content)
    for rel, text in files.items():
        (content / rel).write_text(text, encoding="utf-8")
    return content


@pytest.mark.parametrize("case", CASES)
def test_the_failing_file_gets_one_problem_at_its_line(case, tmp_path):
    fails, _, expected = CASES[case]
    snapshot = Catalogue(tree(tmp_path, fails)).current()
    assert [str(p) for p in snapshot.problems] == [
        p for p in (str(q) for q in snapshot.problems) if p.startswith("content/" + expected)
    ]
    assert len(snapshot.problems) == 1, snapshot.problems


@pytest.mark.parametrize("case", CASES)
def test_the_passing_file_has_no_problem(case, tmp_path):
    _, passes, _ = CASES[case]
    snapshot = Catalogue(tree(tmp_path, passes)).current()
    assert snapshot.problems == ()
    assert snapshot.warnings == ()


def test_a_broken_game_file_hides_the_sets_that_list_it_silently(tmp_path):
    fails = CASES["yaml-slip-reported-once"][0]
    snapshot = Catalogue(tree(tmp_path, fails)).current()
    assert "snap" not in snapshot.games
    assert "test-1-2000" not in snapshot.sets  # held back: it lists a game that is broken


def test_a_terms_file_replaces_the_defaults(tmp_path):
    files = {SET: a_set("  - name: Golly\n"), "terms.md": TERMS.format(terms="  - jollywog\n")}
    snapshot = Catalogue(tree(tmp_path, files)).current()
    assert snapshot.problems == ()
    assert list(snapshot.terms) == ["terms"]


STRIPPED = (
    'Text.\n\n<script>alert(1)</script>\n\n<iframe src="https://x.example"></iframe>\n\n'
    '<p onclick="go()">Tap</p>\n\n<span style="color: red">Red</span>\n'
)
SAFE = "Text.\n\nA `<script>` is shown as code.\n\n```\n<iframe>\n```\n\nNo onclick=here.\n"


def test_what_the_sanitiser_strips_is_a_warning_at_its_line(tmp_path):
    content = tree(tmp_path, {SET: a_set(PAIRS, body=STRIPPED)})
    snapshot = Catalogue(content).current()
    assert snapshot.problems == ()
    assert "new-set" in snapshot.sets  # a warning never keeps a file back
    expected = [(19, "a <script>"), (21, "an <iframe>"), (23, "'onclick='"), (25, "styles")]
    assert [(w.line, w.message.split(" is")[0].split(" are")[0]) for w in snapshot.warnings] == (
        expected
    )
    assert all(w.level == "warning" for w in snapshot.warnings)


def test_a_game_the_deck_cannot_play_is_a_warning(tmp_path):
    fails = {SET: a_set(PAIRS, "games: [happy-families]\n"), "games/hf.md": HF_GAME}
    snapshot = Catalogue(tree(tmp_path, fails)).current()
    assert snapshot.problems == ()
    assert [str(w) for w in snapshot.warnings] == [
        "content/sets/new-set.md:6:9: warning: games[0]: happy-families needs at least two"
        " complete families of four cards (each card with family:, none flagged or missing),"
        " so the kiosk does not offer it: remove the game, or record the families"
    ]
    passes = {
        SET: a_set(FAMILY, "match: family\ngames: [happy-families]\n"),
        "games/hf.md": HF_GAME,
    }
    assert Catalogue(tree(tmp_path / "b", passes)).current().warnings == ()


def test_a_standard_pack_game_on_a_deck_of_pictures_is_a_warning(tmp_path):
    game = (
        "---\nkind: game\nslug: snitchems\ntitle: Snitch'ems\nengine: snitchems\n"
        "summary: Capture cards.\nsources:\n  - title: A test source\n"
        + words_yaml("snitchems")
        + "---\nText.\n"
    )
    snapshot = Catalogue(
        tree(tmp_path, {SET: a_set(PAIRS, "games: [snitchems]\n"), "games/sn.md": game})
    ).current()
    assert [w.message.split(",")[0] for w in snapshot.warnings] == [
        "games[0]: snitchems needs a standard pack of 52"
    ]


def test_code_and_plain_words_are_not_warned_about(tmp_path):
    snapshot = Catalogue(tree(tmp_path, {SET: a_set(PAIRS, body=SAFE)})).current()
    assert snapshot.warnings == ()


def test_a_colour_the_cards_cannot_use_is_a_warning(tmp_path):
    text = a_set(PAIRS).replace("  description", "  colour: navy\n  description")
    snapshot = Catalogue(tree(tmp_path, {SET: text})).current()
    assert [str(w) for w in snapshot.warnings] == [
        "content/sets/new-set.md:7:11: warning: back.colour: the kiosk cannot draw the colour"
        " 'navy': write a colour code in quotes, such as \"#1d2c5e\" (until then it draws its"
        " own dark blue)"
    ]


def test_check_prints_warnings_and_fails_on_them_only_with_fatal(tmp_path):
    content = tree(tmp_path, {SET: a_set(PAIRS, body=STRIPPED)})
    plain = CliRunner().invoke(check, [str(content)])
    assert plain.exit_code == 0, plain.output
    assert plain.stdout.splitlines()[-1] == "5 files, 0 problems, 4 warnings"
    assert ": warning: a <script> is removed" in plain.stdout
    assert CliRunner().invoke(check, [str(content), "--fatal"]).exit_code == 1


@pytest.mark.parametrize(
    ("shows", "vague"),
    [
        ("offensive content", True),
        ("may contain racist imagery", True),
        ("Potentially offensive historical material", True),
        ("a golliwog: a racist caricature of a Black person", False),
        ("a man in blackface make-up", False),
    ],
)
def test_vague_notes(shows, vague):
    assert is_vague(shows) is vague


def test_terms_are_whole_words_with_plurals_and_phrases():
    terms = ("golly", "jim crow")
    assert find_term(terms, ["Golly Oh Golly!"]) == "Golly"
    assert find_term(terms, ["two gollys"]) == "gollys"
    assert find_term(terms, ["Jim  Crow's hat"]) == "Jim  Crow"
    assert find_term(terms, ["Gollygosh", "a crow"]) is None


def test_healthz_lists_warnings_and_stays_ok(tmp_path):
    from kiosk import create_app

    content = tree(tmp_path, {SET: a_set(PAIRS, body=STRIPPED)})
    app = create_app({"TESTING": True, "CONTENT_DIR": str(content), "SECRET_KEY": "t"})
    body = app.test_client().get("/healthz").get_json()
    assert body["status"] == "ok"
    assert len(body["content"]["warnings"]) == 4
    assert body["content"]["warnings"][0].startswith("content/sets/new-set.md:19:1: warning:")
