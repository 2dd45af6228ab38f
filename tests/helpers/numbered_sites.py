"""Small numbered sites to publish (site `number`: a few files that say its number) and, for a
destination, which one it serves, whole and digest-correct, for the publish tests."""
import os
from pathlib import Path

from generator.publish import deploy as publish
from generator.publish import versions


def site_files(number: int) -> dict[str, str]:
    """The files of the small site numbered `number`, text by path."""
    return {"index.html": f"site {number}", "nb/index.html": f"nb {number}", "da/index.html": f"da {number}",
            "assets/app/ui/game.js": f"// game {number}\n" * 50}


def make_site(folder: Path, number: int) -> None:
    for path, text in site_files(number).items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)


def shown(folder: Path) -> int | None:
    """The number of the site folder holds when every one of its files is that site's, else None."""
    try:
        number = int((folder / "index.html").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    for path, text in site_files(number).items():
        if not (folder / path).is_file() or (folder / path).read_text() != text:
            return None
    return number


def live_number(dest: Path) -> int:
    """What DEST serves: a link to a version whose digest holds. Fails the test otherwise."""
    assert dest.is_symlink(), f"{dest} is not our link"
    name = publish.link_target(dest)
    assert name is not None, f"{dest} links to {os.readlink(dest)}"
    problem = versions.problem(dest.parent / os.readlink(dest))
    assert problem is None, f"the live version {name} {problem}"
    number = shown(dest)
    assert number is not None, "the live version is not one whole site"
    return number
