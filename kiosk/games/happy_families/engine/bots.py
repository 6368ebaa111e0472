"""Happy Families' computer players, forgetful and remembering (happy_families/rules.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.games.core import SeatBot
from kiosk.games.happy_families.engine.options import GAME, LEVELS
from kiosk.games.happy_families.engine.words import family_words

FORGETFUL_MEMORY = 3  # asks (or claims) the forgetful bot still remembers, with their answers


def _object(name: str) -> str:
    return "you" if name == "You" else name


@dataclass
class Memory:
    """What the public log tells about who holds what."""

    holder: dict[str, int] = field(default_factory=dict)  # card -> seat given it
    lacks: dict[str, set[int]] = field(default_factory=dict)  # card -> seats without it
    asked_family: dict[int, dict[str, str]] = field(default_factory=dict)  # seat -> fam -> card
    trick_owner: dict[str, int] = field(default_factory=dict)  # family -> seat
    laid_at: dict[str, int] = field(default_factory=dict)  # family -> seat that laid it
    not_owner: dict[str, set[int]] = field(default_factory=dict)  # family -> seats without


def remember(view: dict[str, Any]) -> Memory:
    """Read the public log from the start, as a player who forgets nothing would."""
    fam_of = {c["id"]: c["family"] for c in view["deck"]}
    mem = Memory()
    last_asker: dict[str, int] = {}
    last_give: str | None = None
    for e in view["log"]:
        kind = e["type"]
        if kind == "ask":
            card, seat = e["card"], e["player"]
            mem.lacks.setdefault(card, set()).add(seat)
            mem.asked_family.setdefault(seat, {})[fam_of[card]] = card
            last_asker[card] = seat
        elif kind == "give":
            card, giver, taker = e["card"], e["player"], e["to"]
            mem.holder[card] = taker
            mem.lacks.setdefault(card, set()).add(giver)
            mem.lacks[card].discard(taker)
            # the giver may have given away their only card of that family
            mem.asked_family.get(giver, {}).pop(fam_of[card], None)
            last_give = card
        elif kind == "refuse" and "card" in e:
            mem.lacks.setdefault(e["card"], set()).add(e["player"])
        elif kind == "trick":
            fam = e["family"]
            if fam is None and not e.get("at_deal") and last_give is not None:
                fam = fam_of[last_give]  # only the family just completed can be laid now
            if fam is not None:
                mem.trick_owner[fam] = e["player"]
                mem.laid_at[fam] = e["player"]
                for card, fc in fam_of.items():
                    if fc == fam:
                        mem.holder.pop(card, None)
        elif kind == "hand-over":
            mem.trick_owner[e["family"]] = e["to"]
        elif kind == "refuse" and "family" in e:
            mem.not_owner.setdefault(e["family"], set()).add(e["player"])
    return mem


def recent(log: list[dict[str, Any]], asks: int) -> list[dict[str, Any]]:
    """The tail of the log from the last ``asks`` asks or claims on: a short memory."""
    seen = 0
    for i in range(len(log) - 1, -1, -1):
        if log[i]["type"] in ("ask", "claim"):
            seen += 1
            if seen == asks:
                return log[i:]
    return list(log)


def _best(
    every: list[tuple[float, dict[str, Any], str]],
) -> list[tuple[float, dict[str, Any], str]]:
    """The choices tied (to within rounding) for the best chance, in the order they came."""
    best: list[tuple[float, dict[str, Any], str]] = []
    top = -1.0
    for choice in every:
        p = choice[0]
        if p > top + 1e-12:
            top, best = p, [choice]
        elif abs(p - top) <= 1e-12:
            best.append(choice)
    return best


class Bot(SeatBot):
    """A computer player: ``act(view)`` returns a legal action with a ``why``."""

    GAME, TITLE, LEVELS = GAME, "Happy Families", LEVELS

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        """Choose the next ask or claim from what this player can see."""
        legal = self.moves(view)
        if self.level == "forgetful":
            view = {**view, "log": recent(view["log"], FORGETFUL_MEMORY)}
        if view["phase"] == "variation":
            return self._claim(view, legal)
        return self._ask(view, legal)

    def _ask(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        mem = remember(view)
        names = view["names"]
        me = view["me"]
        cards = {c["id"]: c for c in view["deck"]}
        counts = view["hand_counts"]
        hand = set(view["hand"])
        known_by: dict[int, int] = {}
        for card, seat in mem.holder.items():
            if card not in hand:
                known_by[seat] = known_by.get(seat, 0) + 1
        slots = {s: max(counts[s] - known_by.get(s, 0), 0) for s in range(view["players"])}
        mine_per_family: dict[str, int] = {}
        for cid in hand:
            fam = cards[cid]["family"]
            mine_per_family[fam] = mine_per_family.get(fam, 0) + 1

        every: list[tuple[float, dict[str, Any], str]] = []
        for a in legal:
            cid, target = a["card"], a["target"]
            fam = cards[cid]["family"]
            name, cname = names[target], cards[cid]["name"]
            lacks = mem.lacks.get(cid, set())
            holder = mem.holder.get(cid)
            if holder == target:
                p = 1.0
                # every card handed over was asked for by its new holder, aloud
                why = f"{name} asked for {cname} and got it, so I asked {_object(name)} for it."
            elif holder is not None or target in lacks:
                p = 0.0
                why = "I had nothing better to ask."
            else:
                eligible = [
                    s for s in range(view["players"]) if s != me and counts[s] and s not in lacks
                ]
                total = sum(slots[s] for s in eligible) or 1
                p = slots[target] / total
                why = f"I didn't know who had {cname}, so I tried {_object(name)}."
                if lacks - {me}:
                    said_no = " and ".join(names[s] for s in sorted(lacks - {me}))
                    why = f"{said_no} didn't have {cname}, so I tried {_object(name)}."
                asked = mem.asked_family.get(target, {}).get(fam)
                holds_known = any(
                    mem.holder.get(c) == target for c, cc in cards.items() if cc["family"] == fam
                )
                if asked is not None and not holds_known:
                    could = [
                        c
                        for c, cc in cards.items()
                        if cc["family"] == fam
                        and c not in hand
                        and mem.holder.get(c) is None
                        and target not in mem.lacks.get(c, set())
                    ]
                    if could == [cid]:
                        p = 0.99
                        why = (
                            f"{name} asked for {cards[asked]['name']}, so "
                            f"{_object(name)} must hold {cname}: I asked for it."
                        )
                    elif cid in could and 1 / len(could) > p:
                        p = 1 / len(could)
                        why = (
                            f"{name} asked for {cards[asked]['name']}, so I knew "
                            f"{_object(name)} had another {fam} card."
                        )
            p += mine_per_family.get(fam, 0) * 1e-3  # nearer a whole family breaks ties
            every.append((p, a, why))
        action, why = self._pick(every)
        return {**action, "why": why}

    def _pick(self, every: list[tuple[float, dict[str, Any], str]]) -> tuple[dict[str, Any], str]:
        """Remembering: a best choice; forgetful: a guess weighted by each chance of a yes."""
        if self.level == "forgetful":
            weights = [p for p, _, _ in every]
            if sum(weights) <= 0:
                weights = [1.0] * len(every)
            _, action, why = self.rng.choices(every, weights)[0]
        else:
            _, action, why = self.rng.choice(_best(every))
        return action, why

    def _claim(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        mem = remember(view)
        names = view["names"]
        tricks = view["tricks_on_table"]
        known_of: dict[int, int] = {}
        for seat in mem.trick_owner.values():
            known_of[seat] = known_of.get(seat, 0) + 1
        every: list[tuple[float, dict[str, Any], str]] = []
        for a in legal:
            fam, target = a["family"], a["target"]
            owner = mem.trick_owner.get(fam)
            name = names[target]
            if owner == target:
                p = 1.0
                laid = mem.laid_at.get(fam) == target
                verb = "laid down" if laid else "won"
                who = _object(name)
                why = f"I remembered {who} {verb} {family_words(fam)}, so I asked for it."
            elif owner is not None or target in mem.not_owner.get(fam, set()):
                p = 0.0
                why = "I had nothing better to ask."
            else:
                unknown = max(tricks[target]["count"] - known_of.get(target, 0), 0)
                p = unknown / 100
                why = (
                    f"I couldn't remember where {family_words(fam)} went, so I tried "
                    f"{_object(name)}."
                )
            every.append((p, a, why))
        action, why = self._pick(every)
        return {**action, "why": why}


def make_bot(level: str, seat: int, seed: Any = 0) -> Bot:
    """A Happy Families computer player."""
    return Bot(level, seat, seed)
