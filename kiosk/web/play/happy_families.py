"""Happy Families' part of the play flow: its choices, its token actions, asking and
claiming, and its table (the hands by family, the tricks, what has been asked lately).

The visitor picks a player (the page comes back with what they may ask that player for),
then asks for a card, or in the variation claims a trick. "Next" lets one computer player ask.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.catalogue.schema import CardFace, SetRecord
from kiosk.games import happy_families as hf
from kiosk.games.cards import Card
from kiosk.games.core import Event, IllegalAction
from kiosk.games.happy_families import words as hfw
from kiosk.web import tokens
from kiosk.web.play.games import HUMAN, Game, NotOnTheList, TurnGame, card_view

DEFAULT_LEVEL = "forgetful"
DEFAULT_BOTS = 2


def spoken_name(face: CardFace) -> str:
    """How a card face is asked for aloud (the games' words): "Broomstick Man's trowel"."""
    return hfw.spoken_name(face.name, face.family, face.role == "master")


def bot_names(level: str, bots: int) -> list[str]:
    """Each seat's name: "You", then the computer players as the game file names their level."""
    return ["You", *GAME.player_names(level, bots)]


def variant_of(game: Game) -> str:
    """The variant the game is played by."""
    return "variation" if game.state.options.variation else "classic"


def _seat(raw: str) -> int | None:
    try:
        return int(raw)
    except ValueError:
        return None


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


def offers(s: hf.State, legal: list[dict[str, Any]], chosen: int, groups: list[dict]) -> list:
    """What the visitor may ask the chosen player for: cards by family, or families to claim."""
    masters = _masters(s)
    if legal and legal[0]["type"] == "claim":
        fams = [a["family"] for a in legal if a["target"] == chosen]
        items = [
            {
                "value": f"claim:{chosen}:{f}",
                "card": card_view(masters[f]),
                "words": hf.ask_words(hf.family_words(f)),
            }
            for f in fams
        ]
        return [{"family": None, "items": items}]
    wanted = {a["card"] for a in legal if a["target"] == chosen}
    found = []
    for g in groups:
        cards = [c for c in g["lacking"] if c["id"] in wanted]
        if cards:
            items = [
                {"value": f"ask:{chosen}:{c['id']}", "card": c, "words": hf.ask_words(c["name"])}
                for c in cards
            ]
            found.append({"family": g["family"], "items": items})
    return found


def _masters(s: hf.State) -> dict[str, Card]:
    """Each family's first card: the one that shows a trick of that family."""
    masters: dict[str, Card] = {}
    for card in s.cards.values():
        masters.setdefault(card.family, card)
    return masters


class HappyFamilies(TurnGame):
    """Happy Families against two or three computer players, with a set's recorded families."""

    engine = hf
    buttons = ("next", "pick", "unpick", "ask", "claim")
    pace = 2200  # time to read one computer ask and its answer before the next
    thinks_aloud = "remembering"
    your_turn_words = "It is your turn: choose a player to ask."

    def choices(self, set_record: SetRecord, deck: list[Card]) -> dict[str, Any]:
        """How many computer players, how good their memory, which rules; the families."""
        families = list(dict.fromkeys(c.family for c in deck))
        return {
            "families": families,
            "variants": list(self.variants().values()),
            "default_variant": next(iter(hf.VARIANTS)),
            "levels": self.levels(),
            "default_level": DEFAULT_LEVEL,
            "default_bots": DEFAULT_BOTS,
            "bot_counts": (2, 3),
            "playable": len(families) >= 2,
        }

    def start(self, set_record: SetRecord, form: Mapping[str, str]) -> tuple[Any, dict[str, Any]]:
        """The chosen rules, memory and number of computer players, named for their level."""
        variant = form.get("variant", "classic")
        level = form.get("level", DEFAULT_LEVEL)
        bots = _seat(form.get("bots", str(DEFAULT_BOTS)))
        if variant not in hf.VARIANTS or level not in hf.LEVELS or bots not in (2, 3):
            raise NotOnTheList()
        options = hf.options_for(
            variant,
            players=bots + 1,
            names=bot_names(level, bots),
            # In the plain game a trick's family changes nothing, so it lies face up for all to
            # see; the variation turns on remembering whose tricks are whose, so face down (rule 3).
            tricks_face_down=variant == "variation",
            level=level,
        )
        return options, {"level": level, "variant": variant}

    def encode_action(self, action: dict[str, Any]) -> list[Any]:
        """``["a", 0, 2, "cap-1"]``: ask player 2 for a card; ``["c", …, family]``: claim."""
        if action["type"] == "ask":
            return ["a", action["player"], action["target"], action["card"]]
        return ["c", action["player"], action["target"], action["family"]]

    def decode_action(self, item: Any) -> dict[str, Any]:
        try:
            code, player, target, what = item
            kind, key = {"a": ("ask", "card"), "c": ("claim", "family")}[code]
        except (TypeError, ValueError, KeyError):
            raise tokens.BadToken("malformed", "an action in the record is not readable") from None
        return {"type": kind, "player": player, "target": target, key: what}

    def wait_words(self, game: Game) -> str:
        return f"Wait for your turn: it is {hf.names(game.state)[game.state.turn]}'s turn to ask."

    def visitor_move(self, game: Game, kind: str, rest: str) -> str | None:
        """Pick a player to ask, then ask them for a card (or claim a trick)."""
        s = game.state
        if kind == "pick":
            target = _seat(rest)
            if target == HUMAN:
                return "Ask another player, not yourself."
            if target is None or not 0 < target < s.players:
                return "That player is not at this table."
            game.chosen = target
            return None
        target_raw, _, what = rest.partition(":")
        target = _seat(target_raw)
        if kind == "ask":
            action = {"type": "ask", "player": HUMAN, "target": target, "card": what}
        else:
            action = {"type": "claim", "player": HUMAN, "target": target, "family": what}
        try:
            self.play(game, action)
        except IllegalAction as error:
            if isinstance(target, int) and 0 < target < s.players:
                game.chosen = target
            return explain(error, s, target)
        return None

    def settings(self, game: Game) -> tuple[str, str, int]:
        return variant_of(game), game.level, game.state.players - 1

    def table(
        self, game: Game, set_record: SetRecord, setup: Mapping[str, Any], note: str | None
    ) -> dict[str, Any]:
        """The others' seats, the visitor's hand by family, what they may ask for, the words."""
        s = game.state
        v = hf.view(s, HUMAN)
        who = v["names"]
        over = hf.is_over(s)
        legal = v["legal"] if not over else []
        chosen = game.chosen if game.chosen in {a["target"] for a in legal} else None
        masters = _masters(s)
        seats = []
        for p in range(s.players):
            tricks = v["tricks_on_table"][p]
            seats.append(
                {
                    "seat": p,
                    "name": who[p],
                    "cards": v["hand_counts"][p],
                    "tricks": tricks["count"],
                    "trick_cards": [card_view(masters[f]) for f in tricks["families"] or []],
                    "current": v["current"] == p,
                    "can_pick": any(a["target"] == p for a in legal),
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
        words = sentences(game.events, s)
        thought = None
        if game.why:
            asks = (e.data["player"] for e in game.events if e.type in ("ask", "claim"))
            asker = next(asks, None)
            if asker is not None:
                thought = f"{who[asker]} thought: {hfw.said(game.why)}"
        if note:
            words.insert(0, note)
        result = hf.result(s)
        return {
            "seats": seats,
            "you": seats[HUMAN],
            "others": seats[1:],
            "groups": groups,
            "chosen_name": who[chosen] if chosen is not None else None,
            "offers": offers(s, legal, chosen, groups) if chosen is not None else [],
            "asking": v["phase"] == "ask",
            "words": words,
            "thought": thought,
            "history": history(s),
            "your_turn": not over and v["current"] == HUMAN,
            "whose_turn": who[v["current"]] if v["current"] is not None else None,
            "result": result_words(s) if over else None,
            "you_won": over and HUMAN in result["winners"],
            "variant": self.variants()[variant_of(game)],
            "rules_url": self.rules_url(setup, variant_of(game)),
        }


GAME = HappyFamilies()
