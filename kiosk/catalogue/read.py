"""Stage 1, read: bytes → text → front matter (safe YAML) + markdown body, with every key
path's file line and column so later stages can point at the spot; never raises for content.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from kiosk.catalogue.problems import Problem
from kiosk.catalogue.yaml_slips import explain

KeyPath = tuple[str | int, ...]
Position = tuple[int, int]

# Limits on one file (docs/curators.md, "Limits"): far beyond any real record, and quick to read
MAX_FILE_BYTES = 256 * 1024
MAX_YAML_DEPTH = 20  # mappings and lists inside each other in the front matter

# python-frontmatter's boundary: a line of three or more hyphens (trailing blanks allowed).
BOUNDARY = re.compile(r"-{3,}[ \t]*\r?\n?")


# The YAML slips curators make most, and what to do about them.
HINTS = {
    "mapping values are not allowed here": "put the value in quotes if it contains ': '",
    "found character '\\t' that cannot start any token": "indent with spaces, not tabs",
}


class ContentLoader(yaml.SafeLoader):
    """The safe loader in pure Python (the same errors everywhere), dates kept as historic text."""

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        """Refuse aliases before any expansion, and nesting before the composer's recursion."""
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None,
                None,
                f"aliases (*{event.anchor}) are not allowed in content files: write the value out",
                event.start_mark,
            )
        depth = getattr(self, "_depth", 0)
        if depth >= MAX_YAML_DEPTH:
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None,
                None,
                f"nested more than {MAX_YAML_DEPTH} levels deep: content needs far fewer",
                event.start_mark,
            )
        self._depth = depth + 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth = depth


ContentLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@dataclass(frozen=True)
class SourceFile:
    """One content file after reading: its data (None if unreadable), body and positions."""

    path: str  # as shown to curators
    data: dict[str, Any] | None
    body: str = ""
    body_line: int = 1  # the file line the body starts on
    positions: dict[KeyPath, Position] = field(default_factory=dict)  # value node starts
    key_positions: dict[KeyPath, Position] = field(default_factory=dict)  # mapping key starts
    problems: tuple[Problem, ...] = ()
    front: str = ""  # the front matter as written (for messages quoting a line, and guesses)

    def position(self, path: KeyPath) -> Position:
        """The nearest known position for a key path: the value, else its closest ancestor."""
        path = tuple(path)
        while path:
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return self.positions.get((), (1, 1))

    def body_position(self, offset: int) -> Position:
        """The file line and column of ``offset`` in the body."""
        line = self.body_line + self.body.count("\n", 0, offset)
        return line, offset - (self.body.rfind("\n", 0, offset) + 1) + 1

    def key_position(self, path: KeyPath) -> Position:
        """Where the key of ``path`` is written (for sequence items: where the item starts)."""
        path = tuple(path)
        if path in self.key_positions:
            return self.key_positions[path]
        return self.position(path)

    def problem(
        self, path: KeyPath, message: str, key: bool = False, level: str = "error"
    ) -> Problem:
        """A problem at ``path``'s value (``key``: at its key, or where its item starts)."""
        at = self.key_position(path) if key else self.position(path)
        return Problem(self.path, *at, message, level)


def _line_col(data: bytes, offset: int) -> Position:
    line = data.count(b"\n", 0, offset) + 1
    col = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return line, col


def decode(path: str, raw: bytes) -> tuple[str | None, list[Problem]]:
    """Bytes → text: empty, binary (NUL byte) and non-UTF-8 files are problems."""
    if not raw.strip():
        return None, [Problem(path, 1, 1, "empty file: a content file needs front matter")]
    nul = raw.find(b"\0")
    if nul >= 0:
        line, col = _line_col(raw, nul)
        return None, [Problem(path, line, col, "binary file (NUL byte): not a markdown file")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _line_col(raw, exc.start)
        bad = raw[exc.start : exc.start + 1].hex()
        return None, [Problem(path, line, col, f"not UTF-8 (byte 0x{bad}): save the file as UTF-8")]
    return text.removeprefix("\ufeff"), []


def split(path: str, text: str) -> tuple[str | None, str, int, list[Problem]]:
    """Split ``---``-fenced front matter from the body: (front, body, body line, problems)."""
    first = BOUNDARY.match(text)
    if first is None or (first.end() != len(text) and text[first.end() - 1] != "\n"):
        return (
            None,
            "",
            1,
            [Problem(path, 1, 1, "no front matter: the file must start with a line '---'")],
        )
    lines = text[first.end() :].splitlines(keepends=True)
    for n, line in enumerate(lines):
        if BOUNDARY.fullmatch(line):
            front = "".join(lines[:n])
            body = "".join(lines[n + 1 :])
            return front, body, n + 3, []
    return (
        None,
        "",
        1,
        [Problem(path, 1, 1, "front matter is not closed: add a line '---' after it")],
    )


def _walk(
    node: yaml.Node,
    path: KeyPath,
    positions: dict[KeyPath, Position],
    key_positions: dict[KeyPath, Position],
    problems: list[Problem],
    file_path: str,
) -> None:
    line, col = node.start_mark.line + 2, node.start_mark.column + 1
    positions[path] = (line, col)
    if isinstance(node, yaml.MappingNode):
        seen: set[Any] = set()
        for key_node, value_node in node.value:
            key: Any = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key is None:
                continue
            child = (*path, key)
            key_pos = (key_node.start_mark.line + 2, key_node.start_mark.column + 1)
            if key in seen:
                problems.append(Problem(file_path, *key_pos, f"duplicate key '{key}'"))
            seen.add(key)
            key_positions[child] = key_pos
            _walk(value_node, child, positions, key_positions, problems, file_path)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, (*path, i), positions, key_positions, problems, file_path)


def parse_front_matter(
    path: str, front: str
) -> tuple[Any, dict[KeyPath, Position], dict[KeyPath, Position], list[Problem]]:
    """YAML (safe loader) → data, with the file position of every key path."""
    positions: dict[KeyPath, Position] = {}
    key_positions: dict[KeyPath, Position] = {}
    problems: list[Problem] = []
    loader = ContentLoader(front)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, positions, key_positions, problems
        _walk(node, (), positions, key_positions, problems, path)
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 2, mark.column + 1) if mark else (2, 1)
        slip = explain(front, line, col) if mark else None
        if slip is not None:  # an unclosed quote or a bad indent, said where it is
            return None, positions, key_positions, [Problem(path, slip[0], slip[1], slip[2])]
        what = exc.problem or exc.context or "syntax error"
        context = exc.context_mark
        if exc.problem and exc.context and context is not None:
            what += f" ({exc.context} started at {context.line + 2}:{context.column + 1})"
        if exc.problem in HINTS:
            what += f": {HINTS[exc.problem]}"
        return None, positions, key_positions, [Problem(path, line, col, f"YAML: {what}")]
    except yaml.YAMLError as exc:  # pragma: no cover - every PyYAML error we know is marked
        return None, positions, key_positions, [Problem(path, 2, 1, f"YAML: {exc}")]
    finally:
        loader.dispose()
    return data, positions, key_positions, problems


def read_text(path: str, text: str) -> SourceFile:
    """Text of one file → SourceFile (front matter must be a YAML mapping)."""
    front, body, body_line, problems = split(path, text)
    if front is None:
        return SourceFile(path, None, problems=tuple(problems))
    data, positions, key_positions, yaml_problems = parse_front_matter(path, front)
    problems += yaml_problems
    if yaml_problems and data is None:
        return SourceFile(path, None, body, body_line, problems=tuple(problems), front=front)
    if not isinstance(data, dict):
        line, col = positions.get((), (2, 1))
        what = "empty" if data is None else f"a {type(data).__name__}"
        message = f"front matter must be a mapping of 'field: value' lines, not {what}"
        problems.append(Problem(path, line, col, message))
        return SourceFile(path, None, body, body_line, problems=tuple(problems))
    return SourceFile(path, data, body, body_line, positions, key_positions, tuple(problems), front)


TOP_LEVEL = re.compile(r"^(kind|slug|accession):[ \t]*[\"']?([^\"'#\n]*?)[\"']?[ \t]*$", re.M)


def claimed_key(source: SourceFile) -> tuple[str, str] | None:
    """The (kind, slug) an unreadable file seems to define: its references are not reported."""
    found = {name: value.strip() for name, value in TOP_LEVEL.findall(source.front)}
    kind, slug = found.get("kind"), found.get("slug")
    if not slug and found.get("accession"):
        slug = re.sub(r"[^a-z0-9]+", "-", found["accession"].lower()).strip("-")
    return (kind, slug) if kind and slug else None


def too_big(path: str, size: int) -> Problem | None:
    """The size limit's problem for a file of ``size`` bytes, or None when it is within it."""
    if size <= MAX_FILE_BYTES:
        return None
    return Problem(
        path,
        1,
        1,
        f"file is {size // 1024} KB: a content file may be at most {MAX_FILE_BYTES // 1024} KB"
        " (split it, or move long text to a page of its own)",
    )


def read_bytes(path: str, raw: bytes, size: int = 0) -> SourceFile:
    """Bytes of one file → SourceFile; ``size``: the file's on disk, when ``raw`` was capped."""
    big = too_big(path, max(size, len(raw)))
    if big is not None:
        return SourceFile(path, None, problems=(big,))
    text, problems = decode(path, raw)
    if text is None:
        return SourceFile(path, None, problems=tuple(problems))
    return read_text(path, text)
