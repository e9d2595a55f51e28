"""Where an RLlib env runner's sampling time goes, in one process (no Ray
actors), for the rows of ``benches/rllib_bench.py``:

    pip install 'ludoteca[rllib-bench]'
    python benches/rllib_runner_profile.py                # 32 envs, 3,000 env steps per row
    python benches/rllib_runner_profile.py --quick        # a smoke run

Rows, all American checkers, the same action-masking PPO module and MLP:

* ``LudotecaEnvRunner.sample``: RLlib's ``MultiAgentEnvRunner`` over one
  ``VecEnv`` (what ``ludoteca.rllib`` ships).
* the same runner with RLlib's own per-step counter logging (what
  ``LudotecaEnvRunner`` logs once per ``sample`` instead).
* ``MultiAgentEnvRunner.sample`` over OpenSpiel via Shimmy (the anchor).
* ``lean ceiling``: what no RLlib runner can beat with this module and env:
  the VecEnv step plus ONE ``forward_exploration`` of the runner's own
  module over all envs per step and masked sampling (no episodes, no
  connectors, no metrics). An env runner that batches the module over the
  VecEnv and writes RLlib's episodes in bulk would sit between row 1 and
  this one; the ratio of this row to the anchor bounds what such a runner
  could reach.

Rates are env steps per CPU second of the process (``time.process_time``,
all its threads): on a shared, loaded machine wall-clock rates of rows
measured one after the other swing with the other jobs, CPU time much less.

Then a cProfile of row 1: what its sampling loop spends its time on.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from typing import Any

import numpy as np


def _runner(kind: str, envs: int) -> Any:
    from rllib_bench import _config  # type: ignore[import-not-found]

    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner

    config = _config(kind, 0, envs, (64, 64))
    return (config.env_runner_cls or MultiAgentEnvRunner)(config=config)


def _per_step_metrics_runner(envs: int) -> Any:
    """LudotecaEnvRunner with RLlib's own per-step metrics logging, to show
    what logging the counters once per ``sample`` saves."""
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner

    import ludoteca.rllib
    from rllib_bench import _config  # type: ignore[import-not-found]

    class PerStep(ludoteca.rllib.LudotecaEnvRunner):  # type: ignore[misc]
        sample = MultiAgentEnvRunner.sample
        _increase_sampled_metrics = MultiAgentEnvRunner._increase_sampled_metrics

    return PerStep(config=_config("vec", 0, envs, (64, 64)))


def _sample_rate(runner: Any, steps: int) -> float:
    runner.sample(num_timesteps=min(steps, 500))  # warm-up
    t = time.process_time()
    episodes = runner.sample(num_timesteps=steps)
    n = sum(e.env_steps() for e in episodes)
    return n / (time.process_time() - t)


def _lean(runner: Any, envs: int, steps: int) -> float:
    import torch

    import ludoteca

    module = runner.module["main"]
    venv = ludoteca.VecEnv("checkers", envs, seed=0)
    obs, info = venv.reset()
    done = 0
    t = time.process_time()
    with torch.no_grad():
        while done < steps:
            batch = {"obs": {"observations": torch.as_tensor(obs.reshape(envs, -1)),
                             "action_mask": torch.as_tensor(info["legal_action_mask"], dtype=torch.float32)}}
            logits = module.forward_exploration(batch)["action_dist_inputs"]
            actions = torch.distributions.Categorical(logits=logits).sample().numpy()
            obs, _, _, _, info = venv.step(actions)
            done += envs
    return done / (time.process_time() - t)


def _profile(runner: Any, steps: int) -> tuple[float, list[tuple[str, float]]]:
    """cProfile of one ``sample``: the cumulative time of each function the
    runner's sampling loop calls directly, as shares of the whole call."""
    prof = cProfile.Profile()
    prof.enable()
    runner.sample(num_timesteps=steps)
    prof.disable()
    stats = pstats.Stats(prof)
    stats.calc_callees()
    entries = stats.stats  # type: ignore[attr-defined]
    (loop,) = [f for f in entries if f[2] == "_sample" and "env_runner" in f[0]]
    total = entries[loop][3]
    callees = stats.all_callees[loop]  # type: ignore[attr-defined]
    rows = []
    for (path, line, name), timing in callees.items():
        cumulative = timing[3]
        where = path.split("site-packages/")[-1].split("ludoteca/")[-1]
        rows.append((f"`{name}` ({where}:{line})", cumulative / total))
    rows.sort(key=lambda r: -r[1])
    return total, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envs", type=int, default=32)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.envs, args.steps = 8, 200

    import torch

    torch.set_num_threads(1)
    ours = _runner("vec", args.envs)
    anchor = _runner("openspiel", args.envs)
    rows = [
        ("LudotecaEnvRunner.sample (ludoteca.rllib)", _sample_rate(ours, args.steps)),
        ("the same, RLlib's per-step metrics logging", _sample_rate(_per_step_metrics_runner(args.envs), args.steps)),
        ("MultiAgentEnvRunner.sample, OpenSpiel via Shimmy", _sample_rate(anchor, args.steps)),
        ("lean ceiling: VecEnv + one batched module forward per step", _lean(ours, args.envs, args.steps)),
    ]
    base = rows[2][1]
    print(f"one process, one runner each, {args.envs} envs, {args.steps} env steps, MLP [64, 64], 1 torch thread")
    print("| row | env steps per CPU second | vs OpenSpiel |")
    print("|---|---:|---:|")
    for name, rate in rows:
        print(f"| {name} | {rate:,.0f} | {rate / base:.1f}x |")
    total, rows_ = _profile(ours, args.steps)
    print(f"\nLudotecaEnvRunner._sample under cProfile ({total:.2f} s), what its loop calls (cumulative share):")
    print("| callee | share |")
    print("|---|---:|")
    for label, share in rows_:
        if share >= 0.01:
            print(f"| {label} | {share:.0%} |")


if __name__ == "__main__":
    main()
