"""How soon ``VecEnv.recv(batch_size=k)`` returns the first finished envs,
against a whole ``step`` of the same batch (same run, same machine).

    python benches/vecenv_async_bench.py [--game zamma] [--envs 4000] [--threads 1]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import ludoteca


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="zamma")
    p.add_argument("--envs", type=int, default=4000)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--repeats", type=int, default=9)
    args = p.parse_args()
    venv = ludoteca.VecEnv(args.game, args.envs, seed=0, num_threads=args.threads)
    venv.reset()
    full, first = [], []
    for _ in range(args.repeats):
        t = time.perf_counter()
        venv.step(venv.sample_actions())
        full.append(time.perf_counter() - t)
        actions = venv.sample_actions()
        t = time.perf_counter()
        venv.send(actions)
        venv.recv(batch_size=1)
        first.append(time.perf_counter() - t)
        venv.recv()
    f, s = float(np.median(full)), float(np.median(first))
    print(f"{args.game}, {args.envs} envs, {args.threads} thread(s), median of {args.repeats}:")
    print(f"  step (all envs)          {f * 1e3:8.2f} ms")
    print(f"  send + recv(batch_size=1) {s * 1e3:8.2f} ms  ({s / f:.1%} of a step)")


if __name__ == "__main__":
    main()
