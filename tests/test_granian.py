"""The documented hosted server for real: granian, two workers, serves the site and a game.

docs/deployment.md makes granian's WSGI server the hosted default (chosen by
``benchmarks/bench_capacity.py``); this starts it exactly as the README says and plays Snap
through it, each move on a fresh connection, so either worker may take any move.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_gunicorn import (
    ACTIONS,
    BOOT_SECONDS,
    ROOT,
    Server,
    get,
    play_moves,
    request,
    start_game,
    stop,
    wait_for,
)

pytest.importorskip("granian")

WORKERS = 2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    port = free_port()
    env = {
        **os.environ,
        "KIOSK_SECRET_KEY": "granian-test-" + os.urandom(16).hex(),
        "KIOSK_CONTENT_DIR": str(ROOT / "content"),
    }
    env.pop("KIOSK_MODE", None)
    granian = str(Path(sys.executable).parent / "granian")
    command = [granian, "--interface", "wsgi", "--workers", str(WORKERS), "--no-ws"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--factory", "kiosk:create_app"]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    running = Server(process, f"http://127.0.0.1:{port}", [])
    try:
        wait_for(lambda: get(running, "/healthz")[0] == 200, BOOT_SECONDS, "granian never answered")
        yield running
    finally:
        stop(process)


def test_granian_serves_the_site(server):
    for path in ("/", "/sets/", "/sets/snap-standard-deck", "/rules/", "/healthz"):
        status, _ = request(server, path)
        assert status == 200, path


def test_a_game_is_played_through_granian(server):
    _, turned, _ = play_moves(server, start_game(server), ACTIONS)
    assert turned > 0, "the game moved on"
