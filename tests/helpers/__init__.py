"""What the tests share, imported as `helpers.<module>` (pytest puts tests/ on sys.path): no test
module imports another (tests/test_layout.py holds that).

cached_builds   the verified bundle, the built site and other costly inputs, made once per set of inputs
languages       the site's languages, from docs/languages.yml
local_browser   a folder served on 127.0.0.1, and the Chromium Playwright drives
not_found_host  a built site served as a static host serves it, 404 pages included
cpu_limit       a CPU-time limit for a test while numba's compiler is off (mutation runs)
bundle_fakes    a small fake bundle that the bundle gate accepts, and its pieces
numbered_sites  small numbered sites to publish, and which one a destination serves
page_sandbox    one page source through the lint and the sandbox, with nb's context (fixtures)
repository_copy a copy of the repository's files, and make run in it
page_words      the game's words as the page says them
game_harness    the browser tests' harness: its deals, its page template and the game's strings
game_page       driving the game on a page: its places, its message, its moves
variant_pages   the harness pages with the rules choice, and each variant's pool (fixtures)
"""
