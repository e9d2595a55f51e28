"""Where an RLlib env runner's sampling time goes, in one process (no Ray
actors), for the rows of ``benches/rllib_bench.py``:

    pip install 'ludoteca[rllib-bench]'
    python benches/rllib_runner_profile.py                # 128 envs per runner, 4,096 env steps per row
    python benches/rllib_runner_profile.py --quick        # a smoke run

Rows, all American checkers, the same action-masking PPO module and MLP
(every runner builds it inference-only, as RLlib asks for: no critic tower
while sampling):

* ``LudotecaLeanEnvRunner.sample`` (``--lean-envs`` games): one Rust call
  steps all games, one forward pass of the module per step over all of them,
  actions drawn over the legal ones, episodes built in bulk at the end.
* the same with ``obs_format="compact"``: the 7 of the 26 observation planes
  that checkers can change (the other 19 are always zero in it; 448 floats
  instead of 1,664, OpenSpiel's observation has 320).
* ``LudotecaEnvRunner.sample``: RLlib's ``MultiAgentEnvRunner`` over one
  ``VecEnv``.
* the same runner with RLlib's own per-step counter logging (what
  ``LudotecaEnvRunner`` logs once per ``sample`` instead).
* ``MultiAgentEnvRunner.sample`` over OpenSpiel via Shimmy (the anchor).
* ``lean ceiling``: what no RLlib runner can beat with this module and env:
  the VecEnv step plus ONE forward pass (``_forward_exploration``, the
  module in eval mode) of the runner's own module over all envs per step
  and legal-only sampling
  (``ludoteca.rllib.sample_legal``), no episodes, no connectors, no
  metrics: the lean runner minus its bookkeeping and episode building.

Rates are env steps per CPU second of the process (``time.process_time``,
all its threads) of one ``sample`` call; after it (untimed) the runner gives
its metrics, as PPO's training step asks every runner after sampling (which
frees the finished episodes the runner keeps for them): on a shared, loaded machine wall-clock rates of rows
measured one after the other swing with the other jobs, CPU time much less.
The rows are timed in turn, ``--repeats`` times (median), after
``gc.freeze()`` (what a remote ``LudotecaLeanEnvRunner`` does in its own
process; here for every row alike; ``--no-gc-freeze`` leaves it out).

Then where the lean runner's CPU time goes (its forward passes, sampling,
the Rust step, building episodes, the rest of its loop), and a cProfile of
``LudotecaEnvRunner``'s sampling loop.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import time
from typing import Any

import numpy as np


def _runner(kind: str, envs: int) -> Any:
    from rllib_bench import _config  # type: ignore[import-not-found]

    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner

    config = _config(kind, 0, envs, (64, 64))
    return (config.env_runner_cls or MultiAgentEnvRunner)(config=config)


def _lean_sections(runner: Any, steps: int) -> tuple[float, list[tuple[str, float]]]:
    """Shares of one lean ``sample``'s CPU time (``time.process_time``
    around the parts; the rest is the loop's own numpy and bookkeeping)."""
    import ludoteca.rllib

    spent: dict[str, float] = {}

    def timed(owner: Any, name: str, label: str) -> Any:
        inner = getattr(owner, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            t = time.process_time()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[label] = spent.get(label, 0.0) + time.process_time() - t

        setattr(owner, name, call)
        return inner

    modules = [runner.module[m] for m in runner.module.keys()]
    saved = [(m, timed(m, "_forward_exploration", "module forward (MLP + masking)")) for m in modules]
    saved_sample = timed(ludoteca.rllib, "sample_legal", "action sampling over legal actions")
    venv = runner.env._venv

    class Timed:  # the Rust object's methods are read-only
        def __getattr__(self, name: str) -> Any:
            return getattr(venv, name)

    runner.env._venv = Timed()
    runner.env._venv.step = venv.step
    timed(runner.env._venv, "step", "VecEnv.step (Rust)")
    saved_build = timed(runner, "_build_episodes", "building the episodes (bulk)")
    t = time.process_time()
    runner.sample(num_timesteps=steps)
    total = time.process_time() - t
    runner.get_metrics()
    for m, f in saved:
        m._forward_exploration = f
    ludoteca.rllib.sample_legal = saved_sample
    runner.env._venv = venv
    runner._build_episodes = saved_build
    rows = [(label, v / total) for label, v in spent.items()]
    rows.append(("the rest of the loop (numpy copies, module mapping, counters)", 1 - sum(v for _, v in rows)))
    return total, rows


def _per_step_metrics_runner(envs: int) -> Any:
    """LudotecaEnvRunner with RLlib's own per-step metrics logging, to show
    what logging the counters once per ``sample`` saves."""
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner

    from rllib_bench import _config, _InferenceOnlyVecRunner  # type: ignore[import-not-found]

    class PerStep(_InferenceOnlyVecRunner):  # type: ignore[misc]
        sample = MultiAgentEnvRunner.sample
        _increase_sampled_metrics = MultiAgentEnvRunner._increase_sampled_metrics

    return PerStep(config=_config("vec", 0, envs, (64, 64)))


def _sample_rate(runner: Any, steps: int) -> float:
    runner.sample(num_timesteps=min(steps, 500))  # warm-up
    runner.get_metrics()
    t = time.process_time()
    episodes = runner.sample(num_timesteps=steps)
    rate = sum(e.env_steps() for e in episodes) / (time.process_time() - t)
    # Untimed: what PPO's training step asks a runner for after sampling
    # (it frees the finished episodes the runner keeps for its metrics).
    del episodes
    runner.get_metrics()
    return rate


def _lean(runner: Any, envs: int, steps: int) -> float:
    import torch

    import ludoteca
    import ludoteca.rllib

    module = runner.module["main"]
    venv = ludoteca.VecEnv("checkers", envs, seed=0)
    obs, info = venv.reset()
    done = 0
    module.eval()
    t = time.process_time()
    with torch.no_grad():
        while done < steps:
            mask = torch.as_tensor(info["legal_action_mask"], dtype=torch.float32)
            batch = {"obs": {"observations": torch.as_tensor(obs.reshape(envs, -1)), "action_mask": mask}}
            logits = module._forward_exploration(batch)["action_dist_inputs"]
            sampled = ludoteca.rllib.sample_legal(logits, mask)
            assert sampled is not None  # every position has a legal move
            actions = sampled[0].numpy()
            obs, _, _, _, info = venv.step(actions)
            done += envs
    rate = done / (time.process_time() - t)
    module.train()
    return rate


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
    ap.add_argument("--envs", type=int, default=128, help="games per runner, rows other than the lean ones (OpenSpiel's best: 128)")
    ap.add_argument("--lean-envs", type=int, default=128)
    ap.add_argument("--steps", type=int, default=4096)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-gc-freeze", action="store_true",
                    help="leave the garbage collector as it is (a remote LudotecaLeanEnvRunner freezes it)")
    args = ap.parse_args()
    if args.quick:
        args.envs, args.lean_envs, args.steps, args.repeats = 8, 8, 200, 1

    import os

    import torch

    torch.set_num_threads(1)
    lean = _runner("lean", args.lean_envs)
    lean_compact = _runner("lean-compact", args.lean_envs)
    ours = _runner("vec", args.envs)
    per_step = _per_step_metrics_runner(args.envs)
    anchor = _runner("openspiel", args.envs)
    if not args.no_gc_freeze:
        # What a remote LudotecaLeanEnvRunner does in its own process once built;
        # here it applies to every row alike, OpenSpiel's too.
        gc.freeze()
    rows = [
        (f"LudotecaLeanEnvRunner.sample ({args.lean_envs} envs)", lambda: _sample_rate(lean, args.steps)),
        (f"the same, obs_format='compact' ({args.lean_envs} envs)", lambda: _sample_rate(lean_compact, args.steps)),
        (f"LudotecaEnvRunner.sample ({args.envs} envs)", lambda: _sample_rate(ours, args.steps)),
        ("the same, RLlib's per-step metrics logging", lambda: _sample_rate(per_step, args.steps)),
        (f"MultiAgentEnvRunner.sample, OpenSpiel via Shimmy ({args.envs} envs)", lambda: _sample_rate(anchor, args.steps)),
        (f"lean ceiling: VecEnv + one batched module forward per step ({args.lean_envs} envs)",
         lambda: _lean(lean, args.lean_envs, args.steps)),
    ]
    rates: list[list[float]] = [[] for _ in rows]
    for _ in range(args.repeats):
        for j, (_, measure) in enumerate(rows):
            rates[j].append(measure())
    medians = [float(np.median(r)) for r in rates]
    base = medians[4]
    print(f"one process, one runner each, {args.steps} env steps, MLP [64, 64], 1 torch thread, median of"
          f" {args.repeats} interleaved repeats, garbage collector {'as is' if args.no_gc_freeze else 'frozen'};"
          f" load average {os.getloadavg()[0]:.1f} at the end")
    print("| row | env steps per CPU second | vs OpenSpiel |")
    print("|---|---:|---:|")
    for (name, _), rate in zip(rows, medians):
        print(f"| {name} | {rate:,.0f} | {rate / base:.1f}x |")
    total, shares = _lean_sections(lean, args.steps)
    print(f"\nLudotecaLeanEnvRunner.sample, {args.lean_envs} envs, {args.steps} env steps ({total:.2f} CPU s):")
    print("| part | share |")
    print("|---|---:|")
    for label, share in shares:
        print(f"| {label} | {share:.0%} |")
    total, rows_ = _profile(ours, args.steps)
    print(f"\nLudotecaEnvRunner._sample under cProfile ({total:.2f} s), what its loop calls (cumulative share):")
    print("| callee | share |")
    print("|---|---:|")
    for label, share in rows_:
        if share >= 0.01:
            print(f"| {label} | {share:.0%} |")


if __name__ == "__main__":
    main()
