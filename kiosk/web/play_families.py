"""Play Happy Families against the computer with a set's recorded families.

No server state: the page carries a signed game record (:mod:`kiosk.web.tokens`); each POST
replays it with :func:`kiosk.games.happy_families.replay`, does one thing (choose a player,
ask for a card, let one computer player ask) and sends back the table and a new token. Every
button is a real form, so the game works without JavaScript; with it, ``families.js`` paces
the computer players' asks and htmx swaps ``#hf-game`` in place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, current_app, render_template, request, url_for
from werkzeug.wrappers import Response

from kiosk.catalogue.decks import deck_for, flagged_faces
from kiosk.catalogue.schema import CardFace, SetRecord
from kiosk.games import happy_families as hf
from kiosk.games.cards import Card
from kiosk.games.core import Event, GameError, IllegalAction
from kiosk.games.happy_families import words as hfw
from kiosk.web import content, tokens
from kiosk.web import play as snap_play
from kiosk.web.cards import card_src
from kiosk.web.turn_play import (
    act_on_token,
    back_to_setup,
    new_record,
    replay_record,
    set_for_game,
)

bp = Blueprint("play_families", __name__)

GAME = hf.GAME
HUMAN = 0  # the visitor's seat
BOT_NAMES = {
    "forgetful": ("Dreamy Dora", "Dreamy Dan", "Dreamy Dot"),
    "remembering": ("Canny Kit", "Canny Kate", "Canny Ken"),
}
LEVEL_WORDS = {
    "forgetful": ("Daydreamers", "they forget most of what was asked"),
    "remembering": ("Good memories", "they remember every ask and every answer"),
}
DEFAULT_LEVEL = "forgetful"
DEFAULT_BOTS = 2
MOVES = ("next", "pick", "unpick", "ask", "claim")
PACE_MS = 2200  # time to read one computer ask and its answer before the next


# ----------------------------------------------------------------- sets, decks, records


def spoken_name(face: CardFace) -> str:
    """How a card face is asked for aloud (the games' words): "Broomstick Man's trowel"."""
    return hfw.spoken_name(face.name, face.family, face.role == "master")


def deck_of(set_record: SetRecord) -> list[Card]:
    """The set's complete families (flagged cards left out), each card named as it is asked for."""
    masters = {f"{set_record.key}/{f.key}" for f in set_record.cards if f.role == "master"}
    deck = hf.playable_deck(deck_for(set_record, include_flagged=False))
    return hfw.spoken_deck(deck, masters)


def bot_names(level: str, bots: int) -> list[str]:
    """Each seat's name: "You", then the computer players named for their level."""
    return ["You", *BOT_NAMES[level][:bots]]


def start_record(set_slug: str, deck: list[Card], variant: str, bots: int, level: str):
    """A new game's record (raises OptionsError for choices that make no game)."""
    options = hf.options_for(
        variant,
        players=bots + 1,
        names=bot_names(level, bots),
        # In the plain game a trick's family changes nothing, so it lies face up for all to
        # see; the variation turns on remembering whose tricks are whose, so face down (rule 3).
        tricks_face_down=variant == "variation",
        level=level,
    )
    return new_record(GAME, set_slug, deck, options, {"level": level, "variant": variant})


def encode_action(action: dict[str, Any]) -> list[Any]:
    """An engine action as a short list for the token: ``["a", 0, 2, "cap-1"]``."""
    if action["type"] == "ask":
        return ["a", action["player"], action["target"], action["card"]]
    return ["c", action["player"], action["target"], action["family"]]


def decode_action(item: Any) -> dict[str, Any]:
    """The engine action for a token's short list (raises BadToken("malformed"))."""
    try:
        code, player, target, what = item
        kind, key = {"a": ("ask", "card"), "c": ("claim", "family")}[code]
    except (TypeError, ValueError, KeyError):
        raise tokens.BadToken("malformed", "an action in the record is not readable") from None
    return {"type": kind, "player": player, "target": target, key: what}


@dataclass
class Game:
    """A game rebuilt from its record, and the events of the last step (for the words)."""

    record: tokens.GameRecord
    state: hf.State
    new: list[Event]  # the events of the last step
    why: str | None = None  # what the computer player who just asked was thinking

    @property
    def level(self) -> str:
        return str(self.record.settings.get("level", DEFAULT_LEVEL))

    @property
    def variant(self) -> str:
        return "variation" if self.state.options.variation else "classic"


def rebuild(record: tokens.GameRecord, set_record: SetRecord) -> Game:
    """Replay a record on the set's deck (raises BadToken if it no longer makes a game)."""
    state = replay_record(record, set_record, deck_of(set_record), hf, decode_action)
    return Game(record, state, [])


def play(game: Game, action: dict[str, Any]) -> None:
    """Apply one engine action and record it (raises IllegalAction)."""
    before = len(game.state.events)
    state, _ = hf.apply(game.state, {k: v for k, v in action.items() if k != "why"})
    game.state = state
    game.new = state.events[before:]
    game.record = game.record.plus(encode_action(action))


def computer_move(game: Game) -> dict[str, Any] | None:
    """The computer player's next ask (with its ``why``), or None on the visitor's turn."""
    s = game.state
    if hf.is_over(s) or s.turn == HUMAN:
        return None
    seed = f"{tokens.seed_for(game.record.nonce)}:{len(game.record.actions)}"
    bot = hf.make_bot(game.level, s.turn, seed)
    return bot.act(hf.view(s, s.turn))


def step(game: Game) -> None:
    """One computer player asks (one question and its answer): the page's pace."""
    action = computer_move(game)
    if action is None:
        return
    play(game, action)
    if game.level == "remembering":
        game.why = action.get("why")


def _seat(raw: str) -> int | None:
    try:
        return int(raw)
    except ValueError:
        return None


def act(game: Game, move: str) -> tuple[str | None, int | None]:
    """Do the visitor's ``move``; return (a note to show, the player now chosen)."""
    s = game.state
    kind, _, rest = move.partition(":")
    if kind == "next":
        if hf.is_over(s):
            return "The game is over.", None
        if s.turn == HUMAN:
            return "It is your turn: choose a player to ask.", None
        step(game)
        return None, None
    if kind == "unpick":
        return None, None
    if hf.is_over(s):
        return "The game is over.", None
    if s.turn != HUMAN:
        return f"Wait for your turn: it is {hf.names(s)[s.turn]}'s turn to ask.", None
    if kind == "pick":
        target = _seat(rest)
        if target == HUMAN:
            return "Ask another player, not yourself.", None
        if target is None or not 0 < target < s.players:
            return "That player is not at this table.", None
        return None, target
    target_raw, _, what = rest.partition(":")
    target = _seat(target_raw)
    if kind == "ask":
        action = {"type": "ask", "player": HUMAN, "target": target, "card": what}
    else:
        action = {"type": "claim", "player": HUMAN, "target": target, "family": what}
    try:
        play(game, action)
    except IllegalAction as error:
        chosen = target if isinstance(target, int) and 0 < target < s.players else None
        return explain(error, s, target), chosen
    return None, None


def explain(error: IllegalAction, s: hf.State, target: int | None) -> str:
    """The engine's refusal, said to the visitor (players by their names, not numbers)."""
    text = str(error)
    if text.startswith("ask another player"):
        return "Ask another player, not yourself."
    if text.startswith("target must be"):
        return "That player is not at this table."
    if text.startswith("player ") and target is not None:
        name = hf.names(s)[target]
        what = "tricks" if "tricks" in text else "cards"
        return f"{name} has no {what} left to ask for."
    return "You can't ask that: " + text + "."


# ----------------------------------------------------------------- words


def family_words(fam: str) -> str:
    """ "the Twizzle family"."""
    return hf.family_words(fam)


def sentences(events: list[Event], s: hf.State) -> list[str]:
    """One step's events in words, as the visitor hears them (the games' words)."""
    return hf.sentences(events, hfw.hearer_at(s, HUMAN))


def result_words(s: hf.State) -> str:
    """Who won, in a sentence, said to the visitor."""
    return hfw.winners_words(hf.result(s)["winners"], hfw.hearer_at(s, HUMAN))


def history(s: hf.State, limit: int = 8) -> list[str]:
    """The last few asks and answers of the whole game (an aid to memory, as at a table)."""
    said = [e for e in s.events if e.type in ("ask", "claim", "give", "refuse", "hand-over")]
    asks = [i for i, e in enumerate(said) if e.type in ("ask", "claim")]
    keep = max(1, limit // 2)  # each ask has one answer
    first = asks[-keep] if len(asks) > keep else 0  # never an answer cut from its ask
    return sentences(said[first:], s)


# ----------------------------------------------------------------- rendering


def pace_ms(game: Game) -> int | None:
    """How long the page waits before the next computer ask (None: it waits for the visitor)."""
    if hf.is_over(game.state) or game.state.turn == HUMAN:
        return None
    override = current_app.config.get("PLAY_MORE_PACE_MS")
    return int(override) if override else PACE_MS


def card_view(card: Card) -> dict[str, Any]:
    """A card as the templates draw it."""
    return {
        "id": card.id,
        "name": card.name,
        "family": card.family,
        "src": card_src(card.face) if card.face else None,
    }


def table(game: Game, set_record: SetRecord, note: str | None, chosen: int | None):
    """Everything the game template shows, from the visitor's view of the game."""
    s = game.state
    v = hf.view(s, HUMAN)
    who = v["names"]
    asking = v["phase"] == "ask"
    legal = v["legal"] if not hf.is_over(s) else []
    targets = {a["target"] for a in legal}
    if chosen not in targets:
        chosen = None
    masters = {}
    for card in s.cards.values():
        masters.setdefault(card.family, card)
    seats = []
    for p in range(s.players):
        tricks = v["tricks_on_table"][p]
        seats.append(
            {
                "seat": p,
                "name": who[p],
                "label": "Your cards" if p == HUMAN else f"{who[p]}'s cards",
                "cards": v["hand_counts"][p],
                "tricks": tricks["count"],
                "trick_cards": [card_view(masters[f]) for f in tricks["families"] or []],
                "current": v["current"] == p,
                "can_pick": p in targets,
                "chosen": p == chosen,
            }
        )
    hand = set(v["hand"])
    groups = []
    for fam in s.families:
        held = [card_view(s.cards[c]) for c in v["hand"] if s.cards[c].family == fam]
        if held:
            lacking = [card_view(s.cards[c]) for c in hf.family_cards(s, fam) if c not in hand]
            groups.append({"family": fam, "cards": held, "lacking": lacking})
    offers = []
    if chosen is not None:
        if asking:
            wanted = {a["card"] for a in legal if a["target"] == chosen}
            for g in groups:
                cards = [c for c in g["lacking"] if c["id"] in wanted]
                if cards:
                    offers.append(
                        {
                            "family": g["family"],
                            "items": [
                                {
                                    "value": f"ask:{chosen}:{c['id']}",
                                    "card": c,
                                    "words": hf.ask_words(c["name"]),
                                }
                                for c in cards
                            ],
                        }
                    )
        else:
            fams = [a["family"] for a in legal if a["target"] == chosen]
            offers.append(
                {
                    "family": None,
                    "items": [
                        {
                            "value": f"claim:{chosen}:{f}",
                            "card": card_view(masters[f]),
                            "words": hf.ask_words(family_words(f)),
                        }
                        for f in fams
                    ],
                }
            )
    words = sentences(game.new, s)
    thought = None
    if game.why:
        asker = next((e.data["player"] for e in game.new if e.type in ("ask", "claim")), None)
        if asker is not None:
            thought = f"{who[asker]} thought: {hfw.said(game.why)}"
    if note:
        words.insert(0, note)
    over = hf.is_over(s)
    your_turn = not over and v["current"] == HUMAN
    return {
        "view": v,
        "seats": seats,
        "you": seats[HUMAN],
        "others": seats[1:],
        "groups": groups,
        "chosen": chosen,
        "chosen_name": who[chosen] if chosen is not None else None,
        "offers": offers,
        "asking": asking,
        "words": words,
        "thought": thought,
        "history": history(s),
        "token": tokens.dump(game.record),
        "step": len(game.record.actions),
        "your_turn": your_turn,
        "whose_turn": who[v["current"]] if v["current"] is not None else None,
        "pace": pace_ms(game),
        "over": over,
        "result": result_words(s) if over else None,
        "you_won": over and HUMAN in hf.result(s)["winners"],
        "scores": hf.result(s)["scores"],
        "variant": hf.VARIANTS[game.variant],
        "variant_name": game.variant,
        "level": game.level,
        "bots": s.players - 1,
        "rules_url": f"/rules/happy-families/{game.variant}",
        "back": None,
    }


def setup_context(set_record: SetRecord) -> dict[str, Any]:
    """The setup page's choices, with their defaults, and any cards left out (and why)."""
    deck = deck_of(set_record)
    families = list(dict.fromkeys(c.family for c in deck))
    flagged = flagged_faces(set_record)
    notes = []
    for slug in dict.fromkeys(f.content_note.note for f in flagged if f.content_note):
        entry = content.current().notes.get(slug)
        notes.append((url_for("pages.note", slug=slug), entry.record.title if entry else slug))
    return {
        "record": set_record,
        "flagged": flagged,
        "flagged_notes": notes,
        "families": families,
        "deck_size": len(deck),
        "variants": list(hf.VARIANTS.values()),
        "levels": [(name, *LEVEL_WORDS[name]) for name in hf.LEVELS],
        "default_level": DEFAULT_LEVEL,
        "default_bots": DEFAULT_BOTS,
        "playable": len(families) >= 2,
    }


def render_game(
    game: Game,
    set_record: SetRecord,
    note: str | None = None,
    chosen: int | None = None,
    status: int = 200,
) -> tuple[str, int]:
    """The game page (for htmx, base.html sends only its main content)."""
    ctx = setup_context(set_record)
    ctx.update(table(game, set_record, note, chosen))
    return render_template("play_happy_families/game.html", **ctx), status


def bad_token(set_record: SetRecord, error: tokens.BadToken) -> tuple[str, int]:
    """The friendly "start a new game" page, status 400."""
    return snap_play.bad_token(set_record, error, "play_families.setup", "hf-game")


# ----------------------------------------------------------------- views


@bp.get("/sets/<slug>/play/happy-families")
def setup(slug: str) -> str:
    """Choose the computer players, how well they remember, and the rules; then Start."""
    set_record = set_for_game(slug, GAME)
    return render_template("play_happy_families/setup.html", **setup_context(set_record))


@bp.post("/sets/<slug>/play/happy-families")
def start(slug: str) -> tuple[str, int]:
    """Deal a new game with the chosen setup and show the table."""
    set_record = set_for_game(slug, GAME)
    form = request.form
    variant = form.get("variant", "classic")
    level = form.get("level", DEFAULT_LEVEL)
    bots = _seat(form.get("bots", str(DEFAULT_BOTS)))
    ctx = setup_context(set_record)
    if variant not in hf.VARIANTS or level not in hf.LEVELS or bots not in (2, 3):
        ctx["error"] = "Please choose again: one of those choices was not on the list."
        return render_template("play_happy_families/setup.html", **ctx), 400
    deck = deck_of(set_record)
    try:
        record = start_record(set_record.key, deck, variant, bots, level)
        options = hf.options_from_json(record.options)
        state, _ = hf.new_game(deck, options, tokens.seed_for(record.nonce))
    except GameError as exc:
        ctx["error"] = f"This set cannot be played: {exc}."
        return render_template("play_happy_families/setup.html", **ctx), 400
    return render_game(Game(record, state, list(state.events)), set_record)


@bp.get("/sets/<slug>/play/happy-families/act")
def act_get(slug: str) -> Response:
    """A bookmarked or reloaded action address: back to the setup."""
    set_for_game(slug, GAME)
    return back_to_setup("play_families.setup", slug)


@bp.post("/sets/<slug>/play/happy-families/act")
def act_post(slug: str) -> tuple[str, int]:
    """One visitor action (choose a player, ask, Next) on the game in the token."""
    return act_on_token(set_for_game(slug, GAME), GAME, MOVES, rebuild, act, render_game, bad_token)


def init_app(app: Flask) -> None:
    """Register the Happy Families pages."""
    app.register_blueprint(bp)
