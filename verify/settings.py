"""Paths and shared numbers of the checker, in one place.

The generator keeps its own copy of the bundle's path and schema (it never imports verify/);
tests/test_layout.py holds the two copies equal.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"

# The verified data bundle: what `make verify` writes and the generator reads.
BUNDLE = BUILD / "verified.json"
BUNDLE_SCHEMA = 1
# What the bundle is made from, as patterns under ROOT (the one list): verify/checking.py hashes
# these files into the bundle's `inputs` and records the patterns as its `input_patterns`, from
# which the generator and `make serve` know what the checks read.
BUNDLE_INPUTS = ("examples/*.yaml", "docs/*/examples/*.yml", "app/**/*.js", "docs/languages.yml")
# Each passed check's result under the digest of what it read (verify/check_cache.py).
CHECK_CACHE = BUILD / "check-cache"

# The survey (make survey) and what the site shows of it.
SURVEY_CACHE = BUILD / "survey-cache"
SURVEY_RANGE = (1, 10000)  # standard rules
VARIANT_RANGE = (1, 2000)  # each variant
MAIN_VARIANT = "standard"
POOL_SIZE = 1000  # New game's pool: the first winnable deals of the survey

# The survey's limits, for its command line and its run.
DEFAULT_MAX_NODES = 20_000_000  # card sets per deal before the app's decider says 'undecided'
CHECK_MAX_NODES = 200_000_000  # the independent decider's limit when it decides again
MAX_NODES_LIMIT = 10**12  # exact in JavaScript, far beyond any decided deal
DEFAULT_CHUNK = 50  # deals per task and per cache file
MAX_CHUNK = 10_000  # one task's records are held in memory at once
MAX_JOBS = 4096  # worker processes
WINDOW_CHUNKS = 200  # chunks per window: a survey holds one window's records, whatever its range
FIRST_CHECKED = 40  # in a sampled survey, the first lost deals are always decided again

# A TLS Dask cluster's certificates (verify cluster-certs): a survey of the whole space takes days.
CERT_DAYS = 365  # default validity, days
MAX_CERT_DAYS = 3650
