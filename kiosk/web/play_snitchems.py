"""Play Snitch'ems against the computer: two players, the 2×2 layout, eight deals.

No server state: the page carries a signed game record (:mod:`kiosk.web.tokens`); each POST
replays it with :func:`kiosk.games.snitchems.replay`, does one thing (pick a card, capture,
lay, let the computer play) and sends back the table and a new token. Picking a card is a
real form: the page comes back with that card chosen, the table cards it can take marked
and its legal captures as big buttons. ``families.js`` paces the computer's moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, current_app, render_template, request
from werkzeug.wrappers import Response

from kiosk.catalogue.decks import deck_for
from kiosk.catalogue.schema import SetRecord
from kiosk.games import snitchems as sn
from kiosk.games.cards import Card
from kiosk.games.core import Event, GameError, Hearer, IllegalAction
from kiosk.games.snitchems import words as snw
from kiosk.web import play as snap_play
from kiosk.web import tokens
from kiosk.web.cards import card_src
from kiosk.web.turn_play import (
    act_on_token,
    back_to_setup,
    new_record,
    replay_record,
    set_for_game,
)

bp = Blueprint("play_snitchems", __name__)

GAME = sn.GAME
HUMAN, COMPUTER = 0, 1
BOT_NAMES = {"beginner": "Learner Lou", "careful": "Careful Cora"}
LEVEL_WORDS = {
    "beginner": ("Just learning", "plays any card it may, and captures only when it must"),
    "careful": ("Thinks ahead", "takes the most it can and leaves you little"),
}
DEFAULT_LEVEL = "beginner"
PACE_MS = 1800  # time to read the computer's move before it plays again
RULES_STEPS = "/rules/snitchems/dealing"
MOVES = ("next", "pick", "unpick", "lay", "take")


def deck_of(set_record: SetRecord) -> list[Card]:
    """The set's deck (a standard 52 for the Snitch'ems set)."""
    return deck_for(set_record, include_flagged=False)


def encode_action(action: dict[str, Any]) -> list[Any]:
    """An engine action as a short list: ``["p", 0, "6H"]``, ``["c", 1, "4S", "making-8", […]]``."""
    if action["type"] == "play":
        return ["p", action["player"], action["card"]]
    return ["c", action["player"], action["card"], action["kind"], list(action["take"])]


def decode_action(item: Any) -> dict[str, Any]:
    """The engine action for a token's short list (raises BadToken("malformed"))."""
    try:
        code, player, card, *rest = item
        if code == "p" and not rest:
            return {"type": "play", "player": player, "card": card}
        if code == "c":
            kind, take = rest
            return {
                "type": "capture",
                "player": player,
                "card": card,
                "kind": kind,
                "take": list(take),
            }
        raise ValueError(code)
    except (TypeError, ValueError):
        raise tokens.BadToken("malformed", "an action in the record is not readable") from None


@dataclass
class Game:
    """A game rebuilt from its record, and the events of the last step (for the words)."""

    record: tokens.GameRecord
    state: sn.State
    new: list[Event]  # the events of the last step
    why: str | None = None

    @property
    def level(self) -> str:
        return str(self.record.settings.get("level", DEFAULT_LEVEL))


def start_record(set_slug: str, deck: list[Card], level: str) -> tokens.GameRecord:
    """A new game's record."""
    options = sn.options_for("classic", level=level)
    return new_record(GAME, set_slug, deck, options, {"level": level})


def rebuild(record: tokens.GameRecord, set_record: SetRecord) -> Game:
    """Replay a record on the set's deck (raises BadToken if it no longer makes a game)."""
    state = replay_record(record, set_record, deck_of(set_record), sn, decode_action)
    return Game(record, state, [])


def play(game: Game, action: dict[str, Any]) -> None:
    """Apply one engine action and record it (raises IllegalAction)."""
    before = len(game.state.events)
    state, _ = sn.apply(game.state, {k: v for k, v in action.items() if k != "why"})
    game.state = state
    game.new = state.events[before:]
    game.record = game.record.plus(encode_action(action))


def computer_move(game: Game) -> dict[str, Any] | None:
    """The computer's next move (with its ``why``), or None on the visitor's turn."""
    s = game.state
    if sn.is_over(s) or s.turn != COMPUTER:
        return None
    seed = f"{tokens.seed_for(game.record.nonce)}:{len(game.record.actions)}"
    return sn.make_bot(game.level, COMPUTER, seed).act(sn.view(s, COMPUTER))


def act(game: Game, move: str) -> tuple[str | None, str | None]:
    """Do the visitor's ``move``; return (a note to show, the card now chosen)."""
    s = game.state
    kind, _, rest = move.partition(":")
    if kind == "next":
        action = computer_move(game)
        if action is None:
            return ("The game is over." if sn.is_over(s) else "It is your turn."), None
        play(game, action)
        if game.level == "careful":
            game.why = action.get("why")
        return None, None
    if kind == "unpick":
        return None, None
    if sn.is_over(s):
        return "The game is over.", None
    if s.turn != HUMAN:
        return f"Wait for your turn: {BOT_NAMES[game.level]} is playing.", None
    card, _, capture = rest.partition(":")
    hand = s.places[f"hand:{HUMAN}"]
    if card not in hand:
        return "That card is not in your hand.", None
    if kind == "pick":
        return None, card
    if kind == "lay":
        action: dict[str, Any] = {"type": "play", "player": HUMAN, "card": card}
    else:
        how, _, taken = capture.partition(":")
        take = [t for t in taken.split(",") if t]
        action = {"type": "capture", "player": HUMAN, "card": card, "kind": how, "take": take}
    try:
        play(game, action)
    except IllegalAction as error:
        return str(error), card
    return None, None


# ----------------------------------------------------------------- words


def hearer(s: sn.State, level: str) -> Hearer:
    """The visitor, as the game's words speak to them."""
    deals = sn.public_state(s)["deals"]
    return snw.hearer(s.cards, ["You", BOT_NAMES[level]], HUMAN, deals=deals)


def sentences(events: list[Event], s: sn.State, level: str) -> list[str]:
    """One step's events in words, as the visitor hears them (the game's words)."""
    return sn.sentences(events, hearer(s, level))


def result_words(s: sn.State, level: str) -> str:
    """Who won, in a sentence, said to the visitor."""
    return snw.result_words(sn.result(s)["scores"], hearer(s, level))


# ----------------------------------------------------------------- rendering


def pace_ms(game: Game) -> int | None:
    """How long the page waits before the computer plays (None: it waits for the visitor)."""
    if sn.is_over(game.state) or game.state.turn != COMPUTER:
        return None
    override = current_app.config.get("PLAY_MORE_PACE_MS")
    return int(override) if override else PACE_MS


def card_view(card: Card) -> dict[str, Any]:
    """A card as the templates draw it."""
    return {"id": card.id, "name": card.name, "src": card_src(card.face) if card.face else None}


def table(game: Game, note: str | None, chosen: str | None) -> dict[str, Any]:
    """Everything the game template shows, from the visitor's view of the game."""
    s = game.state
    v = sn.view(s, HUMAN)
    over = sn.is_over(s)
    your_turn = not over and v["current"] == HUMAN
    if chosen not in v["hand"] or not your_turn:
        chosen = None
    captures = []
    takeable: set[str] = set()
    if chosen is not None:
        table_cards = [s.cards[c] for c in s.places["table"]]
        name = hearer(s, game.level).card_name
        for cap in sn.captures_for(s.cards[chosen], table_cards, s.options):
            takeable |= set(cap.take)
            words = sn.describe(cap, name)
            captures.append(
                {
                    "value": f"take:{chosen}:{cap.kind}:{','.join(cap.take)}",
                    "words": "Capture: " + words,
                    "count": len(cap.take) + 1,
                }
            )
    # the engine's legal moves decide what the table offers: a card that can do nothing
    # allowed is not offered, and "Lay" only when no capture is possible (it is compulsory)
    legal = sn.legal_actions(s, HUMAN) if your_turn else []
    must = any(a["type"] == "capture" for a in legal)
    playable = {a["card"] for a in legal}
    can_lay = {"type": "play", "player": HUMAN, "card": chosen} in legal
    words = sentences(game.new, s, game.level)
    thought = f"{BOT_NAMES[game.level]} thought: \u201c{game.why}\u201d" if game.why else None
    if note:
        words.insert(0, note)
    scores = v["scores"]
    return {
        "view": v,
        "computer": BOT_NAMES[game.level],
        "hand": [
            {**card_view(s.cards[c]), "chosen": c == chosen, "playable": c in playable}
            for c in v["hand"]
        ],
        "table_cards": [{**card_view(s.cards[c]), "takeable": c in takeable} for c in v["table"]],
        "chosen": card_view(s.cards[chosen]) if chosen else None,
        "captures": captures,
        "must_capture": must,
        "can_lay": can_lay,
        "words": words,
        "thought": thought,
        "token": tokens.dump(game.record),
        "step": len(game.record.actions),
        "your_turn": your_turn,
        "pace": pace_ms(game),
        "over": over,
        "result": result_words(s, game.level) if over else None,
        "you_won": over and scores[HUMAN] > scores[COMPUTER],
        "scores": scores,
        "their_cards": v["hand_counts"][COMPUTER],
        "deal": v["deal"],
        "deals": v["deals"],
        "stock": v["stock"],
        "level": game.level,
        "rules_url": RULES_STEPS,
    }


def setup_context(set_record: SetRecord) -> dict[str, Any]:
    """The setup page's choices."""
    return {
        "record": set_record,
        "variant": sn.VARIANTS["classic"],
        "levels": [(name, *LEVEL_WORDS[name]) for name in sn.LEVELS],
        "default_level": DEFAULT_LEVEL,
    }


def render_game(
    game: Game,
    set_record: SetRecord,
    note: str | None = None,
    chosen: str | None = None,
    status: int = 200,
) -> tuple[str, int]:
    """The game page (for htmx, base.html sends only its main content)."""
    ctx = setup_context(set_record)
    ctx.update(table(game, note, chosen))
    return render_template("play_snitchems/game.html", **ctx), status


def bad_token(set_record: SetRecord, error: tokens.BadToken) -> tuple[str, int]:
    """The friendly "start a new game" page, status 400."""
    return snap_play.bad_token(set_record, error, "play_snitchems.setup", "sn-game")


# ----------------------------------------------------------------- views


@bp.get("/sets/<slug>/play/snitchems")
def setup(slug: str) -> str:
    """Choose how the computer plays; then Start."""
    set_record = set_for_game(slug, GAME)
    return render_template("play_snitchems/setup.html", **setup_context(set_record))


@bp.post("/sets/<slug>/play/snitchems")
def start(slug: str) -> tuple[str, int]:
    """Deal a new game and show the table."""
    set_record = set_for_game(slug, GAME)
    level = request.form.get("level", DEFAULT_LEVEL)
    if level not in sn.LEVELS:
        ctx = setup_context(set_record)
        ctx["error"] = "Please choose again: that choice was not on the list."
        return render_template("play_snitchems/setup.html", **ctx), 400
    deck = deck_of(set_record)
    try:
        record = start_record(set_record.key, deck, level)
        options = sn.options_from_json(record.options)
        state, _ = sn.new_game(deck, options, tokens.seed_for(record.nonce))
    except GameError as exc:
        ctx = setup_context(set_record)
        ctx["error"] = f"This set cannot be played: {exc}."
        return render_template("play_snitchems/setup.html", **ctx), 400
    return render_game(Game(record, state, list(state.events)), set_record)


@bp.get("/sets/<slug>/play/snitchems/act")
def act_get(slug: str) -> Response:
    """A bookmarked or reloaded action address: back to the setup."""
    set_for_game(slug, GAME)
    return back_to_setup("play_snitchems.setup", slug)


@bp.post("/sets/<slug>/play/snitchems/act")
def act_post(slug: str) -> tuple[str, int]:
    """One visitor action (pick a card, capture, lay, Next) on the game in the token."""
    return act_on_token(set_for_game(slug, GAME), GAME, MOVES, rebuild, act, render_game, bad_token)


def init_app(app: Flask) -> None:
    """Register the Snitch'ems pages."""
    app.register_blueprint(bp)
