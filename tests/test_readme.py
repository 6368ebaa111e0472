"""The README is true on a fresh clone: every command line it shows works as written.

Each line of the README's ``sh`` blocks, and each inline command that starts with ``make`` or
``.venv/bin/``, is run from the repository's folder the way a newcomer would type it, after
the two set-up commands (``make run``, ``make test``: this suite runs under them). A line
that ends quickly is run as it is and must exit 0; a server is asked for ``--help`` (with its
options, so an unknown one fails), gunicorn checks its app with ``--check-config``, and a
``make`` target is dry-run (``make -n``). Nothing here starts a server or installs anything.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.config import ROOT

README = ROOT / "README.md"
VENV_BIN = ROOT / ".venv" / "bin"
BLOCK = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"`((?:make [a-z]|\.venv/bin/[^`\s]+ )[^`\n]*)`")
SERVERS = (".venv/bin/kiosk run", ".venv/bin/flask --app kiosk run")


def command_lines(text: str) -> list[str]:
    """The README's command lines: its ``sh`` blocks' lines, then inline ``make``/venv ones."""
    found: list[str] = []
    for block in BLOCK.findall(text):
        for line in block.splitlines():
            command = strip_comment(line)
            if command:
                found.append(command)
    found.extend(m.strip() for m in INLINE.findall(text))
    return list(dict.fromkeys(found))


def strip_comment(line: str) -> str:
    """The line without its ``# comment`` (a ``#`` inside quotes or a word stays)."""
    return re.split(r"\s+#\s", " " + line.strip(), maxsplit=1)[0].strip()


def how_to_try(command: str) -> str:
    """The line as run here: as written, or as the quick check of a long-running one."""
    words = shlex.split(command)
    if words[0] == "make":
        return "make -n " + " ".join(words[1:])
    if "gunicorn" in command:
        return command.replace(".venv/bin/gunicorn", ".venv/bin/gunicorn --check-config", 1)
    if any(server in command for server in SERVERS):
        return command + " --help"
    return command


def run(command: str) -> subprocess.CompletedProcess[str]:
    """Run a line in bash from the repository's folder, with the environment a shell has."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIOSK_", "FLASK_"))}
    return subprocess.run(
        ["bash", "-c", command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


LINES = command_lines(README.read_text(encoding="utf-8"))


def test_the_readme_shows_the_commands_a_newcomer_needs():
    assert {"make run", "make test", "make kiosk"} <= set(LINES)
    assert ".venv/bin/kiosk --version" in LINES
    assert ".venv/bin/python -m kiosk --help" in LINES
    assert any(line.startswith(".venv/bin/kiosk check") for line in LINES)
    bare = [line for line in LINES if re.match(r"^(KIOSK_\w+=\S+ )?(kiosk|flask|gunicorn) ", line)]
    assert not bare, f"commands not found on a fresh clone's PATH: {bare}"


OUTSIDE = re.compile(r"\.\./shared|\bshared/(design|facts|seeds)\b|(?<![\w/])design\.md")
SKIPPED = {".git", ".venv", "node_modules", "test-artifacts", "__pycache__", ".pytest_cache"}


def project_files() -> list[Path]:
    """The project's text files: docs, code, content, templates, build files."""
    found = []
    for path in ROOT.rglob("*"):
        if SKIPPED & set(path.relative_to(ROOT).parts) or not path.is_file():
            continue
        if path.suffix in {".md", ".py", ".html", ".js", ".css", ".toml", ".txt"} or path.name in {
            "Makefile",
            "run",
        }:
            found.append(path)
    return found


def test_nothing_points_outside_the_repository():
    """A clone has no ../shared: the project's design lives in docs/architecture.md."""
    assert "docs/architecture.md" in README.read_text(encoding="utf-8")
    assert (ROOT / "docs" / "architecture.md").is_file()
    this = Path(__file__).resolve()
    pointing = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in project_files()
        if path.resolve() != this
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not pointing, f"files that point outside the repository: {pointing}"


@pytest.mark.skipif(not (VENV_BIN / "kiosk").exists(), reason="no .venv: run `make run` first")
@pytest.mark.parametrize("command", LINES)
def test_every_readme_command_works_as_written(command):
    done = run(how_to_try(command))
    assert done.returncode == 0, f"{command!r} failed:\n{done.stdout[-1500:]}{done.stderr[-1500:]}"


@pytest.mark.skipif(not (VENV_BIN / "kiosk").exists(), reason="no .venv: run `make run` first")
def test_kiosk_version_and_python_m_kiosk_agree():
    version = run(".venv/bin/kiosk --version").stdout.strip()
    assert re.fullmatch(r"kiosk, version \d+\.\d+\.\d+\S*", version), version
    assert run(".venv/bin/python -m kiosk --version").stdout.strip() == version
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "check", "content"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and "0 problems" in done.stdout, done.stdout + done.stderr


def test_make_run_installs_no_test_tools():
    """`make run` installs the package and its runtime dependencies; `make test` the extras."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    run_stamp = re.search(r"^\$\(STAMP\):.*?(?=^\S)", makefile, re.S | re.M)
    assert run_stamp and "pip install --quiet -e .\n" in run_stamp.group(0)
    assert "[test]" not in run_stamp.group(0)
    assert re.search(r"^run: \$\(STAMP\)$", makefile, re.M)
    assert re.search(r"^test: \$\(TEST_STAMP\)", makefile, re.M)
