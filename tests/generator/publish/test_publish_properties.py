"""Properties of the published-version digest and of every path that makes a version live
(generator/publish/versions.py, generator/publish/deploy.py), over generated sites and tamperings.

The promise: a version is complete only when its digest lists exactly the files that are there,
each with its hash; nothing is made live without that check. So for ANY site — file names of
every extension the site has (.css .js .html .json .svg .png .webmanifest .txt, none), dotfiles,
nested folders, unicode names, names with spaces — and ANY one tampering of a version (a byte
changed, bytes appended, the file truncated or deleted, a file or a FIFO added, a file renamed, a
file, a folder or the whole version replaced by a symbolic link to the very bytes it held):
- the digest check (versions.problem) refuses the tampered version and accepts the untouched one;
- each way a version becomes live refuses the tampered one and takes the untouched one: the link
  switch itself (deploy.switch_link), a publish of a new version, a publish of a site a kept
  version already holds, rollback, and rollback restoring a DEST a stopped publish left missing;
- `status` never calls a tampered live version healthy.
Each path runs once untouched and once per kind of tampering in every example, so each property
fails whether the check takes too much or too little.

Everything happens under tmp_path: the real site/ and build/ are never touched."""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, note, strategies as st

from generator.errors import BuildFailed
from generator.publish import deploy as publish, fileops, versions
from helpers.properties import property_settings

EXTENSIONS = (".css", ".js", ".html", ".json", ".svg", ".png", ".webmanifest", ".txt", "")
OWN = (publish.MARKER,)  # the file every sealed version holds beside the site's own (its record is beside it)
# Names a site never has, so that the other sites of a test differ from the generated one.
OTHER = ".pyramide-other-{}.html"


STEMS = st.one_of(
    st.sampled_from(("index", "", "a b", " leading space", "trailing space ", "æøå", "ÆØÅ-kløver ♣", "日本語",
                     "e\u0301", "-", "x.min", "tab\there", "new\nline")),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"), min_size=1, max_size=8),
)


def _name(dot: bool, stem: str, ext: str) -> str:
    return ("." if dot else "") + stem + ext


def _allowed(name: str) -> bool:
    # "." and ".." are no names; .pyramide-* at the top are the version's own files (and OTHER).
    return name not in ("", ".", "..") and not name.startswith(".pyramide-") and len(name.encode()) <= 200


NAMES = st.builds(_name, st.booleans(), STEMS, st.sampled_from(EXTENSIONS)).filter(_allowed)

Path_ = tuple[str, ...]  # a path inside a version, by its parts


def _folders(files) -> set[Path_]:
    return {path[:i] for path in files for i in range(1, len(path))}


def _free(path: Path_, files, folders) -> bool:
    """path can be a new file: not a file or folder already, and no folder above it is a file."""
    return path not in files and path not in folders and not any(path[:i] in files for i in range(1, len(path)))


def _place(parents: Path_, stem: str, ext: str, dot: bool, files, folders) -> Path_:
    """parents/<name>, made free by lengthening the stem (the extension and the dot kept: they are
    the classes); at the top when a folder above is a file."""
    if any(parents[:i] in files for i in range(1, len(parents) + 1)):
        parents = ()
    while not _free(parents + (_name(dot, stem, ext),), files, folders):
        stem += "_"
    return parents + (_name(dot, stem, ext),)


@st.composite
def sites(draw) -> dict[Path_, bytes]:
    """A site: one file of every extension, each at a depth of 0 to 3 in shared folders, dotted or
    not, and up to three more; contents of 0 to 48 bytes."""
    pool = draw(st.lists(NAMES, min_size=1, max_size=3, unique=True))  # folder names, so files are siblings
    files: dict[Path_, bytes] = {}
    for ext in EXTENSIONS + tuple(draw(st.lists(st.sampled_from(EXTENSIONS), max_size=3))):
        parents = tuple(draw(st.lists(st.sampled_from(pool), max_size=3)))
        stem, dot = draw(STEMS), draw(st.booleans())
        if not _allowed(_name(dot, stem, ext)):
            stem = "s"
        files[_place(parents, stem, ext, dot, files, _folders(files))] = draw(st.binary(max_size=48))
    return files


@dataclass(frozen=True)
class Tamper:
    """One tampering of a version: its kind (FILE_KINDS, NEW_KINDS, FOLDER_KINDS) and details."""
    kind: str
    path: Path_ = ()  # the file or folder it is done to; () is the version itself
    new: Path_ = ()  # where an added or renamed file goes
    data: bytes = b""
    index: int = 0  # which byte (modulo the length)
    xor: int = 1


FILE_KINDS = ("flip", "append", "truncate", "delete", "rename", "file_link")
NEW_KINDS = ("add", "fifo")
FOLDER_KINDS = ("folder_link", "version_link")


def version_files(site: dict[Path_, bytes]) -> list[Path_]:
    """Every file of the sealed version but its digest."""
    return sorted(site) + [(name,) for name in OWN]


@st.composite
def new_paths(draw, site) -> Path_:
    """A path no file or folder of the sealed site has: in an existing folder or a new one."""
    files = set(version_files(site)) | {(versions.DIGEST,)}
    folders = _folders(files)
    parents = draw(st.sampled_from([()] + sorted(folders))) + tuple(draw(st.lists(NAMES, max_size=2)))
    stem, ext, dot = draw(STEMS), draw(st.sampled_from(EXTENSIONS)), draw(st.booleans())
    if not _allowed(_name(dot, stem, ext)):
        stem = "s"
    return _place(parents, stem, ext, dot, files, folders)


@st.composite
def tampers(draw, site, kind: str, path: Path_ | None = None) -> Tamper:
    """A tampering of `kind` of the version sealed from `site` (done to `path` when given)."""
    if kind in FILE_KINDS:
        # A byte changed or the file cut short needs a byte: the marker and record always have some.
        choices = [p for p in version_files(site) if kind not in ("flip", "truncate") or site.get(p, b"-")]
        path = path or draw(st.sampled_from(choices))
    elif kind == "folder_link":
        path = path or draw(st.sampled_from(sorted(_folders(site))))
    new = draw(new_paths(site)) if kind in ("rename",) + NEW_KINDS else ()
    data = draw(st.binary(min_size=1, max_size=8)) if kind in ("append", "add") else b""
    return Tamper(kind, path or (), new, data, draw(st.integers(0, 10**6)), draw(st.integers(1, 255)))


def tamper(folder: Path, t: Tamper, aside: Path):
    """Does t to the version in folder and returns what undoes it. A link points to the very
    bytes or folder it replaced, moved under aside: only the link itself is wrong."""
    target = folder.joinpath(*t.path)
    new = folder.joinpath(*t.new)
    made = next((p for p in reversed(new.parents) if not p.exists()), None) if t.new else None  # the first new folder
    if t.new:
        new.parent.mkdir(parents=True, exist_ok=True)
    data = target.read_bytes() if t.kind in FILE_KINDS else b""
    if t.kind == "flip":
        changed = bytearray(data)
        changed[t.index % len(changed)] ^= t.xor
        target.write_bytes(bytes(changed))
    elif t.kind == "append":
        target.write_bytes(data + t.data)
    elif t.kind == "truncate":
        target.write_bytes(data[:t.index % len(data)])
    elif t.kind == "delete":
        target.unlink()
    elif t.kind == "rename":
        target.rename(new)
    elif t.kind == "add":
        new.write_bytes(t.data)
    elif t.kind == "fifo":
        os.mkfifo(new)
    else:  # file_link, folder_link, version_link
        moved = Path(tempfile.mkdtemp(dir=aside)) / "moved"
        target.rename(moved)
        target.symlink_to(moved, target_is_directory=moved.is_dir())

    def undo():
        if t.kind in ("add", "fifo", "rename"):
            if t.kind == "rename":
                new.rename(target)
            else:
                new.unlink()
            if made:
                shutil.rmtree(made)
        elif t.kind in FOLDER_KINDS or t.kind == "file_link":
            target.unlink()
            moved.rename(target)
        else:
            target.write_bytes(data)
    return undo


@pytest.fixture(autouse=True)
def quick_records(monkeypatch):
    """git is asked once per sealed site; here it need not be. Nor are the files written forced to
    disk (what a crash leaves is tests/generator/publish/test_publish_faults.py's business): some
    thousand fsyncs would be most of the time on a busy machine. No fault hook is left behind."""
    monkeypatch.setattr(versions, "source_state", lambda root: ("d" * 40, False))
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # generator/publish/fileops.py's write_bytes
    yield
    fileops.before = None


@contextmanager
def scratch(tmp_path: Path):
    """A fresh folder for one run of one example (tmp_path is shared by all of a test's examples)."""
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def built(tmp: Path, site: dict[Path_, bytes]) -> Path:
    folder = Path(tempfile.mkdtemp(dir=tmp, prefix="built-")) / "site"
    for path, data in site.items():
        folder.joinpath(*path).parent.mkdir(parents=True, exist_ok=True)
        folder.joinpath(*path).write_bytes(data)
    return folder


def other(site: dict[Path_, bytes], number: int) -> dict[Path_, bytes]:
    """Another site, never the same as `site`."""
    return {**site, (OTHER.format(number),): b"another site"}


def publish_site(tmp: Path, dest: Path, site: dict[Path_, bytes]) -> str:
    publish.install(built(tmp, site), dest, versioned=True)
    return publish.link_target(dest)


def live_and_whole(dest: Path) -> str:
    """The version DEST shows, asserted whole by its digest."""
    name = publish.link_target(dest)
    assert name is not None, f"{dest} shows no version"
    assert versions.problem(publish.versions_folder(dest) / name) is None, f"the live version {name} is not whole"
    return name


def every_tampering(data, site: dict[Path_, bytes]) -> list[Tamper]:
    """One tampering of each kind, its target and details generated."""
    kinds = FILE_KINDS + NEW_KINDS + (FOLDER_KINDS if _folders(site) else FOLDER_KINDS[1:])
    return [data.draw(tampers(site, kind)) for kind in kinds]


def both_ways(tmp_path: Path, data, site: dict[Path_, bytes], run) -> None:
    """run(tmp, None) on the untouched version, then run(tmp, t) for a tampering t of every kind,
    each in a folder of its own: the property fails whether the check takes too much or too little."""
    with scratch(tmp_path) as tmp:
        run(tmp, None)
    for t in every_tampering(data, site):
        note(f"tampered: {t}")
        with scratch(tmp_path) as tmp:
            run(tmp, t)


# ---- the digest itself ---------------------------------------------------------------------

@property_settings(20, shrink=False)
@given(data=st.data(), site=sites())
def test_the_digest_lists_every_file_and_refuses_any_tampering_of_any_of_them(tmp_path, data, site):
    """Every kind of tampering done to every file (or folder) of the site in turn, and undone:
    a check that spares one extension, dotfiles, nested folders or unusual names fails here."""
    with scratch(tmp_path) as tmp:
        sealed = built(tmp, site)
        publish.seal(sealed)
        digest = versions.read_digest(sealed)
        assert sorted(tuple(p.split("/")) for p in digest["files"]) == sorted(version_files(site))
        assert versions.problem(sealed) is None
        for kind in FILE_KINDS + NEW_KINDS + FOLDER_KINDS:
            if kind in FILE_KINDS:
                targets = [p for p in version_files(site) if kind not in ("flip", "truncate") or site.get(p, b"-")]
            elif kind == "folder_link":
                targets = sorted(_folders(site))
            else:
                targets = [()]
            for path in targets:
                t = data.draw(tampers(site, kind, path))
                undo = tamper(sealed, t, tmp)
                assert versions.problem(sealed) is not None, f"{t} is not seen"
                undo()
                assert versions.problem(sealed) is None, f"{t} undone"  # only t made it not whole


# ---- every way a version becomes live ----------------------------------------------------------

EXAMPLES = 8  # each example publishes some 40 to 80 times: once untouched, once per kind of tampering


@property_settings(EXAMPLES, shrink=False)
@given(data=st.data(), site=sites())
def test_the_link_switch_refuses_a_tampered_version_and_takes_a_whole_one(tmp_path, data, site):
    def run(tmp, t):
        dest = tmp / "site"
        version, live = publish_site(tmp, dest, site), publish_site(tmp, dest, other(site, 1))
        if t is None:
            publish.switch_link(dest, version)
            assert live_and_whole(dest) == version
            return
        tamper(publish.versions_folder(dest) / version, t, tmp)
        with pytest.raises(BuildFailed, match="it is not made live"):
            publish.switch_link(dest, version)
        assert publish.link_target(dest) == live
    both_ways(tmp_path, data, site, run)


@property_settings(EXAMPLES, shrink=False)
@given(data=st.data(), site=sites())
def test_a_publish_refuses_a_new_version_tampered_before_it_goes_live(tmp_path, data, site):
    """The site is tampered with after it was sealed, as it is moved into DEST.versions/."""
    def run(tmp, t):
        dest = tmp / "site"
        before = publish_site(tmp, dest, other(site, 1))
        staged = built(tmp, site)

        def moved(op, *paths):
            if op == "rename" and paths[0] == staged:
                fileops.before = None
                tamper(staged, t, tmp)
        fileops.before = moved if t else None
        try:
            if t is None:
                publish.install(staged, dest, versioned=True)
                assert live_and_whole(dest) != before
                return
            with pytest.raises(BuildFailed, match="it is not made live"):
                publish.install(staged, dest, versioned=True)
            assert live_and_whole(dest) == before
        finally:
            fileops.before = None
    both_ways(tmp_path, data, site, run)


@property_settings(EXAMPLES, shrink=False)
@given(data=st.data(), site=sites())
def test_publishing_a_kept_site_again_never_switches_to_a_tampered_copy(tmp_path, data, site):
    def run(tmp, t):
        dest = tmp / "site"
        version = publish_site(tmp, dest, site)
        publish_site(tmp, dest, other(site, 1))
        if t:
            tamper(publish.versions_folder(dest) / version, t, tmp)
        publish_site(tmp, dest, site)
        assert (live_and_whole(dest) == version) is (t is None)
    both_ways(tmp_path, data, site, run)


@property_settings(EXAMPLES, shrink=False)
@given(data=st.data(), site=sites())
def test_rollback_passes_over_a_tampered_version_to_the_whole_one_before(tmp_path, data, site):
    def run(tmp, t):
        dest = tmp / "site"
        first = publish_site(tmp, dest, other(site, 1))
        version = publish_site(tmp, dest, site)
        live = publish_site(tmp, dest, other(site, 2))
        if t:
            tamper(publish.versions_folder(dest) / version, t, tmp)
        expected = first if t else version
        assert publish.rollback(dest) == (expected, f"rolled back from {live}")
        assert live_and_whole(dest) == expected
    both_ways(tmp_path, data, site, run)


@property_settings(EXAMPLES, shrink=False)
@given(data=st.data(), site=sites())
def test_rollback_restoring_a_missing_dest_never_restores_a_tampered_version(tmp_path, data, site):
    """DEST gone (a publish stopped between two renames) while the tampered version was live."""
    def run(tmp, t):
        dest = tmp / "site"
        before = publish_site(tmp, dest, other(site, 1))
        version = publish_site(tmp, dest, site)
        dest.unlink()
        if t:
            tamper(publish.versions_folder(dest) / version, t, tmp)
        expected = before if t else version
        assert publish.rollback(dest) == (expected, "restored: DEST was missing (a publish had been stopped)")
        assert live_and_whole(dest) == expected
    both_ways(tmp_path, data, site, run)


@property_settings(EXAMPLES, shrink=False)
@given(data=st.data(), site=sites())
def test_status_never_calls_a_tampered_live_version_healthy(tmp_path, data, site):
    def run(tmp, t):
        dest = tmp / "site"
        version = publish_site(tmp, dest, site)
        if t is None:
            lines, healthy = publish.status(dest)
            assert healthy and lines[2] == "  digest: every file matches"
            return
        tamper(publish.versions_folder(dest) / version, t, tmp)
        try:
            lines, healthy = publish.status(dest)
        except publish.DestinationError:  # its marker gone (a link proves nothing), or the version a link: not ours
            assert t.kind == "version_link" or (t.path == (publish.MARKER,) and t.kind in ("delete", "rename", "file_link"))
            return
        assert not healthy and lines[2].startswith("  digest: FAILS: ")
    both_ways(tmp_path, data, site, run)
