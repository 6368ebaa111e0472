"""Lighthouse 12 on the kiosk's page types: accessibility and performance scores.

Run from the repository root (needs node ≥ 18.16, npm and Debian's Chromium):

    .venv/bin/python benchmarks/bench_lighthouse.py          # 3 runs a page and preset
    .venv/bin/python benchmarks/bench_lighthouse.py --quick  # 1 run a page and preset
    .venv/bin/python benchmarks/bench_lighthouse.py --photographs --pages "photo set"

It installs the pinned Lighthouse (benchmarks/lighthouse/package-lock.json) with ``npm ci``
when it is missing, starts ``kiosk run`` (waitress, the embedded default) on a free
127.0.0.1 port, and runs Lighthouse with Debian's Chromium (headless) on home, a set, a
game, a rule step and the three games' setup screens (``--pages "snap setup"`` for some),
with the mobile (Lighthouse's default: simulated slow 4G, 4x CPU slowdown) and desktop
presets. Targets: accessibility 100, performance ≥ 95. Scores are the median of the runs;
each row ends with the first run's requests, bytes on the wire against bytes unpacked
(``kiosk run`` gzips text for a client that accepts it, as Chromium does) and whether
Lighthouse's text-compression audit passed. Every failing accessibility audit is listed with
its elements' selectors and every performance audit under 0.9 with what it found. The JSON
reports are kept in benchmarks/results/lighthouse/ (ignored by git).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import servers

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent / "lighthouse"
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
RESULTS = ROOT / "benchmarks" / "results" / "lighthouse"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
PAGES = {
    "home": "/",
    "set": "/sets/misc-869-1986",
    "game": "/games/snap",
    "rule step": "/rules/snap/woolworths/1",
    "snap setup": "/sets/misc-869-1986/play",
    "hf setup": "/sets/twizzles-happy-families/play/happy-families",
    "sn setup": "/sets/snitchems-1797/play/snitchems",
    # a set with twelve photographs (only with --photographs: generated for the tests)
    "photo set": "/sets/test-photographs",
}
BASELINE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="A baseline page"><title>Baseline</title></head>
<body><main><h1>Baseline</h1><p>One heading and one paragraph, no CSS, no script.</p></main>
</body></html>
"""
METRICS = {
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
    "speed-index": "SI",
}


def ensure_lighthouse() -> None:
    """``npm ci`` from the lock file when the pinned Lighthouse is not installed."""
    if LIGHTHOUSE.exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("npm is not installed: Lighthouse cannot be installed")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True)


def start_kiosk(port: int, content: str | None = None) -> subprocess.Popen[bytes]:
    """``kiosk run`` (waitress) in its own process group; wait until it answers."""
    env = {**os.environ, "KIOSK_CONTENT_DIR": content} if content else None
    return servers.start(
        [str(ROOT / ".venv" / "bin" / "kiosk"), "run", "--port", str(port)],
        port,
        "kiosk run",
        env=env,
    )


def photographed_content() -> str:
    """The tests' content with a photographed set (tests/photo_content.py), its copies made."""
    sys.path.insert(0, str(ROOT / "tests"))
    from photo_content import build  # the tests' generated photographs, never a real object's

    return str(build(Path(tempfile.mkdtemp(prefix="lighthouse-photos-")) / "content"))


def start_baseline(folder: str) -> tuple[http.server.ThreadingHTTPServer, str]:
    """A static one-paragraph page on another free port: the machine's own floor."""
    Path(folder, "index.html").write_text(BASELINE_HTML)
    handler = functools.partial(QuietHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the baseline page without logging each request."""

    def log_message(self, format: str, *args: Any) -> None:
        return


def lighthouse(url: str, preset: str, out: Path) -> dict[str, Any]:
    """One Lighthouse run (accessibility and performance); its JSON report."""
    args = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        "--only-categories=accessibility,performance",
        f"--chrome-flags={CHROME_FLAGS}",
    ]
    if preset == "desktop":
        args.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": CHROME}
    subprocess.run(args, cwd=HERE, env=env, check=True, timeout=300)
    report = json.loads(out.read_text())
    if report.get("runtimeError"):
        raise RuntimeError(f"{url}: {report['runtimeError']}")
    return report


def score(report: dict[str, Any], category: str) -> float:
    value = report["categories"][category]["score"]
    return 0.0 if value is None else value * 100


def metric(reports: list[dict[str, Any]], key: str) -> float:
    """The median of one metric's value over the runs."""
    return statistics.median(r["audits"][key]["numericValue"] for r in reports)


def transfer(report: dict[str, Any]) -> str:
    """What the page cost on the wire (gzip shows here) and whether text was compressed."""
    items = report["audits"]["network-requests"]["details"]["items"]
    sent = sum(i.get("transferSize") or 0 for i in items) / 1024
    size = sum(i.get("resourceSize") or 0 for i in items) / 1024
    compressed = report["audits"].get("uses-text-compression", {}).get("score")
    gz = "text compressed" if compressed == 1 else "text NOT compressed"
    return f"{len(items)} requests, {sent:.0f} KiB sent for {size:.0f} KiB, {gz}"


def failing(report: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    """Failing accessibility audits with selectors; performance audits scoring under 0.9."""
    audits = report["audits"]
    found = []
    for category, limit in (("accessibility", 1.0), ("performance", 0.9)):
        for ref in report["categories"][category]["auditRefs"]:
            audit = audits[ref["id"]]
            s = audit.get("score")
            mode = audit.get("scoreDisplayMode")
            if s is None or s >= limit or mode in ("manual", "notApplicable", "informative"):
                continue
            shown = audit.get("displayValue") or ""
            details = []
            items = (audit.get("details") or {}).get("items")
            for item in items[:8] if isinstance(items, list) else []:
                node = (item.get("node") if isinstance(item, dict) else None) or {}
                if not isinstance(item, dict):
                    continue
                where = node.get("selector") or item.get("url") or ""
                if where:
                    explanation = node.get("explanation", "").split("\n")[0]
                    details.append(f"{where} {explanation}".rstrip())
            found.append((f"{category}: {ref['id']} ({audit['title']})", shown, details))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run a page and preset")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", default="", help="comma-separated page names (default: all)")
    parser.add_argument("--preset", choices=["mobile", "desktop", "both"], default="both")
    parser.add_argument(
        "--photographs",
        action="store_true",
        help="serve the tests' photographed content (adds the 'photo set' page)",
    )
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    presets = ["mobile", "desktop"] if args.preset == "both" else [args.preset]
    ensure_lighthouse()
    version = json.loads((HERE / "node_modules" / "lighthouse" / "package.json").read_text())
    RESULTS.mkdir(parents=True, exist_ok=True)
    port = servers.free_port()
    content = photographed_content() if args.photographs else None
    proc = start_kiosk(port, content)
    folder = tempfile.mkdtemp(prefix="lighthouse-baseline-")
    baseline = None
    rows: list[tuple[float, float]] = []
    problems: dict[str, dict[str, tuple[list[str], list[str]]]] = {}
    try:
        baseline, baseline_url = start_baseline(folder)
        pages = {"baseline": baseline_url}
        wanted = {n.strip() for n in args.pages.split(",") if n.strip()} or set(PAGES)
        if not args.photographs:
            wanted.discard("photo set")
        pages.update({k: f"http://127.0.0.1:{port}{v}" for k, v in PAGES.items() if k in wanted})
        print(
            f"Lighthouse {version['version']}, {CHROME}, kiosk run on 127.0.0.1:{port}, "
            f"{runs} run(s) each, median scores; baseline: a static one-paragraph page"
        )
        for preset in presets:
            for name, url in pages.items():
                reports = []
                for n in range(runs):
                    out = RESULTS / f"{preset}-{name.replace(' ', '-')}-{n}.json"
                    reports.append(lighthouse(url, preset, out))
                a11y = statistics.median(score(r, "accessibility") for r in reports)
                perf = statistics.median(score(r, "performance") for r in reports)
                metrics = "  ".join(
                    f"{short} {metric(reports, k):.{3 if short == 'CLS' else 0}f}"
                    for k, short in METRICS.items()
                )
                perfs = "/".join(f"{score(r, 'performance'):.0f}" for r in reports)
                row = f"  {preset:8} {name:10} accessibility {a11y:5.0f}  performance {perf:5.0f}"
                bench = statistics.median(r["environment"]["benchmarkIndex"] for r in reports)
                row += f" ({perfs})  {metrics} ms  benchmarkIndex {bench:.0f}"
                row += f"  {transfer(reports[0])}"
                print(row, flush=True)
                if name == "baseline":
                    continue
                rows.append((a11y, perf))
                for r in reports:
                    for line, shown, details in failing(r):
                        if line.startswith("performance") and perf >= 95:
                            continue  # on target: its opportunities are not listed
                        seen = problems.setdefault(f"{preset} {name}", {})
                        values, known = seen.get(line, ([], []))
                        known += [d for d in details if d not in known]
                        seen[line] = ([*values, shown.replace("\xa0", " ")], known)
    finally:
        servers.stop(proc)
        if baseline is not None:
            baseline.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
    a11y_met = "met" if all(a == 100 for a, _ in rows) else "NOT met"
    perf_met = "met" if all(p >= 95 for _, p in rows) else "NOT met"
    print(f"targets: accessibility 100 on every page {a11y_met}; performance >= 95 {perf_met}")
    for where, lines in problems.items():
        print(f"below target in {where} ([failing runs/runs] audit: what each run found):")
        for line, (values, details) in lines.items():
            shown = "; ".join(v for v in values if v)
            print(f"  [{len(values)}/{runs}] {line}" + (f": {shown}" if shown else ""))
            for detail in details:
                print(f"      {detail}")


if __name__ == "__main__":
    main()
