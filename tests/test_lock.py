"""requirements.lock (make lock, pip-compile --generate-hashes): what `make setup` installs.

Every package line pins one version (==) and carries at least one sha256, so that
`pip install --require-hashes` accepts it and installs nothing the lock did not see; nothing
points at this machine (index URLs, find-links, local paths); and every dependency that
pyproject.toml names (its dependencies, the test and cluster extras, the build backend) is in
the lock at a version its range allows, so a change to pyproject.toml without `make lock` fails
here.
"""
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
PIN = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!_-]+)(\s*;.*)?")
HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}")


def entries(text: str) -> list[tuple[str, list[str]]]:
    """(requirement, its options) for each logical line of a requirements file, comments dropped."""
    logical, current = [], ""
    for line in text.splitlines():
        line = line.split(" #", 1)[0] if not line.lstrip().startswith("#") else ""
        if not line.strip() and not current:
            continue
        current += line.rstrip().removesuffix("\\") + " "
        if not line.rstrip().endswith("\\"):
            logical.append(current.split())
            current = ""
    assert not current, "the lock ends inside a continued line"
    return [(words[0], words[1:]) for words in logical if words]


def pins(text: str) -> dict[str, str]:
    """Each locked package's canonical name → its version; AssertionError for a line that is not
    `name==version` with sha256 hashes."""
    found = {}
    for requirement, options in entries(text):
        match = PIN.fullmatch(requirement)
        assert match, f"requirements.lock: {requirement!r} is not a pin name==version"
        hashes = [o for o in options if HASH.fullmatch(o)]
        assert hashes and len(hashes) == len(options), \
            f"requirements.lock: {requirement} wants --hash=sha256:… options only, got {options}"
        name = canonicalize_name(match.group(1))
        assert name not in found, f"requirements.lock: {name} pinned twice"
        found[name] = match.group(2)
    return found


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    names = [*project["project"]["dependencies"], *project["build-system"]["requires"]]
    for extra in ("test", "cluster"):
        names += project["project"]["optional-dependencies"][extra]
    return [Requirement(r) for r in names]


def test_every_locked_package_is_pinned_with_a_hash():
    locked = pins(LOCK.read_text())
    assert len(locked) > 50  # the whole tree, not only the direct dependencies
    assert "pyramide" not in locked  # the checkout is installed from itself (pip install --no-deps -e .)


def test_the_lock_names_nothing_of_this_machine():
    lines = [line for line in LOCK.read_text().splitlines() if not line.lstrip().startswith("#")]
    for word in ("--index-url", "--extra-index-url", "--find-links", "file:", "/work/", "/opt/", " @ "):
        assert not [line for line in lines if word in line], word


def test_every_dependency_of_pyproject_is_locked_in_its_range():
    locked = pins(LOCK.read_text())
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name != "pyramide", "an extra refers to the project itself; pip-compile would lock the checkout"
        assert name in locked, f"{requirement} is in pyproject.toml but not in requirements.lock: run make lock"
        assert requirement.specifier.contains(locked[name], prereleases=True), \
            f"requirements.lock has {name}=={locked[name]}, outside pyproject's {requirement}: run make lock"


@pytest.mark.parametrize("text, fault", [
    ("numpy==2.4.6\n", "wants --hash=sha256"),
    ("numpy>=2 \\\n    --hash=sha256:" + "0" * 64 + "\n", "is not a pin"),
    ("numpy==2.4.6 \\\n    --hash=md5:abc\n", "wants --hash=sha256"),
    ("pyramide @ file:///work/x\n", "is not a pin"),
    ("numpy==2.4.6 \\\n    --hash=sha256:" + "0" * 64 + "\nNumPy==2.4.6 \\\n    --hash=sha256:" + "1" * 64 + "\n",
     "pinned twice"),
])
def test_the_lock_reader_refuses_an_unpinned_or_unhashed_line(text, fault):
    with pytest.raises(AssertionError, match=fault):
        pins(text)
