"""The two YAML slips curators make most (a quote not closed on its line, a line indented to no
field's column), told at their own line: PyYAML says where it gave up, often lines later.
"""

from __future__ import annotations

import re

# A value that starts with a quote: after "key: ", after "- ", or both ("- name: 'x").
QUOTED = re.compile(
    r"^(?P<lead>[ \t]*(?:-[ \t]+(?:[^\s\"'#][^:#]*:[ \t]+)?|[^\s\"'#-][^:#]*:[ \t]+))(?P<q>[\"'])"
)
KEY = re.compile(r"^(?P<indent> *)(?:(?P<dash>-) +)?(?P<key>[^\s\"'#-][^:#]*):(?:[ \t]|$)")
SCALAR_BLOCK = re.compile(r":[ \t]*[|>][-+]?[0-9]?[ \t]*(?:#.*)?$")  # "key: >-"
BLOCK = re.compile(
    r":[ \t]*(?:[|>][-+]?[0-9]?)?[ \t]*(?:#.*)?$"
)  # "key:" or "key: >-": a block follows


def _closes(rest: str, quote: str) -> bool:
    """Whether ``rest`` (the text after an opening quote) closes it on the same line."""
    if quote == "'":
        return "'" in rest.replace("''", "")  # '' is a quote inside the value
    i = 0
    while i < len(rest):
        if rest[i] == "\\":
            i += 2
            continue
        if rest[i] == '"':
            return True
        i += 1
    return False


def unclosed_quote(lines: list[str], upto: int) -> tuple[int, int, str] | None:
    """The last value to line ``upto`` whose quote is open at its end: (index, col, quote)."""
    found, block = None, -1  # block: the indent of a key whose block scalar we are in
    for n, line in enumerate(lines[: upto + 1]):
        indent = len(line) - len(line.lstrip(" "))
        if block >= 0 and (indent > block or not line.strip()):
            continue  # a line of a folded or literal block: its quotes are text
        key = KEY.match(line)
        block = indent if key and SCALAR_BLOCK.search(line) else -1
        match = QUOTED.match(line)
        if match and not _closes(line[match.end() :], match["q"]):
            found = (n, match.end("lead"), match["q"])
    return found


def _columns_above(lines: list[str], n: int) -> tuple[set[int], str, int] | None:
    """Columns a field on line ``n`` may start at, and the key above and where it starts."""
    above = next((i for i in range(n - 1, -1, -1) if lines[i].strip()), None)
    if above is None:
        return None
    first = KEY.match(lines[above])
    if first is None:
        return None
    key_col = lines[above].index(first["key"], len(first["indent"]))
    allowed = {key_col}
    if first["dash"]:
        allowed.add(len(first["indent"]))
    if BLOCK.search(lines[above]):
        return None  # the line above opens a block: a deeper line is its value
    level = len(first["indent"])
    for i in range(above - 1, -1, -1):
        match = KEY.match(lines[i])
        if match is None or not lines[i].strip():
            continue
        indent = len(match["indent"])
        if indent < level:
            allowed.add(indent)
            if match["dash"]:
                allowed.add(lines[i].index(match["key"], indent))
            level = indent
    return allowed, first["key"].strip(), key_col


def bad_indent(lines: list[str], n: int) -> tuple[int, str] | None:
    """Line ``n`` (0-based) indented to a column no field above it uses: (column, words)."""
    if not 0 <= n < len(lines):
        return None
    match = KEY.match(lines[n])
    if match is None:
        return None
    found = _columns_above(lines, n)
    if found is None:
        return None
    allowed, key_above, key_col = found
    col = len(match["indent"])
    if col in allowed:
        return None
    spaces = "space" if col == 1 else "spaces"
    return col, (
        f"this line is indented {col} {spaces}, which lines it up with no field above it:"
        + (
            f" to go with '{key_above}:' on the line above, indent it {key_col} spaces"
            if key_col
            else f" to go with '{key_above}:' on the line above, start it at the line's beginning"
        )
    )


def explain(front: str, line: int, col: int) -> tuple[int, int, str] | None:
    """The slip behind a YAML error at ``line``:``col``, at its own position, or None."""
    lines = front.splitlines()
    n = line - 2
    indent = bad_indent(lines, n)
    if indent is not None:
        return line, indent[0] + 1, indent[1]
    quote = unclosed_quote(lines, min(n, len(lines) - 1))
    if quote is not None:
        at, column, mark = quote
        name = 'double quote (")' if mark == '"' else "single quote (')"
        return (
            at + 2,
            column + 1,
            f"the {name} that starts this value is not closed on its line: end the value"
            f" with {mark}, or remove the quote",
        )
    return None
