"""The strict YAML loader: no alias bombs, duplicate keys or YAML 1.1 surprises; errors with file and line."""
import datetime
import time
from pathlib import Path

import pytest
import yaml

import strict_yaml
from generator.errors import BuildError
from generator.inputs.languages import read_yaml

ROOT = Path(__file__).resolve().parents[2]
BOMB = ("id: x\n"
        "extra:\n"
        "  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        + "".join(f"  {c}: &{c} [" + ", ".join([f"*{p}"] * 9) + "]\n" for p, c in zip("abcdefghi", "bcdefghij")))


def load(text, name="f.yml"):
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    return strict_yaml.parse(data, name)[0]


def refusal(text, name="f.yml") -> str:
    with pytest.raises(strict_yaml.YAMLFileError) as info:
        load(text, name)
    message = str(info.value)
    assert "\n" not in message, "one line"
    return message


def test_the_alias_bomb_fails_at_once_with_its_line():
    assert BOMB.count("*") == 81  # nine levels of nine aliases: 9**10 strings once expanded
    started = time.monotonic()
    assert refusal(BOMB, "bomb.yaml") == "bomb.yaml, line 3: anchors (&a) are not allowed; write the value out"
    assert time.monotonic() - started < 1


@pytest.mark.parametrize("text, message", [
    ("a: &x 1\n", "line 1: anchors (&x) are not allowed"),          # even unused
    ("a: 1\nb: *x\n", "line 2: aliases (*x) are not allowed"),       # even undefined
    ("a: !!str 1\n", "line 1: tags (!!str) are not allowed"),
    ("a: !!python/object:os.system x\n", "line 1: tags (!!python/object:os.system) are not allowed"),
    ("? [a, b]\n: 1\n", "line 1: a key must be a single word or number"),
])
def test_anchors_aliases_tags_and_complex_keys_are_refused(text, message):
    assert refusal(text).startswith(f"f.yml, {message}")


def test_a_duplicate_key_is_refused_at_its_second_line():
    assert refusal("a: 1\nb:\n  c: 2\n  d: 3\n  c: 4\n") == \
        "f.yml, line 5: duplicate key 'c' (first at line 3); write each key once"
    assert refusal("x: {k: 1, k: 2}\n").startswith("f.yml, line 1: duplicate key 'k' (first at line 1)")
    assert load("a: {c: 1}\nb: {c: 1}\n") == {"a": {"c": 1}, "b": {"c": 1}}  # same key in two mappings is fine


@pytest.mark.parametrize("number", ["033", "-07", "00", "01.5", "+0123"])
def test_a_number_with_a_leading_zero_is_refused(number):
    assert refusal(f"deal: {number}\n") == (f"f.yml, line 1: the number {number} has a leading zero; "
                                            f"remove it, or quote the value (\"{number}\") if it is text")


def test_numbers_are_yaml_1_2_decimal_only():
    assert load('a: 0\nb: -0\nc: 33\nd: +5\ne: 0.5\nf: 1e3\ng: "033"\n') == \
        {"a": 0, "b": 0, "c": 33, "d": 5, "e": 0.5, "f": 1000.0, "g": "033"}
    # YAML 1.1 reads these as 31, 15, 1000, 80 and a date; here they are text, as written.
    assert load("a: 0x1F\nb: 0o17\nc: 1_000\nd: 1:20\ne: 2026-10-30\n") == \
        {"a": "0x1F", "b": "0o17", "c": "1_000", "d": "1:20", "e": "2026-10-30"}


def test_yes_no_on_off_are_text_and_only_true_false_are_booleans():
    assert load("a: yes\nb: no\nc: on\nd: off\ne: Y\nf: true\ng: False\nh: ~\ni:\n") == \
        {"a": "yes", "b": "no", "c": "on", "d": "off", "e": "Y", "f": True, "g": False, "h": None, "i": None}


def test_merge_keys_are_plain_keys():
    assert load("b:\n  <<: {y: 2}\n") == {"b": {"<<": {"y": 2}}}


def test_a_number_of_5000_digits_is_refused_without_a_traceback():
    assert refusal("deal: " + "9" * 5000 + "\n") == "f.yml, line 1: a number of 5,000 digits; at most 20 are allowed"
    assert load("deal: " + "9" * 20 + "\n") == {"deal": 10**20 - 1}


def test_the_size_is_capped():
    assert refusal(b"# " + b"x" * strict_yaml.MAX_BYTES + b"\n") == \
        "f.yml: larger than 256 KB; a hand-written file is never this big"


def test_a_file_larger_than_the_cap_is_not_read_whole(tmp_path):
    big = tmp_path / "big.yml"
    big.write_bytes(b"a: 1\n" + b"#" * (5 * strict_yaml.MAX_BYTES))
    with pytest.raises(strict_yaml.YAMLFileError, match="big.yml: larger than 256 KB"):
        strict_yaml.load(big)


@pytest.mark.parametrize("text, line", [
    ("a: " + "[" * 100_000, 1),
    ("a:\n" + "".join("  " * i + "b:\n" for i in range(1, 40)), 32),
])
def test_the_nesting_depth_is_capped(text, line):
    assert refusal(text) == f"f.yml, line {line}: nested more than {strict_yaml.MAX_DEPTH} levels deep"
    assert load("a: " + "[" * 30 + "]" * 30 + "\n") is not None


def test_a_file_that_is_not_utf8_gives_one_line_with_file_and_line():
    assert refusal("a: 1\nb: går\n".encode("latin-1")) == "f.yml, line 2: not UTF-8 (byte 0xe5); save the file as UTF-8"


def test_a_control_character_gives_file_and_line():
    assert refusal("a: 1\nb: x\x07y\n") == "f.yml, line 2: not valid YAML (character U+0007 is not allowed)"


def test_a_syntax_error_gives_file_and_line():
    assert refusal("a: 1\nb: c: d\n") == "f.yml, line 2: not valid YAML (mapping values are not allowed here)"
    assert refusal("a: 1\n---\nb: 2\n").startswith("f.yml, line 2: not valid YAML")


def test_an_empty_file_is_none():
    assert load("") is None and load("# only a comment\n") is None


def _as_text_dates(value):
    """PyYAML's YAML 1.1 reading, with its one accepted difference: dates stay text here."""
    if isinstance(value, dict):
        return {k: _as_text_dates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_text_dates(v) for v in value]
    return value.isoformat() if isinstance(value, datetime.date) else value


@pytest.mark.parametrize("path", sorted([*ROOT.glob("examples/*.yaml"), *ROOT.glob("docs/*.yml"),
                                         *ROOT.glob("docs/*/strings.yml")]), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_project_files_load_unchanged(path):
    expected = _as_text_dates(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert expected, path
    assert strict_yaml.load(path) == expected


def test_the_generator_reports_a_strict_refusal_as_a_build_error(tmp_path):
    strings = tmp_path / "strings.yml"
    strings.write_text("nav:\n  home: Hjem\n  home: Hjem igjen\n", encoding="utf-8")
    with pytest.raises(BuildError, match=r"^.*strings.yml, line 3: duplicate key 'home' \(first at line 2\)"):
        read_yaml(strings)
    with pytest.raises(BuildError, match=r"missing.yml: missing$"):
        read_yaml(tmp_path / "missing.yml")
    with pytest.raises(BuildError, match=r"not a regular file"):  # a folder (generator/inputs/source_files.py)
        read_yaml(tmp_path)
