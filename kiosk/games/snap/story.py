"""What Snap's table shows: each card's look, the last action told at the cards (docs/play.md, "The
table tells the story") and a rule step's table drawn by the same template."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from kiosk.catalogue.decks import card_name
from kiosk.catalogue.scenarios import Run, Step, seat_name
from kiosk.catalogue.schema import SetRecord
from kiosk.games.snap import engine as snap
from kiosk.web.cardfaces import quoted
from kiosk.web.cards import back_src, card_face, dom_id, find_face
from kiosk.web.play.games import HUMAN
from kiosk.web.play.games import packs as pile_names

VISITORS = (0, 1)  # the two visitors' seats when two play together
VISITOR_NAMES = ("Blue", "Orange")
VISITOR_KEYS = (("A", "S"), ("L", "K"))  # (Snap!, Snap Pool!) for each visitor


def card_alt(card: dict[str, Any], set_record: SetRecord) -> str:
    """A card named by its picture or rank (and family, where Snap matches by family)."""
    if set_record.deck == "standard-52":
        return card["name"]
    face = find_face(set_record, (card.get("face") or "").rpartition("/")[2])
    # a printed name is historic text, quoted; a card the record does not name is said plainly
    name = card_name(face) if face is not None and not face.recorded else quoted(card["name"])
    if set_record.match == "family" and card.get("match"):
        return f"{name}, {card['match']} family"
    return name


class Story:
    """What the table shows of the last action at the cards: marks, matches, outcome, sounds."""

    # the outcome a table is known by, when several things happened: the visitor's first
    PRIORITY = ("won", "slow", "lost", "wrong", "late", "pool", "tie", "forfeit", "missed")

    def __init__(self) -> None:
        self.marks: dict[int, SimpleNamespace] = {}
        self.kinds: list[str] = []
        self.sounds: list[str] = []
        self.pool_new = False

    def mark(self, seat: int, kind: str, words: str, cards: list[str] | None = None) -> None:
        """Mark a seat (the first mark of a seat stands: it is the one its words are about)."""
        if seat not in self.marks:
            self.marks[seat] = SimpleNamespace(kind=kind, words=words, cards=cards or [])

    def sound(self, name: str) -> None:
        if name not in self.sounds:
            self.sounds.append(name)

    @property
    def outcome(self) -> str | None:
        """The region's ``data-outcome``: the most telling kind of what happened."""
        found = [k for k in self.PRIORITY if k in self.kinds]
        return found[0] if found else None


def pile_size(n: int) -> int:
    """How thick a pile of ``n`` cards is drawn on the result screen (0-5)."""
    return next(i for i, top in enumerate((0, 3, 8, 16, 28)) if n <= top) if n <= 28 else 5


def story(
    events: list[Any],
    me: int | None,
    over: bool,
    winners: list[int],
    names: list[str] | None = None,
) -> Story:
    """The last action told at the table for the visitor at ``me`` (None: two visitors, by name)."""
    out = Story()
    mine = set(VISITORS) if me is None else {me}
    callers = {e.data.get("player") for e in events if e.type == "call"} & mine
    called = bool(callers)

    def tag(seat: int, words: str) -> str:
        return f"{names[seat]}: {words}" if me is None and names else words

    for e in events:
        t, d = e.type, e.data
        p = d.get("player")
        if t == "turn":
            out.sound("card")
        elif t == "call" and p not in mine:
            out.sound("call")
        elif t in ("snap", "pool-won"):
            cards = d["tops"] if t == "snap" else [d["pool_top"]]
            out.mark(p, "won", tag(p, snap.badge("won", e, p in mine and me is not None)), cards)
            for q in sorted(callers - {p}):  # a visitor who called, beaten to it
                out.mark(q, "slow", tag(q, snap.badge("slow")))
            if p in mine:
                out.kinds.append("won")
                out.sound("win")
            else:
                out.kinds.append("slow" if called else "lost")
                out.sound("late" if called else "lose")
        elif t == "pool-formed":
            for q in d["players"]:
                out.mark(q, "together", tag(q, snap.badge("together")))
            out.pool_new = True
            out.kinds.append("pool")
            out.sound("card")
        elif t == "tie":
            out.kinds.append("tie")
        elif t in ("penalty", "mistaken-call"):
            words = snap.badge("wrong", e)
            out.mark(p, "wrong", tag(p, words) if p in mine else words)
            out.kinds.append("wrong")
            if p in mine:
                out.sound("wrong")
        elif t == "late-call" and p in mine and d.get("why") != "already called":
            out.mark(p, "late", tag(p, snap.badge("late")))
            out.kinds.append("late")
            out.sound("late")
        elif t == "forfeit":
            payer = d["payer"]
            out.mark(payer, "paid", snap.badge("paid", e))
            out.kinds.append("forfeit")
            out.sound("win" if p in mine else "lose" if payer in mine else "card")
        elif t == "unclaimed":
            out.kinds.append("missed")
    if over:
        out.sound("end-win" if mine & set(winners) else "end-lose")
    return out


class CardLooks:
    """A set's cards' looks, each worked out once a setup context: it saves 7 % of an action."""

    def __init__(self, set_record: SetRecord) -> None:
        self.set_record = set_record
        self._looks: dict[str, SimpleNamespace] = {}  # card id → its look

    def look(self, card: dict[str, Any] | None) -> SimpleNamespace | None:
        """A view's card as the table shows it, named as a visitor needs it to play."""
        if card is None:
            return None
        found = self._looks.get(card["id"])
        if found is None:
            face = card_face(card["face"])
            found = self._looks[card["id"]] = SimpleNamespace(
                id=card["id"], src=face.src, alt=card_alt(card, self.set_record), css=face.css
            )
        return found


def with_top(card: SimpleNamespace | None, **more: Any) -> SimpleNamespace:
    """A pile's top card with its name and picture at hand for the template."""
    return SimpleNamespace(
        **more, top=card, top_alt=card.alt if card else "", top_src=card.src if card else None
    )


def seat_views(
    s: snap.SnapState,
    v: dict[str, Any],
    told: Story,
    look: Callable[[dict[str, Any] | None], SimpleNamespace | None],
    who: list[str],
    together: bool,
    current: int | None,
    turns: list[int],
) -> tuple[list[SimpleNamespace], set[str]]:
    """Each seat as the live table draws it, and the cards just matched (drawn at the winner's)."""
    o = s.options
    matched: set[str] = set()
    seats = []  # objects, not dicts: Jinja tries an attribute first, and on a dict that fails
    for info in v["players"]:
        p = info["seat"]
        top = look(info["top"])
        mark = told.marks.get(p)
        if mark is not None and mark.cards:
            # the matched cards fly to the winner's seat and are shown there, face up
            matched.update(mark.cards)
            cards = [look(snap.card_json(s.cards[cid])) for cid in mark.cards]
            mark = SimpleNamespace(kind=mark.kind, words=mark.words, cards=cards)
        visitor = p in o.humans if together else p == HUMAN
        may = {a["type"] for a in snap.legal_actions(s, p)} if visitor else set()
        seats.append(
            SimpleNamespace(
                **{**info, **vars(with_top(top)), "current": current == p},
                name=who[p],
                visitor=visitor,
                colour=VISITOR_NAMES[p].lower() if together and visitor else None,
                can_turn="turn" in may,
                can_call=not s.over and "call" in may,
                can_pool=not s.over and "call-pool" in may,
                keys=VISITOR_KEYS[p] if together and visitor else None,
                # the names snap.js moves the cards by: the card about to be turned and the
                # card just turned share one, "flip-<seat>"
                down_data={
                    "vt-next": f"flip-{p}"
                    if (current == p or (o.speed and not info["out"])) and not s.over
                    else None
                },
                top_data={
                    "vt": f"card-{top.id}" if top else None,
                    "vt-turned": f"flip-{p}" if p in turns else None,
                },
                mark=mark,
                winner=s.over and p in s.winners,
                pile=pile_size(info["down"] + info["up"]),
            )
        )
    return seats, matched


def ghosts(events: list[Any], shown: set[str]) -> dict[int, list[dict[str, Any]]]:
    """The cards just won that the table no longer shows, so snap.js can move them to the winner."""
    found: dict[int, list[dict[str, Any]]] = {}
    for e in events:
        won = e.data.get("tops", []) if e.type == "snap" else []
        if e.type == "pool-won":
            won = [e.data["pool_top"]]
        found.setdefault(e.data.get("player", -1), []).extend(
            {"vt": f"card-{c}"} for c in won if c not in shown
        )
    return found


def match_words(s: snap.SnapState) -> str | None:
    """At your own pace, what a match on the table asks of the visitor (for the live region)."""
    w = s.window
    if w is None or s.over or s.out[HUMAN] or any(c[1] == HUMAN for c in w.calls):
        return None
    if w.snap and w.pool:
        return "It's a match — press Snap! (a top card matches the pool too: Snap Pool! wins it)."
    if w.snap:
        return "It's a match — press Snap!"
    if w.pool:
        return "A top card matches the pool — press Snap Pool!"
    return None


def keys_words(show_pool: bool) -> list[str]:
    """The keys each visitor may press instead of a tap (said on screen, at their edge)."""
    out = []
    for name, (snap_key, pool_key) in zip(VISITOR_NAMES, VISITOR_KEYS, strict=True):
        pool = f", {pool_key} for Snap Pool!" if show_pool else ""
        out.append(f"{name}: key {snap_key} for Snap!{pool}")
    return out


def centre_pile(
    top: SimpleNamespace | None, below: SimpleNamespace | None, count: int
) -> SimpleNamespace:
    """Easy Snap's centre pile: its top card, the card under it, and how many."""
    return with_top(
        top,
        count=count,
        below=below,
        below_alt=below.alt if below else "",
        below_src=below.src if below else None,
    )


def _named(card: SimpleNamespace | None, place: str, up: bool) -> dict[str, Any]:
    """A card of a step-through's table named for rules.js: its id, its place, face up or not."""
    return {"card": dom_id(card.id), "place": place, "up": int(up)} if card else {}


def step_table(run: Run, step: Step, set_record: SetRecord) -> dict[str, Any]:
    """A rule step's table as play draws it: Player 1 sits where the visitor does."""
    o = snap.options_from_json(run.options)
    looks = CardLooks(set_record)
    places, public = step.places, step.public

    def top_of(place: str) -> SimpleNamespace | None:
        ids = places.get(place) or ()
        return looks.look(snap.card_json(run.cards[ids[-1]])) if ids else None

    def below_top(place: str) -> SimpleNamespace | None:
        ids = places.get(place) or ()
        return looks.look(snap.card_json(run.cards[ids[-2]])) if len(ids) > 1 else None

    counters, out = public.get("counters"), public.get("out") or ()
    seats = []
    for p in range(run.players):
        top = top_of(f"up:{p}")
        down = places.get(f"down:{p}") or ()
        seats.append(
            SimpleNamespace(
                **vars(with_top(top)),
                seat=p,
                name=seat_name(p),
                visitor=p == HUMAN,
                you=p == HUMAN,
                colour=None,
                current=public.get("current") == p and not public.get("over"),
                out=bool(out[p]) if p < len(out) else False,
                mark=None,
                down=len(down),
                up=len(places.get(f"up:{p}") or ()),
                counters=counters[p] if isinstance(counters, list) else None,
                down_data=_named(top_of(f"down:{p}"), f"down:{p}", up=False),
                top_data=_named(top, f"up:{p}", up=True),
            )
        )
    centre = None
    if o.layout == "central":
        centre = centre_pile(top_of("centre"), below_top("centre"), len(places.get("centre", ())))
        centre.top_data = _named(centre.top, "centre", up=True)
        centre.below_data = _named(centre.below, "centre", up=True)
    pool = with_top(top_of("pool"), count=len(places.get("pool", ())))
    pool.top_data = _named(pool.top, "pool", up=True)
    ghosts: dict[int, list[dict[str, Any]]] = {}  # cards gone under a pile in this step
    drawn = {c.id for c in (pool.top, *(seat.top for seat in seats)) if c}
    for event in step.events:
        for move in event.get("moves", ()):
            kind, _, seat = move["to"].partition(":")
            if kind == "down" and move["from"] != move["to"]:
                ghosts.setdefault(int(seat), []).extend(
                    {"card": dom_id(c), "place": move["to"], "up": 0}
                    for c in move["cards"]
                    if c != (places[move["to"]] or [None])[-1] and c not in drawn
                )
    packs = pile_names(places, {"stock": "The pack", "aside": "Set aside"})  # before the deal
    return {
        "packs": packs,
        "seats": seats,
        "centre": centre,
        "pool": pool,
        "view": SimpleNamespace(kitty=public.get("kitty")),
        "central": o.layout == "central",
        "show_pool": o.has_pool,
        "forfeits": o.forfeits,
        "speed": o.speed,
        "together": False,
        "own_pace": False,
        "over": False,
        "pool_new": False,
        "ghosts": ghosts,
        "back": back_src(set_record),
    }
