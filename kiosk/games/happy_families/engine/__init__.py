"""Happy Families by the Twizzles rule card (every reading: happy_families/rules.md)."""

from __future__ import annotations

from kiosk.games.core import places
from kiosk.games.happy_families.engine.bots import make_bot
from kiosk.games.happy_families.engine.check import check_event
from kiosk.games.happy_families.engine.deck import (
    FAMILY_SIZE,
    default_deck,
    generic_deck,
    playable_deck,
)
from kiosk.games.happy_families.engine.game import GAME_TYPE
from kiosk.games.happy_families.engine.options import (
    ACTION_FIELDS,
    GAME,
    LEVEL_OPTION,
    LEVELS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    VARIANTS,
    FamiliesOptions,
    kiosk_bound,
    options_for,
    options_from_json,
)
from kiosk.games.happy_families.engine.rules import apply, legal_actions, new_game, replay
from kiosk.games.happy_families.engine.state import (
    State,
    family_cards,
    is_over,
    names,
    public_state,
    result,
    to_move,
    trick_counts,
    trick_families,
)
from kiosk.games.happy_families.engine.view import view
from kiosk.games.happy_families.engine.words import REFUSAL, ask_words, family_words, sentences
