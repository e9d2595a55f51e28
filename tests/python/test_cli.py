"""The command line: list, play (random and human), perft."""

import io
import subprocess
import sys

import pytest

import ludoteca
from ludoteca import cli


def run(*argv: str) -> str:
    out = subprocess.run([sys.executable, "-m", "ludoteca", *argv], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_list_names_every_game() -> None:
    text = run("list")
    for gid in ludoteca.games():
        assert gid in text


def test_play_random_game_to_the_end() -> None:
    text = run("play", "tablut", "--p0", "random", "--p1", "random", "--seed", "3", "--option", "max_turns=30")
    assert "turn 1: player 0 plays" in text
    assert "game over" in text or "truncated after 30 turns" in text


def test_perft_prints_counts() -> None:
    text = run("perft", "tablut", "2")
    lines = [l.split() for l in text.splitlines()[2:]]
    expected = ludoteca.Game("tablut").new_state().perft(2)
    assert lines[1][0] == "2" and int(lines[1][1].replace(",", "")) == expected


def test_human_input_refused_then_accepted() -> None:
    state = ludoteca.Game("tablut").new_state()
    good = state.legal_moves()[0]
    inp = io.StringIO(f"e5-e9\nnonsense\nmoves\n{good}\n")
    out = io.StringIO()
    args = cli.build_parser().parse_args(["play", "tablut", "--p0", "human", "--p1", "random", "--option", "max_turns=1"])
    cli.cmd_play(args, out, inp)
    text = out.getvalue()
    assert text.count("refused: bad move") == 2
    assert f"player 0 plays {good}" in text


def test_cli_reports_bad_game() -> None:
    out = subprocess.run([sys.executable, "-m", "ludoteca", "perft", "nope", "1"], capture_output=True, text=True)
    assert out.returncode == 2 and "unknown game 'nope'" in out.stderr


# --- Playing from the text alone: help, quit, Ctrl-C, resign, draw offers, backgammon forms.


def play(argv: list[str], lines: list[str]) -> tuple[int, str]:
    """Runs ``play`` with ``lines`` as the typed input; (exit code, transcript)."""
    out = io.StringIO()
    args = cli.build_parser().parse_args(["play", *argv])
    code = cli.cmd_play(args, out, io.StringIO("".join(line + "\n" for line in lines)))
    return code, out.getvalue()


def human_moves(game_id: str, seed: int, turns: int, **options: object) -> list[str]:
    """The moves a human playing player 0 against ``random`` (seed ``seed``)
    would type to play the first legal move ``turns`` times: the command line's
    random player is replayed with the same generator."""
    import random

    state = ludoteca.Game(game_id, **options).new_state(seed=seed)
    rng = random.Random(seed)
    typed: list[str] = []
    while len(typed) < turns and not state.is_terminal():
        if state.current_player == -1:
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, weights=probs)[0])
        elif state.current_player == 0:
            typed.append(state.legal_moves()[0])
            state.play(typed[-1])
        else:
            state.play(rng.choice(state.legal_moves()))
    return typed


def test_help_explains_the_notation_and_the_commands() -> None:
    for gid in ["tablut", "kharbaga", "damas", "backgammon"]:
        code, text = play([gid, "--seed", "1"], ["help", "quit"])
        family = ludoteca.game_info(gid)["family"]
        assert cli.NOTATION[family] in text
        for command in ["moves", "resign", "draw", "quit", "help"]:
            assert command in text.split("commands:")[1]
        assert code == 0 and "game abandoned" in text


def test_help_examples_are_legal_moves_from_the_start() -> None:
    for gid, moves in [("tablut", ["e3-h3", "c5-c8"]), ("kharbaga", ["d4-e5"]), ("damas", ["22-18"])]:
        for move in moves:
            ludoteca.Game(gid).new_state(seed=0).play(move)
            assert move in cli.NOTATION[ludoteca.game_info(gid)["family"]]


def test_quit_and_end_of_input_stop_without_a_traceback() -> None:
    code, text = play(["tablut"], ["quit"])
    assert code == 0 and text.endswith("game abandoned\n")
    code, text = play(["tablut"], [])
    assert code == 1 and text.endswith("end of input\n")


def test_ctrl_c_at_the_prompt_stops_quietly() -> None:
    class CtrlC(io.StringIO):
        def readline(self, *_: object) -> str:
            raise KeyboardInterrupt

    out = io.StringIO()
    args = cli.build_parser().parse_args(["play", "tablut"])
    assert cli.cmd_play(args, out, CtrlC()) == 130
    assert out.getvalue().endswith("interrupted: game abandoned\n")


def test_ctrl_c_in_a_real_terminal_session_prints_no_traceback() -> None:
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "ludoteca", "play", "tablut"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # As a terminal starts it: a suite run in the background (`cmd &`) passes SIGINT on
        # ignored, and Python then installs no KeyboardInterrupt handler at all.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    # Wait for the prompt, then interrupt.
    seen = ""
    while "player 0 to move" not in seen:
        seen += proc.stdout.read(1)
    time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    # Wait before communicate() closes stdin: on a busy machine the child could
    # otherwise read end of input before it handles the signal (exit 1, a race
    # of the test, seen under load).
    proc.wait(timeout=60)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Traceback" not in err and "interrupted" in seen + out


def test_resign_ends_the_game_for_the_other_player() -> None:
    code, text = play(["damas", "--seed", "4"], ["resign"])
    assert code == 0
    assert "player 0 resigns" in text and "game over after 0 turns: player 1 wins" in text


def test_resign_in_backgammon_ends_the_game_at_the_command_line() -> None:
    code, text = play(["backgammon", "--seed", "3"], ["resign"])
    assert code == 0 and "player 0 resigns: player 1 wins" in text


def test_resign_refused_when_the_game_options_turn_it_off() -> None:
    code, text = play(["tablut", "--option", "resign=false"], ["resign", "quit"])
    assert "refused: resigning is off in this game" in text and "resigns" not in text


def test_draw_offer_accepted_or_declined_between_two_humans() -> None:
    move = ludoteca.Game("tablut").new_state().legal_moves()[0]
    code, text = play(["tablut", "--p0", "human", "--p1", "human"], ["draw", "accept"])
    assert "player 0 offers a draw" in text and "player 1 accepts the draw" in text
    assert "game over after 0 turns: draw" in text
    code, text = play(["tablut", "--p0", "human", "--p1", "human"], ["draw", "decline", "draw", move, "quit"])
    assert "player 1 declines the draw" in text
    assert "refused: you cannot offer a draw again this turn" in text
    assert f"turn 1: player 0 plays {move}" in text


def test_draw_offer_to_the_random_agent_gets_an_answer() -> None:
    code, text = play(["checkers", "--seed", "0"], ["draw", "quit"])
    assert "player 0 offers a draw" in text
    assert "player 1 accepts the draw" in text or "player 1 declines the draw" in text


def test_accept_without_an_offer_is_refused() -> None:
    code, text = play(["tablut"], ["accept", "quit"])
    assert "refused: no draw offer is pending" in text


def test_draughts_board_shows_the_square_numbers() -> None:
    code, text = play(["damas", "--seed", "0"], ["quit"])
    first = text.splitlines()[2]
    assert first.split()[-4:] == ["1", "2", "3", "4"]


def test_backgammon_moves_are_listed_with_commas_and_compact_forms_are_accepted() -> None:
    game = ludoteca.Game("backgammon", chance="explicit")
    state = game.new_state()
    opening = {game.new_state().action_to_string(a): a for a, _ in state.chance_outcomes()}
    state.apply_action(opening["opening P0 6 P1 3"])
    one_checker = state.clone()
    one_checker.play("24/15")
    strict = state.clone()
    strict.play("24/18 18/15")
    assert one_checker == strict
    # O rolls a double: 24/18(2) 13/7(2), two checkers each.
    roll = {strict.action_to_string(a): a for a, _ in strict.chance_outcomes()}
    strict.apply_action(roll["roll 6-6"])
    compact = strict.clone()
    compact.play("24/18(2) 13/7(2)")
    strict.play("24/18 24/18 13/7 13/7")
    assert compact == strict
    code, text = play(["backgammon", "--seed", "2"], ["moves", "quit"])
    listed = text.split("moves\n")[1].splitlines()[0]
    assert listed.split(", ")[:2] == ["24/23 13/8", "13/8 8/7"]


def test_backgammon_compact_form_errors_name_the_legal_moves() -> None:
    game = ludoteca.Game("backgammon", chance="explicit")
    state = game.new_state()
    opening = {state.action_to_string(a): a for a, _ in state.chance_outcomes()}
    state.apply_action(opening["opening P0 6 P1 3"])
    with pytest.raises(ludoteca.MoveError, match="not a legal move here; legal moves: .*24/15|24/18 18/15"):
        state.play("24/10")


def test_backgammon_compact_form_that_may_hit_on_the_way_is_ambiguous() -> None:
    """One checker moving both dice past an opponent's blot on one of the two
    intermediate points: the two ways differ (one hits), so the short form is
    refused, naming both ways, each a legal move with its own result."""
    import random
    import re

    rng = random.Random(0)
    game = ludoteca.Game("backgammon")
    for seed in range(200):
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            info = state.info()
            a, b = info["die1"], info["die2"]
            if a != b and info["dice_left"] == 2:
                for p in range(24, a + b, -1):
                    try:
                        state.clone().play(f"{p}/{p - a - b}")
                    except ludoteca.MoveError as e:
                        found = re.search(r"ambiguous: it can be played (.+) or (.+) \(they differ", str(e))
                        if found:
                            ends = set()
                            for way in found.groups():
                                assert way in state.legal_moves()
                                child = state.clone()
                                child.play(way)
                                ends.add(child.to_string())
                            assert len(ends) == 2
                            return
            state.play(rng.choice(state.legal_moves()))
    raise AssertionError("no ambiguous compact move met")


def test_backgammon_record_shows_both_sides_in_one_numbering() -> None:
    code, text = play(["backgammon", "--p0", "random", "--p1", "random", "--seed", "5", "--option", "max_turns=6"], [])
    assert "  1. " in text and "  2. " in text and "  3. " in text
    last = [line for line in text.splitlines() if "  3. " in line][-1]
    assert "X " in last.split("  3. ")[1] and "O " in last.split("  3. ")[1]


def test_a_human_game_of_every_family_is_playable_from_the_text() -> None:
    for gid in ["tablut", "kharbaga", "zamma", "damas", "tablero", "checkers", "backgammon"]:
        typed = human_moves(gid, 7, 3)
        code, text = play([gid, "--seed", "7"], [*typed, "resign"])
        assert code == 0, gid
        assert "refused" not in text, (gid, text)
        for move in typed:
            assert f"player 0 plays {move}" in text, gid
        assert "player 0 resigns" in text, gid
