"""Real Woolworths games played a long way in, for the benchmarks that time a game's actions.

One visitor against two medium computer players, played through the functions the views
use (the visitor calls Snap! on every third match), with the kiosk's turn bound lifted so a
game can last that long.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from kiosk.games.snap import engine as snap
from kiosk.games.snap.web import GAME, next_action
from kiosk.web import tokens
from kiosk.web.play import flow
from kiosk.web.play.games import HUMAN, Played

SET = "misc-869-1986"
SETUP = {"variant": "woolworths", "bots": "2", "level": "medium"}  # the setup page's form


def played(app: Any, nonce: str, actions: int) -> tuple[str, str] | None:
    """The token of the game dealt from ``nonce`` once ``actions`` actions in, and what its
    page would send next (``next`` when its Next button is enabled, else ``turn``); None if
    the game ends sooner."""
    with app.test_request_context():
        _, set_record = flow.game_or_404(GAME.slug, SET)
        options, settings = GAME.start(set_record, SETUP)
        options = dataclasses.replace(options, max_turns=None)
        record = dataclasses.replace(
            flow.new_record(GAME, set_record, options, settings), nonce=nonce
        )
        deck = flow.deck_and_fingerprint(GAME, set_record)[0]
        state, _ = snap.new_game(deck, options, tokens.seed_for(record.nonce))
        game = Played(record, state)
        while len(game.record.actions) < actions and not state.over:
            w = state.window
            n = len(game.record.actions)
            if w is not None and w.snap and not w.calls and n % 3 == 0 and not state.out[HUMAN]:
                action = {"type": "call", "player": HUMAN, "turn": w.turn, "reaction_ms": 500.0}
            else:
                action = next_action(game)
                if action is None and state.out[HUMAN]:
                    return None
                action = action or {"type": "turn", "player": HUMAN}
            GAME.play(game, action)
            state = game.state  # apply makes a new state: the loop reads the game's
        if state.over or len(game.record.actions) < actions:
            return None
        what = "next" if next_action(game) is not None else "turn"
        return tokens.dump(game.record), what
