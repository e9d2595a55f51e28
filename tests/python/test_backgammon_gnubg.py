"""Legal moves of ludoteca's backgammon against GNU Backgammon's move generator.

Plays seeded random games with explicit chance and, at the start of every turn,
compares ``state.legal_moves()`` with ``gnubg.find_best_moves`` (PyPI ``gnubg``):
the same number of distinct moves, and the same resulting positions for every
gnubg move that can be replayed (gnubg's Python move tuples stop at the first
checker borne off, so moves with a bear-off are checked by count only).

Skipped when ``gnubg`` or ``ludoteca`` is not importable.
"""

import base64
import random

import pytest

gnubg = pytest.importorskip("gnubg")
ludoteca = pytest.importorskip("ludoteca")

POSITIONS = 3000


def dice_of(match_id: str) -> tuple[int, int]:
    """Dice of a Match ID (bits 15-17 and 18-20, least significant bit first)."""
    bits = int.from_bytes(base64.b64decode(match_id + "=" * (-len(match_id) % 4)), "little")
    return (bits >> 15) & 7, (bits >> 18) & 7


def replay(board, pairs) -> str:
    """Position ID after the player on roll (board[1]) plays ``pairs``, seen with the turn passed."""
    opp, me = list(board[0]), list(board[1])
    for frm, to in pairs:
        me[frm - 1] -= 1
        if to > 0:
            if opp[24 - to] == 1:
                opp[24 - to] = 0
                opp[24] += 1
            me[to - 1] += 1
    return gnubg.position_id((tuple(me), tuple(opp)))


def gnubg_moves(position_id: str, dice: tuple[int, int]):
    board = gnubg.position_from_id(position_id)
    found = gnubg.find_best_moves(board, gnubg.cube_info(), gnubg.eval_context(0, 0, 0, 0), dice)
    tuples = [tuple(m["move"]) for m in found]
    ends = {replay(board, list(zip(t[0::2], t[1::2]))) for t in tuples if len(t) % 2 == 0}
    return len(found), ends


def our_moves(state):
    ends = set()
    moves = state.legal_moves()
    for move in moves:
        child = state.clone()
        child.play(move)
        # Explicit chance: the opponent is to roll (or the game is over, turn
        # with the loser), so the mover is the side written first in the key.
        ends.add(child.to_string().split(":")[0])
    return moves, ends


def turn_start_positions(count: int, seed: int):
    game = ludoteca.Game("backgammon", chance="explicit")
    rng = random.Random(seed)
    game_seed = 0
    while True:
        state = game.new_state(seed=game_seed)
        game_seed += 1
        while not state.is_terminal():
            if state.current_player == -1:
                outcomes = state.chance_outcomes()
                state.apply_action(int(rng.choice(outcomes)[0]))
                continue
            text = state.to_string()
            if text.count(":") == 1:  # the start of a turn, no die played yet
                yield state.clone(), text
                count -= 1
                if count == 0:
                    return
            state.apply_action(int(rng.choice(list(state.legal_actions()))))


def test_legal_moves_match_gnubg():
    if "backgammon" not in ludoteca.games():
        pytest.skip("backgammon is not registered in this build")
    compared = 0
    for state, text in turn_start_positions(POSITIONS, seed=2024):
        position_id, match_id = text.split(":")
        moves, ours = our_moves(state)
        count, theirs = gnubg_moves(position_id, dice_of(match_id))
        assert len(moves) == count, f"{text}: {len(moves)} moves, gnubg {count}: {moves}"
        assert theirs <= ours, f"{text}: gnubg positions we miss: {sorted(theirs - ours)}"
        compared += 1
    assert compared == POSITIONS


def test_opening_position_id_matches_gnubg():
    game = ludoteca.Game("backgammon", chance="explicit")
    text = game.new_state(seed=0).to_string()
    assert text.split(":")[0] == "4HPwATDgc/ABMA"
    assert gnubg.position_from_id("4HPwATDgc/ABMA") == gnubg.position_from_id(text.split(":")[0])
