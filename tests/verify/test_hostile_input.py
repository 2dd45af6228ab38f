"""Hostile input to the command line (issue 12, items 5-7): every command ends in one line
`error: …` and exit 2 on bad input, never a traceback, never a hang, never "the engines
disagree"; and the two engines' readers of typed-in text accept and refuse exactly the same."""
import json
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from verify import cli, settings as verify_settings, survey
from verify.independent import deal as independent_deal, rules
from verify.app import AppError

ROOT = Path(__file__).resolve().parents[2]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Text that looks like a number, a card or a move but is not what it seems.
TRICKY = [
    "7", " 7 ", "\t7\n", "007", "0", "4294967295", "4294967296", "+5", "-5", "1_0", "1e3", "1.5", "٣", "١٢",
    "７", "\u00a07", "7\u00a0", "\ufeff7", "\u20027", "4\x002", "7\x0b", "\x1c7", "9" * 40, "9" * 5000, "",
    "KS", "ks", " ks ", "10d", "Kſ", "ſ", "KＳ", "K\u0405", "K S", "K\x00S", "KS\x85", "K\tS", "ı", "İ",
    "draw", " DRAW ", "draw\n", "draw\r\n", "turn", "Turn", "king KS", "king\tKS", "king\nKS", "king\ufeffKS",
    "king\u00a0KS", "king\u2028KS", "king\u3000KS", "king\x1fKS", "king Kſ", "KING ks", "pair 7H 6S",
    "pair 7h\t6s", "pair 7H 7H", "pair 10H 3S", "pair 7H 6S 5D", "pair 7H", "constructor", "toString",
    "__proto__", "hasOwnProperty", "king constructor", "draw" + " " * 70, "x" * 10_000, "king ＫS", "draw\x00",
]


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """verify.cli.main in this process: (exit code, stdout, stderr)."""
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as e:  # --help and the like
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_clean(code: int, err: str, valid: bool | None = None) -> None:
    """No traceback; 0 or 2; a failure is exactly one line starting with `error:`."""
    assert "Traceback" not in err
    assert code in (0, 2), err
    if code == 2:
        assert len(err.splitlines()) == 1 and err.startswith("error: "), err
    if valid is not None:
        assert (code == 0) == valid, err


def run_subprocess(*argv) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verify", *argv], cwd=ROOT, capture_output=True, timeout=60)


def deal_is_valid(text: str) -> bool:
    try:
        independent_deal.parse_deal_number(text)
        return True
    except independent_deal.DealNumberError:
        return False


@pytest.fixture
def quick(monkeypatch):
    """Valid input must not start an exact solve or a real survey: only the reading is tested."""
    monkeypatch.setattr("verify.solving.solve_both", lambda app, start, which=None, progress=True, **options: {
        "winnable": False, "max_removed": 0, "shortest": 0, "game": [], "solvers": {}, "agree": True})
    monkeypatch.setattr(survey, "run_survey",
                        lambda first, last, variant="standard", **kw: survey.Survey(variant, first, last, {}, 0.0))


# ---------------------------------------------------------------- arbitrary text, every sub-command

text = st.text(max_size=60) | st.sampled_from(TRICKY) | st.from_regex(r"[ \t]?[0-9]{1,12}[ \t]?", fullmatch=True)


@FAST
@given(number=text, json_flag=st.booleans())
def test_deal_reads_any_text(capsys, number, json_flag):
    code, _, err = run_cli(capsys, "deal", *(["--json"] if json_flag else []), "--", number)
    assert_clean(code, err, valid=deal_is_valid(number))


@FAST
@given(number=st.sampled_from(["7", "7x"]) | text, moves=st.lists(text | st.sampled_from(TRICKY), max_size=3))
def test_play_reads_any_text(capsys, number, moves):
    code, _, err = run_cli(capsys, "play", "--", number, *moves)
    assert_clean(code, err)  # 3 would be bad input blamed on the engines


@FAST
@given(number=text)
def test_solve_reads_any_deal_number(capsys, quick, number):
    code, _, err = run_cli(capsys, "solve", "--quiet", "--", number)
    assert_clean(code, err, valid=deal_is_valid(number))


@FAST
@given(content=st.binary(max_size=300) | st.text(max_size=300).map(str.encode)
       | st.sampled_from([b"[" * 100_000, b'{"a":' * 50_000, b"\xff\xfe{}", b"{}", b"[]", b"null", b"1" * 5000]))
def test_solve_reads_any_position_file(capsys, quick, tmp_path, content):
    path = tmp_path / "position.json"
    path.write_bytes(content)
    code, _, err = run_cli(capsys, "solve", "--position", path, "--quiet")
    assert_clean(code, err, valid=False)


@FAST
@given(option=st.sampled_from(["--deals", "--jobs", "--chunk", "--max-nodes", "--check-share", "--variant"]),
       value=text)
def test_survey_reads_any_option(capsys, quick, tmp_path, option, value):
    code, _, err = run_cli(capsys, "survey", f"{option}={value}", "--cache", tmp_path / "cache", "--quiet")
    assert_clean(code, err)


# ---------------------------------------------------------------- the inputs of the issue, one by one

def test_a_5000_digit_deal_number_is_one_line_not_a_traceback():
    for command in (["deal"], ["play"], ["solve", "--quiet"]):
        r = run_subprocess(*command, "9" * 5000)
        assert r.returncode == 2 and b"Traceback" not in r.stderr
        assert r.stderr.decode().startswith("error: deal number must be a whole number from 1 to 4294967295, got "
                                            "'9999") and r.stderr.count(b"\n") == 1
        assert b"(5000 characters)" in r.stderr  # shown cut, not 5,000 digits long


@pytest.mark.parametrize("number, shown", [("4\x002", r"'4\x002'"), ("7\x1b[2J", r"'7\x1b[2J'"),
                                           ("\n7\x07", r"'\n7\x07'"), ("٣", r"'\u0663'"), ("\u00a07", r"'\xa07'")])
def test_control_characters_in_a_deal_number_are_shown_escaped(capsys, number, shown):
    code, _, err = run_cli(capsys, "deal", number)
    assert code == 2 and err == f"error: deal number must be a whole number from 1 to 4294967295, got {shown}\n"


def test_a_byte_order_mark_in_a_move_is_bad_input_not_a_disagreement():
    r = run_subprocess("play", "7", "king\ufeffKS")
    assert r.returncode == 2, r.stderr
    assert r.stderr.decode() == ("error: move 1 'king\\ufeffKS' is illegal: 'king\\ufeffKS' is not a move: only "
                                 "letters, digits and spaces of plain ASCII are read (no control character, "
                                 "no look-alike)\n")


def test_bytes_that_are_not_utf8_in_an_argument_are_refused():
    r = subprocess.run([sys.executable.encode(), b"-m", b"verify", b"play", b"7", b"king K\xff"], cwd=ROOT,
                       capture_output=True, timeout=60)
    assert r.returncode == 2 and b"Traceback" not in r.stderr and r.stderr.count(b"\n") == 1


@pytest.mark.parametrize("move", ["king Kſ", "king KＳ", "pair 7H\u00a06S", "king\u2028KS", "draw\x00"])
def test_look_alike_letters_and_spaces_are_not_read(capsys, move):
    code, _, err = run_cli(capsys, "play", "7", move)
    assert code == 2 and "is not a move" in err and "plain ASCII" in err, err
    assert "\\u" in err or "\\x" in err  # the odd character is shown escaped


def test_the_long_s_is_not_a_spade():
    with pytest.raises(independent_deal.CardCodeError):
        independent_deal.parse_card("Kſ")
    with pytest.raises(rules.IllegalMove):
        rules.parse_move("king Kſ")


@pytest.mark.parametrize("deals", ["١-٣", "1_0-2_0", "+1-5", "1-٣", "0x1-0x5", "1 - 5\x00", "9" * 5000])
def test_survey_deals_are_read_like_deal_numbers(capsys, deals):
    code, _, err = run_cli(capsys, "survey", "--deals", deals, "--quiet")
    assert code == 2 and err.startswith("error: --deals wants a range like 1-10000"), err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("text", TRICKY)
def test_survey_ranges_agree_with_deal_numbers(text):
    try:
        ends = survey.parse_range(f"{text}-{text}")
    except ValueError:
        ends = None
    assert ends == ((independent_deal.parse_deal_number(text),) * 2 if deal_is_valid(text) else None)


@pytest.mark.parametrize("option, value", [("--jobs", "-1"), ("--jobs", "0"), ("--jobs", "٢"), ("--chunk", "0"),
                                           ("--chunk", "1_0"), ("--chunk", "10000000"), ("--max-nodes", "-5"),
                                           ("--check-share", "nan"), ("--check-share", "0"),
                                           ("--check-share", "1e-3")])
def test_survey_options_out_of_range_are_refused(capsys, option, value):
    code, _, err = run_cli(capsys, "survey", "--deals", "1", option, value, "--quiet")
    assert code == 2 and err.startswith(f"error: verify survey: argument {option}:"), err
    assert len(err.splitlines()) == 1


def test_survey_cache_that_is_a_file_is_refused(capsys, tmp_path):
    (tmp_path / "file").write_text("")
    code, _, err = run_cli(capsys, "survey", "--deals", "1", "--cache", tmp_path / "file", "--quiet")
    assert code == 2 and err == f"error: --cache {tmp_path / 'file'}: is a file, not a folder\n"


def test_check_out_a_folder_is_refused_before_any_check(capsys, tmp_path):
    started = time.monotonic()
    code, out, err = run_cli(capsys, "check", "--out", tmp_path)
    assert code == 2 and err.startswith(f"error: --out {tmp_path}: is a folder"), err
    assert "ok" not in out and time.monotonic() - started < 20
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- position files

def full_position(**change) -> dict:
    position = rules.to_json(rules.opening(7))
    position.update(change)
    return position


def solve_file(capsys, tmp_path, content: bytes | str):
    path = tmp_path / "position.json"
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    code, _, err = run_cli(capsys, "solve", "--position", path, "--quiet")
    assert code == 2 and err.startswith(f"error: {path}") and len(err.splitlines()) == 1, err
    return err


def test_a_position_file_that_is_not_utf8(capsys, tmp_path):
    err = solve_file(capsys, tmp_path, b'{"pyramid": "\xff"}')
    assert "not UTF-8 text (byte 0xff at offset 13)" in err


def test_a_position_that_is_a_folder(capsys, tmp_path):
    code, _, err = run_cli(capsys, "solve", "--position", tmp_path, "--quiet")
    assert code == 2 and err == f"error: {tmp_path}: is a folder, not a position file\n"


def test_a_position_that_is_a_fifo_is_refused_at_once(tmp_path):
    # A FIFO blocks whoever opens it until someone writes: the command must not wait (issue 22).
    fifo = tmp_path / "position.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "verify", "solve", "--position", str(fifo), "--quiet"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == f"error: {fifo}: is not a regular file (a FIFO, socket or device); give a saved position file\n"
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_position_that_is_a_device_is_refused(capsys, device):
    code, _, err = run_cli(capsys, "solve", "--position", device, "--quiet")
    assert code == 2 and err == f"error: {device}: is not a regular file (a FIFO, socket or device); give a saved position file\n"


def test_a_position_nested_deeply(capsys, tmp_path):  # 100,000 deep is refused for its size
    assert "nested too deeply" in solve_file(capsys, tmp_path, "[" * 40_000 + "]" * 40_000)


def test_a_position_with_a_5000_digit_number(capsys, tmp_path):
    err = solve_file(capsys, tmp_path, json.dumps(full_position())[:-1] + ', "deal": ' + "9" * 5000 + "}")
    assert "not a position" in err


def test_a_position_with_32_cards_beside_the_pyramid(capsys, tmp_path):
    position = full_position()
    position["stock"] = position["stock"] + position["pyramid"][:8]
    position["pyramid"][:8] = [None] * 8
    err = solve_file(capsys, tmp_path, json.dumps(position))
    assert "at most 24 cards can lie beside the pyramid (stock + waste), got 32" in err


def test_a_position_with_51_cards(capsys, tmp_path):
    position = full_position()
    gone = next(c for c in position["stock"] if not c.startswith("K"))
    position["stock"].remove(gone)
    err = solve_file(capsys, tmp_path, json.dumps(position))
    assert "holds 51 of the 52 cards" in err and gone in err


def test_a_position_without_a_king_is_fine(capsys, tmp_path, quick):
    position = full_position()
    position["stock"] = [c for c in position["stock"] if not c.startswith("K")]
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    code, _, err = run_cli(capsys, "solve", "--position", path, "--quiet")
    assert code == 0, err


def test_a_position_with_a_60000_card_stock_is_refused_at_once(capsys, tmp_path):
    started = time.monotonic()
    err = solve_file(capsys, tmp_path, json.dumps(full_position(stock=["AS"] * 60_000)))
    assert "larger than 100,000 bytes" in err
    assert time.monotonic() - started < 10
    started = time.monotonic()
    with pytest.raises(ValueError, match="at most 24 cards"):
        rules.from_json(full_position(stock=["AS"] * 60_000))
    assert time.monotonic() - started < 0.5


def test_duplicate_keys_and_huge_counters_in_a_position(capsys, tmp_path):
    text = json.dumps(full_position())
    assert "appears twice" in solve_file(capsys, tmp_path, text[:-1] + ', "moves": 3}')
    err = solve_file(capsys, tmp_path, json.dumps(full_position(points=2**60)))
    assert "points must be a whole number from 0 to 1,000,000" in err


# ---------------------------------------------------------------- a survey of any range

class StopAtFirstWindow(Exception):
    pass


class RecordingPool:
    """A pool of 4 slots that notes the tasks it is given and stops the survey at the first wait."""

    def __init__(self):
        self.tasks = []

    def slots(self):
        return 4

    def submit(self, fn, task, tag):
        self.tasks.append(task)

    def next_result(self):
        raise StopAtFirstWindow


def test_a_survey_of_100_million_deals_starts_at_once_in_bounded_memory(tmp_path):
    pool = RecordingPool()
    tracemalloc.start()
    started = time.monotonic()
    with pytest.raises(StopAtFirstWindow):
        survey.run_survey(1, 100_000_000, cache_root=tmp_path, progress=False, pool=pool)
    seconds = time.monotonic() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    deals = [n for task in pool.tasks for n in task[0]]
    # Two tasks per slot are sent ahead, the first chunks of the range, and nothing more is held.
    assert deals == list(range(1, 2 * 4 * verify_settings.DEFAULT_CHUNK + 1))
    assert seconds < 10 and peak < 50_000_000, (seconds, peak)


def test_windows_are_aligned_to_chunks():
    assert list(survey.windows(1, 25, 2)) == [(1, 25)]
    size = 2 * verify_settings.WINDOW_CHUNKS
    assert list(survey.windows(size - 1, size + 3, 2)) == [(size - 1, size), (size + 1, size + 3)]


# ---------------------------------------------------------------- both engines read alike

def python_reads(kind: str, text: str) -> bool:
    try:
        {"deal": independent_deal.parse_deal_number, "card": independent_deal.parse_card,
         "move": rules.parse_move}[kind](text)
        return True
    except ValueError:
        return False


def app_reads(app, kind: str, text: str) -> bool:
    try:
        if kind == "deal":
            app.deal(text)
        elif kind == "card":
            app.call("card_value", code=text)
        else:
            app.apply(app.opening(7), text)
        return True
    except AppError as e:
        return kind == "move" and e.rule != "notation"  # read, then refused by a rule of play


@pytest.mark.parametrize("kind", ["deal", "card", "move"])
def test_both_engines_accept_and_refuse_the_same_tricky_text(app, kind):
    differ = [t for t in TRICKY if python_reads(kind, t) != app_reads(app, kind, t)]
    assert differ == []
    assert any(python_reads(kind, t) for t in TRICKY) and not all(python_reads(kind, t) for t in TRICKY)


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(["deal", "card", "move"]),
       text=st.text(alphabet=st.sampled_from("0123456789 \t\n\r\x00\x0b\x85\u00a0\ufeff\u2028ſKSkspairdrwtun7H6"),
                    max_size=12) | st.text(max_size=12))
def test_both_engines_read_any_text_alike(app, kind, text):
    assert python_reads(kind, text) == app_reads(app, kind, text), repr(text)


def test_both_engines_show_refused_text_alike():
    assert independent_deal.shown("a'b\\c\x00\t\u017f\U0001F600") == "'a\\'b\\\\c\\x00\\t\\u017f\\U0001f600'"
    assert independent_deal.shown("x" * 41) == f"'{'x' * 40}'… (41 characters)"  # as tests/app/core/engine.test.mjs
