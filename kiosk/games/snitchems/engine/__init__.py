"""Snitch'ems, the two-player fishing game of 1797 (every reading: snitchems/rules.md)."""

from __future__ import annotations

from kiosk.games.core import places
from kiosk.games.snitchems.engine.bots import make_bot
from kiosk.games.snitchems.engine.captures import KINDS, TARGETS, Capture, captures_for, rank_of
from kiosk.games.snitchems.engine.check import check_event
from kiosk.games.snitchems.engine.game import GAME_TYPE
from kiosk.games.snitchems.engine.options import (
    ACTION_FIELDS,
    GAME,
    HAND_SIZE,
    LAYOUT_SIZE,
    LEVEL_OPTION,
    LEVELS,
    VARIANTS,
    SnitchemsOptions,
    default_deck,
    kiosk_bound,
    options_for,
    options_from_json,
)
from kiosk.games.snitchems.engine.rules import (
    State,
    all_captures,
    apply,
    is_over,
    legal_actions,
    new_game,
    public_state,
    replay,
    result,
    to_move,
)
from kiosk.games.snitchems.engine.view import view
from kiosk.games.snitchems.engine.words import describe, sentences
