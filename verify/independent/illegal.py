"""The one base of every move the independent engine refuses: verify/independent/rules.py's
IllegalMove (with the rule it breaks) and the variant replayer's IllegalVariantMove both derive
from it, so a caller catches "an illegal move in the independent engine" as one thing."""


class IllegalMove(ValueError):
    """A move the independent engine refuses."""
