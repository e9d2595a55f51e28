"""Alpha-beta nodes per second: ludoteca against py-draughts' alpha-beta engine.

py-draughts' ``SimpleEngine`` (its alpha-beta engine: negamax, iterative
deepening, transposition table, capture quiescence, killer and history move
ordering) and ``ludoteca.alphabeta_search`` search the same positions
(``international`` and ``russian``: the start and positions after seeded
random moves, converted from py-draughts' FEN) to the same depth, one after
the other in this process. Both count a node per position visited, quiescence
included. The trees differ (other evaluation, other ordering), so the
comparable figure is nodes per second; time to the same depth is printed too.
Times are CPU seconds of this process (both searches run on its main thread),
so that other load on the machine counts less.

    python benches/alphabeta_bench.py            # depths 4 and 6, 4 positions a game
    python benches/alphabeta_bench.py --quick    # smoke test: depth 2, 1 position

Needs py-draughts in .pydeps/py_draughts (see .ci/run). One core each;
numbers vary with the machine's load: say how loaded it was next to them.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYDEPS = os.path.join(ROOT, ".pydeps", "py_draughts")
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

import ludoteca  # noqa: E402
from ludoteca.agents.search import alphabeta_search  # noqa: E402
from gen_draughts_perft import to_ludoteca  # noqa: E402

BOARDS = {"international": "StandardBoard", "russian": "RussianBoard"}


def load_py_draughts():  # type: ignore[no-untyped-def]
    if not os.path.isdir(PYDEPS):
        sys.exit(f"py-draughts not found in {PYDEPS}: pip install --target .pydeps/py_draughts py-draughts")
    sys.path.insert(0, PYDEPS)
    import draughts
    from loguru import logger

    logger.remove()  # the engine logs every search at INFO
    return draughts


def positions(draughts, game: str, count: int, seed: int) -> list:  # type: ignore[no-untyped-def,type-arg]
    """The start, then positions after 6 to 20 seeded random plies (games that end early are skipped)."""
    rng = random.Random(seed)
    board_class = getattr(draughts, BOARDS[game])
    out = [board_class()]
    while len(out) < count:
        board = board_class()
        for _ in range(rng.randint(6, 20)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if list(board.legal_moves):
            out.append(board)
    return out[:count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smoke test: depth 2, one position a game")
    ap.add_argument("--depths", type=int, nargs="+", default=[4, 6])
    ap.add_argument("--positions", type=int, default=4)
    args = ap.parse_args()
    depths, count = ([2], 1) if args.quick else (args.depths, args.positions)
    draughts = load_py_draughts()
    print(f"{'game':<14}{'depth':>6}{'pos':>5}{'ours nodes':>12}{'ours s':>9}{'ours n/s':>12}"
          f"{'py-dr nodes':>13}{'py-dr s':>9}{'py-dr n/s':>11}{'n/s ratio':>11}{'time ratio':>11}")
    summary = []
    for game in BOARDS:
        g = ludoteca.Game(game)
        for depth in depths:
            totals = [0, 0.0, 0, 0.0]
            for i, board in enumerate(positions(draughts, game, count, seed=depth)):
                state = g.state_from_string(to_ludoteca(game, board.fen))
                # CPU time of this process (both run on this thread): the
                # machine is shared, and wall time would count other processes.
                t0 = time.process_time()
                ours = alphabeta_search(state, depth=depth, tt_size=1 << 20)
                ours_s = time.process_time() - t0
                engine = draughts.SimpleEngine(depth_limit=depth)
                t0 = time.process_time()
                engine.get_best_move(board)
                theirs_s = time.process_time() - t0
                row = [ours["nodes"], ours_s, engine.nodes, theirs_s]
                totals = [a + b for a, b in zip(totals, row)]
                print(f"{game:<14}{depth:>6}{i:>5}" + fmt(row))
            print(f"{game:<14}{depth:>6}{'all':>5}" + fmt(totals))
            summary.append((game, depth, totals))
    print("\nsummary (all positions): nodes/s ratio ours / py-draughts")
    for game, depth, t in summary:
        print(f"  {game} depth {depth}: {rate(t[0], t[1]) / max(rate(t[2], t[3]), 1e-9):.0f}x")


def rate(nodes: float, seconds: float) -> float:
    return nodes / max(seconds, 1e-9)


def fmt(row: list) -> str:  # type: ignore[type-arg]
    ours_n, ours_s, theirs_n, theirs_s = row
    return (f"{ours_n:>12}{ours_s:>9.3f}{rate(ours_n, ours_s):>12.0f}{theirs_n:>13}{theirs_s:>9.3f}"
            f"{rate(theirs_n, theirs_s):>11.0f}{rate(ours_n, ours_s) / max(rate(theirs_n, theirs_s), 1e-9):>10.0f}x"
            f"{theirs_s / max(ours_s, 1e-9):>10.0f}x")


if __name__ == "__main__":
    main()
