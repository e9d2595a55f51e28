"""The doubling cube against GNU Backgammon: random cube matches played in
ludoteca (``cube=True``, explicit dice) and mirrored move by move in gnubg's
own command interpreter (``gnubg.command``: ``set dice``, ``move``,
``double``, ``take``, ``drop``); after every decision the Position ID and
every Match ID field (cube value and owner, player on roll, Crawford, game
state, player to decide, double offered, dice, match length, scores) of both
programs must agree. gnubg rolls each opening itself; ludoteca is given the
same opening outcome.

Skipped when ``gnubg`` or ``ludoteca`` is not importable.
"""

import base64
import os
import random
import sys

import pytest

gnubg = pytest.importorskip("gnubg")
ludoteca = pytest.importorskip("ludoteca")

FIELDS = {
    "cube": (0, 4), "owner": (4, 2), "on_roll": (6, 1), "crawford": (7, 1), "state": (8, 3),
    "decide": (11, 1), "doubled": (12, 1), "resign": (13, 2), "die1": (15, 3), "die2": (18, 3),
    "length": (21, 15), "score0": (36, 15), "score1": (51, 15),
}


def fields(match_id: str) -> dict:
    """Every Match ID field but the padding bits (gnubg sets one of them)."""
    bits = int.from_bytes(base64.b64decode(match_id + "=" * (-len(match_id) % 4)), "little")
    return {k: (bits >> at) & ((1 << width) - 1) for k, (at, width) in FIELDS.items()}


def quiet(cmd: str) -> None:
    """Runs a gnubg command with its board printout sent to /dev/null."""
    sys.stdout.flush()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.close(null)
    try:
        gnubg.command(cmd)
    finally:
        os.dup2(saved, 1)
        os.close(saved)


@pytest.fixture(scope="module")
def gnubg_humans():
    for c in ["set player 0 human", "set player 1 human", "set automatic roll off", "set sound enable off", "set jacoby off"]:
        quiet(c)
    yield
    # gnubg is one process-wide interpreter: leave a money session (gnubg's
    # default Jacoby on) so that later cube_info() calls have a position.
    for c in ["set jacoby on", "new session"]:
        quiet(c)


def gnubg_string() -> str:
    return f"{gnubg.position_id()}:{gnubg.match_id()}"


def start_game(state) -> None:
    """Gives ludoteca gnubg's opening roll: the starter's die is the larger."""
    info = gnubg.pos_info()
    hi, lo = max(info["dice"]), min(info["dice"])
    d0, d1 = (hi, lo) if info["turn"] == 0 else (lo, hi)
    state.apply_action((d0 - 1) * 6 + d1 - 1)


def play_mirrored(match_length: int, seed: int) -> int:
    """Plays one random cube match in both programs; returns the number of IDs compared."""
    rng = random.Random(seed)
    game = ludoteca.Game("backgammon", chance="explicit", cube=True, match_length=match_length)
    state = game.new_state(seed=seed)
    quiet(f"new match {match_length}" if match_length else "new session")
    compared = 0
    while not state.is_terminal():
        if state.to_string().startswith("4HPwATDgc/ABMA") and ":" in state.to_string() and state.is_chance_node() and fields(state.to_string().split(":")[1])["state"] == 0:
            start_game(state)
        elif state.is_chance_node():
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            hi, lo = max(a, b), min(a, b)
            state.apply_action((hi - 1) * 6 + lo - 1)
            quiet(f"set dice {hi} {lo}")
            if fields(state.to_string().split(":")[1])["die1"] == 0:
                # No legal move: ludoteca passed at once; gnubg waits for an empty move.
                quiet("move")
        else:
            moves = state.legal_moves()
            if moves[0] in ("roll", "take"):
                pick = moves[0] if rng.random() < (0.8 if moves[0] == "roll" else 0.6) else moves[1]
            else:
                pick = rng.choice(moves)
            state.play(pick)
            if pick != "roll":
                quiet(pick if pick in ("double", "take", "drop") else f"move {pick}")
        ours = state.to_string()
        if ours.endswith(":roll") or ours.count(":") == 2:
            continue  # states gnubg has no string for (a chosen roll, mid-turn)
        if state.is_terminal() or fields(ours.split(":")[1])["state"] == 0:
            continue  # gnubg starts the next game (and its opening roll) at once
        theirs = gnubg_string()
        assert ours.split(":")[0] == theirs.split(":")[0], (ours, theirs)
        assert fields(ours.split(":")[1]) == fields(theirs.split(":")[1]), (ours, theirs)
        compared += 1
    return compared


@pytest.mark.parametrize("match_length,seed", [(n, seed) for n in (0, 2, 3, 5, 7) for seed in range(6)])
def test_cube_match_ids_agree_with_gnubg_in_mirrored_matches(gnubg_humans, match_length: int, seed: int) -> None:
    assert play_mirrored(match_length, seed) > 0
