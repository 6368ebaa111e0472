"""The rules pages: the list of variants, every step of every scenario, and the step JSON."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from game_files import shipped_variants

from kiosk.catalogue import Catalogue
from kiosk.catalogue.scenarios import split_source
from kiosk.config import ROOT
from kiosk.games import registry
from kiosk.web.cards import dom_id

SNAPSHOT = Catalogue(ROOT / "content").current()
STEPS = [
    pytest.param(key, n, id=f"{key}/{n}")
    for key, run in SNAPSHOT.runs.items()
    for n in range(1, len(run.steps) + 1)
]


@pytest.fixture(scope="module")
def client():
    """One app for the module: every step page is a GET, nothing changes between tests."""
    from kiosk import create_app

    return create_app({"TESTING": True, "SECRET_KEY": "test-secret"}).test_client()


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def test_index_lists_every_game_and_variant_with_its_source(client):
    response = client.get("/rules/")
    assert response.status_code == 200
    page = soup(response)
    text = page.get_text(" ", strip=True)
    for game in registry.names():
        for variant in shipped_variants(game).values():
            assert variant.title in text
            assert variant.description in text
            source, _quote = split_source(variant.source)
            assert source in text
    links = {a["href"] for a in page.select("a.rules-example")}
    for key in SNAPSHOT.scenarios:
        assert f"/rules/{key}/1" in links


def test_a_scenario_without_a_step_goes_to_step_one(client):
    response = client.get("/rules/snap/snap-pool")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/rules/snap/snap-pool/1")


@pytest.mark.parametrize(
    "path",
    [
        "/rules/snap/snap-pool/0",
        "/rules/snap/nothing/1",
        "/rules/chess/classic/1",
        "/rules/snap/snap-pool/-1",
        "/rules/snap/snap-pool/x",
        "/rules/snap/nothing",
        "/rules/snap/nothing/steps.json",
    ],
)
def test_not_a_step_is_404(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("key", list(SNAPSHOT.runs))
def test_last_step_plus_one_is_404(client, key):
    total = len(SNAPSHOT.runs[key].steps)
    assert client.get(f"/rules/{key}/{total}").status_code == 200
    assert client.get(f"/rules/{key}/{total + 1}").status_code == 404


@pytest.mark.parametrize(("key", "n"), STEPS)
def test_each_step_renders_the_engine_places(client, key, n):
    response = client.get(f"/rules/{key}/{n}")
    assert response.status_code == 200
    page = soup(response)
    run = SNAPSHOT.runs[key]
    step = run.steps[n - 1]
    total = len(run.steps)
    assert page.select_one("#rules-count").get_text(strip=True) == f"Step {n} of {total}"
    shown: dict[str, list[str]] = {}
    for card in page.select("#rules-table [data-card]"):
        shown.setdefault(card["data-place"], []).append(card["data-card"])
    want = {place: [dom_id(c) for c in ids] for place, ids in step.places.items() if ids}
    # the game's own table, as in play: some card of every place holding cards (a pile's
    # top, a hand, a family's card for a trick), each named where the engine has it
    assert set(shown) == set(want)
    for place, cards in shown.items():
        assert set(cards) <= set(want[place]), place
    caption = page.select_one("#rules-caption")
    assert caption["aria-live"] == "polite"
    assert caption.select_one(".rules-caption__text").get_text(strip=True)
    nav = {a["data-go"]: a["href"] for a in page.select("#rules-nav a[data-go]")}
    assert nav["start"].endswith(f"/rules/{key}/1")
    assert ("prev" in nav) == (n > 1)
    assert ("next" in nav) == (n < total)
    if n < total:
        assert nav["next"].endswith(f"/rules/{key}/{n + 1}")
        assert nav["play"].endswith(f"/rules/{key}/{n + 1}?play=1")
    assert not page.select("[style]")
    assert all(s.get("src") for s in page.select("script"))


def test_a_happy_families_step_shows_every_hand_as_an_onlooker_sees_it(client):
    """Happy Families' step-through is its play table (watching): every hand face up, its
    cards named, Player 1's by family where the visitor's hand is; tricks by a family card."""
    page = soup(client.get("/rules/happy-families/classic/8"))
    table = page.select_one("#rules-table .hf-watch")
    assert table is not None and not table.select("button, form, input")
    step = SNAPSHOT.runs["happy-families/classic"].steps[7]
    for seat in range(3):
        hand = table.select(f'img[data-place="hand:{seat}"]')
        assert [img["data-card"] for img in hand] == [
            dom_id(c) for c in step.places[f"hand:{seat}"]
        ] or seat == 0  # Player 1's hand is grouped by family
        assert all(img["alt"] and img["data-up"] == "1" for img in hand)
    tricks = table.select('img[data-place="tricks:0"]')
    assert len(tricks) == 1 and "Player 1's tricks" in page.select_one(".hf-tricks").get_text()
    assert "Player 1" in table.select_one("#seat-0-name").get_text()
    # whoever is to ask is ringed, Player 1 included, at every step
    run = SNAPSHOT.runs["happy-families/classic"]
    for step in run.steps:
        page = soup(client.get(f"/rules/happy-families/classic/{step.n}"))
        ringed = [s["id"] for s in page.select("#rules-table section.seat.is-current")]
        current = step.public.get("current")
        over = step.public.get("phase") == "over"
        assert ringed == ([] if current is None or over else [f"seat-{current}"]), step.n
    assert any(s.public.get("current") == 0 for s in run.steps)


def test_a_snap_step_is_drawn_as_the_play_table_draws_it(client):
    """Snap's step-through is the play table (play/_snap.html, watching): the same seats and
    piles, Player 1 where the visitor sits, and nothing to press."""
    page = soup(client.get("/rules/snap/snap-pool/6"))
    table = page.select_one("#rules-table .snap-watch")
    assert table is not None and not table.select("button, form, input")
    others, you = table.select_one(".table__others"), table.select_one(".table__you")
    assert [h.get_text() for h in others.select(".seat__name")] == ["Player 2"]
    assert [h.get_text() for h in you.select(".seat__name")] == ["Player 1"]
    top = table.select_one('img[data-place="up:1"]')
    assert top["alt"] == "“On Guard”" and top["data-up"] == "1" and "play-card" in top["class"]
    back = table.select_one('img[data-place="down:0"]')
    assert back["alt"] == "" and back["src"].endswith("/back.svg") and back["data-up"] == "0"
    counts = [p.get_text(" ", strip=True) for p in you.select(".pile__count")]
    assert counts == [
        "3 face down",
        f"{len(SNAPSHOT.runs['snap/snap-pool'].steps[5].places['up:0'])} face up",
    ]
    assert table.select_one(".pile--pool .pile__name").get_text() == "The pool"


def test_a_curators_caption_and_quote_are_shown(client):
    page = soup(client.get("/rules/snap/snap-pool/8"))
    caption = page.select_one("#rules-caption").get_text(" ", strip=True)
    assert "Nobody can say who was first" in caption
    assert "“If two players call Snap together" in caption
    assert "Woolworths Snap (MISC.869-1986), instruction card, rule 4" in caption
    assert "Player 2 calls “Snap!” (270 ms)" in caption  # what the engine did, in words


def test_a_step_without_a_caption_uses_the_engines_words_and_the_variants_rule(client):
    page = soup(client.get("/rules/snap/snap-pool/3"))
    assert page.select_one(".rules-caption__text").get_text(strip=True) == (
        "Player 1 turns up “Yeoman of the Guard”."
    )
    assert "Woolworths Snap (MISC.869-1986)" in page.select_one(".rules-quote footer").text


def test_play_shows_pause_and_keeps_the_pace(client):
    page = soup(client.get("/rules/snap/snap-pool/2?play=1&dwell=80"))
    assert page.select_one("#rules-stage").has_attr("data-playing")
    assert page.select_one("#rules-stage")["data-dwell"] == "80"
    nav = {a["data-go"]: a["href"] for a in page.select("#rules-nav a[data-go]")}
    assert nav["pause"].endswith("/rules/snap/snap-pool/2?dwell=80")
    assert nav["next"].endswith("/rules/snap/snap-pool/3?dwell=80")


def test_fragment_request_sends_the_stage_only(client):
    response = client.get("/rules/snap/easy/4", headers={"HX-Request": "true"})
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert 'id="rules-stage"' in text
    assert "<html" not in text


def test_steps_json_is_the_whole_sequence(client):
    response = client.get("/rules/snitchems/making-8-and-10/steps.json")
    assert response.status_code == 200
    data = response.get_json()
    run = SNAPSHOT.runs["snitchems/making-8-and-10"]
    assert [s["n"] for s in data["steps"]] == list(range(1, len(run.steps) + 1))
    assert data["steps"][9]["caption"].startswith("Player 1's Jack pairs")
    assert data["steps"][-1]["places"] == run.steps[-1].places
    assert data["steps"][0]["url"].endswith("/rules/snitchems/making-8-and-10/1")


def test_forfeit_counters_are_on_the_table(client):
    page = soup(client.get("/rules/snap/forfeits/5"))
    text = page.select_one("#rules-table").get_text(" ", strip=True)
    assert "2 counters" in text and "1 counter" in text and "Counters given up: 3" in text


@pytest.mark.parametrize("variant", list(registry.engine("snap").VARIANTS))
def test_the_play_pages_rules_link_reaches_a_step(client, variant):
    """The Snap play page links its result to /rules/snap/<variant>: that must lead somewhere."""
    response = client.get(f"/rules/snap/{variant}")
    assert response.status_code == 302
    assert client.get(response.headers["Location"]).status_code == 200


def test_a_snap_step_links_to_play_with_its_pack(client):
    page = soup(client.get("/rules/snap/easy/3"))
    hrefs = [a["href"] for a in page.select(".rules-help a")]
    assert "/games/snap" in hrefs
    if client.get("/sets/misc-869-1986/play").status_code == 200:
        assert "/sets/misc-869-1986/play" in hrefs


@pytest.mark.parametrize("key", [k for k in SNAPSHOT.runs if k.startswith("snap/")])
def test_the_pool_is_on_the_table_where_the_rules_have_one(client, key):
    """As at the play table: a Snap variant with a pool shows it, empty or not, at every step;
    one without never draws a pool (nobody should look for what the rules do not have)."""
    from kiosk.games.snap import engine as snap

    run = SNAPSHOT.runs[key]
    has_pool = snap.options_from_json(run.options).has_pool
    for n in range(1, len(run.steps) + 1):
        page = soup(client.get(f"/rules/{key}/{n}"))
        assert bool(page.select("#rules-table .pile--pool")) == has_pool, (key, n)


def test_the_variants_with_a_pool_are_the_ones_whose_rules_send_cards_to_it():
    from kiosk.games.snap import engine as snap

    pooled = {v for v in snap.VARIANTS if snap.options_for(v).has_pool}
    assert pooled == {
        "snap-pool",
        "woolworths",
        "penalty-card-each",
        "penalty-face-up-to-pool",
        "penalty-face-down-to-pool",
    }
