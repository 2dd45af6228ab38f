"""`make serve`'s server: pages get the reload script, the build id tells open pages to reload."""
import http.server
import threading
import urllib.request

from generator.serve import make_handler


def test_served_pages_reload_when_the_build_changes(tmp_path):
    (tmp_path / "nb").mkdir()
    (tmp_path / "nb" / "index.html").write_text("<html><body><p>hei</p></body></html>")
    build_id = ["first"]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(tmp_path, build_id))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        page = urllib.request.urlopen(url + "/nb/").read().decode()
        assert "<p>hei</p>" in page and "/__build_id" in page
        assert urllib.request.urlopen(url + "/__build_id").read() == b"first"
        build_id[0] = "second"
        assert urllib.request.urlopen(url + "/__build_id").read() == b"second"
        assert "/__build_id" not in (tmp_path / "nb" / "index.html").read_text()  # the file itself is untouched
    finally:
        server.shutdown()
        server.server_close()
