"""ludoteca's draughts perft against the reference libraries, computed live.

Skipped unless `ludoteca` (built with maturin) and the test-only libraries are
importable: pydraughts (`pip install pydraughts`) and, for py-draughts, the
folder `.pydeps/py_draughts` (`pip install --target .pydeps/py_draughts
py-draughts`; it also installs a module named `draughts`, so it is loaded in a
subprocess). Counts compare like with like: library children deduplicated by
position and terminal positions counted as one leaf (ludoteca's perft).
"""
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from gen_draughts_perft import (  # noqa: E402
    PY_DRAUGHTS_BOARD, PYDEPS, PYDRAUGHTS_VARIANT, PUBLISHED, perft_pair, random_positions, to_ludoteca,
)

ludoteca = pytest.importorskip("ludoteca")
GAMES = ["international", "brazilian", "russian", "checkers"]
# Depths that run in a few seconds with pydraughts (pure Python).
LIVE_DEPTH = {"international": 2, "brazilian": 3, "russian": 3, "checkers": 3}


def ours_start(game, depth):
    return ludoteca.Game(game).new_state(seed=0).perft(depth)


@pytest.mark.parametrize("game", GAMES)
def test_published_start_counts(game):
    for depth, want in enumerate(PUBLISHED[game][:6], start=1):
        assert ours_start(game, depth) == want, (game, depth)


@pytest.mark.parametrize("game", GAMES)
def test_pydraughts_start_live(game):
    draughts = pytest.importorskip("draughts")
    board = draughts.Board(variant=PYDRAUGHTS_VARIANT[game], fen="startpos")
    state = ludoteca.Game(game).new_state(seed=0)
    assert state.to_string() == ludoteca.Game(game).state_from_string(to_ludoteca(game, board.fen)).to_string()
    for depth in range(1, LIVE_DEPTH[game] + 1):
        _, positions = perft_pair(lambda b: b.legal_moves(), lambda b: b.fen, board, depth)
        assert state.perft(depth) == positions, (game, depth)


@pytest.mark.parametrize("game", GAMES)
def test_pydraughts_midgame_live(game):
    pytest.importorskip("draughts")
    g = ludoteca.Game(game)
    for i, board in enumerate(random_positions(game, 3, 20, seed=7)):
        state = g.state_from_string(to_ludoteca(game, board.fen))
        for depth in range(1, LIVE_DEPTH[game]):
            _, positions = perft_pair(lambda b: b.legal_moves(), lambda b: b.fen, board, depth)
            assert state.perft(depth) == positions, (game, i, board.fen, depth)


@pytest.mark.skipif(not os.path.isdir(PYDEPS), reason="py-draughts not installed in .pydeps/py_draughts")
@pytest.mark.parametrize("game", sorted(PY_DRAUGHTS_BOARD))
def test_py_draughts_start_live(game):
    child = (
        "import json, sys; sys.path.insert(0, %r); import draughts; sys.path.insert(0, %r);"
        "from gen_draughts_perft import perft_pair;"
        "b = draughts.%s(); print(json.dumps([perft_pair(lambda x: list(x.legal_moves), lambda x: x.fen, b, d)[1] for d in (1, 2, 3, 4)]))"
    ) % (PYDEPS, HERE, PY_DRAUGHTS_BOARD[game])
    out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True)
    want = json.loads(out.stdout.strip().splitlines()[-1])
    assert [ours_start(game, d) for d in (1, 2, 3, 4)] == want
