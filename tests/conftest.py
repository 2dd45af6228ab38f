"""Shared fixtures: one Node process with the app's code for the whole test session."""
import pytest

# tests/helpers/ holds asserts too (live_number, ensure_bundle…): pytest explains them as a test's own.
pytest.register_assert_rewrite("helpers")

from verify.app import AppEngine  # noqa: E402
from helpers.settle import install as settle_after_every_input  # noqa: E402

# The game acts on input in a task after the input's: each Playwright input waits for it (helpers/settle.py).
settle_after_every_input()


@pytest.fixture(scope="session")
def app():
    with AppEngine() as engine:
        yield engine


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The real site, built once: (site folder, languages → page names)."""
    from helpers.cached_builds import ROOT, shared_site

    dest = shared_site()
    languages = {p.name: sorted(x.name for x in (p / "pages").glob("*.md"))
                 for p in (ROOT / "docs").iterdir() if (p / "pages").is_dir()}
    return dest, languages


@pytest.fixture(scope="module")
def site_url(built_site):
    """The built site (tests/helpers/cached_builds.py) served on localhost, for the tests of whole pages."""
    from helpers.local_browser import serve

    site, _ = built_site
    with serve(site) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """One Debian Chromium for every browser test (Playwright's sync API allows one at a time)."""
    from helpers.local_browser import chromium

    with chromium() as b:
        yield b
