"""Snitch'ems, the two-player English fishing game of 1797: an event-sourced engine.

Seed: a modern description of the 1797 game. Decisions (``kiosk/games/snitchems/rules.md``):

* the dealer is drawn from the game's RNG (or fixed by ``dealer``); cards are dealt singly,
  the non-dealer first, three each; the first deal also lays four cards face up as a 2×2
  layout; later deals go to the players only; 4 + 8 × 6 = 52, so eight deals;
* one game is one hand: "the deal moves to the other player" is for the next game, which
  :func:`result` names as ``next_dealer``;
* the non-dealer starts and the players alternate, one card a turn;
* captures (one a turn, the player chooses which): **pairing** takes every table card of the
  played card's rank (option ``pairing_takes_all``); **making 8 or 10**: the played number
  card plus one or more table number cards adding up to 8 or 10 (option
  ``making_several``); **pairing 8s or 10s**: a made 8 or 10 together with the table's 8s
  or 10s (option ``pairing_made_takes_all``);
* a pair-royal (three or four of a kind) is a pairing capture of two or three table cards:
  it scores only its cards, and the capture event says ``"pair_royal": true``;
* capture is compulsory: a card may be laid only when no card in hand can capture;
* a sweep (the table emptied) is marked by a ``sweep`` event; the opponent then simply lays;
* at the end the last capturer takes what is left on the table; most cards wins, a tie is
  a draw.

This module is the engine the registry names (:class:`kiosk.games.core.Engine`); the work is
done in its parts: ``options``, ``captures``, ``rules``, ``view``, ``check`` (traces),
``words`` and ``bots``.
"""

from __future__ import annotations

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
    places,
    public_state,
    replay,
    result,
    to_move,
)
from kiosk.games.snitchems.engine.view import view
from kiosk.games.snitchems.engine.words import describe, sentences
