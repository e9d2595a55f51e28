"""The larger tactics suite: wins at once and forced wins in two turns from
seeded random games of every game (tools/gen_tactics.py's generator and
brute force, more positions than tests/data/tactics holds), and how many of
them each built-in agent solves, with its time per move (CPU seconds).

    python benches/tactics_bench.py [--once 50] [--in2 12] [--games kharbaga ...] [--json OUT]
    python benches/tactics_bench.py --quick      # a smoke run (tests)

An agent solves a win at once when its turn ends the game won, a win in two
when its first move is one of the moves brute force proved forcing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import ludoteca
from ludoteca.agents import make_agent

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from gen_tactics import after, generate  # noqa: E402

AGENTS = ["greedy", "alphabeta:depth=1", "alphabeta:depth=3", "mcts:simulations=400"]


def play_turn(agent, state):  # type: ignore[no-untyped-def]
    from ludoteca.agents import apply_choice

    s = state.clone()
    mover = s.current_player
    while s.current_player == mover and not s.is_terminal():
        apply_choice(s, agent.act(s))
    return s


def bench(game_id: str, once: int, in2: int, seed: int) -> dict:  # type: ignore[type-arg]
    game = ludoteca.Game(game_id)
    lines = [line.split("\t") for line in generate(game_id, once, in2, seed)]
    out: dict = {"game": game_id, "once": sum(k == "once" for _, k, *_ in lines), "in2": sum(k == "in2" for _, k, *_ in lines), "agents": {}}  # type: ignore[type-arg]
    for spec in AGENTS:
        if game_id == "backgammon" and spec.startswith("alphabeta"):
            continue
        solved = {"once": 0, "in2": 0}
        cpu = 0.0
        moves = 0
        for text, kind, *wins in lines:
            s = game.state_from_string(text)
            mover = s.current_player
            agent = make_agent(spec, game_id, seed=1)
            t0 = time.process_time()
            end = play_turn(agent, s)
            cpu += time.process_time() - t0
            moves += 1
            if kind == "once":
                solved["once"] += int(end.is_terminal() and bool(end.returns()[mover] > 0))
            else:
                solved["in2"] += int(not end.is_terminal() and end.to_string() in {after(s, m).to_string() for m in wins})
        out["agents"][spec] = {**solved, "cpu_seconds_per_move": cpu / max(moves, 1)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--once", type=int, default=50)
    ap.add_argument("--in2", type=int, default=12)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--games", nargs="*", default=ludoteca.games())
    ap.add_argument("--json")
    ap.add_argument("--quick", action="store_true", help="2 and 1 positions of kharbaga only")
    args = ap.parse_args()
    if args.quick:
        args.once, args.in2, args.games = 2, 1, ["kharbaga"]
    results = []
    for g in args.games:
        r = bench(g, args.once, args.in2, args.seed)
        results.append(r)
        row = ", ".join(f"{a} {v['once']}/{r['once']} + {v['in2']}/{r['in2']} ({v['cpu_seconds_per_move'] * 1000:.1f} ms)" for a, v in r["agents"].items())
        print(f"{g}: {row}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
