"""Hostile input to every record reader: each call either reads the games or
raises ``RecordError`` with a short message, quickly and in bounded memory.

The readers: PDN (``records.loads`` / ``records.read``), the ACF
tab-separated move lists (``records.loads_acf``), Jellyfish match files
(``records.loads_match``, ``records.replay_match``), replaying what was read
(``records.replay``) and ``python -m ludoteca replay``. The inputs: files cut
at every point, binary garbage, huge tokens and tags, huge numbers, deeply
nested variations, hundreds of thousands of NAGs, comments and blank lines.
Limits: 2 s of CPU per call (the sizes below took 5 s to hours, or a bare
``ValueError``, before reading was made linear) and messages of at most
1,000 characters (a 1 MB move used to give a 1 MB message).
"""

from __future__ import annotations

import random
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable

import pytest

from ludoteca import records
from ludoteca.cli import main as cli_main
from ludoteca.errors import RecordError
from ludoteca.records import pdn

CPU_SECONDS = 2.0
MESSAGE = 1_000

PDN = """[Event "Hostile"]
[White "A"]
[Black "B"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 {a comment} 3. 33-28 $1 (3. 31-27 20-24) 22x33 4. 38x29 *
"""
ACF = "8-12 22-18\t1-0\n9-13 21-17\t0-1\n"
MATCH = """ 3 point match

 Game 1
 alice : 0                      bob : 0
  1) 31: 8/5 6/5                 52: 13/11 13/8
  2) 64: 24/18 13/9
"""


def _named(cases: list[tuple[str, str]]) -> list[Any]:
    """Parameters named by their description (the texts themselves make unreadable test ids)."""
    return [pytest.param(name, text, id=name) for name, text in cases]


def _within_limits(call: Callable[[], Any]) -> Any:
    """Runs ``call``: its result, or ``None`` when it raised ``RecordError``
    (any other exception fails); checks the CPU time and the message length."""
    t0 = time.process_time()
    try:
        out = call()
    except RecordError as e:
        out = None
        assert len(str(e)) <= MESSAGE, f"a {len(str(e)):,}-character message: {str(e)[:200]}..."
    spent = time.process_time() - t0
    assert spent < CPU_SECONDS, f"{spent:.1f} s of CPU"
    return out


def _replay_all(recs: list[records.Record]) -> None:
    for g in records.replay(recs, errors="keep"):
        if g.error is not None:
            assert isinstance(g.error, RecordError)
            assert len(str(g.error)) <= MESSAGE, f"a {len(str(g.error)):,}-character message"


def _read_and_replay(text: str) -> None:
    recs = _within_limits(lambda: records.loads(text))
    if recs is not None:
        _within_limits(lambda: _replay_all(recs))


# ------------------------------------------------------------------ PDN


def test_pdn_cut_at_every_point_reads_or_raises_a_record_error() -> None:
    for k in range(len(PDN)):
        _read_and_replay(PDN[:k])


def test_pdn_binary_garbage_file_reads_or_raises_a_record_error(tmp_path: Path) -> None:
    rng = random.Random(7)
    for i in range(20):
        path = tmp_path / f"garbage{i}.pdn"
        path.write_bytes(bytes(rng.randrange(256) for _ in range(5_000)))
        recs = _within_limits(lambda: records.read(path))
        if recs is not None:
            _within_limits(lambda: _replay_all(recs))


def test_a_file_of_a_million_blank_lines_is_told_from_a_match_file_quickly(tmp_path: Path) -> None:
    # `read` looks for a match file's `N point match` line first: `^\s*` ran across
    # the blank lines from every line start (hours for a million).
    path = tmp_path / "blank.pdn"
    path.write_text("\n" * 1_000_000 + "1. 32-28 *\n", encoding="utf-8")
    (rec,) = _within_limits(lambda: records.read(path))
    assert rec.moves == ["32-28"]


@pytest.mark.parametrize(
    "name, text",
    _named([
        ("1 MB move", "1. " + "3" * 1_000_000 + " *\n"),
        ("10 MB tag value", '[Event "' + "x" * 10_000_000 + '"]\n\n1. 32-28 *\n'),
        ("3 MB of escapes in a tag", '[Event "' + "\\x" * 1_500_000 + '"]\n\n1. 32-28 *\n'),
        ("1 MB tag name", "[" + "E" * 1_000_000 + ' "x"]\n\n1. 32-28 *\n'),
        ("5,000-digit move number", "9" * 5_000 + ". 32-28 *\n"),
        ("5,000-digit NAG", "1. 32-28 $" + "1" * 5_000 + " *\n"),
        ("5,000-digit GameType", '[GameType "' + "2" * 5_000 + '"]\n\n1. 32-28 *\n'),
        ("GameType with a run of spaces", '[GameType "20' + " " * 100_000 + 'x"]\n\n1. 32-28 *\n'),
        ("5,000-digit option", '[GameType "20"]\n[Options "max_turns=' + "9" * 5_000 + '"]\n\n1. 32-28 *\n'),
        ("1 MB option", '[GameType "20"]\n[Options "' + "x" * 9_000 + '=1"]\n\n1. 32-28 *\n'),
        ("algebraic FEN off the board", '[GameType "25"]\n[FEN "W:Wz9,a1:Bb8"]\n\n1. c3-d4 *\n'),
        ("algebraic FEN with a huge rank", '[GameType "25"]\n[FEN "W:Wa' + "9" * 5_000 + ':Bb8"]\n\n1. c3-d4 *\n'),
        ("algebraic FEN with a letter alone", '[GameType "25"]\n[FEN "W:Wa,c3:Bb8"]\n\n1. c3-d4 *\n'),
        ("FEN of 9,000 characters", '[FEN "W:W' + "1," * 4_500 + '"]\n\n1. 32-28 *\n'),
        ("330,000 NAGs", "1. 32-28 " + "$1 " * 330_000 + "*\n"),
        ("330,000 NAGs glued", "1. 32-28 " + "$1" * 330_000 + " *\n"),
        ("330,000 empty variations", "1. 32-28 " + "() " * 330_000 + "*\n"),
        ("330,000 slashes", "1. 32-28 " + "/ " * 330_000 + "*\n"),
        ("200,000 comments", "1. 32-28 " + "{ab} " * 200_000 + "*\n"),
        ("100,000-deep variation", "1. 32-28 " + "(" * 100_000 + ")" * 100_000 + " 19-23 *\n"),
        ("100,000 unclosed variations", "1. 32-28 " + "(" * 100_000 + "\n"),
        ("100,000 strength marks", "1. 32-28" + "!" * 999 + " " + "(!)" * 100_000 + " *\n"),
        ("unclosed comment", "1. 32-28 {" + "x" * 1_000_000 + "\n"),
        ("a million blank lines", "\n" * 1_000_000 + "1. 32-28 *\n"),
        ("200,000 brackets", "1. 32-28 " + '[a "' * 200_000 + "\n"),
        ("200,000 glued results", "1. 32-28 " + '1-0[a ' * 200_000 + "\n"),
        ("50,000 games", '[a "b"]\n1. 32-28 *\n' * 50_000),
        ("200,000 tags", "".join(f'[T{i} "v"]\n' for i in range(200_000)) + "\n1. 32-28 *\n"),
        ("200,000 moves", "1. " + "32-28 28-32 " * 100_000 + "*\n"),
        ("8 MB of movetext", "1. 32-28 {" + "x " * 4_000_000 + "} *\n"),
        ("exponential square backtracking", "1. 1" + "-000" * 60 + "a *\n"),
        ("a backgammon turn of 300,000 moves", '[GameType "backgammon"]\n\n1. 31: ' + "8/5 " * 300_000 + "*\n"),
        ("unicode digits in backgammon", '[GameType "backgammon"]\n\n1. 31: \u00b2/5 6/5 *\n'),
        ("a tablero GameType without colour", '[GameType "90"]\n\n1. 22-18 *\n'),
    ]),
)
def test_hostile_pdn_reads_or_raises_a_short_record_error_quickly(name: str, text: str) -> None:
    _read_and_replay(text)


def test_a_10_mb_tag_value_is_refused_in_bounded_memory() -> None:
    text = '[Event "' + "x" * 10_000_000 + '"]\n\n1. 32-28 *\n'
    tracemalloc.start()
    try:
        with pytest.raises(RecordError, match="tag value of 10,000,000 characters"):
            records.loads(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # The text itself is 10 MB (allocated before tracing); reading it took 1.7 GB.
    assert peak < 40_000_000, f"{peak / 1e6:.0f} MB"


def test_records_just_within_every_limit_still_read() -> None:
    value = "v" * pdn.MAX_TAG_VALUE
    move = "3" * pdn.MAX_TOKEN
    text = f'[Event "{value}"]\n\n1. {move} 19-23 *\n'
    (rec,) = records.loads(text)
    assert rec.tags["Event"] == value and rec.moves == [move, "19-23"]
    with pytest.raises(RecordError, match="token of 1,001 characters"):
        records.loads(f"1. {move}3 *\n")
    many = "1. " + "32-28 " * pdn.MAX_MOVES
    assert len(records.loads(many)[0].turns) == pdn.MAX_MOVES
    with pytest.raises(RecordError, match="more than 100,000 moves"):
        records.loads(many + "28-32 *\n")


def test_a_hostile_move_is_quoted_as_a_short_excerpt_in_the_replay_error() -> None:
    move = "32-" + "9" * 900
    with pytest.raises(RecordError) as info:
        list(records.replay(records.loads(f"1. {move} *\n")))
    assert info.value.kind == "illegal move"
    assert "(903 characters)" in str(info.value) and len(str(info.value)) < MESSAGE


def test_a_bad_algebraic_fen_is_a_position_error_naming_the_square() -> None:
    (rec,) = records.loads('[GameType "25"]\n[FEN "W:Wz9,a1:Bb8"]\n\n1. c3-d4 *\n')
    with pytest.raises(RecordError, match="'z9' is not a dark square of the 8x8 board") as info:
        records.replay_record(rec)
    assert info.value.kind == "position"


def test_a_huge_move_number_is_a_syntax_error() -> None:
    with pytest.raises(RecordError, match="more than 9 digits") as info:
        records.loads("9" * 20 + ". 32-28 *\n")
    assert info.value.kind == "syntax" and len(str(info.value)) < 200


# ------------------------------------------------------------------ ACF


def test_acf_cut_at_every_point_reads_or_raises_a_record_error() -> None:
    for k in range(len(ACF)):
        recs = _within_limits(lambda: records.loads_acf(ACF[:k]))
        if recs is not None:
            _within_limits(lambda: _replay_all(recs))


@pytest.mark.parametrize(
    "name, text",
    _named([
        ("a word for a move", "8-12 22-18\t1-0\nabc\t0-1\n"),
        ("a 5,000-digit square", "8-12 22-18\t1-0\n" + "9" * 5_000 + "-13\t0-1\n"),
        ("a square off the board", "8-12 22-40\t1-0\n"),
        ("unicode digits", "8-12 22-\u0661\u0668\t1-0\n"),
        ("a 1 MB move", "8-" + "1" * 1_000_000 + "\t1-0\n"),
        ("a 1 MB result", "8-12\t" + "1" * 1_000_000 + "\n"),
        ("binary garbage", "8-12 22-18\t\x00\xff\x01garbage\n"),
        ("200,000 moves", "8-12 12-8 " * 100_001 + "\t1-0\n"),
    ]),
)
def test_hostile_acf_raises_a_short_record_error_quickly(name: str, text: str) -> None:
    assert _within_limits(lambda: records.loads_acf(text)) is None


def test_acf_error_names_the_line_and_the_move() -> None:
    with pytest.raises(RecordError, match=r"line 2 \(game 2\): move 1\. 'abc' is not squares 0-31"):
        records.loads_acf("8-12 22-18\t1-0\nabc\t0-1\n")


# ------------------------------------------------------------- match files


def test_match_file_cut_at_every_point_reads_or_raises_a_record_error() -> None:
    for k in range(len(MATCH)):
        text = MATCH[:k]
        recs = _within_limits(lambda: records.loads_match(text))
        if recs is not None:
            _within_limits(lambda: _replay_all(recs))
        _within_limits(lambda: records.replay_match("cut.mat", text=text))


@pytest.mark.parametrize(
    "name, text",
    _named([
        ("a 5,000-digit match length", " " + "9" * 5_000 + " point match\n\n Game 1\n a : 0     b : 0\n  1) 31: 8/5 6/5\n"),
        ("a 100-point match", " 100 point match\n\n Game 1\n a : 0     b : 0\n  1) 31: 8/5 6/5\n"),
        ("a 5,000-digit game number", " 3 point match\n\n Game " + "1" * 5_000 + "\n a : 0     b : 0\n  1) 31: 8/5 6/5\n"),
        ("a 5,000-digit score", " 3 point match\n\n Game 1\n a : " + "1" * 5_000 + "     b : 0\n  1) 31: 8/5 6/5\n"),
        ("a 5,000-digit move number", " 3 point match\n\n Game 1\n a : 0     b : 0\n  " + "1" * 5_000 + ") 31: 8/5 6/5\n"),
        ("5,000-digit points", " 3 point match\n\n Game 1\n a : 0     b : 0\n  1) 31: 8/5 6/5\n      Wins " + "1" * 5_000 + " points\n"),
        ("a 1 MB header without a colon", " 3 point match\n\n Game 1\n" + " a" * 500_000 + "\n  1) 31: 8/5 6/5\n"),
        ("a 1 MB header of colons", " 3 point match\n\n Game 1\n" + " a : x" * 200_000 + "\n  1) 31: 8/5 6/5\n"),
        ("a 1 MB header tag", '; [Event "' + 'a "' * 300_000 + '\n 3 point match\n\n Game 1\n a : 0     b : 0\n'),
        ("a million blank lines and no match line", "\n" * 1_000_000 + " Game 1\n"),
        ("300,000 rolls on a line", " 3 point match\n\n Game 1\n a : 0     b : 0\n  1) " + "31: " * 300_000 + "\n"),
        ("a 1 MB move", " 3 point match\n\n Game 1\n a : 0     b : 0\n  1) 31: " + "8" * 1_000_000 + "\n"),
        ("unicode digits", " 3 point match\n\n Game 1\n a : 0     b : 0\n  1) 31: \u00b2/5 6/5\n"),
    ]),
)
def test_hostile_match_files_read_or_raise_a_short_record_error_quickly(name: str, text: str) -> None:
    recs = _within_limits(lambda: records.loads_match(text))
    if recs is not None:
        _within_limits(lambda: _replay_all(recs))
    _within_limits(lambda: records.replay_match("hostile.mat", text=text))


def test_match_binary_garbage_reads_or_raises_a_record_error(tmp_path: Path) -> None:
    rng = random.Random(11)
    for i in range(20):
        path = tmp_path / f"garbage{i}.mat"
        path.write_bytes(b" 3 point match\n\n Game 1\n" + bytes(rng.randrange(256) for _ in range(5_000)))
        recs = _within_limits(lambda: records.read(path))
        if recs is not None:
            _within_limits(lambda: _replay_all(recs))
        _within_limits(lambda: records.replay_match(path))


# --------------------------------------------------------------- the CLI


@pytest.mark.parametrize(
    "name, text",
    _named([
        ("acf with a word for a move", "8-12 22-18\t1-0\nabc\t0-1\n"),
        ("pdn with a bad algebraic fen", '[GameType "25"]\n[FEN "W:Wz9,a1:Bb8"]\n\n1. c3-d4 *\n'),
        ("pdn with a 5,000-digit move number", "9" * 5_000 + ". 32-28 *\n"),
        ("pdn with a 1 MB move", "1. " + "3" * 1_000_000 + " *\n"),
        ("match with a 5,000-digit score", " 3 point match\n\n Game 1\n a : " + "1" * 5_000 + "     b : 0\n"),
    ]),
)
def test_cli_replay_reports_a_hostile_file_as_a_failure_without_a_traceback(
    name: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hostile.txt"
    path.write_text(text, encoding="utf-8")
    assert cli_main(["replay", str(path), "--no-progress"]) == 1
    out = capsys.readouterr().out
    assert "syntax: " in out or "position: " in out
    assert len(out) < 2_000


# --------------------------------------------------- ambiguous moves on replay


class _TwoReadings:
    """A codec under which every written turn has two readings and the turn ``end`` none:
    what a record ambiguous move after move looks like to the replay."""

    def candidates(self, state: Any, written: str, black: bool) -> list[Any]:
        from ludoteca.records.notation import Candidate

        return [] if written == "end" else [Candidate(state), Candidate(state)]

    def legal_moves(self, state: Any) -> list[str]:
        return []


@pytest.mark.parametrize(
    "moves",
    [
        pytest.param(["x"] * 40 + ["end"], id="40 ambiguous moves, then one that fits no reading (2**40 readings)"),
        pytest.param(["x"] * 3_000, id="3,000 ambiguous moves that all fit (recursion 3,000 deep)"),
    ],
)
def test_a_record_ambiguous_move_after_move_is_an_ambiguous_move_error_quickly(moves: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import ludoteca.records.core as core

    monkeypatch.setattr(core, "codec_for", lambda game: _TwoReadings())
    rec = records.Record(tags={"GameType": "20"}, turns=[records.Turn(m) for m in moves])
    g = _within_limits(lambda: records.replay_record(rec))
    assert isinstance(g.error, RecordError) and g.error.kind == "ambiguous move" and g.error.number == "turn 1"


def test_a_move_starting_with_another_scripts_digit_does_not_break_the_rules_guess() -> None:
    # '²' is a digit to str.isdigit but names no square: the guess reads the
    # moves that start with a square number (here 5-9: checkers).
    rec = records.loads("1. ²x 5-9 *\n")[0]
    assert records.assumed_game(rec)[0] == "checkers"
