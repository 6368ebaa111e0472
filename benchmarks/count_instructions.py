"""Instructions per played-on Snap action, counted by valgrind: a figure the machine's load
cannot move.

The same client as ``bench_capacity.py`` (the setup's choices with two computer players,
then Next when enabled, else Turn your card, and a new game when one ends), through the
WSGI app in one process (Flask's test client, production settings, as htmx posts), for the
working tree and, with ``--against REV``, the code at REV (a temporary git worktree). Each
tree is counted twice under ``valgrind --tool=cachegrind --cache-sim=no``, playing ``--short``
and ``--long`` actions after the same warm-up, so start-up, imports and the first renders
cancel out: instructions per action = (long - short) / (long - short actions). Every game
has its own nonce, the same in every run, so both trees play the same games.

    .venv/bin/python benchmarks/count_instructions.py --against d798835
    .venv/bin/python benchmarks/count_instructions.py --short 100 --long 400

Valgrind runs Python about 50 times slower: the default counts take about two minutes a tree.
"""

from __future__ import annotations

import argparse
import inspect
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import bench_capacity  # noqa: E402  (kiosk-free: its client's helpers)
from benchmarks.bench_capacity import short, worktree  # noqa: E402

WARM = 150  # actions played before counting starts in both runs: templates compiled, caches full

# The played-on actions, in the tree's own process: argv is (actions, warm-up actions).
CHILD = """
import sys
from kiosk import create_app
app = create_app()
client = app.test_client()
games = 0
def new_game():
    global games
    games += 1
    app.config["PLAY_NONCE"] = f"count-instructions-{games}"
    return client.post(SETUP, data=CHOICES, headers=HTMX).get_data(as_text=True)
page = client.get(SETUP).get_data(as_text=True)
CHOICES = setup_choices(page)
page = new_game()
for _ in range(int(sys.argv[1]) + int(sys.argv[2])):
    form = next_form(page)
    page = new_game() if form is None else client.post(ACT, data=form, headers=HTMX).get_data(
        as_text=True
    )
"""


def _child_source() -> str:
    """The child's program: the client's helpers, then the played-on actions."""
    b = bench_capacity
    helpers = "\n".join(inspect.getsource(f) for f in (b.controls, b.next_form, b.setup_choices))
    head = (
        "import html, re\n"
        f"TAG_RE = re.compile({b.TAG_RE.pattern!r})\n"
        f"ATTR_RE = re.compile({b.ATTR_RE.pattern!r})\n"
        f"SETUP, ACT, HTMX = {b.SETUP!r}, {b.ACT!r}, {b.HTMX!r}\n"
    )
    return head + helpers + CHILD


def count(tree: Path, actions: int, secret: str) -> int:
    """Instructions valgrind counts for the child playing ``actions`` after the warm-up."""
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "child.py"
        program.write_text(_child_source())
        out = Path(tmp) / "cachegrind.out"
        env = {**os.environ, "PYTHONPATH": str(tree), "KIOSK_SECRET_KEY": secret}
        done = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={out}",
                sys.executable,
                str(program),
                str(actions),
                str(WARM),
            ],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if done.returncode != 0 or not found:
            raise RuntimeError(f"valgrind on {tree} failed:\n{done.stderr[-3000:]}")
        return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", metavar="REV", help="also count the code at git REV")
    parser.add_argument("--short", type=int, default=50, help="actions of the short run")
    parser.add_argument("--long", type=int, default=250, help="actions of the long run")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    if args.long <= args.short:
        sys.exit("--long must be more than --short")
    secret = "count-instructions-" + secrets.token_hex(16)
    print(
        f"instructions per played-on action: ({args.long} - {args.short} actions), after "
        f"{WARM} warm-up actions, in process (test client), valgrind cachegrind"
    )
    with ExitStack() as stack:
        trees = {f"tree@{short('HEAD')}": ROOT}
        if args.against:
            trees[args.against] = stack.enter_context(worktree(args.against))
        per_action = {}
        for label, tree in trees.items():
            low, high = count(tree, args.short, secret), count(tree, args.long, secret)
            per_action[label] = (high - low) / (args.long - args.short)
            print(f"  {label:<16} {per_action[label] / 1e6:6.2f} M instructions an action")
    if args.against:
        tree_label = next(iter(per_action))
        ratio = per_action[tree_label] / per_action[args.against]
        print(f"  ratio {tree_label} / {args.against}: {ratio:.2f}")


if __name__ == "__main__":
    main()
