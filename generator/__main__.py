"""`python -m generator build [--dest site]` · `publish DEST` · `rollback DEST` · `status DEST` · `serve` · `lint`.

Exit codes: 0 fine; 1 the build failed after reading its inputs (nothing was changed); 2 bad
input (a page source, string or bundle refused, a destination that is not ours to replace, a
port that cannot be used, a bad argument). `status` exits 1 when DEST is missing or its live
version fails its digest.
"""
import argparse
import sys
from pathlib import Path

from .errors import BuildError
from .publish import KEEP_VERSIONS, MARKER

PUBLISHING = f"""publishing:
  publish DEST    builds and checks the site in a staging folder next to DEST, keeps it as
                  DEST.versions/<time>-<hash>/ (a digest of every file written last) and
                  switches the link DEST to it in one step, once the digest holds; the newest
                  {KEEP_VERSIONS} versions are kept, and always the live one and the one rollback
                  goes to. DEST must be new, empty, or a site made here (it holds {MARKER}),
                  outside the repository; anything else is refused and left alone.
  rollback DEST   switches DEST back to the version that was live before the live one
                  (DEST.versions/history.json); restores DEST if a stopped publish left it missing.
  status DEST     the live version, its commit, whether that working tree had changes, when it
                  went live, whether its digest holds, and where rollback would go.
"""


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line on stderr and exit 2, like every other error."""

    def error(self, message):
        self.exit(2, f"error: {message} (see python -m generator --help)\n")


def main(argv=None) -> int:
    parser = OneLineParser(prog="generator", description="Renders the nb/da site from the verified bundle only.",
                           epilog=PUBLISHING, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the site (default into site/)")
    b.add_argument("--dest", default="site")
    p = sub.add_parser("publish", help="build and check in a staging folder, then switch the link DEST to it (see below)")
    p.add_argument("dest", type=Path)
    r = sub.add_parser("rollback", help="switch the link DEST back to the version that was live before")
    r.add_argument("dest", type=Path)
    st = sub.add_parser("status", help="which version DEST shows, from which commit, and whether it is intact")
    st.add_argument("dest", type=Path)
    sv = sub.add_parser("serve", help="serve site/ on localhost, rebuilding and reloading on change")
    sv.add_argument("--port", type=int, default=8000)
    l = sub.add_parser("lint", help="per language: missing pages or strings, numbers not backed by data")
    for command in (b, p, l):
        command.add_argument("--docs", type=Path, default=None, help="page sources (default: docs/)")
        command.add_argument("--bundle", type=Path, default=None, help="verified bundle (default: build/verified.json)")
    args = parser.parse_args(argv)
    from . import publish, site
    from .limits import cap_memory

    if args.command in ("build", "publish", "lint") and argv is None:  # a process of its own, not a test's
        cap_memory()

    try:
        if args.command == "serve":
            from .serve import serve

            serve(Path("site").absolute(), args.port)  # not resolve(): site may be a link that switches
            return 0
        if args.command == "lint":
            languages, default = site.load_languages(args.docs or site.DOCS)
            # The notes come from the bundle: lint runs after `verify check` has written it.
            bundle = site.load_bundle(args.bundle or site.BUNDLE)
            problems = site.lint(languages, default, bundle["examples"], args.docs or site.DOCS)
            for lang in languages:
                mine = [p for p in problems if f"/{lang.code}/" in p]
                print(f"  {'ok' if not mine else 'FAIL'}  pages.{lang.code:<14} {len(lang.pages)} pages, "
                      f"{len(mine)} problem(s)")
            for problem in problems:
                print(f"error: {problem}", file=sys.stderr)
            return 2 if problems else 0
        if args.command == "rollback":
            version, what = publish.rollback(args.dest)
            print(f"{args.dest} now shows {version} ({what}).")
            return 0
        if args.command == "status":
            lines, healthy = publish.status(args.dest)
            print("\n".join(lines))
            return 0 if healthy else 1
        before = publish.link_target(publish.absolute(Path(args.dest))) if args.command == "publish" else None
        dest = site.build(Path(args.dest), args.bundle or site.BUNDLE, args.docs or site.DOCS,
                          versioned=args.command == "publish")
        if args.command == "publish" and dest.name == before:
            print(f"Nothing changed: the site is the same as {dest.name}, which {args.dest} still shows; no version added.")
        elif args.command == "publish":
            print(f"Published {dest.name}: {args.dest} now shows it (`make rollback DEST={args.dest}` goes back, "
                  f"`make status DEST={args.dest}` says what is live).")
        else:
            # Not "open index.html": from file:// the folder links, the game's modules and the search
            # worker do not load (browsers refuse modules and workers from files).
            print(f"Site built in {dest}. To see it: make serve (http://127.0.0.1:8000/); "
                  "opening the files directly does not work, the pages need a web server.")
        return 0
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        code = e.exit_code
        if code == 1:
            print("The site was not changed.", file=sys.stderr)
        return code
    except MemoryError:
        print("error: the build needed more memory than it may use (generator/limits.py); nothing was changed",
              file=sys.stderr)
        return 1
    except OSError as e:  # the file system said no (permissions, a full disk) mid-way
        print(f"error: {e.filename}: {e.strerror}" if e.filename else f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
