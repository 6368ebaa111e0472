"""The curators' guide's worked example must really pass ``kiosk check`` (and fail when broken)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import main

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "curators.md"
CONTENT = ROOT / "content"
FENCE = re.compile(r"^```markdown\n(.*?)^```$", re.MULTILINE | re.DOTALL)
NAME = "practice-snap-pack.md"


def worked_example() -> str:
    """The one ```markdown block in the guide: the example curators are told will pass."""
    blocks = FENCE.findall(GUIDE.read_text(encoding="utf-8"))
    assert len(blocks) == 1, "the guide should hold exactly one ```markdown worked example"
    return blocks[0]


def check(folder: Path) -> tuple[int, str]:
    """Run ``kiosk check FOLDER`` as a curator would; exit code and output."""
    result = CliRunner().invoke(main, ["check", str(folder)])
    return result.exit_code, result.output


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """A copy of the real content folder to add the example to."""
    folder = tmp_path / "content"
    shutil.copytree(CONTENT, folder)
    return folder


def test_real_content_passes() -> None:
    code, output = check(CONTENT)
    assert code == 0, output
    assert output.rstrip().endswith(", 0 problems"), output


def test_worked_example_passes(content: Path) -> None:
    (content / "sets" / NAME).write_text(worked_example(), encoding="utf-8")
    code, output = check(content)
    assert code == 0, output
    assert ", 0 problems" in output
    count = int(re.search(r"(\d+) files?,", output).group(1))
    assert count == len(list(CONTENT.rglob("*.md"))) + 1, output


@pytest.mark.parametrize(
    ("old", "new", "expected", "at_line", "at_col"),
    [
        # a missing field is reported at the kind: line, as the guide says
        (
            "title: Practice record (an example, not a real object)\n",
            "",
            "missing required field 'title'",
            "kind: set",
            "kind",
        ),
        (
            "    caption: A thin crescent moon.",
            "    captoin: A thin crescent moon.",
            "unknown field 'captoin'",
            "captoin: A thin crescent moon.",
            "captoin",
        ),
        ("games: [snap]", "games: [snapp]", "unknown game 'snapp'", "games: [snapp]", "snapp"),
        # a misspelt citation key, with the key it was meant to be (docs: "Citing a source")
        (
            "[@diagram-way-to-play, p. 304]",
            "[@diagram-way-to-paly, p. 304]",
            "unknown source '@diagram-way-to-paly' (did you mean '@diagram-way-to-play'?)",
            "[@diagram-way-to-paly, p. 304]",
            "@diagram-way-to-paly",
        ),
        # a card whose fields disagree is reported where the card starts
        ("    missing: 1", "    missing: 5", "missing (5)", "- name: The Moon", "name"),
    ],
)
def test_broken_example_is_reported_with_its_line(
    content: Path, old: str, new: str, expected: str, at_line: str, at_col: str
) -> None:
    example = worked_example()
    assert old in example
    broken = example.replace(old, new, 1)
    (content / "sets" / NAME).write_text(broken, encoding="utf-8")
    code, output = check(content)
    assert code == 1, output
    lines = [line for line in output.splitlines() if NAME in line]
    assert len(lines) == 1, output
    match = re.fullmatch(rf".*sets/{re.escape(NAME)}:(\d+):(\d+): (.*)", lines[0])
    assert match, lines[0]
    line_no, col = int(match.group(1)), int(match.group(2))
    assert expected in match.group(3)
    line = broken.splitlines()[line_no - 1]
    assert line.strip() == at_line
    assert line[col - 1 :].startswith(at_col), (line, col)
