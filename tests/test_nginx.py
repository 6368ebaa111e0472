"""The hosted recipe for real (issue 16): Debian's nginx in front of two gunicorn processes.

The nginx site is the block between the "nginx recipe" markers of ``docs/deployment.md``,
run with loopback ports of its own. The two processes share ``KIOSK_SECRET_KEY``; a game's
moves alternate between them (nginx's round robin, shown by an ``X-Upstream`` header the
test adds), and the forged-Host and body-limit refusals are checked through nginx. Skipped
when nginx is not installed (``make test`` installs it: see the README).
"""

from __future__ import annotations

import http.client
import itertools
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
HOST = "kiosk.example.org"  # the recipe's server_name
SET = "snap-standard-deck"
MOVES = 12
BOOT_SECONDS = 60
SLOW_CLIENTS = 40  # more than the two workers could ever wait for, fewer than nginx's 64
SLOW_ROUNDS = 8  # each round a byte from every slow client, then a visitor's fetch

pytestmark = [
    pytest.mark.nginx,
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (make nginx-deps)"),
]


def recipe() -> str:
    """The nginx site from docs/deployment.md, between its markers."""
    text = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    found = re.search(
        r"<!-- nginx recipe: begin -->\s*```nginx\n(.*?)```\s*<!-- nginx recipe: end -->",
        text,
        re.S,
    )
    assert found, "docs/deployment.md has no nginx recipe between its markers"
    return found.group(1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_listening(port: int, process: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + BOOT_SECONDS
    while time.monotonic() < deadline:
        assert process.poll() is None, f"{what} stopped"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{what} never listened on {port}")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def nginx_conf(folder: Path, port: int, apps: list[int], connections: int = 64) -> str:
    """The recipe inside a minimal nginx.conf that keeps every file in ``folder``
    (``benchmarks/soak_nginx.py`` runs the same, with more connections)."""
    site = recipe().replace("listen 80", f"listen 127.0.0.1:{port}")
    site = site.replace("127.0.0.1:8001", f"127.0.0.1:{apps[0]}")
    site = site.replace("127.0.0.1:8002", f"127.0.0.1:{apps[1]}")
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""daemon off;
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"};
events {{ worker_connections {connections}; }}
http {{
    access_log {folder / "access.log"};
{temp}
    proxy_max_temp_file_size 0;  # the test's workers may not write its folder
    add_header X-Upstream $upstream_addr always;  # the test's own: which process answered
{site}
}}
"""


@pytest.fixture(scope="module")
def front(tmp_path_factory) -> Iterator[int]:
    """nginx on a loopback port in front of two gunicorn processes sharing one secret."""
    folder = tmp_path_factory.mktemp("nginx")
    env = {
        **os.environ,
        "KIOSK_SECRET_KEY": "nginx-test-" + os.urandom(16).hex(),
        "KIOSK_CONTENT_DIR": str(ROOT / "content"),
        "KIOSK_TRUSTED_HOSTS": HOST,
        "KIOSK_PROXY_FIX": "1",
    }
    env.pop("KIOSK_MODE", None)
    apps = [free_port(), free_port()]
    processes: list[subprocess.Popen] = []
    try:
        for port in apps:
            processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "gunicorn",
                        "-w",
                        "1",
                        "-b",
                        f"127.0.0.1:{port}",
                        "kiosk:create_app()",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        port = free_port()
        (folder / "nginx.conf").write_text(nginx_conf(folder, port, apps), encoding="utf-8")
        processes.append(
            subprocess.Popen(
                [
                    NGINX,
                    "-p",
                    str(folder),
                    "-c",
                    str(folder / "nginx.conf"),
                    "-e",
                    str(folder / "error.log"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        for each, process in zip([*apps, port], processes, strict=True):
            wait_until_listening(each, process, f"process on {each}")
        deadline = time.monotonic() + BOOT_SECONDS
        while fetch(port, "/healthz")[0] != 200:  # both processes answer through nginx
            assert time.monotonic() < deadline, (folder / "error.log").read_text()
            time.sleep(0.2)
        fetch(port, "/healthz")
        yield port
    finally:
        for process in reversed(processes):
            stop(process)


def fetch(
    port: int,
    path: str,
    form: dict[str, str] | None = None,
    host: str = HOST,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> tuple[int, str, dict[str, str]]:
    """One request through nginx on a fresh connection: (status, body, headers)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {"Host": host, **(headers or {})}
    if form is not None:
        body = urllib.parse.urlencode(form).encode()
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        connection.request("POST" if body is not None else "GET", path, body=body, headers=sent)
        response = connection.getresponse()
        return response.status, response.read().decode(), dict(response.getheaders())
    finally:
        connection.close()


def token_of(body: str) -> str:
    field = BeautifulSoup(body, "html.parser").find("input", attrs={"name": "token"})
    assert field is not None, body[:500]
    return field["value"]


def test_a_game_alternates_between_the_two_processes(front):
    status, body, _ = fetch(front, f"/sets/{SET}/play", {"bots": "1", "level": "medium"})
    assert status == 200, body[:500]
    status, body, _ = fetch(
        front, f"/sets/{SET}/play/act", {"token": token_of(body), "act": "auto-on"}
    )
    assert status == 200, body[:500]
    served: list[str] = []
    for _ in range(MOVES):
        token = token_of(body)
        status, body, headers = fetch(
            front, f"/sets/{SET}/play/act", {"token": token, "act": "next"}
        )
        assert status == 200, body[:500]
        assert token_of(body) != token
        served.append(headers["X-Upstream"])
    assert len(set(served)) == 2, served
    assert all(a != b for a, b in itertools.pairwise(served)), served  # each move: the other


@pytest.mark.parametrize("path", ["/sets", "/sets/", "/oembed?url=http://evil.example/sets/"])
def test_a_forged_host_gets_no_answer(front, path):
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
        fetch(front, path, host="evil.example")


def test_a_forged_forwarded_host_is_dropped(front):
    status, body, _ = fetch(
        front,
        "/oembed?url=http://kiosk.example.org/sets/",
        headers={"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"},
    )
    assert status == 200
    assert "evil.example" not in body
    assert '"provider_url":"http://kiosk.example.org/"' in body.replace(" ", "")


def test_a_redirect_names_only_our_host(front):
    status, _, headers = fetch(front, "/sets")
    assert status in (301, 308)
    location = headers["Location"]
    assert location.startswith(("/", f"http://{HOST}/")), location


def test_a_large_body_is_refused_by_nginx(front):
    status, _, headers = fetch(
        front,
        f"/sets/{SET}/play",
        body=b"x" * (1024 * 1024),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert status == 413
    assert "X-Upstream" not in headers or headers["X-Upstream"] == ""  # never reached the app


def test_slow_clients_never_hold_the_workers(front):
    """A slowloris attack on the recipe: each slow client sends its request a byte at a time
    and never finishes it, while a visitor's pages and a game's moves are still answered
    (gunicorn's sync workers alone would wait for the slow clients: docs/deployment.md)."""
    request = f"GET /sets/ HTTP/1.1\r\nHost: {HOST}\r\nX-Slow: ".encode()
    slow: list[socket.socket] = []
    try:
        for _ in range(SLOW_CLIENTS):
            sock = socket.create_connection(("127.0.0.1", front), timeout=30)
            sock.sendall(request)
            slow.append(sock)
        status, body, _ = fetch(front, f"/sets/{SET}/play", {"bots": "1", "level": "medium"})
        assert status == 200, body[:500]
        status, body, _ = fetch(
            front, f"/sets/{SET}/play/act", {"token": token_of(body), "act": "auto-on"}
        )
        assert status == 200, body[:500]
        for _ in range(SLOW_ROUNDS):
            for sock in slow:
                sock.sendall(b"x")  # still talking, never done: nginx keeps waiting for it
            page, _, _ = fetch(front, "/sets/")
            assert page == 200
            token = token_of(body)
            status, body, _ = fetch(front, f"/sets/{SET}/play/act", {"token": token, "act": "next"})
            assert status == 200, body[:500]
            assert token_of(body) != token  # the move was made
    finally:
        for sock in slow:
            sock.close()
