"""The markdown renderer's child process: JSON lines in (``[text, prefix]``), JSON lines out
(``{"html": ..., "removed": [...], "more": n}``: the safe HTML, and what the sanitiser took
out of it, ``render.Audit``).

Run by ``kiosk.catalogue.render`` as ``python -m kiosk.catalogue.render_worker BYTES``; its
address space is capped at BYTES, so a runaway render ends here with MemoryError (answered as
an error) while the parent stops any render that runs too long. Nothing else runs in it.
"""

from __future__ import annotations

import json
import resource
import sys

from kiosk.catalogue.render import render_audited


def limit_memory(cap: int) -> None:
    """Cap this process's address space (never raising a limit that is already lower)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    if soft == resource.RLIM_INFINITY or soft > cap:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def serve(stdin=sys.stdin.buffer, stdout=sys.stdout.buffer) -> None:
    """Answer each job line with ``{"html": ..., "removed": ..., "more": ...}`` (the HTML and
    its ``Audit``) or ``{"error": <exception name>}``."""
    for line in stdin:
        try:
            text, prefix = json.loads(line)
            html, audit = render_audited(text, prefix)
            answer = {"html": html, **audit.to_json()}
        except Exception as exc:  # RecursionError, MemoryError…: the parent reports it
            answer = {"error": type(exc).__name__}
        stdout.write(json.dumps(answer).encode() + b"\n")
        stdout.flush()


if __name__ == "__main__":  # pragma: no cover - the parent's tests drive it
    limit_memory(int(sys.argv[1]))
    serve()
