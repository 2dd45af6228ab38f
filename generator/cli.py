"""`python -m generator build [--dest site]` · `publish DEST` · `rollback DEST` · `status DEST` · `serve` · `lint`
· `translations` · `language CODE` · `po export|import`.

Exit codes: 0 fine; 1 the build failed after reading its inputs (nothing was changed); 2 bad
input (a page source, string or bundle refused, a destination that is not ours to replace, a
port that cannot be used, a bad argument). `status` exits 1 when DEST is missing or its live
version fails its digest.
"""
import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.errors import BuildError, in_repository
from generator.publish.deploy import KEEP_VERSIONS, MARKER

PUBLISHING = f"""publishing:
  publish DEST    runs every check again from its inputs (verify check --no-cache: no cached
                  result in build/ is trusted; --bundle FILE publishes that bundle instead),
                  builds and checks the site in a staging folder next to DEST, keeps it as
                  DEST.versions/<time>-<content id>/ (a digest of every file written last) and
                  switches the link DEST to it in one step, once the digest holds; the newest
                  {KEEP_VERSIONS} versions are kept, and always the live one and the one rollback
                  goes to. DEST must be new, empty, or a site made here (it holds {MARKER}),
                  outside the repository, outside any other published site and any *.versions
                  folder; anything else is refused and left alone.
  rollback DEST   switches DEST back to the version that was live before the live one
                  (DEST.versions/history.json); restores DEST if a stopped publish left it missing.
  status DEST     the live version, when it went live, whether its digest holds, where rollback
                  would go; then each kept version by its content id, with the commit it was
                  built from, whether that working tree had changes and its allowances.
"""


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line on stderr and exit 2, like every other error."""

    def error(self, message):
        self.exit(2, f"error: {message} (see python -m generator --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="generator", description="Renders the nb/da site from the verified bundle only.",
                           epilog=PUBLISHING, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the site (default into site/)")
    b.add_argument("--dest", default="site")
    p = sub.add_parser("publish", help="build and check in a staging folder, then switch the link DEST to it (see below)")
    p.add_argument("dest", type=Path)
    p.add_argument("--allow-stale", action="store_true",
                   help="publish even with translations behind their source (make publish ALLOW_STALE=1)")
    r = sub.add_parser("rollback", help="switch the link DEST back to the version that was live before")
    r.add_argument("dest", type=Path)
    st = sub.add_parser("status", help="which version DEST shows, from which commit, and whether it is intact")
    st.add_argument("dest", type=Path)
    sv = sub.add_parser("serve", help="serve site/ on localhost, rebuilding and reloading on change")
    sv.add_argument("--port", type=int, default=8000)
    sv.set_defaults(run=cmd_serve)
    l = sub.add_parser("lint", help="per language: missing pages or strings, numbers not backed by data")
    t = sub.add_parser("translations", help="per language and file: segments missing, untranslated or stale; "
                       "--mark LANG [FILE[:segment] …] records them as translated")
    t.add_argument("--mark", metavar="LANG", help="record the source's current text as translated in LANG")
    t.add_argument("targets", nargs="*", metavar="FILE[:segment]",
                   help="with --mark: files (pages/index.md, strings.yml, game.json, examples/<id>) or one "
                        "segment as the report names it; none: every file")
    t.add_argument("--lang", default=None, help="only this language (make translations LANG=xx)")
    t.add_argument("--check", action="store_true", help="exit 1 when any segment is not current (make publish)")
    t.add_argument("--summary", action="store_true", help="only the totals, as warnings (make verify, make site)")
    lg = sub.add_parser("language", help="a new language: docs/CODE/ from --from (every text untranslated), "
                        "added to docs/languages.yml")
    lg.add_argument("code", help="BCP 47 code, e.g. sv, nn, pt-BR (written in lowercase)")
    lg.add_argument("--from", dest="source", default=None, help="the language to copy (default: the first one)")
    lg.add_argument("--search", default=None, help="the search's stemming language when it is not the code")
    po = sub.add_parser("po", help="a language's segments as a gettext PO file (export) and back (import)")
    po.add_argument("action", choices=("export", "import"))
    po.add_argument("lang")
    po.add_argument("file", type=Path, nargs="?", help="the PO file (export default: build/translations/LANG.po)")
    b.set_defaults(run=cmd_build)
    p.set_defaults(run=cmd_build)
    r.set_defaults(run=cmd_rollback)
    st.set_defaults(run=cmd_status)
    l.set_defaults(run=cmd_lint)
    t.set_defaults(run=cmd_translations)
    lg.set_defaults(run=cmd_language)
    po.set_defaults(run=cmd_po)
    for command in (b, p, l, t, lg, po):
        command.add_argument("--docs", type=Path, default=None, help="page sources (default: docs/)")
        command.add_argument("--bundle", type=Path, default=None, help="verified bundle (default: build/verified.json; publish: one the checks write now)")
    return parser


def cmd_serve(args) -> int:
    from generator.serve.server import serve

    serve(Path("site").absolute(), args.port)  # not resolve(): site may be a link that switches
    return 0


def cmd_lint(args) -> int:
    from generator.site import build as site

    languages, default = site.load_languages(args.docs or site.DOCS)
    # The notes come from the bundle: lint runs after `verify check` has written it. When
    # that check failed (`make verify` goes on, to list every problem at once), the
    # pages and strings are linted still, the notes not.
    bundle = args.bundle or site.BUNDLE
    try:
        examples = site.load_bundle(bundle)["examples"]
    except BuildError:  # what is wrong with it, `verify check` has just said
        print(f"warning: the example notes are not linted: {in_repository(str(bundle))} is not current; they "
              "are once every check passes", file=sys.stderr)
        examples = []
    problems = [in_repository(p) for p in site.lint(languages, default, examples, args.docs or site.DOCS)]
    for lang in languages:
        mine = [p for p in problems if f"/{lang.code}/" in p]
        print(f"  {'ok' if not mine else 'FAIL'}  pages.{lang.code:<14} {len(lang.pages)} pages, "
              f"{len(mine)} problem(s)")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    return 2 if problems else 0


def cmd_rollback(args) -> int:
    from generator.publish import deploy as publish

    version, what = publish.rollback(args.dest)
    print(f"{args.dest} now shows {version} ({what}).")
    return 0


def cmd_status(args) -> int:
    from generator.publish import deploy as publish

    lines, healthy = publish.status(args.dest)
    print("\n".join(lines))
    return 0 if healthy else 1


@contextmanager
def bundle_for(args) -> Iterator[Path]:
    """The bundle a build reads: the one named by --bundle; else for `build` build/verified.json
    (what `make verify` wrote), for `publish` one the checks write now from their inputs."""
    from generator.publish import fresh_checks
    from generator.site import build as site

    if args.bundle is not None or args.command != "publish":
        yield args.bundle or site.BUNDLE
    else:
        with fresh_checks.checked_bundle(Path(args.dest), args.docs or site.DOCS,
                                         getattr(args, "allow_stale", False)) as bundle:
            yield bundle


def cmd_build(args) -> int:
    """`build` and `publish`: the same build, the second into a new version that DEST switches to."""
    from generator.publish import deploy as publish
    from generator.site import build as site

    before = publish.link_target(publish.absolute(Path(args.dest))) if args.command == "publish" else None
    with bundle_for(args) as bundle:
        dest = site.build(Path(args.dest), bundle, args.docs or site.DOCS,
                          versioned=args.command == "publish", allow_stale=getattr(args, "allow_stale", False))
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


def cmd_po(args) -> int:
    from generator.i18n import po
    from generator.settings import BUILD, DOCS

    docs = args.docs or DOCS
    if args.action == "export":
        out = args.file or BUILD / "translations" / f"{args.lang}.po"
        count = po.export(docs, args.lang, out)
        print(f"{out}: {count} segment(s) of {args.lang}; translate the msgstr texts, then "
              f"`make po-import CODE={args.lang} PO={out}`")
        return 0
    if args.file is None:
        print("error: po import needs the PO file: python -m generator po import LANG FILE", file=sys.stderr)
        return 2
    for line in po.import_po(docs, args.lang, args.file) or [f"{args.file}: nothing to change"]:
        print(line)
    return 0


def cmd_language(args) -> int:
    from generator.i18n import new_language
    from generator.i18n import translations
    from generator.settings import DOCS

    docs = args.docs or DOCS
    source = args.source or translations.source_language(docs)[0]
    code = new_language.canonical(args.code)
    written = new_language.create(docs, code, source, args.search)
    print(f"Made docs/{code}/ from docs/{source}/ ({len(written) - 1} files) and added '{code}' to "
          f"docs/languages.yml. Every text is still {source}'s, and its glossary has no word yet: write the "
          f"words in docs/{code}/glossary.yml, translate the files in docs/{code}/ (or `make po-export "
          f"CODE={code}` for a PO editor), then `make translations MARK={code} FILES=…` for each one done "
          "(docs/TRANSLATING.md).")
    return 0


def cmd_translations(args) -> int:
    from generator.i18n import translations
    from generator.settings import DOCS

    docs = args.docs or DOCS
    if args.mark:
        for line in translations.mark(docs, args.mark, args.targets):
            print(line)
        return 0
    if args.targets:
        print("error: FILE[:segment] arguments go with --mark LANG", file=sys.stderr)
        return 2
    statuses = translations.all_statuses(docs, args.lang)
    if args.summary:  # one warning per file behind its source, then the language's totals
        for status in statuses:
            request = translations.glossary_request(status)
            if request:
                print(f"warning: {request}", file=sys.stderr)
            by_file: dict[str, list] = {}
            for f in status.problems:
                by_file.setdefault(f.file, []).append(f.state)
            for name, states in by_file.items():
                counts = ", ".join(f"{states.count(s)} {s}" for s in translations.STATES if states.count(s))
                print(f"warning: docs/{status.lang}/{name}: {counts} (make translations lists them)", file=sys.stderr)
            if status.problems:
                print(f"warning: {status.totals()}", file=sys.stderr)
    else:
        print("\n".join(translations.report(statuses)))
    behind = [s for s in statuses if s.problems]
    if args.check and behind:
        print(f"error: translations not current: {'; '.join(s.totals() for s in behind)} "
              "(make translations lists them; ALLOW_STALE=1 publishes anyway)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in ("build", "publish", "lint") and argv is None:  # a process of its own, not a test's
        from generator.guard.limits import cap_memory

        cap_memory()
    try:
        return args.run(args)
    except BuildError as e:
        print(in_repository(f"error: {e}"), file=sys.stderr)
        code = e.exit_code
        if code == 1:
            print("The site was not changed.", file=sys.stderr)
        return code
    except MemoryError:
        print("error: the build needed more memory than it may use (generator/guard/limits.py); nothing was changed",
              file=sys.stderr)
        return 1
    except OSError as e:  # the file system said no (permissions, a full disk) mid-way
        print(in_repository(f"error: {e.filename}: {e.strerror}" if e.filename else f"error: {e}"), file=sys.stderr)
        return 1
