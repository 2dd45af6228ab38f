"""Finding a Chromium: Debian's (its headless shell first) where it is, Playwright's own download where there is no apt-get."""
from types import SimpleNamespace

from helpers import local_browser


def _nothing_installed(monkeypatch, tmp_path):
    monkeypatch.delenv("PYRAMIDE_CHROMIUM", raising=False)
    monkeypatch.setattr(local_browser, "DEBIAN_HEADLESS_SHELL", str(tmp_path / "no-such-shell"))
    monkeypatch.setattr(local_browser, "DEBIAN_CHROMIUM", str(tmp_path / "no-such-chromium"))
    monkeypatch.setattr(local_browser.shutil, "which", lambda name: None)


def _playwright_with(path):
    return SimpleNamespace(chromium=SimpleNamespace(executable_path=str(path)))


def test_the_variable_wins_over_debian(monkeypatch, tmp_path):
    own = tmp_path / "chrome"
    own.touch()
    monkeypatch.setenv("PYRAMIDE_CHROMIUM", str(own))
    assert local_browser.chromium_path() == str(own)


def test_debians_headless_shell_is_preferred_to_its_full_browser(monkeypatch, tmp_path):
    _nothing_installed(monkeypatch, tmp_path)
    shell, full = tmp_path / "chromium-headless-shell", tmp_path / "chromium"
    full.touch()
    monkeypatch.setattr(local_browser, "DEBIAN_CHROMIUM", str(full))
    assert local_browser.chromium_path() == str(full)  # the full browser where the shell is missing
    shell.touch()
    monkeypatch.setattr(local_browser, "DEBIAN_HEADLESS_SHELL", str(shell))
    assert local_browser.chromium_path() == str(shell)


def test_without_any_system_chromium_playwrights_own_download_is_used(monkeypatch, tmp_path):
    _nothing_installed(monkeypatch, tmp_path)
    bundled = tmp_path / "ms-playwright" / "chrome"
    bundled.parent.mkdir()
    bundled.touch()
    assert local_browser.chromium_path(_playwright_with(bundled)) == str(bundled)


def test_with_no_chromium_at_all_there_is_none(monkeypatch, tmp_path):
    _nothing_installed(monkeypatch, tmp_path)
    assert local_browser.chromium_path(_playwright_with(tmp_path / "not-downloaded")) is None
    assert local_browser.chromium_path() is None


def test_a_chromium_on_the_path_is_found(monkeypatch, tmp_path):
    _nothing_installed(monkeypatch, tmp_path)
    on_path = tmp_path / "bin" / "chromium"
    on_path.parent.mkdir()
    on_path.touch()
    monkeypatch.setattr(local_browser.shutil, "which", lambda name: str(on_path) if name == "chromium" else None)
    assert local_browser.chromium_path() == str(on_path)
