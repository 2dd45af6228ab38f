"""`make example DEAL=N`: a new example file from the solvers' shortest game, figures filled in.

The file builds as it is (the examples page of every language shows it at the next `make site`);
a person may add notes, titles and a summary. `make verify` checks it like any other.
Beside it, each language's docs/<lang>/examples/<id>.yml, every field a comment to fill in and
the note rules in its header (an existing one is kept). Everything is written only inside --dir
(the words beside it, in ../docs/), under an id that matches the example id pattern, never
through a link, and never over an existing file: --force replaces only an example file that make
example wrote and nobody changed since (build/examples-written.json keeps their digests).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import yaml

import strict_yaml

from .app import AppEngine
from .checks.example_checks import final_figures
from .compare import deal_number, opening_layout, play_both
from .errors import InputError
from .examples import ID_PATTERN, ID_RULE, language_codes
from .notes import glossary_path, load_note_words
from .solving import solve_both


def example_yaml(example_id: str, n: int, answer: dict, final: dict, opening: dict,
                 languages: tuple[str, ...] = ("nb", "da"), order: int | None = None) -> str:
    """The example file's text: fields in a fixed order, one move per line. It builds as it is:
    the pages show it under the languages' default title, without notes."""
    kind = "can be won" if answer["winnable"] else "cannot be won"
    head = [
        f"# Deal {n} {kind}. Written by `make example DEAL={n}` from the exact solvers' shortest game.",
        f"# Its title, summary and notes go in each language's docs/<lang>/examples/{example_id}.yml:",
        '#   title: "…"  summary: "…"  notes: {3: "…"}  (a note on move 3, in every language)',
        "# draft: true (verified, not shown yet); order is its place on the examples page (lower first).",
    ]
    body = {
        "id": example_id,
        "deal": n,
        **({"order": order} if order is not None else {}),
        "opening": {k: len(opening[k]) for k in ("pyramid", "stock", "waste")},
        "game": answer["game"],
        "final": final,
        "search": {k: answer[k] for k in ("max_removed", "shortest", "winnable")},
    }
    return "\n".join(head) + "\n" + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=100)


def example_path(folder: Path, example_id: str) -> Path:
    """folder/<id>.yaml; raises InputError for an id that is not a plain name inside folder."""

    if not ID_PATTERN.fullmatch(example_id):
        raise InputError(f"--id {strict_yaml.shown(example_id)}: an example id is {ID_RULE}")
    path = folder / f"{example_id}.yaml"
    if path.resolve().parent != folder.resolve():  # the pattern already rules this out; kept as the promise
        raise InputError(f"--id {strict_yaml.shown(example_id)}: {path} is not inside {folder}")
    return path


def examples_in(folder: Path) -> dict[Path, dict]:
    """The deal and order of every example file already in folder (read leniently: a broken file
    is make verify's to report, not a reason to refuse a new one)."""
    found = {}
    for p in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            data = strict_yaml.load(p)
        except (OSError, strict_yaml.YAMLFileError):
            continue
        if isinstance(data, dict):
            found[p] = {"deal": data.get("deal"), "order": data.get("order")}
    return found


def next_order(existing: dict[Path, dict], path: Path) -> int:
    """The first place after every example on the page (examples without an order count by position)."""
    others = [e for p, e in existing.items() if p.resolve() != path.resolve()]
    places = [e["order"] if isinstance(e["order"], int) and not isinstance(e["order"], bool) else i + 1
              for i, e in enumerate(others)]
    return max(places, default=0) + 1


def words_yaml(example_id: str, code: str, source: str, moves: list[str], card_names: dict[str, str]) -> str:
    """docs/<code>/examples/<id>.yml as make example leaves it: every field a comment, so it builds
    as it is; its header holds the note rules, and each move's line its cards in the language."""
    def cards(move: str) -> str:
        named = [card_names[c] for c in move.split()[1:] if c in card_names]
        return f" ({', '.join(named)})" if named else ""

    head = [
        f"# What examples/{example_id}.yaml says in {code}: uncomment a line and write its text; all optional.",
        "#   title: the section's heading (without one: the language's word for the deal and its number);",
        "#   summary: a paragraph under it; notes: a short note on a move, by the move's number.",
        "# The note rules (make verify reads every note and says each false one with its file and line):",
        "#   - a note on a move is in every language's file of this example, or in none;",
        "#   - it speaks of the position before its move, as the player sees it when choosing the move;",
        "#     only the result («the game is won», a card «is removed») is read after it;",
        f"#   - cards, places, actions and counts are read in the words of note_words in docs/{code}/glossary.yml",
        "#     (name a card by its suit and rank, a place after its card); other words are not read;",
        "#   - a place or «free» belongs to the nearest card named before it in the same sentence.",
        *([f"# Written directly in {code}, not translated from {source}: then make translations MARK={code} "
           f"FILES=examples/{example_id}.yml", "# records it as translated."] if code != source else []),
        '# title: ""',
        '# summary: ""',
        "# notes:",
    ]
    return "\n".join(head + [f'#   {n}: ""  # {move}{cards(move)}' for n, move in enumerate(moves, 1)]) + "\n"


def _card_names(code: str) -> dict[str, str]:
    """The language's card names («ruter dame»), or none when its glossary cannot be read (make
    verify names that problem; the words file is written without them)."""
    try:
        return load_note_words(glossary_path(code)).card_names
    except InputError:
        return {}


def run(args, app: AppEngine) -> int:

    n = deal_number(args.number)
    folder = Path(args.dir)
    path = example_path(folder, f"deal-{n}" if args.id is None else args.id)  # --id "" is refused, not defaulted
    example_id = path.stem
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise InputError(f"--dir {folder}: not a folder (a link is not followed)")
    record = Written(folder.parent / "build" / "examples-written.json")
    refuse_replacing(path, args.force, record)
    languages = language_codes()
    words_files = [folder.parent / "docs" / code / "examples" / f"{example_id}.yml" for code in languages]
    for place in [record.path, *words_files]:
        refuse_outside(place, folder.parent)
    existing = examples_in(folder)
    same_deal = [p for p, e in existing.items() if e["deal"] == n and p.resolve() != path.resolve()]
    if same_deal:
        raise InputError(f"deal {n} already has an example: {same_deal[0]}; edit that file instead")
    layout = opening_layout(app, n)
    start = app.opening(n)
    answer = solve_both(app, start)
    end = play_both(app, start, answer["game"])
    order = next_order(existing, path)
    text = example_yaml(example_id, n, answer, final_figures(start, end), layout, languages, order)
    refuse_replacing(path, args.force, record)  # again: a file may have appeared while the solvers ran
    folder.mkdir(parents=True, exist_ok=True)
    write_file(path, text, replace=path.exists())
    record.add(path, text)
    print(f"Wrote {path}: deal {n}, {answer['max_removed']} pyramid cards in {answer['shortest']} moves "
          f"({'won' if answer['winnable'] else 'cannot be won'}).")
    for code, words in zip(languages, words_files):
        if os.path.lexists(words):  # a person's words: never replaced
            print(f"Kept {words}: it exists (check that its notes still fit the new game).")
            continue
        words.parent.mkdir(parents=True, exist_ok=True)
        write_file(words, words_yaml(example_id, code, languages[0], answer["game"], _card_names(code)), replace=False)
        print(f"Wrote {words}: its title, summary and notes, to fill in (all optional).")
    print(next_steps(path, languages))
    return 0


class Written:
    """What make example wrote, by path and digest (build/examples-written.json): FORCE=1 replaces
    only such a file, unchanged since."""

    def __init__(self, path: Path):
        self.path = path

    def _key(self, path: Path) -> str:
        """The file's path from the repository's root (build/..): the same in any clone."""
        return os.path.relpath(path.resolve(), self.path.parent.parent.resolve())

    def load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8")) if self.path.is_file() else {}
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def made(self, path: Path) -> bool:
        try:
            return self.load().get(self._key(path)) == _digest(path.read_bytes())
        except OSError:
            return False

    def add(self, path: Path, text: str) -> None:
        data = {**self.load(), self._key(path): _digest(text.encode("utf-8"))}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_file(self.path, json.dumps(data, indent=1, sort_keys=True) + "\n", replace=True)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def refuse_outside(path: Path, root: Path) -> None:
    """InputError when a folder on the way to path is a link that leads out of root (the
    repository): make example writes only inside it."""
    existing = next(p for p in [path.parent, *path.parent.parents] if p.exists())
    if not existing.resolve().is_relative_to(root.resolve()):
        raise InputError(f"{path}: {existing} leads outside {root.resolve()}; make example writes only inside it")


def refuse_replacing(path: Path, force: bool, record: Written) -> None:
    """InputError unless path is free, or force is given and path is a regular file make example
    wrote and nobody changed since (never a link, never a file written by hand)."""
    if not os.path.lexists(path):
        return
    if not force:
        raise InputError(f"{path} already exists; choose another ID=… (--id) or add FORCE=1 (--force)")
    if path.is_symlink() or not path.is_file():
        raise InputError(f"{path} is {'a link' if path.is_symlink() else 'not a regular file'}; FORCE=1 replaces "
                         "only a file make example wrote: choose another ID=… (--id)")
    if not record.made(path):
        raise InputError(f"{path} was not written by make example, or was edited since; FORCE=1 replaces only "
                         "a file make example wrote and nobody changed: choose another ID=… (--id)")


def write_file(path: Path, text: str, replace: bool) -> None:
    """path with text: a new file (never through a link, never over one that appeared), or with
    replace a temporary file renamed over it (the rename replaces the entry itself, link or not)."""
    try:
        if not replace:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            return
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.",
                                         delete=False) as f:
            f.write(text)
        os.chmod(f.name, 0o644)
        os.replace(f.name, path)
    except FileExistsError:
        raise InputError(f"{path} already exists; choose another ID=… (--id) or add FORCE=1 (--force)") from None
    except OSError as e:
        raise InputError(f"{path}: cannot be written ({e.strerror})") from None


def next_steps(path: Path, languages: tuple[str, ...]) -> str:
    """What to do with the new files; the example is on the site at the next `make site` even if nothing is done."""
    source, others = languages[0], languages[1:]
    steps = [
        f"In docs/<lang>/examples/{path.stem}.yml of each language ({', '.join(languages)}): uncomment and write\n"
        "     the title, the summary and the notes you want (a note in every language or in none; the rules\n"
        f"     are in each file's header). In {path}: order: N places it; draft: true hides it for now.",
        "make verify — reads every note and says each false one, in every language, with its file and line.",
    ]
    steps += [f"Words written directly in {code} (not translated from {source} later) count as untranslated\n"
              f"     until recorded: make translations MARK={code} FILES=examples/{path.stem}.yml" for code in others]
    steps.append("make site — every language's examples page shows it, with a link that opens the game at the deal.")
    return "\n".join(["Next steps (all optional; the files build as they are):"]
                     + [f"  {i}. {step}" for i, step in enumerate(steps, 1)])
