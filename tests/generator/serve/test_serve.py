"""`make serve`'s server: pages get the reload script, the build id tells open pages to reload;
odd requests get an HTTP answer (never a traceback or a connection held forever); nothing
outside the site is served; a bad port is one line and exit 2."""
import http.client
import json
import http.server
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from generator.cli import main
from generator.serve import server
from generator.serve.server import IDLE_TIMEOUT, ROOT, make_handler, needs_checks, rebuild


def test_served_pages_reload_when_the_build_changes(tmp_path):
    (tmp_path / "nb").mkdir()
    (tmp_path / "nb" / "index.html").write_text("<html><body><p>hei</p></body></html>")
    build_id = ["first"]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(tmp_path, build_id))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        page = urllib.request.urlopen(url + "/nb/").read().decode()
        # The reload script is a file of the server's, which the pages' policy allows ('self').
        assert "<p>hei</p>" in page and '<script src="/__reload.js"></script>' in page
        assert b"/__build_state" in urllib.request.urlopen(url + "/__reload.js").read()
        assert urllib.request.urlopen(url + "/__build_id").read() == b"first"
        build_id[0] = "second"
        assert urllib.request.urlopen(url + "/__build_id").read() == b"second"
        assert "/__build_id" not in (tmp_path / "nb" / "index.html").read_text()  # the file itself is untouched
    finally:
        server.shutdown()
        server.server_close()


# ---- odd requests get an HTTP answer, never a traceback or a hung thread -----------------------


@pytest.fixture
def served(tmp_path):
    """A site in tmp_path/site (a secret beside it), served on a free port: (host, port)."""
    site = tmp_path / "site"
    (site / "nb" / "examples").mkdir(parents=True)
    (site / "nb" / "examples" / "index.html").write_text("<html><body><p>eksempler</p></body></html>")
    (tmp_path / "secret.txt").write_text("not for readers")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(site, ["id"], idle_timeout=0.5))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address
    finally:
        server.shutdown()
        server.server_close()


def get(address, path: str) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection(*address, timeout=5)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_a_folder_without_its_slash_is_redirected(served):
    status, headers, _ = get(served, "/nb/examples")
    assert status == 301 and headers["Location"] == "/nb/examples/"
    status, _, body = get(served, "/nb/examples/")
    assert status == 200 and b"<p>eksempler</p>" in body and b"/__reload.js" in body


@pytest.mark.parametrize("path, expected", [("/%00", 400), ("/nb/%00/index.html", 400), ("/nb/%ed%a0%80", 400),
                                            ("/%ff", 404)])  # not UTF-8: the base class reads it as U+FFFD
def test_a_path_that_cannot_name_a_file_gets_an_error_and_no_traceback(served, capfd, path, expected):
    status, _, _ = get(served, path)
    assert status == expected
    assert get(served, "/nb/examples/")[0] == 200  # the server still answers
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("path", ["/../secret.txt", "/%2e%2e/secret.txt", "/nb/..%2f..%2fsecret.txt",
                                  "/nb/../../secret.txt", "//" + "x" * 5000])
def test_nothing_outside_the_site_is_served(served, capfd, path):
    status, _, body = get(served, path)
    assert status == 404 and b"not for readers" not in body
    assert "Traceback" not in capfd.readouterr().err


def test_a_silent_connection_is_closed(served):
    with socket.create_connection(served, timeout=5) as client:
        started = time.monotonic()
        assert client.recv(1024) == b""  # closed by the server, not by our own timeout
        assert time.monotonic() - started < 4
    assert 0 < IDLE_TIMEOUT <= 60
    assert make_handler(Path("."), ["id"]).func.timeout == IDLE_TIMEOUT


@pytest.mark.parametrize("port", ["99999", "65536", "-1"])  # 0 is any free port (the one bound is printed)
def test_a_port_out_of_range_is_one_line_and_exit_2(capsys, port):
    assert main(["serve", "--port", port]) == 2
    assert capsys.readouterr().err == f"error: --port {port}: not a port number (1 to 65535, or 0 for any free one)\n"


def test_a_port_in_use_is_one_line_and_exit_2(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert capsys.readouterr().err == (f"error: --port {port}: the port is in use (another `make serve`?); "
                                       "choose another with --port N\n")


# ---- a failed rebuild is shown in the page, and cleared when fixed -----------------------------


def test_a_failed_rebuild_is_laid_over_the_page_until_it_is_fixed(tmp_path, browser):
    (tmp_path / "nb").mkdir()
    (tmp_path / "nb" / "index.html").write_text("<html><body><p>hei</p></body></html>")
    build_id, build_error = ["first"], [None]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(tmp_path, build_id, build_error=build_error))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page = browser.new_page()
    try:
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/nb/")
        page.wait_for_timeout(1500)
        assert page.locator("#pyramide-build-error").count() == 0
        # The error quotes a contributor's text: it is shown as text, never as markup.
        build_error[0] = "error: docs/nb/pages/index.md, line 3: <b>{{ 29 }}</b> is a number typed by hand"
        overlay = page.locator("#pyramide-build-error")
        overlay.wait_for(timeout=5000)
        assert "docs/nb/pages/index.md, line 3: <b>{{ 29 }}</b>" in overlay.inner_text()
        assert overlay.get_attribute("role") == "alert" and page.locator("b").count() == 0
        build_error[0], build_id[0] = None, "second"  # fixed and rebuilt: the overlay goes, the page reloads
        page.wait_for_function("!document.getElementById('pyramide-build-error')", timeout=5000)
        assert page.locator("p").inner_text() == "hei"
    finally:
        page.close()
        server.shutdown()
        server.server_close()


def test_only_an_edit_the_checks_read_runs_them_again(tmp_path, monkeypatch):
    # The patterns come from the bundle (what verify/settings.py BUNDLE_INPUTS said when it was made).
    from verify.settings import BUNDLE_INPUTS
    bundle = tmp_path / "verified.json"
    bundle.write_text(json.dumps({"input_patterns": list(BUNDLE_INPUTS)}), encoding="utf-8")
    monkeypatch.setattr(server, "BUNDLE", bundle)
    assert not needs_checks({ROOT / "docs" / "nb" / "pages" / "index.md", ROOT / "docs" / "da" / "strings.yml",
                             ROOT / "generator" / "pages.py", ROOT / "mkdocs.yml"})
    for path in ("examples/winnable.yaml", "app/core/engine.js", "verify/checking.py", "strict_yaml/loader.py",
                 "docs/languages.yml", "docs/da/glossary.yml",  # a glossary: the notes' words
                 "docs/nb/examples/winnable.yml"):  # an example's notes in one language
        assert needs_checks({ROOT / "docs" / "nb" / "pages" / "index.md", ROOT / path}), path
    # The bundle's own list decides: one that names pages makes a page edit a checked one, and
    # with no readable bundle every edit runs the checks (they write one).
    bundle.write_text(json.dumps({"input_patterns": ["docs/*/pages/*.md"]}), encoding="utf-8")
    assert needs_checks({ROOT / "docs" / "nb" / "pages" / "index.md"})
    assert not needs_checks({ROOT / "examples" / "winnable.yaml"})
    bundle.unlink()
    assert needs_checks({ROOT / "mkdocs.yml"})


def test_rebuild_returns_the_first_error_line(tmp_path, monkeypatch):
    import subprocess as sp

    calls = []

    def fake_run(cmd, **kwargs):
        calls.append(cmd[2])
        out = "Building…\nwarning: nothing\n" if cmd[2] == "generator" else "  ok  examples.read\n"
        err = "error: docs/nb/pages/index.md, line 3: a number typed by hand\nmore\n" if cmd[2] == "generator" else ""
        return sp.CompletedProcess(cmd, 2 if err else 0, out, err)

    monkeypatch.setattr("generator.serve.server.subprocess.run", fake_run)
    from verify.settings import BUNDLE_INPUTS
    bundle = tmp_path / "verified.json"
    bundle.write_text(json.dumps({"input_patterns": list(BUNDLE_INPUTS)}), encoding="utf-8")
    monkeypatch.setattr(server, "BUNDLE", bundle)
    assert rebuild(tmp_path, {ROOT / "docs" / "nb" / "pages" / "index.md"}) == \
        "error: docs/nb/pages/index.md, line 3: a number typed by hand"
    assert calls == ["generator"]  # a page edit: no checks
    calls.clear()
    rebuild(tmp_path, {ROOT / "examples" / "winnable.yaml"})
    assert calls == ["verify", "generator"]


# ---- a foreign Host is refused; the address printed is the one bound; ready at once -----------


@pytest.fixture
def served_after_a_failed_build(tmp_path):
    """A site whose last rebuild failed with an error naming a local file, served on a free port."""
    site = tmp_path / "site"
    (site / "nb").mkdir(parents=True)
    (site / "nb" / "index.html").write_text("<html><body><p>hei</p></body></html>")
    error = [f"error: {ROOT}/docs/nb/pages/index.md, line 3: a number typed by hand"]
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(site, ["id"], build_error=error))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield httpd.server_address, site
    finally:
        httpd.shutdown()
        httpd.server_close()


def get_as(address, path: str, host: str | None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection(*address, timeout=5)
    try:
        connection.putrequest("GET", path, skip_host=True)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1.nip.io:{port}", "127.0.0.1:1", "localhost",
                                  "127.0.0.1:x", "", None])
@pytest.mark.parametrize("path", ["/__build_state", "/nb/", "/nb/missing", "/%00"])
def test_a_request_for_another_host_gets_a_short_400_naming_nothing_local(served_after_a_failed_build, host, path):
    (address, site) = served_after_a_failed_build
    status, body = get_as(address, path, None if host is None else host.format(port=address[1]))
    assert status == 400 and len(body) < 600
    assert b"Unknown host" in body and b"hei" not in body
    assert str(ROOT).encode() not in body and str(site).encode() not in body and b"index.md" not in body


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LOCALHOST"])
def test_the_servers_own_names_are_answered(served_after_a_failed_build, name):
    (address, _) = served_after_a_failed_build
    status, body = get_as(address, "/__build_state", f"{name}:{address[1]}")
    assert status == 200 and json.loads(body)["error"].startswith("error: ")  # the page's own overlay still works


def test_make_serve_does_not_build_the_site_before_serving_it():
    """The checks and the build run inside serve, after the last site is served, not as make's prerequisites."""
    import subprocess

    dry = subprocess.run(["make", "-n", "-o", ".venv/.installed-stamp", "serve", "PORT=0"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert dry.returncode == 0, dry.stderr
    commands = [line for line in dry.stdout.splitlines() if "-m " in line]
    assert commands and commands[-1].endswith("-m generator serve --port 0")
    assert not [c for c in commands if "verify" in c or "generator build" in c], commands


def test_serve_is_ready_within_ten_seconds_at_the_address_it_prints(tmp_path):
    """`generator serve --port 0` over a built site: the address printed is the port bound, and it
    answers within 10 s of the start (the check and build it starts beside it are stopped after)."""
    import os
    import re
    import signal
    import subprocess

    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<html><body><p>forsiden</p></body></html>")
    started = time.monotonic()
    process = subprocess.Popen([str(ROOT / ".venv" / "bin" / "python"), "-m", "generator", "serve", "--port", "0"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
    try:
        line = ""
        while "Serving" not in line and time.monotonic() - started < 30:
            line = process.stdout.readline()
        address = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert address and int(address.group(1)) != 0, line
        page = urllib.request.urlopen(address.group(0), timeout=10).read()
        ready = time.monotonic() - started
        assert b"forsiden" in page and ready <= 10, f"ready after {ready:.1f} s"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
