"""`make numbers`: every number each page shows, with the data path it came from.

Renders every language's pages as the build does (generator/site/build.py gather: the lint,
the sandbox, the number guard) and writes, per language, build/numbers/<lang>.json (page →
[{shown, path, how}]) and build/numbers/<lang>.md, the same as a table for a reader. `how` is
`printed` (a value printed as it is, in the locale's way), the filter that wrote it (num, pct,
spell, date…), or `page function` (a table or caption the generator wrote from the bundle; its
path is the function's name, and `data` the data paths whose value it wrote so).
"""
from __future__ import annotations

import sys

from generator.errors import BuildError
from generator.settings import BUILD
from generator.site.build import gather

FOLDER = BUILD / "numbers"


def write_report(folder=FOLDER) -> list:
    """Gathers the site and writes the report; the files written."""
    gathered = gather()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for code, shown in gathered.numbers.items():
        for name, text in ((f"{code}.json", shown.as_json()),
                           (f"{code}.md", shown.as_table(f"Numbers shown on the {code} pages, and where each comes from"))):
            (folder / name).write_text(text, encoding="utf-8")
            written.append(folder / name)
    return written


def main() -> int:
    try:
        written = write_report()
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
