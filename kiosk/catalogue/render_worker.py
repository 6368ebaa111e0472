"""The markdown renderer's child process (``python -m kiosk.catalogue.render_worker BYTES``):
a JSON text a line in, the HTML and its ``render.Audit`` out; capped at BYTES, so a runaway
render ends here with MemoryError while the parent stops any render that runs too long.
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
    """Answer each job line with the HTML and its ``Audit``, or ``{"error": <exception name>}``."""
    for line in stdin:
        try:
            html, audit = render_audited(json.loads(line))
            answer = {"html": html, **audit.to_json()}
        except Exception as exc:  # RecursionError, MemoryError…: the parent reports it
            answer = {"error": type(exc).__name__}
        stdout.write(json.dumps(answer).encode() + b"\n")
        stdout.flush()


if __name__ == "__main__":  # pragma: no cover - the parent's tests drive it
    limit_memory(int(sys.argv[1]))
    serve()
