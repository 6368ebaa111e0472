"""``kiosk check``: every problem as path:line:col: message, a summary, exit 1 if any."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from click.testing import CliRunner
from fixture_content import BROKEN, GOOD

from kiosk.commands.check import check
from kiosk.config import ROOT


def broken_tree(tmp_path: Path, *cases: str) -> Path:
    content = tmp_path / "content"
    shutil.copytree(GOOD, content)
    for case in cases:
        shutil.copytree(BROKEN / case, content, dirs_exist_ok=True)
    return content


def run(*args: str):
    return CliRunner().invoke(check, list(args))


def test_good_content_passes():
    result = run(str(GOOD))
    assert result.exit_code == 0, result.output
    assert result.stdout == "4 files, 0 problems\n"


def test_problems_sorted_paths_as_given(tmp_path, monkeypatch):
    broken_tree(tmp_path, "yaml-syntax", "unknown-note", "misspelt-field", "binary")
    monkeypatch.chdir(tmp_path)
    result = run("content", "--fatal")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "content/games/broken-yaml.md:4:12: YAML: mapping values are not allowed here:"
        " put the value in quotes if it contains ': '",
        "content/games/misspelt.md:6:1: unknown field 'sumary' (did you mean 'summary'?)",
        "content/pages/binary.md:6:5: binary file (NUL byte): not a markdown file",
        "content/sets/unknown-note.md:15:13: cards[1].content_note.note: unknown note"
        " 'golliwogg' (a flagged card needs a note file in notes/ with this slug)",
        "8 files, 4 problems",
    ]


def test_sorted_by_line_within_a_file(tmp_path):
    content = broken_tree(tmp_path)
    (content / "games" / "bad.md").write_text(
        "---\nkind: game\nslug: Bad Slug\nengine: chess\nsumary: x\n---\n", encoding="utf-8"
    )
    result = run(str(content))
    lines = result.stdout.splitlines()[:-1]
    positions = [tuple(int(n) for n in line.split(":")[1:3]) for line in lines]
    assert positions == sorted(positions)
    assert len(lines) == 5
    assert result.stdout.splitlines()[-1] == "5 files, 5 problems"


def test_absolute_path_printed_as_given(tmp_path):
    content = broken_tree(tmp_path, "empty-file")
    result = run(str(content))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        f"{content}/notes/empty.md:1:1: empty file: a content file needs front matter"
    )
    assert result.stdout.splitlines()[-1] == "5 files, 1 problem"


def test_default_folder_from_environment(tmp_path, monkeypatch):
    content = broken_tree(tmp_path, "unknown-kind")
    monkeypatch.setenv("KIOSK_CONTENT_DIR", str(content))
    monkeypatch.chdir(tmp_path)
    result = run()
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("content/pages/unknown-kind.md:2:7: ")


def test_missing_folder(tmp_path):
    result = run(str(tmp_path / "nowhere"))
    assert result.exit_code == 1
    assert "no such content folder" in result.output


def test_through_the_kiosk_group():
    from kiosk.cli import main

    result = CliRunner().invoke(main, ["check", "--fatal", str(GOOD)])
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("0 problems\n")


def test_the_real_content_passes(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert os.path.isdir("content"), "content/ is missing"
    result = run("content")
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines()[-1].endswith(", 0 problems")
