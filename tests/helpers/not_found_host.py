"""A built site served on 127.0.0.1 as a static host serves it (GitHub Pages, nginx `error_page`): a
missing address gets the 404 page of its language's folder, else the root's."""
from pathlib import Path
from urllib.parse import urlsplit

from helpers.languages import LANGUAGES
from helpers.local_browser import QuietHandler, serve

LANGS = LANGUAGES


class NotFoundHandler(QuietHandler):
    """Answers a missing address with the 404 page of its language's folder, else the root's."""

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        first = urlsplit(self.path).path.lstrip("/").split("/", 1)[0]
        page = Path(self.directory) / first / "404.html" if first in LANGS else Path(self.directory) / "404.html"
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def serve_with_not_found(folder: Path):
    """The folder served as a static host serves it, 404 pages included."""
    return serve(folder, NotFoundHandler)
