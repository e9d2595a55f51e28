"""Game records: PDN reading and writing, replay of real collections, datasets.

The collections live outside the repository (``<repo>/../shared/records``,
or ``$LUDOTECA_RECORDS``); the tests that need them skip when absent.
"""

from __future__ import annotations

import functools
import io
import json
import os
import random
from pathlib import Path

import numpy as np
import pytest

import ludoteca
from ludoteca import records
from ludoteca.errors import LudotecaValueError, RecordError
from ludoteca.records import cli as records_cli
from ludoteca.records.notation import DraughtsCodec

HERE = Path(__file__).parent
REPO = HERE.parent.parent


def _collections() -> Path | None:
    for cand in (os.environ.get("LUDOTECA_RECORDS"), REPO.parent / "shared" / "records", "/work/shared/records"):
        if cand and Path(cand, "international").is_dir():
            return Path(cand)
    return None


SHARED = _collections()
needs_shared = pytest.mark.skipif(SHARED is None, reason="game collections not found: set LUDOTECA_RECORDS or put shared/records beside the repository")
KNOWN = json.loads((HERE / "records_unreplayable.json").read_text())["records"]
FOLDERS = {"international": "international", "russian": "russian", "checkers": "checkers"}


@functools.lru_cache(maxsize=None)
def _replay_folder(folder: str) -> list[tuple[str, records.ReplayedGame]]:
    assert SHARED is not None
    out = []
    for f in sorted((SHARED / folder).glob("*.pdn")):
        for g in records.replay(f, FOLDERS[folder], errors="keep"):
            out.append((f"{folder}/{f.name}", g))
    return out


@needs_shared
@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_every_collection_game_replays_to_its_end_except_the_listed_record_errors(folder: str) -> None:
    games = _replay_folder(folder)
    failed = {(name, g.record.index + 1): g.error for name, g in games if g.error is not None}
    listed = {(k["file"], k["game"]): k for k in KNOWN if k["file"].startswith(folder + "/")}
    assert set(failed) == set(listed), f"unexpected failures: {[str(failed[k]) for k in set(failed) - set(listed)]}; fixed: {sorted(set(listed) - set(failed))}"
    for key, err in failed.items():
        assert err is not None and err.kind == listed[key]["kind"], str(err)
        assert err.move == listed[key]["move"], str(err)
    for name, g in games:
        if g.error is None:
            assert len(g.states) == len(g.record.turns) + 1
    assert sum(len(g.moves) for _, g in games) > 2000


@needs_shared
@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_recorded_results_agree_with_the_board_wherever_the_game_ends_there(folder: str) -> None:
    games = [g for _, g in _replay_folder(folder)]
    decided = [g for g in games if g.result_agrees is not None]
    assert all(g.result_agrees for g in decided), [g.record.describe() for g in decided if not g.result_agrees]
    if folder == "international":
        # The problem collections (Cat.*, PWCP) end on the board.
        assert len(decided) >= 40


@needs_shared
def test_czech_records_fail_under_russian_rules_at_a_backward_capture_of_a_man() -> None:
    # Czech men may not capture backwards: the first Czech move that Russian
    # rules refuse stands where Russian rules demand a capture that a Czech
    # man may not make (backwards), or continue one backwards.
    assert SHARED is not None
    codec = DraughtsCodec(records.GAME_TYPES["russian"])
    failures = replayed = 0
    for f in sorted((SHARED / "czech").glob("*.pdn")):
        for g in records.replay(f, "russian", errors="keep"):
            if g.error is None:
                replayed += 1
                continue
            failures += 1
            err = g.error
            assert err.kind == "illegal move", str(err)
            assert err.move and err.position and err.legal_moves, str(err)
            assert err.move in str(err) and err.position in str(err) and f.name in str(err)
            st = g.final
            assert st.to_string() == err.position
            # Every Russian legal turn there is a capture, and one of them has a man jump backwards.
            assert all(":" in m for m in err.legal_moves), str(err)
            assert any(_man_jumps_backwards(codec, st, m) for m in err.legal_moves), str(err)
    assert failures >= 100 and replayed >= 20


def _man_jumps_backwards(codec: DraughtsCodec, st: ludoteca.State, move: str) -> bool:
    squares = [codec.from_algebraic(x) for x in move.split(":")]
    fen = st.to_string()
    kings = {int(x[1:]) for x in fen.replace(":", ",").split(",") if x.startswith("K")}
    if squares[0] in kings:
        return False
    forward = -1 if fen.startswith("W") else 1  # White men move up (to lower rows)
    for route in codec._routes(st, [squares[0], squares[-1]]):
        rows = [codec.rc(s)[0] for s in route[1]]
        if any((b - a) * forward < 0 for a, b in zip(rows, rows[1:])):
            return True
    return False


# ------------------------------------------------------------------ round trips


def _random_game(game_id: str, seed: int, **options: object) -> tuple[ludoteca.State, list[str | int]]:
    game = ludoteca.Game(game_id, **options)  # type: ignore[arg-type]
    state = game.new_state(seed=seed)
    start = state.clone()
    rng = random.Random(seed)
    played: list[str | int] = []
    # State.legal_moves() can take a second in deferred zamma (reported): keep those games short.
    limit = 30 if game_id in ("zamma", "kharbaga") else 80
    while not state.is_terminal() and state.turns_played < limit:
        if state.current_player == -1:
            acts, probs = zip(*state.chance_outcomes())
            a = rng.choices(acts, weights=probs)[0]
            state.apply_action(a)
            played.append(a)
            continue
        m = rng.choice(state.legal_moves())
        state.play(m)
        played.append(m)
    return start, played


def _states_of(start: ludoteca.State, played: list[str | int]) -> list[str]:
    st = start.clone()
    out = [st.to_string()]
    for m in played:
        if isinstance(m, str):
            st.play(m)
        else:
            st.apply_action(m)
        if isinstance(m, str):
            out.append(st.to_string())
    return out


def test_every_game_written_by_ludoteca_reads_back_as_the_same_game(game_id: str) -> None:
    variants: list[dict[str, object]] = [{}]
    if game_id in ("kharbaga", "zamma"):
        variants.append({"removal": "deferred"})
    if game_id == "backgammon":
        variants += [{"chance": "explicit"}, {"chance": "explicit", "match_length": 3}]
    for options in variants:
        for seed in range(3):
            start, played = _random_game(game_id, seed, **options)
            buf = io.StringIO()
            rec = records.write_game(buf, start, played, {"Event": f"round trip {seed}"})
            text = buf.getvalue()
            (back,) = records.loads(text)
            assert back == rec, text
            assert records.format_record(back) == records.format_record(rec)
            (g,) = records.replay(back)
            want = [s for s in _states_of(start, played)]
            if game_id == "backgammon":
                # Replayed with explicit dice: compare the positions at the decisions.
                assert g.final.returns().tolist() == _final_returns(start, played)
                assert len(g.moves) >= len([m for m in played if isinstance(m, str)])
            else:
                assert [s.to_string() for s in g.states] == want, text
            if g.final.is_terminal():
                assert g.result_agrees is True


def _final_returns(start: ludoteca.State, played: list[str | int]) -> list[float]:
    st = start.clone()
    for m in played:
        st.play(m) if isinstance(m, str) else st.apply_action(m)
    return st.returns().tolist()


def test_a_short_capture_with_two_meanings_is_written_in_full_and_read_back() -> None:
    # A king on 36 takes three men to 16 by two routes (schildpad.pdn, game 3, move 35).
    game = ludoteca.Game("international")
    start = game.state_from_string("W:B3,6,8,11,12,14,19,27,34:W32,K36,37,38,42,45,47")
    codec = DraughtsCodec(records.GAME_TYPES["international"])
    routes = {m for m in start.legal_moves() if m.startswith("36x") and m.endswith("x16")}
    assert len(routes) == 2
    for m in routes:
        assert codec.write(start, m) == m  # full: short would be ambiguous
        assert len(codec.candidates(start, m, False)) == 1
    assert len(codec.candidates(start, "36x16", False)) == 2
    rec = records.loads('[GameType "20"]\n[FEN "W:B3,6,8,11,12,14,19,27,34:W32,K36,37,38,42,45,47"]\n1. 36x16 *\n')[0]
    (g,) = records.replay(rec, errors="keep")
    assert g.error is not None and g.error.kind == "ambiguous move"
    assert "36x18x7x16" in str(g.error) and "36x13x2x16" in str(g.error)


def test_a_short_capture_is_resolved_by_the_passing_squares_written() -> None:
    # PDN 3.0 writes the squares where the king turns; 13 lies on one route only.
    rec = records.loads('[GameType "20"]\n[FEN "W:B3,6,8,11,12,14,19,27,34:W32,K36,37,38,42,45,47"]\n1. 36x13x16 *\n')[0]
    (g,) = records.replay(rec)
    assert g.moves == ["36x13x2x16"]


def test_an_illegal_move_names_file_tags_number_move_position_and_legal_moves(tmp_path: Path) -> None:
    f = tmp_path / "bad.pdn"
    f.write_text('[Event "Test"]\n[White "A"]\n[Black "B"]\n[Result "2-0"]\n\n1. 32-28 18-23 2. 32-27 2-0\n')
    with pytest.raises(RecordError) as info:
        list(records.replay(f))
    e = info.value
    assert isinstance(e, LudotecaValueError)
    assert (e.kind, e.number, e.move) == ("illegal move", "2.", "32-27")
    assert e.tags is not None and e.tags["White"] == "A"
    text = str(e)
    for part in ("bad.pdn", "A - B", "2.", "'32-27'", e.position or "?", "37-32"):
        assert part in text
    assert e.position == "W:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,19,20,23:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
    assert e.legal_moves is not None and "37-32" in e.legal_moves


def test_pdn_syntax_comments_variations_nags_numbers_and_both_result_conventions() -> None:
    text = """% a line comment
[Event "Syntax"]
[GameType "20,W,10,10,N2,0"]
[Result "1-1"]
{before} 1.33-28! {after 33-28} (1. 32-28 $2 19-23) 18-22 $1 2. 38-33 12-18 03. 34- 29 19-23 4. 28x19 14x34
5. 40x29 07-12 1-1
"""
    (rec,) = records.loads(text)
    assert rec.pre_comments == ["before"]
    assert rec.moves == ["33-28", "18-22", "38-33", "12-18", "34-29", "19-23", "28x19", "14x34", "40x29", "07-12"]
    assert rec.turns[0].nags == ["!"] and rec.turns[0].comments == ["after 33-28"]
    assert rec.turns[0].variations == ["1. 32-28 $2 19-23"]
    assert rec.turns[1].nags == ["$1"] and rec.turns[1].black
    assert rec.terminator == "1-1"
    (g,) = records.replay(rec)
    assert g.error is None and len(g.states) == 11
    assert records.loads(records.format_record(rec)) == [rec]
    gt = records.game_type_for("20")
    assert records.result_winner("2-0", gt) == records.result_winner("1-0", gt) == 0
    assert records.result_winner("1-1", gt) == records.result_winner("1/2-1/2", gt) == -1
    # English checkers: the first number is Black's, Black (player 1) starts.
    assert records.result_winner("1-0", records.game_type_for("21")) == 1


def test_game_types_map_to_game_ids_and_back() -> None:
    assert {n: records.game_type_for(str(n)).game_id for n in (20, 21, 25, 26, 90, 91, 92)} == {
        20: "international", 21: "checkers", 25: "russian", 26: "brazilian", 90: "tablero", 91: "damas", 92: "damas_10x10"}
    assert records.game_type_for("21,B,8,8,N1,0").game_id == "checkers"
    for gid in ("tablut", "kharbaga", "zamma", "backgammon"):
        assert records.game_type_for(gid).game_id == gid
    with pytest.raises(RecordError, match="Czech"):
        records.game_type_for("29")
    with pytest.raises(RecordError, match="8x8"):
        records.game_type_for("25,W,10,10,A0,0")
    # Our long forms say who starts: tablero draws it.
    for seed in range(6):
        start = ludoteca.Game("tablero").new_state(seed)
        rec = records.write_game(None, start, [start.legal_moves()[0]])
        assert rec.tags["GameType"] in ("90,B,8,8,N2,0", "90,W,8,8,N1,0")
        (g,) = records.replay(rec)
        assert g.states[0].to_string() == start.to_string()


def test_russian_records_are_written_in_algebraic_notation_with_colons() -> None:
    start = ludoteca.Game("russian").new_state()
    st = start.clone()
    for m in ("22-18", "11-15", "18x11"):
        st.play(m)
    rec = records.write_game(None, start, ["22-18", "11-15", "18x11"])
    assert rec.moves == ["c3-d4", "f6-e5", "d4:f6"]


def test_to_arrays_gives_one_row_per_decision_with_the_action_taken(tmp_path: Path) -> None:
    f = tmp_path / "g.pdn"
    for seed in range(3):
        start, played = _random_game("international", seed)
        records.write_game(f, start, played)
    data = records.to_arrays(f, masks=True)
    n = len(data)
    assert data.observations.shape == (n, 26, 10, 10) and data.observations.dtype == np.float32
    assert data.masks is not None and data.masks[np.arange(n), data.actions].all()
    assert set(np.unique(data.game_index)) == {0, 1, 2}
    assert set(np.unique(data.players)) <= {0, 1}
    assert np.isin(data.outcomes[~np.isnan(data.outcomes)], [-1.0, 0.0, 1.0]).all()
    # Replaying the rows' actions from the start reproduces each game.
    assert n >= sum(len(g.moves) for g in records.replay(f))


def test_to_arrays_splits_backgammon_turns_into_checker_moves(tmp_path: Path) -> None:
    f = tmp_path / "bg.pdn"
    start, played = _random_game("backgammon", 1)
    records.write_game(f, start, played)
    data = records.to_arrays(f)
    (g,) = records.replay(f)
    assert len(data) > len(g.moves)  # 1-4 checker moves per turn
    assert (data.actions < 150).all()


def test_cli_replay_prints_a_summary_and_fails_on_a_bad_record(tmp_path: Path) -> None:
    good = tmp_path / "good.pdn"
    start, played = _random_game("checkers", 2)
    records.write_game(good, start, played)
    out = io.StringIO()
    assert records_cli.run(records_cli_args([str(good)]), out) == 0
    assert "good.pdn" in out.getvalue()
    bad = tmp_path / "bad.pdn"
    bad.write_text('[GameType "21"]\n1. 9-14 22-17 2. 14-19 *\n')
    out = io.StringIO()
    assert records_cli.run(records_cli_args([str(bad)]), out) == 1
    assert "illegal move: 1" in out.getvalue()


CHECKERS_NO_TAG = """[Event "Manchester 1841"]
[Black "Moorhead, W."]
[White "Wyllie, J."]
[Result "0-1"]
1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 15x22 25x18 5. 4-8 26-22 *
"""
START_32 = "B:W" + ",".join(map(str, range(21, 33))) + ":B" + ",".join(map(str, range(1, 13)))


@pytest.mark.parametrize(
    "text, expected",
    [
        (CHECKERS_NO_TAG, "checkers"),
        (f'[FEN "{START_32}"]\n1. 11-15 24-20 *\n', "checkers"),
        ("1. 32-28 19-23 2. 28x19 14x23 *\n", "international"),
        ("1. 22-18 *\n", "international"),
        ('[GameType "20"]\n1. 32-28 19-23 *\n', "international"),
    ],
)
def test_a_record_without_gametype_is_read_as_checkers_where_its_squares_leave_no_doubt(text: str, expected: str) -> None:
    # PDN's default is international, but a 32-square record (a first move from Black's squares 1-12,
    # or a FEN and moves within 1-32) can only be English checkers.
    (rec,) = records.loads(text)
    assert records.game_of(rec)[0].id == expected
    if "22-18" not in text:
        (g,) = records.replay([rec])
        assert g.error is None and g.game.id == expected


def test_cli_replay_says_which_rules_it_assumed_and_how_to_choose(tmp_path: Path) -> None:
    ok = tmp_path / "ok.pdn"
    ok.write_text(CHECKERS_NO_TAG)
    out = io.StringIO()
    assert records_cli.run(records_cli_args([str(ok)]), out) == 0
    assert "note: ok.pdn: 1 game without a GameType tag replayed as checkers: its first move starts on a square of 1-12" in out.getvalue()
    # A record of white's first move in checkers notation: not one of the games inferred, so the PDN default.
    bad = tmp_path / "bad.pdn"
    bad.write_text(CHECKERS_NO_TAG + "\n[Event \"white first\"]\n1. 22-18 *\n")
    out = io.StringIO()
    assert records_cli.run(records_cli_args([str(bad)]), out) == 1
    text = out.getvalue()
    assert "replayed as international: PDN's default for a record without a GameType tag; 1 failed: if they are another game, name it with --game (" in text
    assert "checkers" in text.split("--game (")[1]


def records_cli_args(files: list[str]):  # type: ignore[no-untyped-def]
    from ludoteca.cli import build_parser

    return build_parser().parse_args(["replay", "--no-progress", *files])


def test_play_save_writes_a_record_that_replays(tmp_path: Path) -> None:
    from ludoteca.cli import main

    f = tmp_path / "games.pdn"
    for game_id in ("tablut", "backgammon"):
        import contextlib

        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["play", game_id, "--p0", "random", "--p1", "random", "--seed", "1", "--save", str(f)]) == 0
    games = list(records.replay(f))
    assert [g.game.id for g in games] == ["tablut", "backgammon"]
    assert all(g.error is None for g in games)


@needs_shared
def test_backgammon_match_files_replay_checker_play_and_winners_agree() -> None:
    # The small BackgammonGalaxy and gnubg matches (Jellyfish format); the
    # 112 Hardy files take ~40 s and are reported in docs/records.md.
    assert SHARED is not None
    files = sorted((SHARED / "backgammon" / "backgammongalaxy").glob("*.txt")) + sorted((SHARED / "backgammon" / "gnubg_selfplay").glob("*.mat"))
    games = [g for f in files for g in records.replay(f, errors="keep")]
    assert len(games) == 13 and all(g.error is None for g in games), [str(g.error) for g in games if g.error]
    ended = [g for g in games if g.ended_on_board]
    assert len(ended) == 7 and all(g.result_agrees for g in ended)
    # Points: the cube value times single / gammon / backgammon.
    for g in ended:
        cube = max([int(c.split()[-1]) for t in g.record.turns for c in t.comments if "=>" in c] or [1])
        assert int(g.record.tags["Points"]) == cube * abs(int(g.final.returns()[0]))


def test_jellyfish_notation_bar_off_repeats_and_a_one_die_last_bear_off() -> None:
    text = """ 1 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 66: 24/18(2) 13/7(2)
      Wins 1 point
"""
    (rec,) = records.loads_match(text)
    assert rec.moves == ["31: 8/5 6/5", "66: 24/18 24/18 13/7 13/7"]
    assert rec.tags["Result"] == "1-0" and rec.turns[1].black
    (g,) = records.replay(rec)
    assert g.error is None and not g.ended_on_board
    game = ludoteca.Game("backgammon", chance="explicit")
    st = game.state_from_string("bbeBBQACAAAAAA:MAEgAAAAAAAA")  # one checker on the 2-point
    (c,) = records.replay(records.Record(tags={"GameType": "backgammon", "FEN": st.to_string()}, turns=[records.Turn("21: 2/off")]))
    assert c.error is None and c.final.is_terminal() and len(c.moves) == 1  # "2/off" as written: the core reads it (compact forms)


@needs_shared
def test_acf_checkers_transcription_replays_with_english_checkers_rules() -> None:
    # 9,377 games, 460,287 moves replay in ~2 minutes (docs/records.md); CI replays the first 400.
    assert SHARED is not None
    lines = (SHARED / "checkers" / "ACF.txt").read_text().splitlines()
    assert len(lines) == 9377
    recs = records.loads_acf("\n".join(lines[:400]))
    assert recs[0].tags["GameType"] == "21" and recs[0].moves[:3] == ["10-15", "23-19", "7-10"]
    games = list(records.replay(recs, errors="keep"))
    assert all(g.error is None for g in games), [str(g.error) for g in games if g.error][:3]
    assert sum(len(g.moves) for g in games) > 15000


def test_a_game_from_a_set_up_position_carries_its_fen_and_reads_back(game_id: str) -> None:
    start, played = _random_game(game_id, 7)
    st = start.clone()
    strings = [m for m in played if isinstance(m, str)]
    k = 0
    for m in played:  # advance six turns (and their dice) to a mid-game start
        if k == 6:
            break
        st.play(m) if isinstance(m, str) else st.apply_action(m)
        k += isinstance(m, str)
    if st.is_terminal() or st.is_chance_node():
        pytest.skip("the sample game ended early")
    rest = played[played.index(strings[5]) + 1 :] if len(strings) > 6 else []
    rec = records.write_game(None, st, rest)
    assert rec.tags["SetUp"] == "1" and rec.tags["FEN"] == st.to_string()
    (back,) = records.loads(records.format_record(rec))
    (g,) = records.replay(back)
    assert g.states[0].to_string() == st.to_string()
    assert len(g.moves) == len(back.turns)
