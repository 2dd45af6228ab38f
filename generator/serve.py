"""`make serve`: the built site on http://127.0.0.1:8000/, rebuilt when a source changes, and
open pages reload themselves (a small script the server adds to each page it sends; the built
files stay as they are).
"""
from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
import time
from pathlib import Path

from .bundle import ROOT

WATCHED = [ROOT / "docs", ROOT / "examples", ROOT / "app", ROOT / "generator", ROOT / "mkdocs.yml"]
RELOAD_SCRIPT = b"""<script>
(function () { var seen = null; setInterval(function () {
  fetch('/__build_id').then(function (r) { return r.text(); }).then(function (id) {
    if (seen !== null && id !== seen) location.reload(); seen = id; }).catch(function () {});
}, 1000); })();
</script>"""


def snapshot() -> dict[Path, float]:
    files = {}
    for place in WATCHED:
        for p in ([place] if place.is_file() else place.rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts:
                files[p] = p.stat().st_mtime
    return files


def rebuild(site: Path) -> bool:
    for cmd in ([sys.executable, "-m", "verify", "check"], [sys.executable, "-m", "generator", "build", "--dest", str(site)]):
        if subprocess.run(cmd, cwd=ROOT).returncode != 0:
            print("Build failed; still serving the last good site.", flush=True)
            return False
    return True


def make_handler(site: Path, build_id: list[str]):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send(self, body: bytes, content_type: str):
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if self.path == "/__build_id":
                return self.send(build_id[0].encode(), "text/plain")
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            if path.suffix == ".html" and path.exists():
                body = path.read_bytes().replace(b"</body>", RELOAD_SCRIPT + b"</body>")
                return self.send(body, "text/html; charset=utf-8")
            super().do_GET()

    return functools.partial(Handler, directory=str(site))


def serve(site: Path, port: int = 8000) -> None:
    build_id = [str(time.time())]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), make_handler(site, build_id))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"Serving {site} on http://127.0.0.1:{port}/ — edit docs/, examples/ or app/ and the pages reload. Ctrl+C stops.")
    seen = snapshot()
    try:
        while True:
            time.sleep(1)
            now = snapshot()
            if now != seen:
                seen = now
                print("Change seen; rebuilding…", flush=True)
                if rebuild(site):
                    build_id[0] = str(time.time())
    except KeyboardInterrupt:
        server.shutdown()
