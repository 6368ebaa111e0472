"""Real Woolworths games played a long way in, for the benchmarks that time a game's actions.

One visitor against two medium computer players, played through the functions the views
use (the visitor calls Snap! on every third match), with the kiosk's turn bound lifted so a
game can last that long.
"""

from __future__ import annotations

from typing import Any

from kiosk.games import snap
from kiosk.web import play, tokens

SET = "misc-869-1986"


def played(app: Any, nonce: str, actions: int) -> tuple[str, str] | None:
    """The token of the game dealt from ``nonce`` once ``actions`` actions in, and what its
    page would send next (``next`` when its Next button is enabled, else ``turn``); None if
    the game ends sooner."""
    with app.test_request_context():
        deck = play.deck_of(play.set_or_404(SET))
        record = play.start_record(SET, deck, "woolworths", 2, "medium")
        record = tokens.GameRecord(
            **{
                **record.__dict__,
                "nonce": nonce,
                "options": {**record.options, "max_turns": None},
            }
        )
        options = snap.options_from_json(record.options)
        state, _ = snap.new_game(deck, options, tokens.seed_for(record.nonce))
        game = play.Game(record, state, [])
        while len(game.record.actions) < actions and not state.over:
            w = state.window
            n = len(game.record.actions)
            if w is not None and w.snap and not w.calls and n % 3 == 0 and not state.out[0]:
                action = {"type": "call", "player": 0, "turn": w.turn, "reaction_ms": 500.0}
            else:
                action = play.next_action(game)
                if action is None and state.out[0]:
                    return None
                action = action or {"type": "turn", "player": 0}
            play.play(game, action)
        if state.over or len(game.record.actions) < actions:
            return None
        what = "next" if play.next_action(game) is not None else "turn"
        return tokens.dump(game.record), what
