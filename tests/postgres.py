"""A throwaway PostgreSQL server for the tests: Debian's ``postgresql``, ``initdb`` in a
temporary folder, ``postgres`` on a free 127.0.0.1 port, stopped and removed at the end.

PostgreSQL refuses to run as root: as root the folder is given to the ``postgres`` user (which
Debian's package makes) and the server runs as that user. Trust authentication, on loopback
only; fsync off (a test's database need not survive a power cut). ``unavailable()`` says why
a server cannot be had here (no binaries: ``make postgres-deps``), for a skip, or a failure
under ``CI``. The fixtures are in ``conftest.py``.
"""

from __future__ import annotations

import itertools
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

BOOT_SECONDS = 60
USER = "kiosk"  # the database role the tests connect as (initdb's superuser)


def binaries() -> Path | None:
    """The folder with ``initdb`` and ``postgres``: on the PATH, else Debian's newest
    ``/usr/lib/postgresql/<version>/bin``."""
    found = shutil.which("initdb")
    if found and shutil.which("postgres", path=str(Path(found).parent)):
        return Path(found).parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: [int(n) for n in re.findall(r"\d+", p.parent.parent.name)],
    )
    for initdb in reversed(versions):
        if (initdb.parent / "postgres").exists():
            return initdb.parent
    return None


def _run_as() -> dict[str, Any]:
    """subprocess arguments that run the server as someone other than root."""
    if os.geteuid() != 0:
        return {}
    account = pwd.getpwnam("postgres")  # KeyError: no such user (see unavailable)
    return {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}


def unavailable() -> str | None:
    """Why no server can be started here, or None."""
    try:
        import psycopg  # noqa: F401  (the client the store and these tests use)
    except ImportError:
        return "psycopg is not installed (pip install -e '.[test]')"
    if binaries() is None:
        return "PostgreSQL is not installed: no initdb (make postgres-deps)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no postgres user to run PostgreSQL as"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """A running server: ``url(name)`` for a database, ``new_database()`` for a fresh one."""

    def __init__(self, port: int, process: subprocess.Popen[bytes], log: Path) -> None:
        self.port = port
        self.process = process
        self.log = log
        self._names = itertools.count(1)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def execute(self, statement: str) -> None:
        """One statement on the maintenance database (CREATE DATABASE and the like)."""
        import psycopg  # here: unavailable() reports a missing psycopg first

        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(statement)

    def new_database(self, prefix: str = "t", make: bool = True) -> str:
        """The address of a database no test has used (made, unless ``make`` is False)."""
        name = f"{prefix}{next(self._names)}"
        if make:
            self.create(name)
        return self.url(name)

    def create(self, name: str) -> None:
        self.execute(f'CREATE DATABASE "{name}"')

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def _ready(url: str) -> bool:
    import psycopg  # here: unavailable() reports a missing psycopg first

    try:
        with psycopg.connect(url, connect_timeout=2):
            return True
    except psycopg.OperationalError:
        return False


def _start(bin_dir: Path, data: Path, log: Path, run_as: dict[str, Any]) -> Server:
    """postgres on a free port; another port if that one was taken meanwhile."""
    for _ in range(3):
        port = free_port()
        with log.open("ab") as out:
            process = subprocess.Popen(
                [
                    str(bin_dir / "postgres"),
                    "-D",
                    str(data),
                    "-p",
                    str(port),
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    "unix_socket_directories=",
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                    "-c",
                    "max_connections=50",
                    "-c",
                    "shared_buffers=16MB",
                    "-c",
                    "dynamic_shared_memory_type=mmap",
                ],
                cwd=data,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                **run_as,
            )
        server = Server(port, process, log)
        deadline = time.monotonic() + BOOT_SECONDS
        while process.poll() is None and time.monotonic() < deadline:
            if _ready(server.url()):
                return server
            time.sleep(0.1)
        _stop(process)
        if "could not bind" not in server.log_text():
            break
    raise RuntimeError(f"PostgreSQL did not start:\n{log.read_text(errors='replace')[-3000:]}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)  # "fast" shutdown: no waiting for clients
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def running() -> Iterator[Server]:
    """A server for the length of the ``with`` (call ``unavailable()`` first)."""
    bin_dir = binaries()
    assert bin_dir is not None, unavailable()
    run_as = _run_as()
    folder = Path(tempfile.mkdtemp(prefix="kiosk-postgres-"))  # /tmp: the postgres user reaches it
    try:
        if run_as:
            os.chown(folder, run_as["user"], run_as["group"])
        data, log = folder / "data", folder / "server.log"
        made = subprocess.run(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            ],
            cwd=folder,
            capture_output=True,
            text=True,
            **run_as,
        )
        if made.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{made.stdout}{made.stderr}")
        server = _start(bin_dir, data, log, run_as)
        try:
            yield server
        finally:
            _stop(server.process)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
