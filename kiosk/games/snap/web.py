"""Snap's part of the play flow: choices, token actions, reactions, table, pace (docs/play.md)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from flask import current_app

from kiosk.catalogue.schema import SetRecord
from kiosk.games.cards import Card
from kiosk.games.core import GameError, Hearer
from kiosk.games.snap import engine as snap
from kiosk.games.snap.story import (
    VISITOR_NAMES,
    VISITORS,
    CardLooks,
    centre_pile,
    ghosts,
    keys_words,
    match_words,
    seat_views,
    step_table,
    story,
    with_top,
)
from kiosk.web import tokens
from kiosk.web.cards import card_face
from kiosk.web.play.games import HUMAN, NotOnTheList, Played, PlayGame

DEFAULT_LEVEL = "easy"
DEFAULT_BOTS = 1
# After the last card's paint (ms): slower levels wait longer, so their calls fall in the window
PACE_MS = {"easy": 2200, "medium": 1500, "hard": 1200}
# A match stays as long as at the slowest level, for a young child (docs/play.md, "Fair timing")
MATCH_OPEN_MS = PACE_MS["easy"]
OUTCOME_HOLD_MS = 800  # extra time to read an outcome before the next card
UNMEASURED_MS = 800  # a call without a measured reaction (no JavaScript) counts as this
BAD_REACTION_WORDS = "The kiosk could not tell how quickly you tapped. Please tap Snap! again."
NO_CALLS = "In the forfeits game a match snaps by itself: no need to call."
OUTCOMES = {
    "snap",
    "pool-formed",
    "pool-won",
    "tie",
    "penalty",
    "mistaken-call",
    "forfeit",
    "unclaimed",
    "out",
}
CODES = {"turn": "t", "call": "c", "call-pool": "p", "close": "x"}
TYPES = {v: k for k, v in CODES.items()}
ACTS = ("turn", "snap", "pool", "next", "auto-on", "auto-off")
# Who plays (docs/play.md, "Ways to play Snap")
COMPUTER, TOGETHER, OWN_PACE = "computer", "together", "own-pace"
MODES = (COMPUTER, TOGETHER, OWN_PACE)
TOO_MANY = "Please choose again: two of you play with up to two computer players."
NONE_ALONE = (
    "Please choose again: on your own you play with one to three computer players "
    "(none only when two of you play)."
)
BOT_COUNTS = {COMPUTER: (1, 2, 3), TOGETHER: (0, 1, 2), OWN_PACE: (1, 2, 3)}


class Refused(GameError):
    """A request the rules refuse, with the words the visitor sees (answered with 400)."""

    def __init__(self, words: str) -> None:
        super().__init__(words)
        self.words = words


def encode_action(action: dict[str, Any]) -> str:
    """An engine action as one short string: a 500-action record stays quick to sign and to read."""
    code = CODES[action["type"]]
    if code in ("c", "p"):
        return f"{code}{action['player']}:{action['turn']}:{action['reaction_ms']!r}"
    return f"{code}{action['player']}"


def _number(text: str) -> int | float:
    return int(text) if text.isascii() and text.isdigit() else float(text)


def decode_action(item: Any) -> dict[str, Any]:
    """The engine action for a token's item (BadToken("malformed") for anything else)."""
    try:
        if type(item) is not str:
            raise TypeError("an action is a string")
        code, fields = item[:1], item[1:].split(":")
        player, *rest = fields
        action: dict[str, Any] = {"type": TYPES[code], "player": int(player)}
        if code in ("c", "p"):
            turn, ms = rest
            action["turn"], action["reaction_ms"] = int(turn), _number(ms)
        elif rest:
            raise ValueError("extra fields")
    except (TypeError, ValueError, KeyError):
        raise tokens.BadToken("malformed", "an action in the record is not readable") from None
    return action


def reaction(raw: str | None) -> float:
    """The reaction (ms) the page sent, for the engine to judge (none sent: ``UNMEASURED_MS``)."""
    text = (raw or "").strip()
    if not text:
        return UNMEASURED_MS
    try:
        ms = float(text)
    except ValueError:
        return math.nan
    if math.isfinite(ms) and ms > snap.MAX_REACTION_MS:  # a tap after a minute away: slowest
        return float(snap.MAX_REACTION_MS)
    return round(ms, 1)


def bound() -> int:
    """The kiosk bound on turns (the config may lower it for tests)."""
    return int(current_app.config.get("PLAY_MAX_TURNS") or snap.KIOSK_MAX_TURNS)


def variants_for(record: SetRecord) -> list[str]:
    """The Snap variants offered for this set, its own rules (its file's ``own_rules``) first."""
    first = record.own_rules.get(snap.GAME, next(iter(snap.VARIANTS)))
    return [first, *(name for name in snap.VARIANTS if name != first)]


def mode(options: snap.SnapOptions) -> str:
    """Who plays this game, as its options say: one visitor, two together, or at own pace."""
    if options.wait_for_people:
        return OWN_PACE
    return TOGETHER if len(options.humans) == 2 else COMPUTER


def next_action(game: Played) -> dict[str, Any] | None:
    """What "Next" does now, asked once a state: the table, its pace and "Next" all ask it."""
    humans = () if game.record.settings.get("auto") else game.state.options.humans
    asked = game.next_move
    if asked is not None and asked[0] is game.state and asked[1] == humans:
        return asked[2]  # the table, its pace and "Next" all ask it of one state
    level = game.state.options.level
    action = snap.GAME_TYPE.next_move(game.state, humans, lambda seat: snap.make_bot(level, seat))
    game.next_move = (game.state, humans, action)
    return action


def names(options: snap.SnapOptions) -> list[str]:
    """Each seat's name: "You" (two visitors: "Blue" and "Orange"), then the game file's names."""
    out = []
    together = mode(options) == TOGETHER
    for seat in range(options.players):
        if together and seat in VISITORS:
            out.append(VISITOR_NAMES[seat])
        elif seat == HUMAN:
            out.append("You")
        else:
            out.append(GAME.player_names(options.seat_level(seat), seat)[seat - 1])
    return out


def hearer(game: Played, looks: CardLooks, who: list[str] | None = None) -> Hearer:
    """The visitor at the table: "you", the others by name, cards as the pictures name them."""
    cards = game.state.cards
    return Hearer(
        names(game.state.options) if who is None else who,
        None if mode(game.state.options) == TOGETHER else HUMAN,
        lambda cid: looks.look(snap.card_json(cards[cid])).alt,  # type: ignore[union-attr]
    )


def can_turn_now(s: snap.SnapState, seat: int = HUMAN) -> bool:
    """Whether ``seat`` may turn a card now."""
    return any(a["type"] == "turn" for a in snap.legal_actions(s, seat))


COUNTDOWN_FROM = 10  # the turns left are told big, and said, from here down


def called_turn(form: Mapping[str, str]) -> int:
    """The turn a call was made on, as the page sent it (-1, never a turn, when unreadable)."""
    try:
        return int(form.get("turn", ""))
    except ValueError:
        return -1


def parse_calls(raw: str | None) -> list[tuple[int, str, float]]:
    """Two visitors' calls on one card as snap.js sends them, each seat's once (no more)."""
    out: list[tuple[int, str, float]] = []
    for item in (raw or "").split()[: 2 * len(VISITORS)]:
        seat, _, rest = item.partition(":")
        kind, _, ms = rest.partition(":")
        fresh = all(str(c[0]) != seat for c in out)
        if seat in ("0", "1") and kind in ("snap", "pool") and ms and fresh:
            out.append((int(seat), kind, reaction(ms)))
    return out


class Snap(PlayGame):
    """Snap against the computer, two visitors at one screen, or one visitor at their own pace."""

    engine = snap
    field = "act"
    buttons = ACTS
    own_script = True  # snap.js starts the pace when the new card has been painted

    step_table = staticmethod(step_table)

    def plays(self, set_record: SetRecord) -> bool:
        """Every set with cards plays Snap (a record whose cards are not recorded has none)."""
        return set_record.cards_listed

    def choices(self, set_record: SetRecord, deck: list[Card]) -> dict[str, Any]:
        """How many computer players, how quick, which rules (the set's own first)."""
        variants = variants_for(set_record)
        return {
            "variants": [self.variants()[name] for name in variants],
            "default_variant": variants[0],
            "levels": self.levels(),
            "default_level": DEFAULT_LEVEL,
            "default_bots": DEFAULT_BOTS,
            "bot_counts": (0, 1, 2, 3),
            "modes": MODES,
            "default_mode": COMPUTER,
            "max_turns": bound(),
            "countdown_from": COUNTDOWN_FROM,
            "card_looks": CardLooks(set_record),
        }

    def start(self, set_record: SetRecord, form: Mapping[str, str]) -> tuple[Any, dict[str, Any]]:
        """Who plays, the chosen rules, level and number of computer players, bounded in turns."""
        variant = form.get("variant", variants_for(set_record)[0])
        level = form.get("level", DEFAULT_LEVEL)
        who = form.get("mode", COMPUTER)
        try:
            bots = int(form.get("bots", DEFAULT_BOTS))
        except ValueError:
            bots = -1
        if variant not in snap.VARIANTS or level not in snap.LEVELS or who not in MODES:
            raise NotOnTheList()
        if bots not in BOT_COUNTS[who]:
            raise NotOnTheList(TOO_MANY if who == TOGETHER and bots == 3 else NONE_ALONE)
        humans = VISITORS if who == TOGETHER else (HUMAN,)
        options = snap.options_for(
            variant,
            players=bots + len(humans),
            humans=humans,
            level=level,
            max_turns=bound(),
            wait_for_people=who == OWN_PACE,
        )
        # two together: the cards turn by themselves, so both can keep a hand on Snap!
        return options, {"auto": who == TOGETHER}

    encode_action = staticmethod(encode_action)
    decode_action = staticmethod(decode_action)

    def play(self, game: Played, action: dict[str, Any]) -> None:
        """Apply one engine action; record it unless it changed nothing (a late call)."""
        game.state, game.events = snap.apply(game.state, action)
        if len(game.events) == 1 and game.events[0].type == "late-call":
            game.recorded = False
        else:
            game.record = game.record.plus(encode_action(action))

    def act(self, game: Played, form: Mapping[str, str]) -> str | None:
        """Turn, call Snap! or Snap Pool!, let "Next" move the game on, or switch auto-turn."""
        what, _, seat_text = form.get("act", "").partition(":")
        s = game.state
        who = mode(s.options)
        if what in ("auto-on", "auto-off"):
            game.record = game.record.with_settings(auto=what == "auto-on")
            return None
        if s.over:
            return "The game is over."
        if what == "next":
            action = next_action(game)
            if action is None and who == OWN_PACE and can_turn_now(s):
                action = {"type": "turn", "player": HUMAN}  # "Go on" turns the visitor's card
            if action is not None:  # else it is the visitor's move: the table says so
                self.play(game, action)
            return None
        if who == TOGETHER:
            return self.together(game, what, seat_text, form)
        if what == "turn":
            if not can_turn_now(s):
                return "Wait for your turn." if not s.out[HUMAN] else "You are out of this game."
            self.play(game, {"type": "turn", "player": HUMAN})
            return None
        if s.options.forfeits:
            return NO_CALLS
        if s.out[HUMAN]:
            return "You are out of this game."
        self.call(game, HUMAN, what, called_turn(form), reaction(form.get("reaction_ms")))
        return None

    def call(self, game: Played, seat: int, kind: str, turn: int, ms: float) -> None:
        """A visitor's Snap! (``kind`` "snap") or Snap Pool! ("pool") on the card of ``turn``."""
        action = {"type": "call-pool" if kind == "pool" else "call", "player": seat}
        try:
            self.play(game, {**action, "turn": turn, "reaction_ms": ms})
        except snap.BadReaction:  # a bad request (a page never sends one): 400, in words
            raise Refused(BAD_REACTION_WORDS) from None

    def together(
        self, game: Played, what: str, seat_text: str, form: Mapping[str, str]
    ) -> str | None:
        """Two visitors: a turn for whoever is to turn; their calls on one card judged at once."""
        s = game.state
        if what == "turn":
            seat = s.current
            if seat not in VISITORS or not can_turn_now(s, seat):
                return "Wait for your turn."
            self.play(game, {"type": "turn", "player": seat})
            return None
        if s.options.forfeits:
            return NO_CALLS
        turn = called_turn(form)
        calls = parse_calls(form.get("calls"))
        if not calls and seat_text in ("0", "1"):
            calls = [(int(seat_text), what, reaction(form.get("reaction_ms")))]
        events: list[Any] = []
        recorded = True
        for seat, kind, ms in calls:
            if game.state.over or game.state.out[seat]:
                continue
            self.call(game, seat, kind, turn, ms)
            events += game.events
            recorded = recorded and game.recorded
        w = game.state.window
        if events and w is not None and w.turn == turn and w.calls:
            # the other visitor did not call on this card: it is judged now, not left open
            self.play(game, {"type": "close", "player": calls[0][0]})
            events += game.events
        game.events = events
        game.recorded = recorded
        return None

    def pace_ms(self, game: Played) -> int | None:
        """A match stays open as long as at the slowest level; outcomes hold; own pace: none."""
        if game.state.over or next_action(game) is None:
            return None
        if mode(game.state.options) == OWN_PACE:
            return None
        override = current_app.config.get("PLAY_PACE_MS")
        pace = int(override) if override else PACE_MS[game.state.options.level]
        w = game.state.window
        if not override and w is not None and (w.snap or w.pool):
            pace = max(pace, MATCH_OPEN_MS)  # whoever plays, a slow visitor can see it and tap
        if any(e.type in OUTCOMES for e in game.events):
            pace += OUTCOME_HOLD_MS if not override else 0
        return pace

    def table(
        self, game: Played, set_record: SetRecord, setup: Mapping[str, Any], note: str | None
    ) -> dict[str, Any]:
        """Seats, centre and pool, the words (a note last), and the buttons the visitor may tap."""
        s = game.state
        o = s.options
        v = snap.view(s, HUMAN)
        looks: CardLooks = setup["card_looks"]
        look = looks.look
        who = names(o)
        heard = hearer(game, looks, who)
        turns = [e.data["player"] for e in game.events if e.type == "turn"]
        current = None if o.speed else v["current"]
        who_plays = mode(o)
        together = who_plays == TOGETHER
        told = story(game.events, None if together else HUMAN, s.over, list(s.winners), who)
        seats, matched = seat_views(s, v, told, look, who, together, current, turns)
        turned_centre = f"flip-{turns[-1]}" if turns and o.layout == "central" else None
        centre = v["centre"]
        if centre:
            centre = centre_pile(look(centre["top"]), look(centre["below"]), centre["count"])
            centre.top_data = {"vt": f"card-{centre.top.id}" if centre.top else None}
            centre.top_data["vt-turned"] = turned_centre
            centre.below_data = {"vt": f"card-{centre.below.id}" if centre.below else None}
        pool = with_top(look(v["pool"]["top"]), count=v["pool"]["count"])
        pool.top_data = {"vt": f"card-{pool.top.id}" if pool.top else None}
        shown = {c.id for c in (pool.top, *(seat.top for seat in seats)) if c} | matched
        if centre:
            shown |= {c.id for c in (centre.top, centre.below) if c}
        faces = []
        if s.turn == 0:  # the first table preloads every face, so no turned card waits to load
            faces = sorted({card_face(c.face).src for c in s.cards.values() if c.face})
        said = [e for e in game.events if e.type != "game-over"]  # the result says who won
        told_words = snap.said(said, heard)
        words = [w for _, w in told_words]
        outcomes = [w for e, w in told_words if e.type != "turn"]
        if note:
            words.append(note)
            outcomes.append(note)
        legal = v["actions"]
        turns_left = None if o.max_turns is None else max(0, o.max_turns - s.turn)
        soon = turns_left is not None and not s.over and turns_left <= COUNTDOWN_FROM
        if soon and any(e.type == "turn" for e in game.events):
            # said as it counts down, so the end is never a surprise
            left = snap.plural(turns_left, "turn")
            words.insert(0, f"{left} left: then whoever holds the most cards wins.")
        prompt = match_words(s) if who_plays == OWN_PACE else None
        if prompt:
            words.append(prompt)
            outcomes.append(prompt)
        return {
            "view": SimpleNamespace(kitty=v["kitty"]),
            "seats": seats,
            "centre": centre,
            "pool": pool,
            "words": words,
            "headline": (outcomes or words or [None])[-1],  # the last outcome, else card
            "ghosts": ghosts(game.events, shown),
            "faces": faces,
            "turn": v["window"]["turn"] if v["window"] else s.turn,
            "can_turn": "turn" in legal,
            "can_call": "call" in legal,
            "show_pool": o.has_pool,
            "can_pool": "call-pool" in legal,
            "forfeits": o.forfeits,
            "central": o.layout == "central",
            "speed": o.speed,
            "auto": bool(game.record.settings.get("auto")),
            "result": snap.result_words(s.winners, heard) if s.over else None,
            "outcome": told.outcome,
            "sounds": told.sounds,
            "pool_new": told.pool_new,
            "you_won": s.over and bool(set(o.humans) & set(s.winners)),
            "variant": self.variants()[o.variant],
            "turns_left": turns_left,
            "countdown": soon,
            "rules_url": self.rules_url(setup, o.variant),
            "mode": who_plays,
            "together": together,
            "own_pace": who_plays == OWN_PACE,
            "match_prompt": bool(prompt),
            "can_next": next_action(game) is not None or can_turn_now(s),
            "visitor_keys": keys_words(o.has_pool) if together else [],
            "again_more": {"mode": who_plays},
        }


GAME = Snap()
