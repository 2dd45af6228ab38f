"""`make serve`: the built site on http://127.0.0.1:8000/, rebuilt when a source changes, and
open pages reload themselves (a small script the server adds to each page it sends; the built
files stay as they are).

From a save to the reload, quickly and still the real build:
- the sources' modification times are looked at every WATCH_SECONDS;
- `verify check` runs only when the edit touches what the checks read (needs_checks), in one
  warm process (verify/check_worker.py: numba and the Node bridge started once), and computes
  only the checks whose inputs changed (verify/check_cache.py): a note edit checks that
  example's notes again, nothing else;
- the site is built by one warm process (generator/serve/live_build.py): imported once, MkDocs in
  that process with the theme's templates compiled once, a language whose MkDocs input did not
  change copied from its last output, each page's Markdown render and search entries kept under their whole input,
  and the pure steps (page lint, the glossary lint per file, page scans, preview pictures, the
  bundle's shape and figures) remembered by their input text. Every gate of `generator build` still runs: the
  bundle's freshness, lint and number guard, the built site's checks, the swap;
- an open page asks for the build state and the server holds the answer until it changes
  (LONG_POLL), so the reload starts as soon as the new site is in place.

Odd requests get an HTTP error, never a traceback: a folder without its slash is redirected
(301) so relative links work, a path that cannot name a file (a NUL byte, an encoded lone
surrogate) gets 400, a name too long 404, and a connection that sends nothing is closed after IDLE_TIMEOUT seconds. A port
out of range or in use is one line and exit 2.
"""
from __future__ import annotations

import errno
import fnmatch
import functools
import http.server
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

from generator.settings import BUNDLE, ROOT
from generator.errors import BuildError
from generator.serve.live_build import LiveBuilder, LiveChecker

IDLE_TIMEOUT = 10  # seconds a connection may stay silent before the server closes it
WATCH_SECONDS = 0.2  # between two looks at the sources' modification times (about 7 ms of stat calls)
LONG_POLL = 8.0  # seconds the server holds a page's question about the build state
LONG_POLL_STEP = 0.05  # how often a held question looks at the state
PORTS = range(0, 65536)  # 0: any free port, the one bound is printed
LOCAL_NAMES = ("127.0.0.1", "localhost")  # the Host names a request may give (with the server's port)
WATCHED = [ROOT / "docs", ROOT / "examples", ROOT / "app", ROOT / "generator", ROOT / "verify", ROOT / "strict_yaml",
           ROOT / "mkdocs.yml"]
# What `verify check` reads: the files its bundle is made from, which the bundle itself lists as
# `input_patterns` (verify/settings.py BUNDLE_INPUTS), and the checker's own code and the files a
# check opens itself (the glossaries). Only a change there needs the checks again; any other
# edit (a page, a string, the theme) only the build. The generator re-hashes the bundle's inputs,
# so a check wrongly skipped would stop the build; with no readable bundle, every edit checks.
# `verify check` itself redoes only the checks whose inputs changed (verify/check_cache.py).
CHECKER_READS = ("verify", "strict_yaml", "docs/*/glossary.yml")
# A script file, not an inline script: every page's Content-Security-Policy refuses inline
# scripts it does not name, and this one is the server's, not the build's. It asks for the build
# state and the server holds the answer until the state differs from what the page has seen
# (at most LONG_POLL seconds), so a new build reloads the page at once; a failed one lays its
# error over the page (built with the DOM and textContent: the error quotes what a contributor
# wrote), until fixed.
RELOAD_JS = b"""(function () {
  var seen = null, box = null;
  function show(error) {
    if (!box) {
      box = document.createElement('div');
      box.id = 'pyramide-build-error';
      box.setAttribute('role', 'alert');
      var s = box.style;
      s.position = 'fixed'; s.left = '0'; s.right = '0'; s.bottom = '0'; s.zIndex = '100000';
      s.padding = '1em'; s.background = '#b71c1c'; s.color = '#fff'; s.font = '14px/1.4 monospace';
      s.whiteSpace = 'pre-wrap'; s.boxShadow = '0 -2px 8px rgba(0,0,0,.4)';
      document.body.appendChild(box);
    }
    box.textContent = 'make serve: the last rebuild failed; this page is the last good build.\\n' + error;
  }
  function ask() {
    var query = seen === null ? '' : '?seen=' + encodeURIComponent(seen) + '&failed=' + (box ? 1 : 0);
    fetch('/__build_state' + query).then(function (r) { return r.json(); }).then(function (state) {
      if (state.error) { show(state.error); ask(); return; }
      if (box) { box.remove(); box = null; }
      if (seen !== null && state.id !== seen) { location.reload(); return; }
      seen = state.id;
      ask();
    }).catch(function () { setTimeout(ask, 1000); });
  }
  ask();
})();
"""
RELOAD_SCRIPT = b'<script src="/__reload.js"></script>'


class PortError(BuildError):
    """A port the server cannot listen on: bad input, exit 2."""
    exit_code = 2


def snapshot() -> dict[Path, float]:
    files = {}
    for place in WATCHED:
        for p in ([place] if place.is_file() else place.rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts:
                files[p] = p.stat().st_mtime
    return files


def needs_checks(changed: set[Path]) -> bool:
    """Whether an edit of these files can change what `verify check` decides."""
    try:
        reads = CHECKER_READS + tuple(json.loads(BUNDLE.read_text(encoding="utf-8"))["input_patterns"])
    except (OSError, ValueError, KeyError, TypeError):
        return True  # no bundle to ask (or not one this generator reads): the checks make one
    for path in changed:
        relative = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else ""
        if any(fnmatch.fnmatchcase(relative, top) or relative.startswith(top + "/") for top in reads):
            return True
    return False


def cold_build(site: Path, changed: set[Path] | None = None) -> str | None:
    """`python -m generator build` in a process of its own; None, or its first `error:` line."""
    return _run([sys.executable, "-m", "generator", "build", "--dest", str(site)])


def _run(cmd: list[str]) -> str | None:
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    if done.returncode == 0:
        return None
    lines = (done.stderr + done.stdout).splitlines()
    return next((line for line in lines if line.startswith("error:")), None) \
        or (lines[-1] if lines else f"{' '.join(cmd[1:3])} exited with {done.returncode}")


def cold_check(changed: set[Path] | None = None) -> str | None:
    """`python -m verify check` in a process of its own; None, or its first `error:` line."""
    return _run([sys.executable, "-m", "verify", "check"])


def rebuild(site: Path, changed: set[Path] | None = None, build=cold_build, check=cold_check) -> str | None:
    """The checks (when the edit can change them; `verify check` redoes only what it changes)
    and the build; make serve passes its warm processes for both (generator/serve/live_build.py,
    verify/check_worker.py). None when both pass, else the line that says what failed (all of
    their output goes to the terminal as well)."""
    error = None
    if changed is None or needs_checks(changed):
        error = check(changed)
    error = error or build(site, changed)
    if error:
        print("Build failed; still serving the last good site.", flush=True)
    return error


def make_handler(site: Path, build_id: list[str], idle_timeout: float = IDLE_TIMEOUT, build_error: list | None = None,
                 long_poll: float = LONG_POLL):
    """build_id[0] names the build served; build_error[0], when set, is the failed rebuild's error."""
    build_error = [None] if build_error is None else build_error

    class Handler(http.server.SimpleHTTPRequestHandler):
        timeout = idle_timeout  # a silent client would otherwise hold its thread forever

        def log_message(self, *args):
            pass

        def parse_request(self) -> bool:
            """The request line as the base class reads it, then a path that can name a file:
            a NUL byte or an encoded lone surrogate gets 400 here, not a traceback later."""
            if not super().parse_request():
                return False
            if not self.host_is_ours():
                # Another site's page, its name pointed at this machine (DNS rebinding), must not
                # read the build state, whose errors name local files: a short 400 and nothing else.
                self.send_error(400, "Unknown host")
                return False
            try:
                local = self.translate_path(self.path)
                os.fsencode(local)
                if "\0" in local:
                    raise ValueError("NUL in path")
            except ValueError:
                self.send_error(400, "Bad path")
                return False
            return True

        def host_is_ours(self) -> bool:
            """The Host header names this server: 127.0.0.1 or localhost, at the port it listens on."""
            try:
                host = urllib.parse.urlsplit("//" + self.headers.get("Host", ""))
                return host.hostname in LOCAL_NAMES and host.port == self.server.server_address[1]
            except ValueError:  # a port that is not a number
                return False

        def send(self, body: bytes, content_type: str):
            try:
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the page went away (a reload) while its question was held

        def do_GET(self):
            if self.path == "/__build_id":
                return self.send(build_id[0].encode(), "text/plain")
            if urllib.parse.urlsplit(self.path).path == "/__build_state":
                return self.send(json.dumps(self.build_state()).encode(), "application/json")
            if self.path == "/__reload.js":
                return self.send(RELOAD_JS, "text/javascript")
            page = self.html_page()
            if page is not None:
                body = page.read_bytes().replace(b"</body>", RELOAD_SCRIPT + b"</body>")
                return self.send(body, "text/html; charset=utf-8")
            super().do_GET()  # other files, 404s, and the 301 for a folder without its slash

        def build_state(self) -> dict:
            """The build state, once it differs from what the page says it has seen (?seen=ID&
            failed=0|1), or after LONG_POLL seconds; at once when the page has seen nothing."""
            asked = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            seen, failed = asked.get("seen", [None])[0], asked.get("failed", ["0"])[0] == "1"
            deadline = time.monotonic() + long_poll
            while seen is not None and build_id[0] == seen and (build_error[0] is not None) == failed \
                    and time.monotonic() < deadline:
                time.sleep(LONG_POLL_STEP)
            return {"id": build_id[0], "error": build_error[0]}

        def html_page(self) -> Path | None:
            """The HTML file this GET names (a folder's index.html only when the URL ends in
            /, as the base class requires), or None to let the base class answer."""
            path = Path(self.translate_path(self.path))
            try:
                if path.is_dir():
                    if not urllib.parse.urlsplit(self.path).path.endswith("/"):
                        return None
                    path = path / "index.html"
                return path if path.suffix == ".html" and path.is_file() else None
            except OSError:  # e.g. a name too long: the base class answers 404
                return None

    return functools.partial(Handler, directory=str(site))


def open_server(port: int, handler) -> http.server.ThreadingHTTPServer:
    """A server listening on 127.0.0.1:port. Raises PortError when it cannot."""
    if port not in PORTS:
        raise PortError(f"--port {port}: not a port number (1 to 65535, or 0 for any free one)")
    try:
        return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise PortError(f"--port {port}: the port is in use (another `make serve`?); choose another with --port N") from None
        raise PortError(f"--port {port}: cannot listen there ({e.strerror})") from None


def serve(site: Path, port: int = 8000) -> None:
    """The last site built, served at once: the check and build started beside it (warm, so that
    the first save is quick) reload the open pages when done. With no site yet, they come first."""
    build_id, build_error = [str(time.time())], [None]
    server = open_server(port, make_handler(site, build_id, build_error=build_error))  # a bad port: said at once
    builder, checker = LiveBuilder(), LiveChecker()
    seen = snapshot()
    try:
        first = not (site / "index.html").is_file()
        if first:
            print(f"No site in {site} yet: checking and building it first…", flush=True)
            build_error[0] = rebuild(site, None, builder.build, checker.check)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        print(f"Serving {site} on http://127.0.0.1:{server.server_address[1]}/ — edit docs/, examples/ or app/ "
              "and the pages reload. Ctrl+C stops.", flush=True)
        if not first:
            print("Starting the warm checker and builder (one check and build now, beside the served site, so "
                  "that the first save is quick; open pages reload when it is done)…", flush=True)
            build_error[0] = rebuild(site, None, builder.build, checker.check)
            if build_error[0] is None:
                build_id[0] = str(time.time())
                print("Built; open pages reload.", flush=True)
        while True:
            time.sleep(WATCH_SECONDS)
            now = snapshot()
            if now != seen:
                changed = {p for p in now.keys() | seen.keys() if now.get(p) != seen.get(p)}
                seen = now
                started = time.monotonic()
                print("Change seen; rebuilding…", flush=True)
                build_error[0] = rebuild(site, changed, builder.build, checker.check)
                if build_error[0] is None:
                    build_id[0] = str(time.time())
                    print(f"Rebuilt in {time.monotonic() - started:.1f} s; open pages reload.", flush=True)
    except KeyboardInterrupt:
        server.shutdown()
    finally:
        builder.close()
        checker.close()
