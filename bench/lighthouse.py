"""Lighthouse on the built site, in Debian's Chromium: the mobile scores of the nb and da front
pages (they hold the game and the replay) and one subpage with worked examples.

Lighthouse is pinned in tools/lighthouse/ (package.json + package-lock.json) and installed by
`make lighthouse` (npm ci, with the Node.js of the venv). The site is built here for the address
it is served at (docs/facts.yml `site_url` set in a copy of docs/), as a published site is: its
canonical links, alternates and the theme's sitemap lookups then all answer. It is served the
way a static host serves it: gzip for text when the browser asks for it, so the transfer sizes
that Lighthouse's simulated slow 4G works from are the ones a reader gets.

Chromium is started with chrome-launcher's own flags but one (bench/lighthouse_pages.mjs): they
turn Chrome's RenderDocument off, a work-around for a Lighthouse bug that Chrome does without.
On Debian's Chromium 156 that held each page's first paint back, in most runs, to 1.1–2.3 s after
navigation, long after its content was ready, on the contact page (no game) too: 2 of 6 runs with
only that flag, 14 of 16 with the launcher's flags, 0 of 35 with Chrome's own setting (first
paint 0.23–0.76 s). Lighthouse's simulation then counts every script of the load as run before the
first paint, which no visitor's Chrome does.

`make bench` prints, per page: performance (target ≥ 95, issue 26), accessibility, best practices, SEO,
LCP, TBT, CLS and the page's HTML bytes. tests/generator/site/test_lighthouse.py asserts accessibility, best
practices and SEO = 100 through the same runner.

    .venv/bin/python -m bench.lighthouse            # needs build/verified.json (make verify)
"""
from __future__ import annotations

import functools
import gzip
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE_DIR = ROOT / "tools" / "lighthouse"
LIGHTHOUSE = LIGHTHOUSE_DIR / "node_modules" / "lighthouse" / "core" / "index.js"
RUNNER = Path(__file__).with_name("lighthouse_pages.mjs")
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking --no-first-run"
PAGES = ("nb/", "da/", "nb/examples/")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100, "cls": 0.02}
# One Lighthouse run on this 2-core machine takes 10–40 s; a hung Chromium must not hang make.
RUN_TIMEOUT_S = 240
COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".webmanifest")


class LighthouseMissing(RuntimeError):
    """Lighthouse or Chromium is not installed here."""


def missing() -> str | None:
    """Why Lighthouse cannot run here (with the fix), or None when it can."""
    if not LIGHTHOUSE.exists():
        return f"{LIGHTHOUSE.relative_to(ROOT)} is missing: `make lighthouse` installs it from the lock file"
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing: `make browser` installs Debian's Chromium"
    return None


# ---------------------------------------------------------------- serving
class _StaticHost(http.server.SimpleHTTPRequestHandler):
    """Files as a static host sends them: text gzipped when asked for, over kept-alive connections."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].split("#")[0].endswith("/"):
                return super().send_head()  # the redirect to the folder's address
            path = path / "index.html"
        if not ("gzip" in self.headers.get("Accept-Encoding", "") and path.suffix in COMPRESSED and path.is_file()):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return BytesIO(body)


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A browser that closes a tab mid-transfer is no error of the site's.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@contextmanager
def serve(folder: Path):
    """The folder on http://127.0.0.1:<free port>; yields the base address (no trailing slash)."""
    server = _QuietServer(("127.0.0.1", 0), functools.partial(_StaticHost, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def built_and_served(folder: Path, bundle: Path | None = None):
    """Builds the site into folder/site for the address it is then served at; yields
    (base address without trailing slash, site folder). Raises RuntimeError with the
    generator's message when the build fails (say, a stale bundle: `make verify`)."""
    site, docs = folder / "site", folder / "docs"
    shutil.copytree(ROOT / "docs", docs)
    with serve(site) as base:  # the folder is served as it is when asked: built just below
        facts = docs / "facts.yml"
        facts.write_text(facts.read_text(encoding="utf-8") + f'\nsite_url: "{base}/"\n', encoding="utf-8")
        args = [sys.executable, "-m", "generator", "build", "--dest", str(site), "--docs", str(docs)]
        args += ["--bundle", str(bundle)] if bundle else []
        r = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            raise RuntimeError(f"the site did not build: {r.stderr.strip()[-600:]}")
        yield base, site


# ---------------------------------------------------------------- running
def run_lighthouse_pages(urls: list[str], categories=CATEGORIES) -> list[dict]:
    """Lighthouse's report (its JSON result) for each address, mobile (Lighthouse's default form
    factor and simulated throttling), from one Node process and one Chromium
    (bench/lighthouse_pages.mjs). Raises LighthouseMissing, or RuntimeError naming the addresses
    and Lighthouse's last words when it fails."""
    from verify.app import find_node

    why = missing()
    if why:
        raise LighthouseMissing(why)
    args = [find_node(), str(RUNNER), str(LIGHTHOUSE_DIR), ",".join(categories), CHROME_FLAGS, *urls]
    r = subprocess.run(args, capture_output=True, text=True, timeout=RUN_TIMEOUT_S * len(urls),
                       env={**os.environ, "CHROME_PATH": CHROMIUM})
    if r.returncode != 0 or not r.stdout.strip():
        raise RuntimeError(f"Lighthouse on {', '.join(urls)} failed (exit {r.returncode}): {r.stderr.strip()[-600:]}")
    reports = json.loads(r.stdout)
    for url, report in zip(urls, reports):
        if report.get("runtimeError"):
            raise RuntimeError(f"Lighthouse on {url}: {report['runtimeError'].get('message')}")
    return reports


def run_lighthouse(url: str, categories=CATEGORIES) -> dict:
    """Lighthouse's report for one address (see run_lighthouse_pages)."""
    return run_lighthouse_pages([url], categories)[0]


def scores(report: dict) -> dict[str, int | None]:
    """Each category's score, 0–100 (None when Lighthouse could not score it)."""
    return {cid: None if c["score"] is None else round(c["score"] * 100) for cid, c in report["categories"].items()}


def failing_audits(report: dict, category: str) -> list[str]:
    """The audits that cost the category points: "id (score): title — what was found"."""
    failed = []
    for ref in report["categories"][category]["auditRefs"]:
        audit = report["audits"][ref["id"]]
        if ref.get("weight", 0) == 0 or audit.get("score") is None or audit["score"] >= 1:
            continue
        items = (audit.get("details") or {}).get("items") or []
        found = "; ".join(_item_text(i) for i in items[:5])
        failed.append(f"{ref['id']} ({audit['score']}): {audit['title']}" + (f" — {found}" if found else ""))
    return failed


def _item_text(item: dict) -> str:
    node = item.get("node") or {}
    where = (item.get("sourceLocation") or {}).get("url")
    if item.get("description") and where:  # a console message: what, and about which address
        return f"{item['description'][:120]} ({where})"
    return str(node.get("snippet") or node.get("selector") or item.get("url") or item.get("description") or
               item.get("source") or "")[:160]


def metrics(report: dict) -> dict:
    """LCP, TBT, FCP in ms and CLS, as Lighthouse measured them (None when not measured)."""
    audits = report["audits"]
    value = lambda key: (audits.get(key) or {}).get("numericValue")  # noqa: E731
    return {"lcp_ms": value("largest-contentful-paint"), "tbt_ms": value("total-blocking-time"),
            "fcp_ms": value("first-contentful-paint"), "cls": value("cumulative-layout-shift")}


def html_bytes(site: Path, page: str) -> int:
    return (site / page / "index.html").stat().st_size


# ---------------------------------------------------------------- make bench
def run() -> dict:
    """Builds the site for a local address, then prints and returns the figures of each page of PAGES."""
    why = missing()
    if why:
        print(f"    no Lighthouse figures: {why}")
        return {"skipped": why}
    try:
        figures = _measure()
    except RuntimeError as e:  # the site did not build (say, a stale bundle) or Lighthouse failed
        print(f"    no Lighthouse figures: {e}")
        return {"skipped": str(e)}
    return {"pages": figures, "targets": TARGETS}


def _measure() -> dict:
    figures = {}
    with tempfile.TemporaryDirectory() as tmp, built_and_served(Path(tmp)) as (base, site):
        for page, report in zip(PAGES, run_lighthouse_pages([f"{base}/{page}" for page in PAGES])):
            row = {**scores(report), **metrics(report), "html_bytes": html_bytes(site, page)}
            figures[page] = row
            m = {k: ("–" if v is None else v) for k, v in row.items()}
            print(f"    {page:<14} performance {m['performance']:>3} (target ≥ {TARGETS['performance']}), "
                  f"accessibility {m['accessibility']}, best practices {m['best-practices']}, SEO {m['seo']}; "
                  f"LCP {_ms(row['lcp_ms'])}, TBT {_ms(row['tbt_ms'])}, CLS {_cls(row['cls'])}; "
                  f"HTML {row['html_bytes'] / 1024:.1f} KB", flush=True)
            for category in ("accessibility", "best-practices", "seo"):
                for line in failing_audits(report, category):
                    print(f"        {category}: {line}")
    return figures


def _ms(value) -> str:
    return "–" if value is None else f"{value / 1000:.2f} s"


def _cls(value) -> str:
    return "–" if value is None else f"{value:.3f}"


if __name__ == "__main__":
    run()
