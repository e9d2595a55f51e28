"""perft nodes/s of ludoteca's draughts against py-draughts, in the same run.

Usage: python benches/perft_draughts.py
Needs `ludoteca` (maturin develop --release) and, for the comparison,
py-draughts in .pydeps/py_draughts (pip install --target .pydeps/py_draughts py-draughts).
ludoteca counts distinct successor positions with bulk counting at the leaves;
py-draughts' numbers are its TurboEngine perft (international) and its board
perft (legal_moves/push/pop, brazilian). Node counts are checked before timing.
"""
import json
import os
import subprocess
import sys
import time

import ludoteca

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYDEPS = os.path.join(ROOT, ".pydeps", "py_draughts")

CASES = [("international", 6, 167140, 7, 1049442), ("brazilian", 6, 37628, 7, 187302)]

PY_DRAUGHTS = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import draughts
game, depth = sys.argv[2], int(sys.argv[3])
if game == "international":
    from draughts.engines.turbo import perft_from_board
    board = draughts.StandardBoard()
    run = lambda: perft_from_board(board, depth)
else:
    board = draughts.BrazilianBoard()
    def perft(b, d):
        moves = list(b.legal_moves)
        if d == 1:
            return len(moves)
        t = 0
        for m in moves:
            b.push(m); t += perft(b, d - 1); b.pop()
        return t
    run = lambda: perft(board, depth)
t = time.perf_counter(); n = run(); dt = time.perf_counter() - t
print(json.dumps({"nodes": n, "seconds": dt}))
"""


def ours(game, depth, want):
    state = ludoteca.Game(game).new_state(seed=0)
    best = None
    for _ in range(3):
        t = time.perf_counter()
        n = state.perft(depth)
        dt = time.perf_counter() - t
        assert n == want, (game, depth, n, want)
        best = dt if best is None else min(best, dt)
    return n / best


def theirs(game, depth, want):
    if not os.path.isdir(PYDEPS):
        return None
    out = subprocess.run([sys.executable, "-c", PY_DRAUGHTS, PYDEPS, game, str(depth)], capture_output=True, text=True, check=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["nodes"] == want, (game, depth, r)
    return r["nodes"] / r["seconds"]


def main():
    print("%-14s %12s %14s %14s %8s" % ("game", "depth (ours)", "ludoteca n/s", "py-draughts n/s", "ratio"))
    for game, d_theirs, n_theirs, d_ours, n_ours in CASES:
        a = ours(game, d_ours, n_ours)
        b = theirs(game, d_theirs, n_theirs)
        ratio = "%.1fx" % (a / b) if b else "-"
        print("%-14s %12d %14.0f %14s %8s" % (game, d_ours, a, "%.0f" % b if b else "-", ratio))


if __name__ == "__main__":
    main()
