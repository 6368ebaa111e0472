"""Snap: one event-sourced engine for every variant in the seeds (snap/rules.md)."""

from __future__ import annotations

from kiosk.games.snap.engine.bots import LEVEL_INFO, LEVELS, make_bot
from kiosk.games.snap.engine.check import check_event
from kiosk.games.snap.engine.game import GAME_TYPE
from kiosk.games.snap.engine.options import (
    ACTION_FIELDS,
    BASIC,
    DIAGRAM,
    FALSE_START_MS,
    GAME,
    KIOSK_MAX_TURNS,
    LAYOUTS,
    LEVEL_OPTION,
    MAX_PLAYERS,
    MAX_REACTION_MS,
    PENALTIES,
    TIE_WINDOW_MS,
    VARIANTS,
    WOOLWORTHS,
    BadReaction,
    SnapOptions,
    check_options,
    default_deck,
    kiosk_bound,
    options_for,
    options_from_json,
)
from kiosk.games.snap.engine.rules import (
    apply,
    can_turn,
    is_over,
    legal_actions,
    new_game,
    replay,
    result,
    to_move,
)
from kiosk.games.snap.engine.state import SnapState, Window, card_json, expand_deck
from kiosk.games.snap.engine.view import places, public_state, view
from kiosk.games.snap.engine.words import (
    MISTAKE_WORDS,
    badge,
    plural,
    result_words,
    said,
    sentences,
)
