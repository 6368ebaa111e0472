"""A soak of the hosted recipe: 200 connections for 60 s to nginx in front of two gunicorn
processes (the site of docs/deployment.md, as tests/test_nginx.py runs it), mixing pages,
game actions and curator sign-ins, while a content file is edited every second and one
worker is killed halfway. It counts every answer by status; the only 5xx allowed are the
killed worker's in-flight requests (one per sync worker at most).

    .venv/bin/python benchmarks/soak_nginx.py                 # 200 connections, 60 s
    .venv/bin/python benchmarks/soak_nginx.py --seconds 20 --connections 50

Loopback only; every loop is bounded by the run's time.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import itertools
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

from servers import ROOT, free_port, start, stop

sys.path.insert(0, str(ROOT / "tests"))
from test_nginx import HOST, NGINX, nginx_conf  # the recipe as the test runs it

PASSWORD = "soak-" + os.urandom(8).hex()
PAGES = ["/", "/sets/", "/sets/misc-869-1986", "/rules/", "/games/snap", "/pages/about"]
SET = "snap-standard-deck"
TOKEN = re.compile(r'name="token" value="([^"]+)"')


def request(
    port: int, path: str, form: dict[str, str] | None = None, auth: str = ""
) -> tuple[int, str]:
    """One request on a fresh connection: its status (0: no answer) and body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Host": HOST}
    body = None
    if form is not None:
        body = urllib.parse.urlencode(form)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if auth:
        headers["Authorization"] = "Basic " + base64.b64encode(auth.encode()).decode()
    try:
        connection.request("POST" if form is not None else "GET", path, body, headers)
        response = connection.getresponse()
        return response.status, response.read().decode(errors="replace")
    except (OSError, http.client.HTTPException):
        return 0, ""
    finally:
        connection.close()


class Visitor(threading.Thread):
    """One connection's worth of visitor: a page, a game move, now and then a sign-in."""

    def __init__(self, port: int, until: float, seed: int, counts: Counter, lock) -> None:
        super().__init__(daemon=True)
        self.port, self.until, self.rng = port, until, random.Random(seed)
        self.counts, self.lock = counts, lock
        self.token: str | None = None

    def run(self) -> None:
        while time.monotonic() < self.until:
            roll = self.rng.random()
            if roll < 0.05:
                kind = "sign-in"
                status, _ = request(self.port, "/insights", auth=f"curator:{PASSWORD}")
            elif roll < 0.55:
                kind, (status, _) = "page", request(self.port, self.rng.choice(PAGES))
            else:
                kind, status = "game", self.move()
            with self.lock:
                self.counts[(kind, status)] += 1

    def move(self) -> int:
        """Start a game, or make its next move (a new game once it is over)."""
        if self.token is None:
            form = {"bots": "1", "level": "medium"}
            status, body = request(self.port, f"/sets/{SET}/play", form)
        else:
            form = {"token": self.token, "act": "next"}
            status, body = request(self.port, f"/sets/{SET}/play/act", form)
        found = TOKEN.search(body) if status == 200 and "game--over" not in body else None
        self.token = found.group(1) if found else None
        return status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--connections", type=int, default=200)
    args = parser.parse_args()
    if NGINX is None:
        sys.exit("nginx is not installed (make nginx-deps)")
    folder = Path(tempfile.mkdtemp(prefix="kiosk-soak-"))
    content = folder / "content"
    shutil.copytree(ROOT / "content", content)
    env = {
        **os.environ,
        "KIOSK_SECRET_KEY": "soak-" + os.urandom(16).hex(),
        "KIOSK_CONTENT_DIR": str(content),
        "KIOSK_TRUSTED_HOSTS": f"{HOST} 127.0.0.1",  # 127.0.0.1: servers.start's health check
        "KIOSK_PROXY_FIX": "1",
        "KIOSK_CURATOR_PASSWORD": PASSWORD,
        "KIOSK_INSIGHTS_DB": str(folder / "insights.sqlite3"),
    }
    env.pop("KIOSK_MODE", None)
    apps = [free_port(), free_port()]
    front = free_port()
    processes = []
    try:
        for port in apps:
            argv = [sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{port}"]
            processes.append(start([*argv, "kiosk:create_app()"], port, "gunicorn", env=env))
        (folder / "nginx.conf").write_text(
            nginx_conf(folder, front, apps, connections=4 * args.connections), encoding="utf-8"
        )
        nginx = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")]
        processes.append(subprocess.Popen(nginx, start_new_session=True))
        deadline = time.monotonic() + 30
        while request(front, "/healthz")[0] != 200:
            if time.monotonic() > deadline:
                sys.exit("nginx never answered: " + (folder / "error.log").read_text())
            time.sleep(0.2)
        counts: Counter = Counter()
        lock = threading.Lock()
        began = time.monotonic()
        until = began + args.seconds
        visitors = [Visitor(front, until, n, counts, lock) for n in range(args.connections)]
        for visitor in visitors:
            visitor.start()
        about = content / "pages" / "about.md"
        original = about.read_text(encoding="utf-8")
        killed = None
        for n in itertools.count():
            if time.monotonic() >= until:
                break
            about.write_text(original + f"\n<!-- edit {n} -->\n", encoding="utf-8")
            if killed is None and time.monotonic() >= began + args.seconds / 2:
                workers = subprocess.run(
                    ["pgrep", "-P", str(processes[0].pid)], capture_output=True, text=True
                ).stdout.split()
                if workers:
                    killed = int(workers[0])
                    os.kill(killed, signal.SIGKILL)
            time.sleep(1.0)
        for visitor in visitors:
            visitor.join(timeout=60)
        total = sum(counts.values())
        errors = sum(n for (_, status), n in counts.items() if status >= 500 or status == 0)
        print(f"soak: {args.connections} connections, {args.seconds:.0f} s, {total} answers")
        for (kind, status), n in sorted(counts.items()):
            print(f"  {kind:8} {status:3}: {n}")
        print(f"  worker killed: pid {killed}; 5xx or no answer: {errors}")
        print(f"  load average after: {os.getloadavg()[0]:.2f}")
    finally:
        for process in reversed(processes):
            stop(process)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
