"""The checks `make verify` runs (verify/checking.py): each takes what it checks and returns a
Checked — what it counted, printed and kept in the bundle's list of checks, and the data it made
for the bundle — or raises errors.CheckFailed naming where the problem is."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Checked:
    counts: dict[str, int | float]
    data: Any = None
