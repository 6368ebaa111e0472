"""Cross-origin requests: the embed's game and rule endpoints answer a sandboxed frame
(``Origin: null``) and any origin, with no credentials; nothing else answers another origin."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from kiosk.web.modes import EMBED_KEY

SNAP = "/sets/snap-standard-deck/play"
HF = "/sets/twizzles-happy-families/play/happy-families"
SN = "/sets/snitchems-1797/play/snitchems"
GAME_PATHS = [SNAP, HF, SN]
# what htmx 4 sends with every request (its headers make the browser ask first)
HTMX_HEADERS = "hx-request,hx-source,hx-current-url,accept"
ORIGINS = ["null", "https://school.example"]


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def preflight(client, path: str, origin: str, method: str = "POST"):
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": HTMX_HEADERS,
        },
    )


def started(client, path: str, origin: str = "null"):
    """A game started from a sandboxed frame, as htmx sends Start there."""
    return client.post("/embed" + path, data={}, headers={"Origin": origin, "HX-Request": "true"})


def token_of(response) -> str:
    return soup(response).find("input", attrs={"name": "token"})["value"]


@pytest.mark.parametrize("origin", ORIGINS)
@pytest.mark.parametrize(
    ("path", "method"),
    [
        (SNAP, "POST"),  # Start and Play again
        (SNAP + "/act", "POST"),
        (SNAP + "/resume", "POST"),
        (HF + "/act", "POST"),
        (SN + "/act", "POST"),
        (SNAP, "GET"),
        ("/rules/snap/classic/2", "GET"),  # htmx's fetch of the next step (its controls)
    ],
)
def test_the_embeds_endpoints_answer_a_preflight(client, path, method, origin):
    response = preflight(client, "/embed" + path, origin, method)
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert method in response.headers["Access-Control-Allow-Methods"]
    assert response.headers["Access-Control-Allow-Headers"] == HTMX_HEADERS
    assert int(response.headers["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Allow-Credentials" not in response.headers


@pytest.mark.parametrize("path", GAME_PATHS)
def test_a_game_plays_from_an_opaque_origin_without_credentials(client, path):
    response = started(client, path)
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response.headers
    assert "Set-Cookie" not in response.headers
    assert soup(response).find(id="play-form") is not None  # the table, not the setup


def test_a_rule_step_answers_another_origin(client):
    response = client.get(
        "/embed/rules/snap/classic/2", headers={"Origin": "null", "HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert soup(response).find(id="rules-stage") is not None


@pytest.mark.parametrize("path", GAME_PATHS)
def test_a_forged_token_posted_cross_origin_is_refused(client, path):
    token = token_of(started(client, path))
    body, _, signature = token.rpartition(".")
    forged = body + "." + ("A" if signature[:1] != "A" else "B") + signature[1:]
    assert forged != token
    response = client.post(
        "/embed" + path + "/act",
        data={"token": forged, "move": "next", "act": "turn", "step": "0"},
        headers={"Origin": "null", "HX-Request": "true"},
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Let's start a new game" in page
    assert "has been changed, so the kiosk cannot trust it" in page


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("OPTIONS", SNAP),
        ("GET", SNAP),
        ("POST", SNAP),
        ("OPTIONS", SNAP + "/act"),
        ("POST", SNAP + "/act"),
        ("GET", "/rules/snap/classic/2"),
        ("OPTIONS", "/rules/snap/classic/2"),
        ("GET", "/sets/snap-standard-deck"),
        ("GET", "/"),
    ],
)
def test_pages_outside_embed_answer_no_other_origin(client, method, path):
    headers = {"Origin": "null", "Access-Control-Request-Method": "POST"}
    response = client.open(path, method=method, headers=headers)
    assert not [name for name, _ in response.headers if name.lower().startswith("access-control-")]


@pytest.mark.parametrize(
    "path", ["/embed/sets/snap-standard-deck", "/embed/notes/golliwog", "/embed/static/js/play.js"]
)
def test_only_the_games_and_rules_answer_inside_the_embed(client, path):
    with client.get(path, headers={"Origin": "null"}) as response:
        assert response.status_code == 200
        assert "Access-Control-Allow-Origin" not in response.headers


def test_the_security_policy_is_unchanged(client):
    """Framing by any site on /embed/ only; the CSP still allows nothing from elsewhere."""
    embedded = started(client, SNAP).headers["Content-Security-Policy"]
    own = client.get(SNAP).headers["Content-Security-Policy"]
    assert "frame-ancestors *" in embedded
    assert "frame-ancestors 'self'" in own
    for policy in (embedded, own):
        assert "connect-src 'self'" in policy and "script-src 'self'" in policy


@pytest.mark.parametrize("path", GAME_PATHS)
def test_start_is_sent_in_place_inside_an_embed_and_posts_without_script(client, path):
    """Progressive enhancement: the form keeps its method and action; in an embed htmx sends
    it into the game's region (a sandbox may refuse the browser's own submission)."""
    form = soup(client.get("/embed" + path)).find("form", class_="setup")
    assert (form["method"], form["action"]) == ("post", "/embed" + path)
    assert form["data-hx-post"] == "/embed" + path
    assert form["data-hx-target"] == "closest .game"
    plain = soup(client.get(path)).find("form", class_="setup")
    assert (plain["method"], plain["action"]) == ("post", path)
    assert not any(name.startswith("data-hx-") for name in plain.attrs)


@pytest.mark.parametrize(("embedded", "sent"), [(True, True), (False, False)])
def test_play_again_is_sent_in_place_inside_an_embed(app, embedded, sent):
    """The result's Play again (play/_parts.html's result macro), as Start."""
    parts = app.jinja_env.get_template("play/_parts.html").module
    with app.test_request_context(SN, environ_overrides={EMBED_KEY: embedded}):
        html = str(parts.result("Game over", False, {"bots": 1}, SN, SN, "/r", caller=lambda: ""))
    form = BeautifulSoup(html, "html.parser").find("form", class_="result__again")
    assert (form["method"], form["action"]) == ("post", SN)
    assert form.has_attr("data-hx-post") is sent


def test_a_frame_that_allows_nothing_is_offered_the_page(client):
    """Without script and forms a frame cannot play: one line says so, with the page."""
    line = soup(client.get("/embed" + SNAP)).select_one("noscript .setup__cannot")
    assert line is not None and "If Start does nothing here" in line.get_text()
    assert line.a["href"] == "http://localhost" + SNAP
    assert soup(client.get(SNAP)).select_one(".setup__cannot") is None
