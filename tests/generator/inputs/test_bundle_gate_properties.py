"""Properties of the bundle gate's freshness (generator/inputs/bundle.py `load_bundle`, whose
`check_fresh` re-computes the digests of what the bundle was made from).

The promise: the generator reads build/verified.json only while it is fresh, that is while every
input it records (its `inputs`: the files its `input_patterns` matched, verify/settings.py
BUNDLE_INPUTS) is still a regular file with the recorded digest, and no file matching a pattern
came after. So:
- for EVERY recorded input (examples, their words in each language, the app's code, the list of
  languages) and any edit of it — a byte changed, whitespace appended, the file removed, replaced
  by a symbolic link to an identical copy, or by a folder — the gate refuses the bundle as stale,
  naming that file;
- a new file matching any of the patterns, whatever its name (unicode, spaces, a leading dot, in
  a new folder), is refused naming it, and so is a symbolic link there;
- with no edit, the same bytes written again, or a file added that no pattern matches, the bundle
  is accepted (so each property fails whether the gate takes too much or too little).

The gate looks at a copy of the recorded inputs (its ROOT pointed there), made afresh for each
example; the bundle is tests/helpers/bundle_fakes.py's, its inputs those of the copy."""
from __future__ import annotations

import copy
import hashlib
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from generator.errors import BuildError
from generator.inputs import bundle as gate
from helpers.bundle_fakes import ROOT, fake_bundle, write
from helpers.properties import property_settings

FIX = gate.FIX
EDITS = ("byte", "whitespace", "removed", "symlink", "folder")
WHITESPACE = " \t\n\r\x0b\x0c\u00a0\u2009\u3000"  # ASCII and Unicode spaces, as an editor may leave them


STEMS = st.one_of(
    st.sampled_from(("new", "", "a b", "æøå", "ÆØÅ kløver", "日本語", "e\u0301", "-", "x.min", "tab\there")),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"), min_size=1, max_size=8),
)


class Recorded:
    """The bundle and its inputs' bytes (short in a failure's report: the bytes run to 300 kB)."""

    def __init__(self, bundle: dict, files: dict[str, bytes]):
        self.bundle, self.files = bundle, files

    def __repr__(self) -> str:
        return f"Recorded({len(self.files)} inputs)"


@pytest.fixture(scope="module")
def recorded() -> Recorded:
    """The bytes read once and the bundle's digests made of them, so that a file someone edits
    during the run cannot make the copy differ from the bundle."""
    bundle = fake_bundle()
    files = {name: (ROOT / name).read_bytes() for name in bundle["inputs"]}
    bundle["inputs"] = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    return Recorded(bundle, files)


@contextmanager
def fresh_copy(tmp_path: Path, monkeypatch, recorded: Recorded):
    """(the copy's root, the bundle's path): the inputs copied, the gate reading there."""
    bundle, files = recorded.bundle, recorded.files
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    root = folder / "root"
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    monkeypatch.setattr(gate, "ROOT", root)
    try:
        yield root, write(folder, copy.deepcopy(bundle))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def refusal(path: Path) -> str | None:
    """The gate's refusal of the bundle at path, None when it accepts it."""
    try:
        gate.load_bundle(path)
    except BuildError as e:
        return str(e)
    return None


def edit(file: Path, kind: str, index: int, xor: int, spaces: str, aside: Path) -> None:
    data = file.read_bytes()
    file.unlink()
    if kind == "byte":
        changed = bytearray(data)
        changed[index % len(changed)] ^= xor
        file.write_bytes(bytes(changed))
    elif kind == "whitespace":
        file.write_bytes(data + spaces.encode())
    elif kind == "symlink":  # to the same bytes: only the link itself is wrong
        twin = Path(tempfile.mkdtemp(dir=aside)) / file.name
        twin.write_bytes(data)
        file.symlink_to(twin)
    elif kind == "folder":
        file.mkdir()


def restore(file: Path, data: bytes) -> None:
    if file.is_dir() and not file.is_symlink():
        file.rmdir()
    elif file.exists() or file.is_symlink():
        file.unlink()
    file.write_bytes(data)


def stale(kind: str, name: str, root: Path, path: Path) -> str:
    """The gate's refusal of the bundle at path, made from `name`, after an edit of `kind`."""
    if kind in ("symlink", "folder"):
        return f"{root / name}: a symbolic link or not a regular file; the build reads only regular files"
    if kind == "removed":
        return f"{path}: made from {name}, which no longer exists. {FIX}"
    return f"{path}: {name} has changed since the bundle was made, so its figures are stale. {FIX}"


@property_settings(12, shrink=False)
@given(index=st.integers(0, 10**6), xor=st.integers(1, 255), spaces=st.text(WHITESPACE, min_size=1, max_size=4))
def test_any_edit_of_any_recorded_input_makes_the_bundle_stale_naming_it(tmp_path, monkeypatch, recorded,
                                                                         index, xor, spaces):
    """Every recorded input in turn, every kind of edit: a gate that spares one folder, one
    extension or one kind of edit fails here. The byte and the whitespace are generated."""
    files = recorded.files
    with fresh_copy(tmp_path, monkeypatch, recorded) as (root, path):
        gate.load_bundle(path)  # accepted: no BuildError
        for name in sorted(files):
            file = root / name
            restore(file, files[name])  # the same bytes written anew (a new mtime): still fresh
            gate.load_bundle(path)
            for kind in EDITS:
                edit(file, kind, index, xor, spaces, root.parent)
                assert refusal(path) == stale(kind, name, root, path), (name, kind)
                restore(file, files[name])
        gate.load_bundle(path)  # every file back: fresh again


@st.composite
def matching(draw, pattern: str, root: Path) -> str:
    """A new file's name matching `pattern`: each `*` a generated name (or, for a folder, an
    existing one), `**` none to two folders; never a file already there."""
    *folders, last = pattern.split("/")
    parts = []
    for part in folders:
        if "*" not in part:
            parts.append(part)
            continue
        for _ in range(draw(st.integers(0, 2)) if part == "**" else 1):
            there = sorted(p.name for p in root.joinpath(*parts).glob("*") if p.is_dir())
            folder = draw(st.sampled_from(there)) if there and draw(st.booleans()) else draw(names(""))
            while root.joinpath(*parts, folder).exists() and not root.joinpath(*parts, folder).is_dir():
                folder += "_"  # a file has the name
            parts.append(folder)
    prefix, _, suffix = last.partition("*")
    name = "/".join(parts + [prefix + draw(names(suffix))])
    while (root / name).exists():
        name += suffix  # longer by its extension, it still matches
    return name


def names(suffix: str):
    return st.builds(lambda dot, stem: ("." if dot else "") + stem + suffix, st.booleans(), STEMS).filter(
        lambda n: n not in ("", ".", "..") and len(n.encode()) <= 200)


@property_settings(50)
@given(data=st.data())
def test_a_new_file_matching_any_input_pattern_makes_the_bundle_stale_naming_it(tmp_path, monkeypatch, recorded,
                                                                                data):
    """For each pattern with a wildcard, a generated name matching it: a file there is refused,
    naming it, and so is a symbolic link; the same name with `~` after it (an editor's backup,
    which no pattern matches) is accepted."""
    bundle, files = recorded.bundle, recorded.files
    with fresh_copy(tmp_path, monkeypatch, recorded) as (root, path):
        for pattern in [p for p in bundle["input_patterns"] if "*" in p]:
            name = data.draw(matching(pattern, root), label=pattern)
            new = root / name
            new.parent.mkdir(parents=True, exist_ok=True)
            new.write_text("# new\n")
            assert new in set(root.glob(pattern)), f"the test's own fault: {name} does not match {pattern}"
            assert refusal(path) == f"{path}: {name} came after the bundle was made. {FIX}", name
            new.unlink()
            new.symlink_to(root / min(files))  # a link, even to one of the inputs
            assert refusal(path) == f"{new}: a symbolic link; the build reads only regular files", name
            new.unlink()
            (root / (name + "~")).write_text("# new\n")
            gate.load_bundle(path)  # accepted: no BuildError
            (root / (name + "~")).unlink()
