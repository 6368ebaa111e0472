"""The servers the benchmarks measure: started on a free port in a process group of their own,
waited for until ``/healthz`` answers, and ended with every child (gunicorn's workers)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(
    argv: Sequence[str],
    port: int,
    what: str,
    *,
    env: dict[str, str] | None = None,
    seconds: float = 15.0,
) -> subprocess.Popen[bytes]:
    """Run ``argv`` from the repository root in its own process group; return once its
    ``/healthz`` on ``port`` answers 200 (or raise, the process ended, if it never does)."""
    proc = subprocess.Popen(
        list(argv), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                if s.recv(64).startswith(b"HTTP/1.1 200"):
                    return proc
        except OSError:
            pass
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited")
        time.sleep(0.1)
    stop(proc)
    raise RuntimeError(f"{what} did not answer")


def stop(proc: subprocess.Popen[bytes], grace: float = 15.0) -> None:
    """End the process group: SIGTERM, then SIGKILL after ``grace`` seconds."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)
