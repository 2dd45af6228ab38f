"""Lighthouse (pinned in tools/lighthouse/, installed by `make lighthouse`, which `make test`
runs first) finds nothing to fault in accessibility, best practices and SEO on the nb and da
front pages and a subpage with worked examples of the built site, in Debian's Chromium, mobile.

The performance score depends on the machine's load, so it is a figure of `make bench`
(bench/lighthouse.py), not an assertion here."""
from __future__ import annotations

import pytest

from bench.lighthouse import PAGES, built_and_served, failing_audits, missing, run_lighthouse_pages, scores
from helpers.cached_builds import ensure_bundle

ASSERTED = ("accessibility", "best-practices", "seo")


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Lighthouse's reports of PAGES, on the site built for the address it is served at (so its
    canonical links and the theme's sitemap lookups answer, as on the published site)."""
    why = missing()
    if why:
        pytest.fail(why)
    bundle = ensure_bundle()
    with built_and_served(tmp_path_factory.mktemp("lighthouse"), bundle) as (base, _):
        return dict(zip(PAGES, run_lighthouse_pages([f"{base}/{page}" for page in PAGES], categories=ASSERTED)))


@pytest.mark.parametrize("page", PAGES)
def test_accessibility_best_practices_and_seo_score_100(reports, page):
    report = reports[page]
    got = scores(report)
    faults = [f"{category}: {line}" for category in ASSERTED for line in failing_audits(report, category)]
    assert all(got[c] == 100 for c in ASSERTED), f"{page}: {got}\n" + "\n".join(faults)
