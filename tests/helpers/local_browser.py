"""Serving a folder on 127.0.0.1 and launching Debian's Chromium for Playwright."""
import functools
import http.server
import os
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

# Debian's old headless shell first: the same Blink, without the full browser's GPU process,
# which draws every frame through SwiftShader on the CPU (and the /usr/bin/chromium wrapper adds
# --enable-gpu-rasterization). tests/browser/test_game.py alone: Chromium 96 → 17 CPU-seconds.
# The full browser stays for Lighthouse and the bench, which measure what a reader's browser does.
DEBIAN_HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
DEBIAN_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    # Keep-alive, as a real host serves: a page's dozen files over one connection, not a
    # connection (and a thread here) each. Page loads take about a sixth less time.
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went on before a file was sent whole: nothing to report


@contextmanager
def serve(folder: Path, handler_class=None):
    """The folder on 127.0.0.1 at a free port, by QuietHandler or a subclass of it; yields the base address."""
    handler = functools.partial(handler_class or QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def chromium_path(playwright=None) -> str | None:
    """The Chromium to drive: $PYRAMIDE_CHROMIUM, Debian's headless shell or full browser, one on
    PATH, or else the one `playwright install chromium` downloaded (`make browser` does that where
    there is no apt-get, e.g. on macOS). None when there is none at all."""
    for candidate in (os.environ.get("PYRAMIDE_CHROMIUM"), DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM,
                      shutil.which("chromium-headless-shell"), shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    if playwright is not None:
        bundled = playwright.chromium.executable_path
        if bundled and Path(bundled).exists():
            return bundled
    return None


@contextmanager
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        path = chromium_path(p)
        if path is None:
            pytest.skip("no Chromium found: `make browser` installs Debian's, or Playwright's own where apt-get is missing")
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
