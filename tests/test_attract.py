"""The attract loop's slides: every set and every safe rule, a URL each, never a flagged card."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from bs4 import BeautifulSoup

from kiosk.catalogue.citations import plain
from kiosk.web import attract, content
from kiosk.web.cards import face_src


@pytest.fixture
def snapshot(app):
    with app.app_context():
        yield content.current()


@pytest.fixture
def slides(app, snapshot):
    return attract.reel(snapshot)


def flagged_urls(app, snapshot) -> list[str]:
    """Every address a flagged face's picture could be served from."""
    urls = []
    with app.test_request_context():
        for entry in snapshot.sets.values():
            for face in entry.record.cards:
                if face.content_note is not None:
                    urls.append(face_src(entry.record, face))
                    urls.append(f"/cards/{entry.record.key}/{face.key}.svg")
                    if face.image is not None:
                        urls.append(face.image.src)
    return urls


def test_the_reel_shows_every_set_and_every_rule_taking_turns(snapshot, slides):
    kinds = [kind for kind, _ in slides]
    assert {key for kind, key in slides if kind == "set"} == set(snapshot.sets)
    assert {key for kind, key in slides if kind == "rules"} == set(snapshot.scenarios)
    assert kinds[:4] == ["set", "rules", "set", "rules"]


def test_every_slide_is_a_page_without_a_flagged_card(app, client, snapshot, slides):
    forbidden = flagged_urls(app, snapshot)
    assert forbidden, "the real content has a flagged card to test against"
    for n in range(1, len(slides) + 1):
        response = client.get(f"/attract/{n}")
        assert response.status_code == 200, n
        html = response.get_data(as_text=True)
        soup = BeautifulSoup(html, "html.parser")
        sources = [img["src"] for img in soup.select("[data-attract-slide] img")]
        assert sources, n
        assert not [s for s in sources if any(s.split("?")[0] == f for f in forbidden)], n
        assert "golly" not in html.lower(), n
        assert soup.select_one("h1").get_text(strip=True)
        assert soup.select_one("[data-attract-slide]")["data-n"] == str(n)


def test_a_set_slide_names_title_date_and_maker(client, snapshot, slides):
    n = next(i for i, (kind, _) in enumerate(slides, 1) if kind == "set")
    record = snapshot.sets[slides[n - 1][1]].record
    soup = BeautifulSoup(client.get(f"/attract/{n}").get_data(as_text=True), "html.parser")
    slide = soup.select_one("[data-attract-slide]")
    assert slide.select_one(".attract-title").get_text(strip=True) == record.title
    facts = {
        row.dt.get_text(strip=True): row.dd.get_text(strip=True)
        for row in slide.select(".attract-facts__row")
    }
    assert facts == {  # no notes on a slide: its set's page cites them
        "Date": plain(record.date or "not recorded"),
        "Maker": plain(record.maker or "not recorded"),
    }
    assert slide.select_one(".card-stack__front")["alt"]


@pytest.mark.parametrize(
    ("key", "kicker"),
    [
        ("misc-869-1986", "In the collection"),
        ("snitchems-1797", "Playing cards (a standard 52-card pack)"),
        ("snap-standard-deck", "Playing cards (a standard 52-card pack)"),
    ],
)
def test_only_a_museum_object_is_in_the_collection(client, slides, key, kicker):
    n = slides.index(("set", key)) + 1
    soup = BeautifulSoup(client.get(f"/attract/{n}").get_data(as_text=True), "html.parser")
    assert soup.select_one("[data-attract-slide] .attract-kicker").get_text(strip=True) == kicker
    assert ("In the collection" in soup.get_text()) == (key == "misc-869-1986")


def test_a_rule_slide_has_every_step_of_its_run_as_a_frame(client, snapshot, slides):
    n = next(i for i, (kind, _) in enumerate(slides, 1) if kind == "rules")
    run = snapshot.runs[slides[n - 1][1]]
    soup = BeautifulSoup(client.get(f"/attract/{n}").get_data(as_text=True), "html.parser")
    frames = soup.select("[data-frame]")
    assert len(frames) == len(run.steps)
    assert [f.has_attr("hidden") for f in frames] == [True] * (len(frames) - 1) + [False]
    first = frames[0].select_one(".attract-caption").get_text(" ", strip=True)
    assert first.startswith(f"Step 1 of {len(run.steps)}")
    ids = [c["data-card"] for c in frames[-1].select("[data-card]")]
    assert ids and len(ids) == len(set(ids))


def test_an_htmx_request_gets_only_the_slide(client):
    html = client.get("/attract/2", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert html.lstrip().startswith("<article")
    assert "<html" not in html and "<h2" in html and "<h1" not in html


def test_the_last_slide_leads_back_to_the_first(client, slides):
    total = len(slides)
    soup = BeautifulSoup(client.get(f"/attract/{total}").get_data(as_text=True), "html.parser")
    assert soup.select_one("[data-attract-slide]")["data-next"] == "/attract/1"
    assert soup.select_one('a[rel="next"]')["href"] == "/attract/1"


def test_attract_alone_is_the_first_slide(client):
    soup = BeautifulSoup(client.get("/attract/").get_data(as_text=True), "html.parser")
    assert soup.select_one("[data-attract-slide]")["data-n"] == "1"


@pytest.mark.parametrize("path", ["/attract/0", "/attract/999", "/attract/-1", "/attract/x"])
def test_a_slide_that_is_not_there_is_a_friendly_404(client, slides, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "home page" in response.get_data(as_text=True)


def test_one_past_the_end_is_404(client, slides):
    assert client.get(f"/attract/{len(slides)}").status_code == 200
    assert client.get(f"/attract/{len(slides) + 1}").status_code == 404


def test_a_scenario_with_a_flagged_card_is_left_out(snapshot):
    key = next(iter(snapshot.runs))
    run = snapshot.runs[key]
    card_id, card = next(iter(run.cards.items()))
    flagged = replace(card, face="misc-869-1986/golly-oh-golly")
    tainted = replace(run, cards={**run.cards, card_id: flagged})
    assert attract.safe_scenario(snapshot, key)
    fake = replace(snapshot, runs={**snapshot.runs, key: tainted})
    assert not attract.safe_scenario(fake, key)
    assert ("rules", key) not in attract.reel(fake)


def test_the_slide_timings_reach_the_page(app):
    app.config["ATTRACT_SLIDE_SECONDS"] = 4
    html = app.test_client().get("/attract/1").get_data(as_text=True)
    assert re.search(r'data-slide-ms="4000"', html)
    assert re.search(rf'data-step-ms="{attract.STEP_MS}"', html)


def test_a_set_slide_shows_its_attract_summary_where_it_has_one(client, snapshot, slides):
    """The loop shows a contested image's set without naming the image out of its context."""
    keyed = [(n, key) for n, (kind, key) in enumerate(slides, 1) if kind == "set"]
    n, key = next((n, k) for n, k in keyed if snapshot.sets[k].record.attract_summary)
    record = snapshot.sets[key].record
    soup = BeautifulSoup(client.get(f"/attract/{n}").get_data(as_text=True), "html.parser")
    shown = soup.select_one(".attract-summary").get_text(" ", strip=True)
    assert shown == plain(record.attract_summary)
    assert "golliwog" in record.summary.lower() and "golliwog" not in shown.lower()
