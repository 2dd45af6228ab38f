"""The survey's cache: build/survey-cache/<variant>-<key>/, one small JSON file per finished
chunk of deals, written atomically (temporary file, then rename) with a SHA-256 of its content.
The key hashes the rules options and every file that makes or checks a result, so an unchanged
engine never redoes a deal and a changed one never reuses it. A file that does not verify is
deleted and its deals recomputed. Only files with the names write_chunk gives are read or ever
deleted, and never in a folder reached through a symbolic link (a link could lead the survey
into someone's own folder): the survey refuses such a cache (own_folder), a reader leaves it
alone. Deal ranges are read and cut into windows here too, aligned with the chunks, so any range
makes the same files.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

from ..errors import InputError, SurveyDisagreement, SurveyIncomplete
from ..independent.deal import MAX_DEAL, DealNumberError, parse_deal_number, shown
from ..independent.variants import rules_of
from ..settings import DEFAULT_MAX_NODES, ROOT, SURVEY_CACHE, WINDOW_CHUNKS

FORMAT = 1  # of the cache files; part of the key
OWN_NAME = re.compile(r"(deals|checks)-[0-9]{1,10}-[0-9]{1,10}\.json")  # what write_chunk names a file
KEY_FILES = ("app/core/engine.js", "app/core/decider.js", "verify/independent/decider.py", "verify/independent/rules.py",
             "verify/independent/deal.py")


def parse_range(text: str) -> tuple[int, int]:
    """'1-10000' or '42' → (first, last); ValueError for anything else. Each end is read by
    deal.parse_deal_number, the reader of `verify deal N`, so both accept the same numbers."""
    parts = text.split("-") if isinstance(text, str) and len(text) <= 80 else []
    try:
        first, last = (parse_deal_number(parts[0]), parse_deal_number(parts[-1])) if 1 <= len(parts) <= 2 else (0, 0)
    except DealNumberError:
        first = last = 0
    if not 1 <= first <= last:
        raise ValueError(f"--deals wants a range like 1-10000 of deal numbers 1 … 4294967295, got {shown(text)}")
    return first, last


def windows(first: int, last: int, chunk: int):
    """(start, end) of each window of first … last: WINDOW_CHUNKS aligned chunks, so a chunk (and
    its cache file) never straddles two windows and any range makes the same files."""
    size = chunk * WINDOW_CHUNKS
    start = first
    while start <= last:
        end = min(last, ((start - 1) // size + 1) * size)
        yield start, end
        start = end + 1


def variant_rules(variant: str) -> dict:
    return rules_of(variant)


def cache_key(rules: dict) -> str:
    """Hash of the rules options, the cache format and every file that makes or checks a result."""
    h = hashlib.sha256(json.dumps({"format": FORMAT, "rules": rules}, sort_keys=True).encode())
    for name in KEY_FILES:
        h.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def cache_dir(variant: str, cache_root: Path | None = None) -> Path:
    return Path(cache_root or SURVEY_CACHE) / f"{variant}-{cache_key(variant_rules(variant))}"


def linked(directory: Path) -> Path | None:
    """The part of a cache folder that is a symbolic link (the folder or its cache root), or None."""
    return next((p for p in (directory.parent, directory) if p.is_symlink()), None)


def own_folder(directory: Path) -> Path:
    """directory, when the survey may write and delete there; InputError when it, or the cache
    root holding it, is a symbolic link."""
    link = linked(directory)
    if link is not None:
        raise InputError(f"{link}: is a symbolic link (to {os.readlink(link)}); the survey deletes cache files "
                         "there that do not verify, so its cache must be a folder of its own, not a link")
    return directory


def own_files(directory: Path) -> list[Path]:
    """The files of a cache folder that write_chunk made (by name), never a link."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if OWN_NAME.fullmatch(p.name) and not p.is_symlink())


def _checksum(payload: dict) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def write_chunk(directory: Path, records: dict[int, dict], prefix: str = "deals") -> Path:
    """Writes finished deals as one file, atomically: a reader sees the whole file or none."""
    directory.mkdir(parents=True, exist_ok=True)
    deals = sorted(records)
    payload = {"format": FORMAT, "deals": {str(n): records[n] for n in deals}}
    path = directory / f"{prefix}-{deals[0]}-{deals[-1]}.json"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({**payload, "sha256": _checksum(payload)}, separators=(",", ":")))
    os.replace(tmp, path)
    return path


_STRENGTH = {"redecided": 2, "replayed": 2, "unchecked": 1, "none": 0}


def load_cache(directory: Path, max_nodes: int = DEFAULT_MAX_NODES) -> tuple[dict[int, dict], list[Path]]:
    """Every valid record of the cache directory; files that do not verify are deleted (and
    listed), so their deals are recomputed. An 'undecided' found with a smaller node limit than
    asked now is left out, to be tried again."""
    index = CacheIndex(directory)
    return index.records(1, MAX_DEAL, max_nodes), index.dropped


class CacheIndex:
    """The cache files of one directory by the deals they span (from their names), so a window
    of a survey reads only the files that can hold its deals."""

    def __init__(self, directory: Path):
        self.spans: dict[Path, tuple[int, int]] = {}
        self.dropped: list[Path] = []
        self.may_delete = linked(directory) is None  # a linked folder is read, never cleaned
        for path in own_files(directory):
            self.spans[path] = _span(path)

    def records(self, first: int, last: int, max_nodes: int) -> dict[int, dict]:
        """The valid records of deals first … last (see load_cache)."""
        records: dict[int, dict] = {}
        for path, (low, high) in list(self.spans.items()):
            if high < first or low > last:
                continue
            chunk = _read_chunk(path)
            if chunk is None:
                if self.may_delete:
                    path.unlink(missing_ok=True)
                self.dropped.append(path)
                del self.spans[path]
                continue
            for n, r in chunk.items():
                if not first <= n <= last or (r["result"] == "undecided" and r.get("max_nodes", 0) < max_nodes):
                    continue
                old = records.get(n)
                if old is not None and old["result"] != r["result"]:
                    raise SurveyDisagreement(n, f"two cache files disagree ({old['result']} / {r['result']}) in {path.parent}")
                if old is None or _STRENGTH[r["check"]] > _STRENGTH[old["check"]]:
                    records[n] = r
        return records


def _span(path: Path) -> tuple[int, int]:
    """First and last deal of a file named prefix-FIRST-LAST.json (write_chunk); any deal otherwise."""
    parts = path.stem.rsplit("-", 2)
    if len(parts) == 3 and all(p.isascii() and p.isdigit() and len(p) <= 10 for p in parts[1:]):
        return int(parts[1]), int(parts[2])
    return 1, MAX_DEAL


def _read_chunk(path: Path) -> dict[int, dict] | None:
    """The records of one cache file, or None when it does not verify."""
    try:
        data = json.loads(path.read_text())
        payload = {k: v for k, v in data.items() if k != "sha256"}
        if data.get("format") != FORMAT or data.get("sha256") != _checksum(payload):
            raise ValueError("checksum")
        return {int(n): _valid_record(r) for n, r in data["deals"].items()}
    except (ValueError, KeyError, TypeError, AttributeError, json.JSONDecodeError, OSError):
        return None


_CHECKS = {"won": ("replayed",), "lost": ("redecided", "unchecked"), "undecided": ("none",)}


def _valid_record(r: dict) -> dict:
    """A record as the survey writes it: a win only with its replayed game."""
    if r["check"] not in _CHECKS[r["result"]] or (r["result"] == "won") != isinstance(r["line"], list):
        raise ValueError("record")
    return r


def cached_results(first: int = 1, last: int = 10000, variant: str = "standard",
                   cache_root: Path | None = None) -> dict[int, dict]:
    """The cached records of a whole range; SurveyIncomplete when any deal is missing."""
    records, _ = load_cache(cache_dir(variant, cache_root), max_nodes=0)
    missing = [n for n in range(first, last + 1) if n not in records]
    if missing:
        raise SurveyIncomplete(f"the {variant} survey of deals {first}-{last} misses {len(missing)} deal(s) "
                               f"(first: {missing[0]}); run: python -m verify survey --deals {first}-{last} "
                               f"--variant {variant}")
    return {n: records[n] for n in range(first, last + 1)}
