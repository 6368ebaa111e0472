"""Happy Families' part of the play flow: its choices, token actions, asking and claiming, and its
table, which tells the last ask at the seats (:func:`story`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kiosk.catalogue.scenarios import Run, Step, seat_name
from kiosk.catalogue.schema import CardFace, SetRecord
from kiosk.games.cards import Card
from kiosk.games.core import Event, IllegalAction
from kiosk.games.happy_families import engine as hf
from kiosk.games.happy_families.engine import words as hfw
from kiosk.web.cards import back_src, dom_id
from kiosk.web.play.games import HUMAN, NotOnTheList, Played, Told, TurnGame, card_view
from kiosk.web.play.games import packs as pile_names

DEFAULT_LEVEL = "forgetful"
DEFAULT_BOTS = 2


def spoken_name(face: CardFace) -> str:
    """How a card face is asked for aloud (the games' words): "Broomstick Man's trowel"."""
    return hfw.spoken_name(face.name, face.family, face.role == "master")


def variant_of(game: Played) -> str:
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


def history(s: hf.State, limit: int = 8, shown: int = 0) -> list[str]:
    """The last asks and answers, an aid to memory, but the last ``shown`` (told at the seats)."""
    events = s.events[: len(s.events) - shown] if shown else s.events
    said = [e for e in events if e.type in ("ask", "claim", "give", "refuse", "hand-over")]
    asks = [i for i, e in enumerate(said) if e.type in ("ask", "claim")]
    keep = max(1, limit // 2)  # each ask has one answer
    first = asks[-keep] if len(asks) > keep else 0  # never an answer cut from its ask
    return sentences(said[first:], s)


@dataclass
class Say:
    """What one seat says or shows of the last ask: a badge, its cards and a stamp ("Got it!")."""

    tone: str  # "ask", "yes", "no", "family"
    badge: str
    cards: list[dict[str, Any]] = field(default_factory=list)
    stamp: str | None = None
    new: str | None = None  # the card just handed over, among ``cards``


@dataclass
class Story(Told):
    """The last ask told at the seats: each seat's words too, and the card that moved."""

    says: dict[int, Say] = field(default_factory=dict)
    moved: str | None = None  # the card (or the trick's first card) handed over
    moved_from: int | None = None
    moved_to: int | None = None


REPLY = {"given": "Here you are.", "refused": hfw.REFUSAL + "."}


def story(events: list[Event], s: hf.State, over: bool) -> Story:
    """The last step's events as the table shows them at the seats: ask, answer, card, family."""
    out = Story()
    who = hf.names(s)
    masters = _masters(s)
    hidden = s.options.tricks_face_down
    for e in events:
        d = e.data
        if e.type in ("ask", "claim"):
            asker, target = d["player"], d["target"]
            card = s.cards[d["card"]] if e.type == "ask" else masters[d["family"]]
            whom = "you" if target == HUMAN else who[target]
            out.mark(asker, "asking")
            out.mark(target, "asked")
            out.says[asker] = Say("ask", f"asks {whom}", [card_view(card)])
        elif e.type in ("give", "hand-over"):
            giver, taker = d["player"], d["to"]
            out.mark(taker, "got")
            out.mark(giver, "gave")
            out.says[giver] = Say("yes", REPLY["given"])
            say = out.says.get(taker)
            if say is not None:
                say.tone, say.stamp = "yes", "Got it!"
                say.new = say.cards[0]["id"]
            first = d["card"] if e.type == "give" else hf.family_cards(s, d["family"])[0]
            out.moved, out.moved_from, out.moved_to = first, giver, taker
            out.outcome = "given"
            out.sound("card")
            if taker == HUMAN:
                out.sound("win")
        elif e.type == "refuse":
            refuser, asker = d["player"], d["asker"]
            out.mark(asker, "refused")
            out.mark(refuser, "said-no")
            out.says[refuser] = Say("no", REPLY["refused"])
            say = out.says.get(asker)
            if say is not None:
                say.tone, say.stamp = "no", "Not this time"
            out.outcome = "refused"
            if asker == HUMAN:
                out.sound("lose")
        elif e.type == "trick":
            p = d["player"]
            if hidden and p != HUMAN and d.get("at_deal"):
                continue  # laid face down at the deal: nobody saw which family
            fam = d["family"]
            out.mark(p, "family")
            cards = [card_view(s.cards[c]) for c in hf.family_cards(s, fam)]
            say = out.says.get(p)
            badge = say.badge if say is not None else ("You" if p == HUMAN else who[p])
            new = say.new if say is not None else None
            out.says[p] = Say("family", badge, cards, "A whole family!", new)
            out.outcome = "family"
            if p == HUMAN and not d.get("at_deal"):
                out.sound("win")
        elif e.type == "deal":
            out.sound("card")
    if over:
        winners = hf.result(s)["winners"]
        out.sound("end-win" if HUMAN in winners else "end-lose")
    return out


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
    pace_of_four = 1700  # three computer players: a shorter pause for each of them

    def pace_for(self, state: hf.State) -> int:
        """Three computer players pause less each, so a big game still ends within five minutes."""
        return self.pace if state.players <= 3 else self.pace_of_four

    thinks_aloud = "remembering"

    def step_table(self, run: Run, step: Step, set_record: SetRecord) -> dict[str, Any]:
        """A rule step's table as play draws it: hands up, Player 1's where the visitor's is."""
        places, public = step.places, step.public
        by_family: dict[str, list[Card]] = {}
        for card in run.cards.values():
            by_family.setdefault(card.family or "", []).append(card)
        # a trick shows its master card (as the set records it), or its family's first card
        masters = {
            f: next((c for c in cs if c.role == "master"), cs[0]) for f, cs in by_family.items()
        }

        def shown(cid: str, place: str, up: bool = True) -> dict[str, Any]:
            data = {"card": dom_id(cid), "place": place, "up": int(up)}
            return {**card_view(run.cards[cid]), "data": data}

        over = public.get("phase") == "over"
        seats = []
        for p in range(run.players):
            hand, tricks = places.get(f"hand:{p}") or [], places.get(f"tricks:{p}") or []
            families = list(dict.fromkeys(run.cards[c].family or "" for c in tricks))
            seats.append(
                {
                    "seat": p,
                    "name": seat_name(p),
                    "cards": len(hand),
                    "hand": [shown(c, f"hand:{p}") for c in hand],
                    "tricks": len(families),
                    "trick_cards": [shown(masters[f].id, f"tricks:{p}") for f in families],
                    "current": public.get("current") == p,
                    "chosen": False,
                    "marks": "",
                    "say": None,
                }
            )
        held = set(places.get("hand:0") or ())
        groups = []
        for family, members in by_family.items():
            mine = [{**shown(c.id, "hand:0"), "new": False} for c in members if c.id in held]
            if mine:
                lacking = [card_view(c) for c in members if c.id not in held]
                groups.append({"family": family, "cards": mine, "lacking": lacking})
        packs = pile_names(places, {"box": "The pack", "stock": "The pack"})
        return {
            "seats": seats,
            "you": seats[HUMAN],
            "others": seats[1:],
            "groups": groups,
            "packs": packs,
            "offers": [],
            "your_turn": False,
            "over": over,
            "back": back_src(set_record),
        }

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
            names=["You", *GAME.player_names(level, bots)],
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
        code, player, target, what = item
        kind, key = {"a": ("ask", "card"), "c": ("claim", "family")}[code]
        return {"type": kind, "player": player, "target": target, key: what}

    def wait_words(self, game: Played) -> str:
        if game.state.turn == HUMAN:
            return "It is your turn: choose a player to ask."
        return f"Wait for your turn: it is {hf.names(game.state)[game.state.turn]}'s turn to ask."

    def visitor_move(self, game: Played, kind: str, rest: str) -> str | None:
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

    def table(
        self, game: Played, set_record: SetRecord, setup: Mapping[str, Any], note: str | None
    ) -> dict[str, Any]:
        """The others' seats, the visitor's hand by family, what they may ask for, the words."""
        s = game.state
        v = hf.view(s, HUMAN)
        who = v["names"]
        over = hf.is_over(s)
        legal = v["legal"] if not over else []
        chosen = game.chosen if game.chosen in {a["target"] for a in legal} else None
        masters = _masters(s)
        told = story(game.events, s, over)
        result = hf.result(s)
        seats = []
        for p in range(s.players):
            tricks = v["tricks_on_table"][p]
            say = told.says.get(p)
            if p == HUMAN and say is not None and say.tone == "yes" and told.moved_to == HUMAN:
                say = Say(say.tone, say.badge, [], say.stamp)  # the card is shown in the hand
            # at the end every trick is turned up: the families each player made, as pictures
            families = hf.trick_families(s, p) if over else tricks["families"] or []
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
                    "marks": " ".join(told.marks.get(p, [])),
                    "say": say,
                    "winner": over and p in result["winners"],
                    "families": [
                        {
                            "family": f,
                            "cards": [card_view(s.cards[c]) for c in hf.family_cards(s, f)],
                            "new": any(
                                e.type == "trick" and e.data["family"] == f for e in game.events
                            ),
                        }
                        for f in families
                    ],
                }
            )
        hand = set(v["hand"])
        groups = []
        for fam in s.families:
            held = [
                {**card_view(s.cards[c]), "new": c == told.moved and told.moved_to == HUMAN}
                for c in v["hand"]
                if s.cards[c].family == fam
            ]
            if held:
                lacking = [card_view(s.cards[c]) for c in hf.family_cards(s, fam) if c not in hand]
                groups.append({"family": fam, "cards": held, "lacking": lacking})
        # the result says who won, once: the table's words leave the game's end to it
        words = sentences([e for e in game.events if e.type != "game-over"], s)
        thought = None
        if game.why:
            asks = (e.data["player"] for e in game.events if e.type in ("ask", "claim"))
            asker = next(asks, None)
            if asker is not None:
                thought = f"{who[asker]} thought: {hfw.said(game.why)}"
        if note:
            words.insert(0, note)
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
            "history": history(s, shown=len(game.events)),
            "your_turn": not over and v["current"] == HUMAN,
            "whose_turn": who[v["current"]] if v["current"] is not None else None,
            "result": result_words(s) if over else None,
            "you_won": over and HUMAN in result["winners"],
            # how the result screen shares its room: every player's families, at least one
            "result_units": sum(max(1, len(seat["families"])) for seat in seats),
            "result_most": max(1, *(len(seat["families"]) for seat in seats)),
            "outcome": told.outcome,
            "sounds": told.sounds,
            "moved_from": who[told.moved_from] if told.moved_from is not None else None,
            "variant": self.variants()[variant_of(game)],
            "rules_url": self.rules_url(setup, variant_of(game)),
        }


GAME = HappyFamilies()
