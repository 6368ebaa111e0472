"""Snitch'ems' part of the play flow: picking a card is a real form that comes back with its
captures as buttons; the table tells the last move at the cards (:func:`story`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kiosk.catalogue.scenarios import Run, Step, seat_name
from kiosk.catalogue.schema import SetRecord
from kiosk.games.cards import Card
from kiosk.games.core import Event, Hearer, IllegalAction
from kiosk.games.snitchems import engine as sn
from kiosk.games.snitchems.engine import words as snw
from kiosk.web.cards import back_src, dom_id
from kiosk.web.play.games import HUMAN, NotOnTheList, Played, Told, TurnGame, card_view
from kiosk.web.play.games import packs as pile_names

COMPUTER = 1
DEFAULT_LEVEL = "beginner"


def computer_name(level: str) -> str:
    """What the computer player of ``level`` is called (the game file's name for it)."""
    return GAME.player_names(level, 1)[0]


def hearer(s: sn.State, level: str) -> Hearer:
    """The visitor, as the game's words speak to them."""
    deals = sn.public_state(s)["deals"]
    return snw.hearer(s.cards, ["You", computer_name(level)], HUMAN, deals=deals)


def result_words(s: sn.State, level: str) -> str:
    """Who won, in a sentence, said to the visitor."""
    return snw.result_words(sn.result(s)["scores"], hearer(s, level))


def captures(s: sn.State, chosen: str, level: str) -> tuple[list[dict[str, Any]], set[str]]:
    """The chosen card's legal captures as buttons, and the table cards it could take."""
    found = []
    takeable: set[str] = set()
    name = hearer(s, level).card_name
    table_cards = [s.cards[c] for c in s.places["table"]]
    for cap in sn.captures_for(s.cards[chosen], table_cards, s.options):
        takeable |= set(cap.take)
        found.append(
            {
                "value": f"take:{chosen}:{cap.kind}:{','.join(cap.take)}",
                "words": "Capture: " + sn.describe(cap, name),
                "count": len(cap.take) + 1,
            }
        )
    return found, takeable


@dataclass
class Story(Told):
    """The last move told at the table: what was captured, by whom, and the card laid."""

    catches: list[dict[str, Any]] = field(default_factory=list)
    laid: set[str] = field(default_factory=set)
    dealt: bool = False


def story(events: list[Event], s: sn.State, level: str, over: bool) -> Story:
    """The last step's events as the table shows them to the visitor, before the cards go."""
    out = Story()
    heard = Hearer(["You", computer_name(level)], HUMAN)
    capturing = {e.data["card"] for e in events if e.type == "capture"}
    for e in events:
        d = e.data
        p = d.get("player")
        if e.type == "play" and d["card"] not in capturing:
            out.laid.add(d["card"])
            out.mark(p, "laid")
            out.sound("card")
        elif e.type in ("capture", "last-capture"):  # the last capturer takes the rest
            out.catches.append(
                {
                    "player": p,
                    "you": p == HUMAN,
                    "card": card_view(s.cards[d["card"]]) if e.type == "capture" else None,
                    "take": [card_view(s.cards[c]) for c in d["take"]],
                    "words": snw.catch_words(e, heard),
                    "sweep": False,
                }
            )
            out.mark(p, "capturing")
            out.outcome = "captured"
            if e.type == "capture":
                out.sound("card")
                if p == HUMAN:
                    out.sound("win")
        elif e.type == "sweep" and out.catches:
            out.catches[-1]["sweep"] = True
        elif e.type == "deal":
            out.dealt = True
            out.sound("card")
    if over:
        scores = sn.result(s)["scores"]
        out.sound("end-win" if scores[HUMAN] >= scores[COMPUTER] else "end-lose")
    return out


SPREAD_ROW = 12  # the result spreads a pile of more cards in two rows, so each can be seen


def _spread(s: sn.State, cards: list[str]) -> list[list[dict[str, Any]]]:
    """A pile of captured cards as the result shows it: one row, or two of about half."""
    shown = [card_view(s.cards[c]) for c in cards]
    if len(shown) <= SPREAD_ROW:
        return [shown] if shown else []
    half = (len(shown) + 1) // 2
    return [shown[:half], shown[half:]]


class Snitchems(TurnGame):
    """Snitch'ems, the fishing game of 1797, against one computer player."""

    engine = sn
    description = "Play {game}, a fishing game of 1797, against the computer."
    buttons = ("next", "pick", "unpick", "lay", "take")
    thinks_aloud = "careful"

    def pace_for(self, state: sn.State) -> int:
        """Time to read the computer's move before it plays again."""
        return 1800

    def step_table(self, run: Run, step: Step, set_record: SetRecord) -> dict[str, Any]:
        """A rule step's table as play draws it: both hands face up, the piles and the pack."""
        places, public = step.places, step.public

        def shown(place: str) -> list[dict[str, Any]]:
            return [
                {**card_view(run.cards[c]), "data": {"card": dom_id(c), "place": place, "up": 1}}
                for c in places.get(place) or ()
            ]

        captured = [shown("captured:0"), shown("captured:1")]
        packs = pile_names(places, {"box": "The pack", "stock": "The pack"})
        over = bool(public.get("over"))
        return {
            "computer": seat_name(COMPUTER),
            "hand": shown("hand:0"),
            "their_hand": shown("hand:1"),
            "their_cards": len(places.get("hand:1") or ()),
            "table_cards": [{**c, "takeable": False, "laid": False} for c in shown("table")],
            "piles": [{"top": cards[-1] if cards else None} for cards in captured],
            "scores": [len(cards) for cards in captured],
            "packs": packs,
            "your_turn": not over and public.get("current") == HUMAN,
            "over": over,
            "marks": {},
            "catches": [],
            "chosen": None,
            "back": back_src(set_record),
        }

    def choices(self, set_record: SetRecord, deck: list[Card]) -> dict[str, Any]:
        """How the computer plays; the rules are the one classic game."""
        return {
            "variant": self.variants()["classic"],
            "levels": self.levels(),
            "default_level": DEFAULT_LEVEL,
        }

    def start(self, set_record: SetRecord, form: Mapping[str, str]) -> tuple[Any, dict[str, Any]]:
        """The classic game against the chosen computer player."""
        level = form.get("level", DEFAULT_LEVEL)
        if level not in sn.LEVELS:
            raise NotOnTheList("Please choose again: that choice was not on the list.")
        return sn.options_for("classic", level=level), {"level": level}

    def encode_action(self, action: dict[str, Any]) -> list[Any]:
        """``["p", 0, "6H"]`` lays a card; ``["c", 1, "4S", "making-8", [...]]`` captures."""
        if action["type"] == "play":
            return ["p", action["player"], action["card"]]
        return ["c", action["player"], action["card"], action["kind"], list(action["take"])]

    def decode_action(self, item: Any) -> dict[str, Any]:
        code, player, card, *rest = item
        if code == "p" and not rest:
            return {"type": "play", "player": player, "card": card}
        if code != "c":
            raise ValueError(code)
        kind, take = rest
        return {"type": "capture", "player": player, "card": card, "kind": kind, "take": list(take)}

    def wait_words(self, game: Played) -> str:
        if game.state.turn == HUMAN:
            return "It is your turn."
        return f"Wait for your turn: {computer_name(game.level)} is playing."

    def visitor_move(self, game: Played, kind: str, rest: str) -> str | None:
        """Pick a card from the hand, then capture with it or lay it."""
        card, _, capture = rest.partition(":")
        if card not in game.state.places[f"hand:{HUMAN}"]:
            return "That card is not in your hand."
        if kind == "pick":
            game.chosen = card
            return None
        if kind == "lay":
            action: dict[str, Any] = {"type": "play", "player": HUMAN, "card": card}
        else:
            how, _, taken = capture.partition(":")
            take = [t for t in taken.split(",") if t]
            action = {"type": "capture", "player": HUMAN, "card": card, "kind": how, "take": take}
        try:
            self.play(game, action)
        except IllegalAction as error:
            game.chosen = card
            return str(error)
        return None

    def table(
        self, game: Played, set_record: SetRecord, setup: Mapping[str, Any], note: str | None
    ) -> dict[str, Any]:
        """Both hands, the table, the chosen card's captures, the score and the words."""
        s = game.state
        v = sn.view(s, HUMAN)
        over = sn.is_over(s)
        your_turn = not over and v["current"] == HUMAN
        chosen = game.chosen if game.chosen in v["hand"] and your_turn else None
        offered, takeable = captures(s, chosen, game.level) if chosen else ([], set())
        # the engine's legal moves decide what the table offers: a card that can do nothing
        # allowed is not offered, and "Lay" only when no capture is possible (it is compulsory)
        legal = sn.legal_actions(s, HUMAN) if your_turn else []
        playable = {a["card"] for a in legal}
        # the result says who won, once: the table's words leave the game's end to it
        said = [e for e in game.events if e.type != "game-over"]
        words = sn.sentences(said, hearer(s, game.level))
        computer = computer_name(game.level)
        thought = f"{computer} thought: \u201c{game.why}\u201d" if game.why else None
        if note:
            words.insert(0, note)
        scores = v["scores"]
        told = story(game.events, s, game.level, over)
        captured = [v["captured"][HUMAN], v["captured"][COMPUTER]]
        return {
            "computer": computer,
            "hand": [
                {**card_view(s.cards[c]), "chosen": c == chosen, "playable": c in playable}
                for c in v["hand"]
            ],
            "table_cards": [
                {**card_view(s.cards[c]), "takeable": c in takeable, "laid": c in told.laid}
                for c in v["table"]
            ],
            "chosen": card_view(s.cards[chosen]) if chosen else None,
            "captures": offered,
            "must_capture": any(a["type"] == "capture" for a in legal),
            "can_lay": {"type": "play", "player": HUMAN, "card": chosen} in legal,
            "words": words,
            "thought": thought,
            "your_turn": your_turn,
            "result": result_words(s, game.level) if over else None,
            "you_won": over and scores[HUMAN] > scores[COMPUTER],
            "scores": scores,
            # each seat's pile of captured cards, the last one on top (and all at the end)
            "piles": [
                {
                    "top": card_view(s.cards[cards[-1]]) if cards else None,
                    "rows": _spread(s, cards) if over else [],
                    "winner": over and scores[seat] == max(scores),
                }
                for seat, cards in enumerate(captured)
            ],
            "catches": told.catches,
            "marks": {seat: " ".join(kinds) for seat, kinds in told.marks.items()},
            "outcome": told.outcome,
            "sounds": told.sounds,
            "their_cards": v["hand_counts"][COMPUTER],
            "deal": v["deal"],
            "deals": v["deals"],
            "stock": v["stock"],
            "variant": self.variants()["classic"],
            "rules_url": self.rules_url(setup, "classic"),
        }


GAME = Snitchems()
