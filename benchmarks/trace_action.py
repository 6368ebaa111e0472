"""What one played-on Snap action walks through: the kiosk's modules and templates it enters
and how often it switches between layers (engine, catalogue, web, templates).

The same client and games as ``count_instructions.py`` (after its warm-up), one more action
traced with ``sys.setprofile``: every call into a file of the kiosk's (its Python and its
templates) is noted; a switch is a call whose layer differs from the previous such call's.

    .venv/bin/python benchmarks/trace_action.py [--against REV]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_capacity import short, worktree  # noqa: E402
from benchmarks.count_instructions import WARM, _child_source  # noqa: E402

TRACED = """
import json, os
ROOT = os.getcwd() + os.sep
def layer(path):
    rel = path[len(ROOT):]
    if rel.endswith(".html"):
        return "templates"
    if rel.startswith("kiosk/games/"):  # a game's web part is the web's, the rest the engines'
        return "web" if rel.endswith("/web.py") or "/web/" in rel else "engine"
    return rel.split("/")[1]  # web, catalogue, memo.py, ...
entered, switches, last = set(), 0, None
def profile(frame, event, arg):
    global switches, last
    path = frame.f_code.co_filename
    if event != "call" or not path.startswith((ROOT + "kiosk", ROOT + "templates")):
        return
    entered.add(path[len(ROOT):])
    now = layer(path)
    switches += last is not None and now != last
    last = now
form = next_form(page)
sys.setprofile(profile)
client.post(ACT, data=form, headers=HTMX).get_data()
sys.setprofile(None)
print(json.dumps({"entered": sorted(entered), "switches": switches}))
"""


def trace(tree: Path) -> dict:
    """The modules and templates one action enters in ``tree``, and its layer switches."""
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "child.py"
        program.write_text(_child_source() + TRACED)
        done = subprocess.run(
            [sys.executable, str(program), "0", str(WARM)],
            cwd=tree,
            env={"PYTHONPATH": str(tree), "KIOSK_SECRET_KEY": "trace-action"},
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", metavar="REV", help="also trace the code at git REV")
    parser.add_argument("--list", action="store_true", help="name every module entered")
    args = parser.parse_args()
    with ExitStack() as stack:
        trees = {f"tree@{short('HEAD')}": ROOT}
        if args.against:
            trees[args.against] = stack.enter_context(worktree(args.against))
        for label, tree in trees.items():
            found = trace(tree)
            modules = [m for m in found["entered"] if m.endswith(".py")]
            print(
                f"  {label:<16} {len(modules)} modules and {len(found['entered']) - len(modules)}"
                f" templates entered, {found['switches']} layer switches"
            )
            if args.list:
                print("    " + "\n    ".join(found["entered"]))


if __name__ == "__main__":
    main()
