"""`python -m generator build [--dest site]` · `publish DEST` · `lint`."""
import argparse
import sys
from pathlib import Path

from .errors import BuildError


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="generator", description="Renders the nb/da site from the verified bundle only.")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the site (default into site/)")
    b.add_argument("--dest", default="site")
    p = sub.add_parser("publish", help="build and check in a temporary folder, then swap it into DEST")
    p.add_argument("dest", type=Path)
    sv = sub.add_parser("serve", help="serve site/ on localhost, rebuilding and reloading on change")
    sv.add_argument("--port", type=int, default=8000)
    l = sub.add_parser("lint", help="per language: missing pages or strings, numbers not backed by data")
    for command in (b, p, l):
        command.add_argument("--docs", type=Path, default=None, help="page sources (default: docs/)")
        command.add_argument("--bundle", type=Path, default=None, help="verified bundle (default: build/verified.json)")
    args = parser.parse_args(argv)
    from . import site

    try:
        if args.command == "serve":
            from .serve import serve

            serve(Path("site").resolve(), args.port)
            return 0
        if args.command == "lint":
            languages, default = site.load_languages(args.docs or site.DOCS)
            problems = site.lint(languages, default)
            for lang in languages:
                mine = [p for p in problems if f"/{lang.code}/" in p]
                print(f"  {'ok' if not mine else 'FAIL'}  pages.{lang.code:<14} {len(lang.pages)} pages, "
                      f"{len(mine)} problem(s)")
            for problem in problems:
                print(f"error: {problem}", file=sys.stderr)
            return 1 if problems else 0
        dest = site.build(Path(args.dest), args.bundle or site.BUNDLE, args.docs or site.DOCS)
        print(f"Site built in {dest}. Open {dest / 'index.html'} in a browser, or run `make serve`.")
        return 0
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        print("The site was not changed.", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
