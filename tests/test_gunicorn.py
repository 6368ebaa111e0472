"""The hosted setup for real: gunicorn with two workers plays a game of Snap over HTTP.

The game lives in a signed token, not in a process, so any worker can take any move. To make
that certain rather than likely, the test plays half the moves, has gunicorn replace every
worker (``SIGHUP``: new processes, old ones retired), and plays on with the tokens the old
processes signed. The workers share ``KIOSK_SECRET_KEY`` from the environment, as the
deployment guide says they must.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

pytest.importorskip("gunicorn")

ROOT = Path(__file__).resolve().parent.parent
SET = "snap-standard-deck"
WORKERS = 2
ACTIONS = 24  # at least 20 moves, each its own connection
BOOT_SECONDS = 60


@dataclass
class Server:
    """A running gunicorn: its master process, its address and the lines it has logged."""

    process: subprocess.Popen[str]
    base: str
    log: list[str]

    def workers(self) -> set[int]:
        """The pids of the master's live child processes (gunicorn's workers)."""
        found = set()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == self.process.pid and fields[0] != "Z":
                found.add(int(entry.name))
        return found


def _read_lines(stream, lines: queue.Queue[str]) -> None:
    for line in stream:
        lines.put(line)


def wait_for(what, timeout: float, message: str):
    """Poll ``what()`` until it is truthy; fail with ``message`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(message)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    env = {
        **os.environ,
        "KIOSK_SECRET_KEY": "gunicorn-test-" + os.urandom(16).hex(),
        "KIOSK_CONTENT_DIR": str(ROOT / "content"),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("KIOSK_MODE", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-w",
            str(WORKERS),
            "-b",
            "127.0.0.1:0",
            "--timeout",
            "60",
            "--graceful-timeout",
            "10",
            "kiosk:create_app()",
        ],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=_read_lines, args=(process.stderr, lines), daemon=True)
    reader.start()
    log: list[str] = []
    try:
        deadline = time.monotonic() + BOOT_SECONDS
        base = ""
        while not base:
            assert process.poll() is None, "gunicorn stopped:\n" + "".join(log)
            assert time.monotonic() < deadline, "gunicorn never listened:\n" + "".join(log)
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                continue
            log.append(line)
            found = re.search(r"Listening at: (http://[\d.]+:\d+)", line)
            base = found.group(1) if found else ""
        running = Server(process, base, log)
        wait_for(lambda: len(running.workers()) == WORKERS, BOOT_SECONDS, "workers never came")
        wait_for(lambda: get(running, "/healthz")[0] == 200, BOOT_SECONDS, "never healthy")
        yield running
    finally:
        stop(process)
        reader.join(timeout=10)
        if process.stderr is not None:
            process.stderr.close()
        while not lines.empty():
            log.append(lines.get())


def stop(process: subprocess.Popen) -> None:
    """SIGTERM, as systemd stops a service; killed if it has not gone in 30 s."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def request(server: Server, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
    """One request on a fresh connection (urllib closes it): (status, body)."""
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    try:
        with urllib.request.urlopen(server.base + path, data=data, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def get(server: Server, path: str) -> tuple[int, str]:
    try:
        return request(server, path)
    except OSError:
        return 0, ""


@dataclass
class Table:
    """What the game page says: the token, the turn counter, whether the game is over."""

    token: str
    turn: int
    over: bool


def table_of(body: str) -> Table:
    page = BeautifulSoup(body, "html.parser")
    game = page.find(id="snap-game")
    token = page.find("input", attrs={"name": "token"})
    assert game is not None and token is not None, body[:500]
    return Table(token["value"], int(game["data-turn"]), game["data-over"] == "1")


def start_game(server: Server) -> Table:
    status, body = request(
        server, f"/sets/{SET}/play", {"bots": "1", "level": "medium", "variant": "classic"}
    )
    assert status == 200, body[:500]
    # let the computer turn the visitor's cards too: every "Next" then moves the game on
    status, body = request(
        server, f"/sets/{SET}/play/act", {"token": table_of(body).token, "act": "auto-on"}
    )
    assert status == 200, body[:500]
    return table_of(body)


def play_moves(server: Server, table: Table, moves: int) -> tuple[Table, int, int]:
    """Press Next ``moves`` times; (last table, cards turned, games finished)."""
    turned = finished = 0
    for _ in range(moves):
        if table.over:
            finished += 1
            table = start_game(server)
        status, body = request(
            server, f"/sets/{SET}/play/act", {"token": table.token, "act": "next"}
        )
        assert status == 200, body[:500]
        after = table_of(body)
        assert after.token != table.token, "every move signs a new token"
        assert after.turn >= table.turn, "the game never runs backwards"
        turned += after.turn - table.turn
        table = after
    return table, turned, finished


def test_two_workers_serve_the_site(server):
    assert len(server.workers()) == WORKERS
    for path in ("/", "/sets/", f"/sets/{SET}", "/rules/", "/healthz"):
        status, _ = request(server, path)
        assert status == 200, path


def test_a_game_survives_every_worker_being_replaced(server):
    table = start_game(server)
    before = server.workers()
    table, turned_before, _ = play_moves(server, table, ACTIONS // 2)

    # gunicorn starts new workers and retires the old ones: the next moves are certainly
    # served by processes that never saw this game or signed its tokens
    server.process.send_signal(signal.SIGHUP)
    wait_for(
        lambda: (now := server.workers()) and len(now) == WORKERS and not now & before,
        BOOT_SECONDS,
        f"the workers were not replaced: {before} -> {server.workers()}",
    )
    wait_for(lambda: get(server, "/healthz")[0] == 200, BOOT_SECONDS, "never healthy again")

    table, turned_after, _ = play_moves(server, table, ACTIONS - ACTIONS // 2)
    assert turned_before > 0 and turned_after > 0, "the game moved on under both sets of workers"
    assert turned_before + turned_after >= ACTIONS // 2


def test_a_token_from_another_secret_is_refused_kindly(server):
    status, body = request(server, f"/sets/{SET}/play/act", {"token": "x" * 40, "act": "next"})
    assert status == 400
    assert "new game" in body.lower()
