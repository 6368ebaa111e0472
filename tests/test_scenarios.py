"""Scenarios: every variant has one, each agrees with its engine, and broken ones are caught."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

from kiosk.catalogue import Catalogue
from kiosk.catalogue.decks import deck_for
from kiosk.catalogue.scenarios import Run, engine_action, seat_name, split_source
from kiosk.catalogue.schema import ScenarioRecord
from kiosk.commands.check import check
from kiosk.config import ROOT
from kiosk.games import registry
from kiosk.games.core import Event, apply_moves
from kiosk.games.happy_families import engine as hf
from kiosk.games.happy_families.engine.words import spoken_deck
from kiosk.games.snap import engine as snap

CONTENT = ROOT / "content"
FIXTURES = Path(__file__).parent / "fixtures" / "scenarios"


@pytest.fixture(scope="module")
def snapshot():
    return Catalogue(CONTENT).current()


def test_real_content_has_no_problems(snapshot):
    assert snapshot.problems == ()
    assert len(snapshot.runs) == len(snapshot.scenarios) >= 15


@pytest.mark.parametrize(
    ("game", "variant"),
    [(g, v) for g in registry.names() for v in registry.engine(g).VARIANTS],
)
def test_every_variant_has_a_scenario(snapshot, game, variant):
    found = [
        e
        for e in snapshot.scenarios.values()
        if e.record.variant == variant and snapshot.games[e.record.game].record.engine == game
    ]
    assert found, f"no scenario for {game} {variant}"


@pytest.mark.parametrize(
    ("game", "point"),
    [
        ("snap", "turn-over"),
        ("snitchems", "deal"),
        ("snitchems", "pairing"),
        ("snitchems", "pair-royal"),
        ("snitchems", "making-8"),
        ("snitchems", "making-10"),
        ("snitchems", "pairing-made"),
        ("snitchems", "compulsory"),
        ("snitchems", "sweep"),
        ("snitchems", "last-capture"),
        ("happy-families", "hand-over"),
    ],
)
def test_each_point_the_issue_names_is_declared_and_shown(snapshot, game, point):
    from kiosk.catalogue.scenarios import shown

    runs = [
        snapshot.runs[k]
        for k, e in snapshot.scenarios.items()
        if e.record.game == game and point in e.record.shows
    ]
    runs += [
        r
        for r in snapshot.runs.values()
        if r.game == game and point == "hand-over" and r.variant == "variation"
    ]
    assert runs and all(shown(r, point) for r in runs)


def _scenarios(game: str = ""):
    snap = Catalogue(CONTENT).current()
    return [pytest.param(k, id=k) for k in snap.scenarios if k.startswith(game)]


@pytest.mark.parametrize("key", _scenarios())
def test_steps_agree_with_the_engine(snapshot, key):
    """Replaying the first k actions gives the places the step after action k shows."""
    record = snapshot.scenarios[key].record
    assert isinstance(record, ScenarioRecord)
    run = snapshot.runs[key]
    module = registry.engine(run.game)
    deck = {c.id: c for c in deck_for(snapshot.sets[record.deck].record)}
    cards = [deck[c] for c in record.cards]
    if run.game == "happy-families":
        cards = spoken_deck(cards)  # asked for aloud as in the live game
    extra = {**record.options, "shuffle": False}
    if run.game == "snap":
        extra["humans"] = tuple(range(record.players))
    if run.game != "snitchems":
        extra["players"] = record.players
    options = module.options_for(record.variant, **extra)
    state, events = module.new_game(cards, options, record.seed)

    def engine_places() -> dict[str, list[str]]:
        return {k: v for k, v in module.places(state).items() if v}

    def shown(step) -> dict[str, list[str]]:
        return {k: v for k, v in step.places.items() if v}

    deal = [s for s in run.steps if s.action is None]
    assert shown(deal[-1]) == engine_places()
    for i, raw in enumerate(record.actions):
        action, why = engine_action(run.game, raw, record.players)
        assert why is None
        if action["type"] in ("call", "call-pool"):
            action["turn"] = state.turn
        state, events = module.apply(state, action)
        mine = [s for s in run.steps if s.action == i]
        assert mine and mine[-1].last_of_action
        assert shown(mine[-1]) == engine_places(), f"after action {i}"
        # the steps of one action replay its events exactly, in order
        assert [e for s in mine for e in s.events] == [e.to_json() for e in events]
    assert [s.n for s in run.steps] == list(range(1, len(run.steps) + 1))


@pytest.mark.parametrize("key", _scenarios())
def test_each_step_follows_from_the_last_by_its_moves(snapshot, key):
    run = snapshot.runs[key]
    places = {k: list(v) for k, v in run.steps[0].places.items()}
    for before, after in zip(run.steps, run.steps[1:], strict=False):
        assert {k: v for k, v in places.items() if v} == {
            k: v for k, v in before.places.items() if v
        }
        events = [
            Event(e["type"], {k: v for k, v in e.items() if k != "type"}) for e in after.events
        ]
        apply_moves(places, events)
    assert {k: v for k, v in places.items() if v} == {
        k: v for k, v in run.steps[-1].places.items() if v
    }


@pytest.mark.parametrize("key", _scenarios())
def test_every_step_says_what_happened(snapshot, key):
    run = snapshot.runs[key]
    assert all(step.text for step in run.steps)


# ------------------------------------------------------------------ kiosk check on fixtures


@pytest.mark.parametrize(
    ("case", "where", "words"),
    [
        ("illegal-action", "13:5", "actions[1]: not allowed here"),
        ("no-pool", "5:10", "a snap-pool example must show a pool formed"),
        ("missing-step", "20:3", "a caption for step 12, but the example has 6 steps"),
        ("unknown-variant", "5:10", "unknown variant 'snap-dragon' of snap"),
        ("no-sweep", "8:18", "shows[1]: no step shows a sweep"),
        ("play-instead-of-capture", "15:5", "You must capture when you can"),
        ("unknown-card", "10:13", "cards[1]: no card '11H' in this pack"),
        ("call-without-ms", "14:5", "'call' needs 'ms:'"),
        ("unknown-point", "8:9", "shows[0]: unknown point 'snap'"),
    ],
)
def test_check_points_at_the_broken_line(tmp_path, case, where, words):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    target = content / "games" / "broken" / f"{case}.md"
    target.parent.mkdir()
    shutil.copy(FIXTURES / f"{case}.md", target)
    result = CliRunner().invoke(check, [str(content)])
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if ".md:" in line]
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"{content}/games/broken/{case}.md:{where}: "), lines[0]
    assert words in lines[0]


def test_a_broken_scenario_is_not_published(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    shutil.copy(FIXTURES / "no-pool.md", content / "games" / "snap" / "no-pool.md")
    snap = Catalogue(content).current()
    assert "snap/no-pool" not in snap.scenarios
    assert "snap/snap-pool" in snap.runs


def test_an_edited_caption_shows_in_the_next_snapshot(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    catalogue = Catalogue(content)
    first = catalogue.current()
    path = content / "games" / "snap" / "classic.md"
    path.write_text(path.read_text().replace("  3: Player 1, on", "  3: Now Player 1, on"))
    second = catalogue.current()
    assert second.version != first.version
    assert second.scenarios["snap/classic"].record.steps[3].startswith("Now Player 1")


# ------------------------------------------------------------------ small pieces


@pytest.mark.parametrize(
    ("raw", "action", "why"),
    [
        ({"turn": 1}, {"type": "turn", "player": 0}, None),
        ({"call": 2, "ms": 240}, {"type": "call", "player": 1, "reaction_ms": 240}, None),
        ({"turn": 3}, None, "'turn' needs a player number from 1 to 2, not 3"),
        ({"turn": 1, "card": "AS"}, None, "unknown field 'card' for 'turn'"),
        ("turn", None, "'turn' needs a player: write 'turn: 1'"),
        ({"turn": 1, "close": 2}, None, "an action needs exactly one of"),
    ],
)
def test_engine_action(raw, action, why):
    got, problem = engine_action("snap", raw, 2)
    assert got == action
    assert (problem or "").startswith(why or "")
    assert (problem is None) == (why is None)


def test_split_source_names_the_seed():
    source, quote = split_source(
        "woolworths-snap-misc-869-1986.txt, instruction card rule 4: "
        '"If two players call Snap together"'
    )
    assert source == "Woolworths Snap (MISC.869-1986), instruction card rule 4"
    assert quote == '"If two players call Snap together"'


def test_split_source_cites_the_basic_rules_as_their_own_text():
    source, quote = split_source(f'{snap.WOOLWORTHS}, {snap.BASIC}, PENALTY 1: "the player gives"')
    assert source == '"The basic rules for the game of SNAP" (a general text), PENALTY 1'
    assert quote == '"the player gives"'


def basic_rules_scenarios(snapshot) -> list[str]:
    """The Snap step-throughs whose variant quotes the general "basic rules" text."""
    return [
        key
        for key, entry in snapshot.scenarios.items()
        if entry.record.game == "snap" and snap.BASIC in snap.VARIANTS[entry.record.variant].source
    ]


def test_step_captions_citing_the_basic_rules_never_name_the_museum_object(client, snapshot):
    keys = basic_rules_scenarios(snapshot)
    assert keys, "some step-throughs quote the basic rules"
    pages = ["/rules/"] + [
        f"/rules/{key}/{n}" for key in keys for n in range(1, len(snapshot.runs[key].steps) + 1)
    ]
    cited = []
    for url in pages:
        page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
        for footer in page.select(".rules-quote footer"):
            words = footer.get_text(" ", strip=True)
            if "basic rules" in words:
                cited.append(words)
                assert "MISC.869-1986" not in words and "Woolworths" not in words, (url, words)
    assert any(w.startswith('— "The basic rules for the game of SNAP"') for w in cited)


def test_sequence_is_every_scenario_for_the_attract_loop(snapshot):
    from kiosk.catalogue.scenarios import sequence

    reel = sequence(snapshot)
    assert [f"{s['game']}/{s['slug']}" for s in reel] == list(snapshot.scenarios)
    pool = next(s for s in reel if s["slug"] == "snap-pool")
    assert pool["steps"][7]["caption"].startswith("…and Player 2 calls")
    assert pool["steps"][2]["caption"] == snapshot.runs["snap/snap-pool"].steps[2].text
    assert pool["steps"][-1]["places"] == snapshot.runs["snap/snap-pool"].steps[-1].places


# ------------------------------------------------------------------ Happy Families captions

ASKS = re.compile(r"\b(?:Player \d+|You) asks? (?:Player \d+|you)\b")  # "Player 1 asks Player 2"


def _live_words(run: Run, event: dict) -> str:
    """What the live game says of this ask to the visitor (seat 0), said of Player 1 instead."""
    from kiosk.games.happy_families import web as pf
    from kiosk.web.play.games import HUMAN

    names = [seat_name(p) for p in range(run.players)]
    options = hf.options_from_json({**run.options, "names": names})
    state, _ = hf.new_game(list(run.cards.values()), options, 0)
    said = pf.sentences([Event(event["type"], event)], state)[0]
    you = seat_name(HUMAN)
    return said.replace("You ask ", f"{you} asks ").replace(" asks you:", f" asks {you}:")


def _caption(client, url: str) -> str:
    """A step page's caption as a visitor reads it: the words, then what happened."""
    response = client.get(url)
    assert response.status_code == 200, url
    page = BeautifulSoup(response.get_data(as_text=True), "html.parser")
    parts = page.select(".rules-caption__text, .rules-caption__happened")
    return " ".join(" ".join(p.get_text(" ").split()) for p in parts)


@pytest.mark.parametrize("key", _scenarios("happy-families/"))
def test_each_step_says_who_asked_whom_for_what_once_in_the_games_words(client, snapshot, key):
    run = snapshot.runs[key]
    for step in run.steps:
        caption = _caption(client, f"/rules/{key}/{step.n}")
        asks = [e for e in step.events if e["type"] in ("ask", "claim")]
        assert len(asks) <= 1 and len(ASKS.findall(caption)) == len(asks), (step.n, caption)
        for event in asks:
            assert caption.count(_live_words(run, event)) == 1, (step.n, caption)
            thing = (
                run.cards[event["card"]].name
                if event["type"] == "ask"
                else hf.family_words(event["family"])
            )
            assert caption.count(thing) == 1, (step.n, caption)
        asked = {e.get("card") for e in asks}
        for cid, card in run.cards.items():
            assert cid in asked or card.name not in caption, (step.n, caption)
        # a caption names only this step's families (a caption on the wrong step names others)
        here = {
            run.cards[e["card"]].family if "card" in e else e.get("family") for e in step.events
        }
        named = {c.family for c in run.cards.values() if c.family and c.family in caption}
        assert named <= here, (step.n, caption)
