"""Every game prints a board (``str(state)``): coordinates on the edges, the
pieces, whose turn it is, and what the turn carries (huff rights, a capture in
progress, dice and score). Positions are built by hand or reached by playing
one decision at a time until the position string shows the feature."""

from __future__ import annotations

import random
import re
from typing import Callable

import pytest

import ludoteca


def _reach(game: ludoteca.Game, found: Callable[[ludoteca.State], bool], seeds: int = 200) -> ludoteca.State:
    """A state, reached by random decisions, for which ``found`` holds."""
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            if found(state):
                return state
            if state.current_player == -1:
                state.apply_action(state.chance_outcomes()[0][0])
                continue
            state.apply_action(rng.choice(list(state.legal_actions())))
    raise AssertionError("no such state reached")


def test_every_game_prints_a_board_not_its_position_string() -> None:
    for gid in ludoteca.games():
        state = ludoteca.Game(gid).new_state(seed=0)
        text = str(state)
        assert text != state.to_string(), gid
        assert len(text.splitlines()) >= 5, gid
        assert "player" in text, gid


def test_tablut_board_has_coordinates_pieces_and_side_to_move() -> None:
    text = str(ludoteca.Game("tablut").new_state())
    lines = text.splitlines()
    assert lines[0] == "9 # . . M M M . . #"
    assert lines[4] == "5 M M S S K S S M M"
    assert lines[8] == "1 # . . M M M . . #"
    assert lines[9] == "  a b c d e f g h i"
    assert lines[10] == "Swedes (player 0: K, S) to move"


def test_tablut_board_shows_the_empty_throne_and_raichi_tuichi() -> None:
    game = ludoteca.Game("tablut")
    # King on a2, a Muscovite on a5: only a1 is one rook move away.
    raichi = game.state_from_string("9/9/9/9/M8/9/9/K8/4M4 s")
    assert "raichi: the king has a free path to a corner" in str(raichi)
    assert str(raichi).splitlines()[4] == "5 M . . . + . . . ."
    tuichi = game.state_from_string("9/9/9/9/9/9/9/K8/4M4 s")
    assert "tuichi: the king has free paths to 2 corners" in str(tuichi)
    assert "the king reached a corner: the Swedes won" in str(game.state_from_string("K8/9/9/9/9/9/9/9/4M4 m"))


def test_kharbaga_board_draws_the_lines() -> None:
    lines = str(ludoteca.Game("kharbaga").new_state()).splitlines()
    assert lines[0] == "9 w-------w-------w-------w-------w"
    assert lines[1] == "  | \\   / | \\   / | \\   / | \\   / |"
    assert lines[2] == "8 |   w   |   w   |   w   |   w   |"
    assert lines[8] == "5 w-------w-------.-------b-------b"
    assert lines[17] == "  a   b   c   d   e   f   g   h   i"
    assert lines[18] == "b (player 0) to move; removal immediate"


def test_zamma_board_crosses_diagonals_only_through_even_points() -> None:
    lines = str(ludoteca.Game("zamma").new_state()).splitlines()
    assert lines[0] == "9 w---w---w---w---w---w---w---w---w"
    assert lines[1] == "  | \\ | / | \\ | / | \\ | / | \\ | / |"
    assert lines[8] == "5 w---w---w---w---.---b---b---b---b"


@pytest.mark.parametrize("removal", ["immediate", "deferred"])
def test_alquerque_board_shows_a_capture_in_progress(removal: str) -> None:
    game = ludoteca.Game("zamma", removal=removal)
    state = _reach(game, lambda s: "capture=" in s.to_string())
    text = str(state)
    capturing = re.search(r"capture=(\w\d)", state.to_string())
    assert capturing
    assert f"is capturing with the piece on {capturing.group(1)}: it must jump again" in text
    assert re.search(r"\([bwBW]\)", text)
    if removal == "deferred":
        jumped = re.search(r"jumped=([\w,]+)", state.to_string())
        assert jumped
        assert f"jumped so far: {jumped.group(1).replace(',', ', ')}" in text
        assert re.search(r"\[[bwBW]\]", text)
    else:
        assert "jumped so far" not in text


def test_draughts_board_prints_the_square_numbers_the_notation_uses() -> None:
    for gid, n in [("checkers", 32), ("damas", 32), ("international", 50)]:
        lines = str(ludoteca.Game(gid).new_state(seed=0)).splitlines()
        size = 10 if n == 50 else 8
        numbers = [int(x) for line in lines[:size] for x in line[3 + 3 * size :].split()]
        assert numbers == list(range(1, n + 1)), gid


def test_draughts_board_shows_huff_rights_and_a_capture_in_progress() -> None:
    game = ludoteca.Game("damas")
    state = _reach(game, lambda s: ";h=" in s.to_string() and s.current_player >= 0)
    text = str(state)
    squares = re.search(r";h=([\d,]+)", state.to_string())
    assert squares
    assert "may huff (`s<square>`)" in text and squares.group(1).replace(",", ", ") in text
    assert "or force (`f`)" in text
    state = _reach(game, lambda s: ";p=" in s.to_string())
    cap = re.search(r";p=(\d+)x(\d+)", state.to_string())
    assert cap
    assert f"capture in progress: the piece from {cap.group(1)} is on {cap.group(2)}" in str(state)


def test_backgammon_board_shows_dice_and_match_score_in_points() -> None:
    game = ludoteca.Game("backgammon", match_length=3)
    state = game.new_state(seed=1)
    text = str(state)
    assert re.search(r"[XO] \(player [01]\) rolled \d-\d", text)
    assert "match to 3 points, score X 0 - O 0 (gammons count 2, backgammons 3)" in text
    later = _reach(game, lambda s: s.info()["last_game_winner"] >= 0 and s.current_player >= 0, seeds=5)
    info = later.info()
    text = str(later)
    assert f"score X {info['score_p0']} - O {info['score_p1']}" in text
    assert f"won {['', 'a single game', 'a gammon', 'a backgammon'][info['last_game_points']]}" in text
    single = str(ludoteca.Game("backgammon").new_state(seed=0))
    assert "a single game: a gammon pays 2 points, a backgammon 3" in single
