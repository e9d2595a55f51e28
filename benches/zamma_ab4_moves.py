"""Seconds per move of ``alphabeta:depth=4`` in zamma (issue #13: the arena
ladder saw single moves take 12-40 s).

A short ladder-like match: ``alphabeta:depth=4`` against
``alphabeta:depth=2``, game ``k`` from 4-turn random opening ``k // 2``
(``make_openings``, as ``python -m ludoteca.arena --openings 4``), colours
swapped on odd ``k``. Every move of the depth-4 agent is timed (wall clock
and this process's CPU time, which other load on the machine changes less)
and its search nodes counted; prints the slowest moves and the totals.

    python benches/zamma_ab4_moves.py [--games 10] [--max-turns 500]
    python benches/zamma_ab4_moves.py --positions   # ab4 on the ladder's slow positions

``--positions``: one ``alphabeta:depth=4`` move from each position of
``SLOW`` (the ladder's 39.5 s move, then the three positions of its search
whose turn listing cost most), seconds and nodes.

Wall-clock numbers depend on the machine's load: say how loaded it was.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from ludoteca.agents.search import AlphaBetaAgent
from ludoteca.arena import play_game
from ludoteca.arena.play import arena_game, make_openings


SLOW = [
    "ww7/wwwww3b/9/wwww1ww2/2w1w4/9/1w5bb/4w3b/8b w",
    "ww6B/w1www4/1w7/wwww1ww2/2w6/5w3/1w5bb/4w3b/8b b",
    "ww6B/wwwww4/9/wwww1ww2/9/1w3w3/1w5bb/4w3b/8b b",
    "1w6B/wwwww4/1w7/wwww1ww2/2w1w4/9/1w5bb/4w3b/8b b",
]


class Timed:
    """An alpha-beta agent that records (wall s, CPU s, nodes, position) per move."""

    def __init__(self, depth: int) -> None:
        self.agent = AlphaBetaAgent(depth=depth)
        self.moves: list[tuple[float, float, int, str]] = []

    def __call__(self, state: Any) -> str:
        w, c = time.perf_counter(), time.process_time()
        move = self.agent.act(state)
        self.moves.append((time.perf_counter() - w, time.process_time() - c, self.agent.last["nodes"], state.to_string()))
        return move


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--max-turns", type=int, default=500)
    ap.add_argument("--positions", action="store_true")
    args = ap.parse_args()
    if args.positions:
        game = arena_game("zamma")
        for text in SLOW:
            agent = Timed(4)
            agent(game.state_from_string(text))
            wall, cpu, nodes, _ = agent.moves[0]
            print(f"{wall:8.3f} s wall {cpu:8.3f} s CPU {nodes:7d} nodes  {text}")
        return
    options = {"max_turns": args.max_turns}
    game = arena_game("zamma", options)
    openings = make_openings(game, (args.games + 1) // 2, 4, seed=0)
    deep = Timed(4)
    t0 = time.perf_counter()
    results = []
    for k in range(args.games):
        shallow = Timed(2)
        players = [deep, shallow] if k % 2 == 0 else [shallow, deep]
        record = play_game("zamma", players, start=openings[k // 2], options=options)
        results.append(record["result"] if k % 2 == 0 else {"1-0": "0-1", "0-1": "1-0"}.get(record["result"], record["result"]))
    total = time.perf_counter() - t0
    moves = sorted(deep.moves, reverse=True)
    print(f"{args.games} games, {total:.1f} s; ab4's results (as 1-0 = ab4 won): {results}")
    print(f"ab4: {len(moves)} moves, {sum(m[0] for m in moves):.1f} s wall, {sum(m[1] for m in moves):.1f} s CPU")
    print("slowest ab4 moves: wall s, CPU s, search nodes, position")
    for m in moves[:5]:
        print(f"  {m[0]:7.3f} {m[1]:7.3f} {m[2]:8d}  {m[3]}")


if __name__ == "__main__":
    main()
