"""The computer's think time per move on the play pages (target: p99 <= 50 ms).

Run: ``.venv/bin/python benchmarks/bench_think.py [--games N]``

``bench_bots.py`` times the bots on the engines' own decks; this times what the play pages
do for each computer move, on the real sets (Twizzles' recorded families, the 52-card pack
for Snitch'ems), with the kiosk's own players and levels:

* ``act``: the bot's choice, given its view (the think time proper);
* ``move``: rebuilding the game from its signed record (replayed in full, by an app whose
  state cache is off: the worst case, a worker that has not seen the game), the view, the
  choice and the apply: all the server's game work for one computer move;
* ``request``: the whole "Next" POST through the Flask test client (token check, the game
  rebuilt, usually from the state this app kept, move, HTML rendering, new token), the figure
  a visitor waits for, network aside.

The baseline is a no-op (the first legal action) timed on the same views in the same run.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk import create_app
from kiosk.games.happy_families import web as happy_families
from kiosk.games.snitchems import web as snitchems
from kiosk.web import tokens
from kiosk.web.play import flow
from kiosk.web.play.games import HUMAN, TurnGame

TOKEN = re.compile(r'name="token" value="([^"]*)"')
STEP = re.compile(r'name="step" value="([^"]*)"')


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def visitor_move(module: Any, game: Any) -> dict[str, Any]:
    """The visitor's move: the first legal action (the figures are for the computer)."""
    return module.legal_actions(game.state, HUMAN)[0]


def measure(
    replayer: Any, client: Any, plugin: TurnGame, level: str, games: int
) -> dict[str, list[float]]:
    """Play ``games`` games through the web layer, timing every computer move three ways
    (``replayer``: the app that rebuilds the games outside the requests, its cache off)."""
    module = plugin.engine
    if plugin is happy_families.GAME:
        slug = "twizzles-happy-families"
        form = {"bots": "3", "level": level, "variant": "variation"}
    else:
        slug = "snitchems-1797"
        form = {"level": level}
    path = f"/sets/{slug}/play/{plugin.slug}"
    out: dict[str, list[float]] = {"base": [], "act": [], "move": [], "request": []}
    for _ in range(games):
        html = client.post(path, data=form).get_data(as_text=True)
        token = TOKEN.search(html).group(1)
        with replayer.test_request_context():
            set_record = flow.game_or_404(plugin.slug, slug)[1]
            while True:
                record = tokens.load(token, plugin.slug)
                t0 = time.perf_counter()
                game = flow.rebuild(plugin, record, set_record)
                if module.is_over(game.state):
                    break
                if game.state.turn == HUMAN:
                    plugin.play(game, visitor_move(module, game))
                    token = tokens.dump(game.record)
                    continue
                seat = game.state.turn
                seed = f"{tokens.seed_for(record.nonce)}:{len(record.actions)}"
                bot = module.make_bot(level, seat, seed)
                view = module.view(game.state, seat)
                t1 = time.perf_counter()
                action = bot.act(view)
                t2 = time.perf_counter()
                plugin.play(game, action)
                t3 = time.perf_counter()
                view["legal"][0]  # the no-op baseline: the first legal action
                t4 = time.perf_counter()
                out["act"].append((t2 - t1) * 1000)
                out["move"].append((t3 - t0) * 1000)
                out["base"].append((t4 - t3) * 1000)
                # the same move again, as the page asks for it
                step = str(len(record.actions))
                t5 = time.perf_counter()
                response = client.post(
                    f"{path}/act", data={"token": token, "step": step, "move": "next"}
                )
                t6 = time.perf_counter()
                assert response.status_code == 200
                out["request"].append((t6 - t5) * 1000)
                token = TOKEN.search(response.get_data(as_text=True)).group(1)
    return out


def main() -> None:
    """Print p50, p99 and max per game and level, and the verdict on the 50 ms target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per row (default 60)")
    args = parser.parse_args()
    app = create_app({"TESTING": True, "SECRET_KEY": "bench-think"})
    replayer = create_app({"TESTING": True, "SECRET_KEY": "bench-think", "PLAY_STATE_CACHE": 0})
    client = app.test_client()
    print(
        f"{'game':16} {'level':12} {'moves':>6} {'what':8} {'p50':>8} {'p99':>8} {'max':>8}   (ms)"
    )
    worst = {"act": 0.0, "move": 0.0, "request": 0.0}
    for plugin in (happy_families.GAME, snitchems.GAME):
        kind = plugin.slug
        for level in plugin.engine.LEVELS:
            row = measure(replayer, client, plugin, level, args.games)
            for what in ("base", "act", "move", "request"):
                values = row[what]
                p99 = percentile(values, 99)
                if what in worst:
                    worst[what] = max(worst[what], p99)
                print(
                    f"{kind:16} {level:12} {len(values):6d} {what:8} "
                    f"{statistics.median(values):8.3f} {p99:8.3f} {max(values):8.3f}"
                )
    for what, value in worst.items():
        verdict = "meets" if value <= 50 else "MISSES"
        print(f"worst p99 {what:8}: {value:7.3f} ms: {verdict} the 50 ms target")


if __name__ == "__main__":
    main()
