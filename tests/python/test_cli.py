"""The command line: list, play (random and human), perft."""

import io
import subprocess
import sys

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
