"""The settings every property test (tests/**/test_*_properties.py) runs under.

`make test` runs each property from a fixed seed (derandomize) with a bounded number of examples,
so a run is repeatable and its time is known; `make properties` runs the same properties with
LONG_FACTOR times as many examples from a fresh seed each time, to look further for a class of
input the bounded run does not reach."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

LONG_RUN = os.environ.get("PYRAMIDE_PROPERTIES") == "long"
LONG_FACTOR = 25


def property_settings(examples: int, shrink: bool = True) -> settings:
    """Hypothesis settings for a property worth `examples` tries in `make test`. shrink=False for a
    property whose one example is costly (a publish, a build): shrinking its failure would take
    minutes, and the first failing example (the fixed seed gives it again) says what went wrong."""
    return settings(
        phases=[p for p in Phase if shrink or p not in (Phase.shrink, Phase.explain)],
        max_examples=examples * LONG_FACTOR if LONG_RUN else examples,
        derandomize=not LONG_RUN,
        database=None,  # a property's failure is reproduced from its seed, not from a local file
        deadline=None,  # this 2-core machine is shared: time is the benchmarks' business
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                               HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
