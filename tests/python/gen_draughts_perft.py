"""Computes the reference libraries' perft numbers for the draughts validation
presets and writes tests/data/perft/draughts_reference.json.

Libraries (test-only, never runtime dependencies of ludoteca):
  * pydraughts  (`pip install pydraughts`, module `draughts`, variants
    'standard' = international, 'english', 'russian', 'brazilian');
  * py-draughts (`pip install --target .pydeps/py_draughts py-draughts`; it also
    installs a top-level module `draughts`, so it is loaded from that folder
    in a separate process).

Libraries count *moves* (capture paths); ludoteca's perft counts *distinct
successor positions* (spec README "perft"). For each library both are recorded:
`moves` (the library's own perft) and `positions` (children deduplicated by
the library's FEN after the move), so that like is compared with like.

Usage: python tests/python/gen_draughts_perft.py [--quick | --midgame]
"""
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "perft", "draughts_reference.json")
PYDEPS = os.path.join(ROOT, ".pydeps", "py_draughts")

PUBLISHED = {
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961],
    "checkers": [7, 49, 302, 1469, 7361, 36768, 179740, 845931],
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929899],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907830],
}

PYDRAUGHTS_VARIANT = {"international": "standard", "checkers": "english", "russian": "russian", "brazilian": "brazilian"}
PY_DRAUGHTS_BOARD = {"international": "StandardBoard", "brazilian": "BrazilianBoard", "russian": "RussianBoard"}


def perft_pair(children, key, board, depth):
    """(moves, positions) perft with `children(board)` -> moves: `moves` is the
    library's own count (a position without moves counts 0), `positions` is
    ludoteca's definition (children deduplicated by position, a terminal
    position is one leaf at any depth)."""
    if depth == 0:
        return 1, 1
    moves = children(board)
    if not moves:
        return 0, 1
    if depth == 1:
        keys = set()
        for m in moves:
            board.push(m)
            keys.add(key(board))
            board.pop()
        return len(moves), len(keys)
    total_m = total_p = 0
    seen = set()
    for m in moves:
        board.push(m)
        k = key(board)
        pm, pp = perft_pair(children, key, board, depth - 1)
        total_m += pm
        if k not in seen:
            seen.add(k)
            total_p += pp
        board.pop()
    return total_m, total_p


def run_pydraughts(game, depth):
    import draughts  # pydraughts

    board = draughts.Board(variant=PYDRAUGHTS_VARIANT[game], fen="startpos")
    moves, positions = [], []
    for d in range(1, depth + 1):
        m, p = perft_pair(lambda b: b.legal_moves(), lambda b: b.fen, board, d)
        moves.append(m)
        positions.append(p)
    return moves, positions


PY_DRAUGHTS_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import draughts
sys.path.insert(0, sys.argv[4])
from gen_draughts_perft import perft_pair
board = getattr(draughts, sys.argv[2])()
depth = int(sys.argv[3])
res = [perft_pair(lambda b: list(b.legal_moves), lambda b: b.fen, board, d) for d in range(1, depth + 1)]
print(json.dumps({"version": getattr(draughts, "__version__", "?"), "moves": [r[0] for r in res], "positions": [r[1] for r in res]}))
"""


def run_py_draughts(game, depth):
    out = subprocess.run(
        [sys.executable, "-c", PY_DRAUGHTS_CHILD, PYDEPS, PY_DRAUGHTS_BOARD[game], str(depth), os.path.dirname(__file__)],
        capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def to_ludoteca(game, fen):
    """A library FEN (numeric or algebraic squares, either list order) as a
    ludoteca position string (B list, then W list, ascending, K marks kings)."""
    fen = fen.strip()
    if fen.startswith("[FEN"):
        fen = fen.split('"')[1]
    side, *lists = fen.split(":")
    size = 10 if game == "international" else 8
    half = size // 2
    pieces = {"B": [], "W": []}
    for part in lists:
        colour, items = part[0], part[1:]
        if colour not in "BW":
            continue
        for item in filter(None, items.split(",")):
            king = item.startswith("K")
            item = item.lstrip("K")
            if item[0].isalpha():
                col = ord(item[0]) - ord("a")
                row = size - int(item[1:])
                sq = row * half + col // 2 + 1
            else:
                sq = int(item)
            pieces[colour].append((sq, king))
    text = lambda c: c + ",".join(("K%d" if k else "%d") % sq for sq, k in sorted(pieces[c]))
    return "%s:%s:%s" % (side[0], text("B"), text("W"))


def random_positions(game, count, plies, seed):
    """Positions after `plies` random pydraughts moves (games that end early are skipped)."""
    import random
    import draughts  # pydraughts

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = draughts.Board(variant=PYDRAUGHTS_VARIANT[game], fen="startpos")
        for _ in range(plies):
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))
        else:
            if board.legal_moves():
                out.append(board)
    return out


def write_midgame(game, count=4, plies=(16, 30, 44, 58), depth=3):
    """tests/data/perft/<game>.midgame.txt: pydraughts distinct-position perft
    from random mid-game positions, read by the Rust perft runner."""
    lines = [
        "# Mid-game positions from random pydraughts %s games (seeded), converted to" % version("pydraughts"),
        "# ludoteca strings; counts are pydraughts' perft with children deduplicated by",
        "# position and terminal positions counted as one leaf (ludoteca's perft). Generated by",
        "# tests/python/gen_draughts_perft.py.",
    ]
    for i, n in enumerate(plies[:count]):
        board = random_positions(game, 1, n, seed=1000 + i)[0]
        lines.append("position " + to_ludoteca(game, board.fen))
        for d in range(1, depth + 1):
            m, p = perft_pair(lambda b: b.legal_moves(), lambda b: b.fen, board, d)
            lines.append("perft %d %d%s" % (d, p, "" if m == p else "  # pydraughts moves: %d" % m))
    path = os.path.join(ROOT, "tests", "data", "perft", "%s.midgame.txt" % game)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", path, flush=True)


def version(dist):
    try:
        from importlib.metadata import version as v
        return v(dist)
    except Exception:
        return "?"


def main():
    quick = "--quick" in sys.argv
    if "--midgame" in sys.argv:
        for game in PUBLISHED:
            write_midgame(game, depth=2 if game == "international" else 3)
        return
    result = {"_about": __doc__.strip().splitlines()[0], "published": PUBLISHED}
    for game in PUBLISHED:
        entry = {}
        depth = 3 if quick else (4 if game == "international" else 5)
        t = time.time()
        m, p = run_pydraughts(game, depth)
        entry["pydraughts"] = {
            "source": "pydraughts %s, Board(variant=%r, fen='startpos'), legal_moves/push/pop" % (version("pydraughts"), PYDRAUGHTS_VARIANT[game]),
            "moves": m, "positions": p, "seconds": round(time.time() - t, 1),
        }
        if game in PY_DRAUGHTS_BOARD and os.path.isdir(PYDEPS):
            depth = 4 if quick else 6
            t = time.time()
            r = run_py_draughts(game, depth)
            entry["py-draughts"] = {
                "source": "py-draughts %s, %s(), legal_moves/push/pop" % (r["version"], PY_DRAUGHTS_BOARD[game]),
                "moves": r["moves"], "positions": r["positions"], "seconds": round(time.time() - t, 1),
            }
        result[game] = entry
        print(game, json.dumps(entry), flush=True)
    with open(OUT, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
