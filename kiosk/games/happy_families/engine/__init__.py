"""Happy Families by the Twizzles rule card, with its variation: an event-sourced engine.

Seed: the Twizzles rule card. Every decision the card leaves open is written down, with its
words, in ``kiosk/games/happy_families/rules.md``; the short version:

* three to eight players ("any number more than two"); two is refused, since a two-player
  game leaves nothing to remember: every card you lack is in the one other hand;
* the deck is any number (two or more) of complete families of four; :func:`playable_deck`
  drops incomplete families from a catalogue deck;
* the dealer is drawn from the game's RNG (or fixed by the ``dealer`` option); cards are dealt
  singly, one to each player from the dealer's left, until the pack is gone;
* a complete family is laid down as a trick at once: at the deal and the moment it completes;
* the asker may ask only a player who holds cards (hand sizes are public, so asking an empty
  hand is a question with a known answer) for a card they lack of a family they hold;
* a player left with no cards is skipped: the turn goes to the next player on the left who
  still holds cards;
* when every family is down the game is over (most tricks wins, ties share the win) or, with
  the variation, the player with most tricks (the first from the dealer's left on a tie)
  starts claiming whole tricks;
* kiosk bounds, not historic: ``max_asks`` and ``max_claims`` end a game that runs too long.

This module is the engine the registry names (:class:`kiosk.games.core.Engine`); the work is
done in its parts: ``options``, ``deck``, ``state``, ``rules``, ``view``, ``check`` (traces),
``words`` and ``bots``.
"""

from __future__ import annotations

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
    places,
    public_state,
    result,
    to_move,
    trick_counts,
    trick_families,
)
from kiosk.games.happy_families.engine.view import view
from kiosk.games.happy_families.engine.words import REFUSAL, ask_words, family_words, sentences
