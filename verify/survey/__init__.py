"""The survey of random deals: for every deal number of a range, can it be won?

`python -m verify survey --deals 1-10000 [--variant V] [--json] [--scheduler ADDRESS]`
(the command line is in verify/cli.py).

The question is a pure function of (deal number, rules), mapped over the range in chunks:
- cache.py: deal ranges, windows and the cache of finished chunks;
- worker.py: one chunk, decided by the app's decider and checked by the independent side;
- run.py: the driver, from the cache first, the rest on local processes or a Dask cluster;
- figures.py: the counts, the share won and its interval, New game's pool, the variants' table.
Any disagreement stops the survey and names the deal.
"""
from ..errors import ClusterError, SurveyDisagreement, SurveyIncomplete
from .cache import (FORMAT, KEY_FILES, CacheIndex, cache_dir, cache_key, cached_results, load_cache, parse_range,
                    variant_rules, windows, write_chunk)
from .figures import Tally, pool, summarise, survey_summary, variant_table, wilson
from .pools import ExecutorPool, LocalPool
from .run import Survey, run_survey
from .worker import NodeDecider, app_decider, check_deal, decide_again, replay_won, survey_chunk

__all__ = ["FORMAT", "KEY_FILES", "CacheIndex", "ClusterError", "ExecutorPool", "LocalPool", "NodeDecider", "Survey",
           "SurveyDisagreement", "SurveyIncomplete", "Tally", "app_decider", "cache_dir", "cache_key",
           "cached_results", "check_deal", "decide_again", "load_cache", "parse_range", "pool", "replay_won",
           "run_survey", "summarise", "survey_chunk", "survey_summary", "variant_rules", "variant_table",
           "wilson", "windows", "write_chunk"]
