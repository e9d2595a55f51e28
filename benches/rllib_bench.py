"""RLlib sampling throughput: ludoteca's vectorized env against OpenSpiel's
checkers through Shimmy's OpenSpiel-to-PettingZoo wrapper and RLlib's
``PettingZooEnv``, with the same env runners, envs per runner and network.

    pip install 'ludoteca[rllib-bench]'
    python benches/rllib_bench.py                 # 2 env runners, ~5 minutes
    python benches/rllib_bench.py --quick         # a smoke run (small, noisy)

Rows (all American checkers, PPO's action-masking module from
``ludoteca.rllib``, exploration on, ``--hidden`` MLP, one torch thread; every
row's env runners build the module inference-only, as RLlib asks for: no
critic tower while sampling):

* ``ludoteca lean``: ``ludoteca.rllib.LudotecaLeanEnvRunner``: one Rust call
  steps all the runner's games, one forward pass per module and step, the
  episodes built in bulk at the end of ``sample`` (``--lean-envs-per-runner``
  games per runner, default 128: its best on the development machine).
* ``the same, compact observations``: the lean runner with
  ``obs_format="compact"``: the 7 of the 26 observation planes that checkers
  can change (the other 19 are always zero in it): the same information in
  448 floats instead of 1,664 (OpenSpiel's observation: 320), so a smaller
  first layer and fewer bytes per step.
* ``the same, garbage collector not frozen``: the lean runner (full
  observations) without the ``gc.freeze()`` a remote one does once built
  (``freeze_gc = False``).
* ``ludoteca VecEnv``: ``ludoteca.rllib.LudotecaEnvRunner``: each env runner
  steps its games with one Rust call per step.
* ``ludoteca, RLlib sync vector``: RLlib's own ``MultiAgentEnvRunner`` over
  ``LudotecaMultiAgentEnv`` copies (one Python env per game), to show what
  the vectorized env adds on top of a fast single env.
* ``OpenSpiel via Shimmy``: RLlib's ``MultiAgentEnvRunner`` over
  ``PettingZooEnv(OpenSpielCompatibilityV0("checkers"))`` (the obs dict gets
  the legal mask that Shimmy puts in ``info``).

A second table times the envs alone through RLlib's env interface (the
``step`` calls an env runner makes, with random legal actions and no
network), in the driver process, to separate the env's cost from RLlib's.

Each env runner samples ``--steps`` env steps per round (after a warm-up
round), all runners at once, then (untimed) gives its metrics, as PPO's
training step asks every runner after sampling (which frees the finished
episodes a runner keeps for them); "per runner" is steps over the runner's own
sampling time, "total" is all runners' steps over the wall time of the round
(its ratio is the issue's measure), "per CPU second" is steps over the
runner process's CPU time while sampling (``time.process_time``): on a
shared machine the wall clock swings with the other jobs, CPU time much
less.
The rows' rounds are interleaved (round r of every row, then round r + 1),
so a change in the machine's load hits every row alike. Rows other than
the lean one run ``--envs-per-runner`` games per runner (default 32; the
OpenSpiel row's rate hardly depends on it: its cost is per env step).
``--rllib-masking`` puts RLlib's own ``ActionMaskingTorchRLModule`` in every
row instead of ``ludoteca.rllib.MaskingTorchRLModule`` (same logits, slower
masking).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from typing import Any, Optional

import numpy as np

import ludoteca
import ludoteca.rllib
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner


def _openspiel_env_class() -> Any:
    import gymnasium as gym
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from shimmy import OpenSpielCompatibilityV0

    class OpenSpielMaskedEnv(MultiAgentEnv):  # type: ignore[misc]
        """RLlib's PettingZooEnv over Shimmy's OpenSpiel checkers, with each
        observation as ``{"observations", "action_mask"}`` (the mask Shimmy
        reports in the agent's info), as the masking module expects."""

        def __init__(self, config: Optional[dict[str, Any]] = None) -> None:
            super().__init__()
            self.pz = PettingZooEnv(OpenSpielCompatibilityV0(game_name="checkers"))
            self.possible_agents = list(self.pz.possible_agents)
            self.agents = list(self.possible_agents)
            inner = self.pz.observation_spaces[self.agents[0]]
            self.num_actions = int(self.pz.action_spaces[self.agents[0]].n)
            space = gym.spaces.Dict({
                "observations": gym.spaces.Box(-np.inf, np.inf, (int(np.prod(inner.shape)),), np.float32),
                "action_mask": gym.spaces.Box(0.0, 1.0, (self.num_actions,), np.float32),
            })
            self.observation_spaces = {a: space for a in self.agents}
            self.action_spaces = dict(self.pz.action_spaces)

        def _wrap(self, obs: dict[str, Any]) -> dict[str, Any]:
            out = {}
            for agent, o in obs.items():
                mask = self.pz.env.infos.get(agent, {}).get("action_mask")
                out[agent] = {"observations": np.asarray(o, dtype=np.float32).reshape(-1),
                              "action_mask": (np.zeros(self.num_actions, np.float32) if mask is None
                                              else np.asarray(mask, dtype=np.float32))}
            return out

        def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> Any:
            obs, info = self.pz.reset(seed=seed, options=options)
            return self._wrap(obs), info

        def step(self, action_dict: dict[str, Any]) -> Any:
            obs, rew, term, trunc, info = self.pz.step(action_dict)
            if term.get("__all__") or trunc.get("__all__"):
                # Give both players their last observation (no decision follows).
                obs = {a: obs.get(a, np.zeros(self.observation_spaces[a]["observations"].shape)) for a in self.possible_agents}
                return ({a: {"observations": np.asarray(o, np.float32).reshape(-1),
                             "action_mask": np.zeros(self.num_actions, np.float32)} for a, o in obs.items()},
                        rew, term, trunc, {})
            return self._wrap(obs), rew, term, trunc, {}

    return OpenSpielMaskedEnv


class _LeanRunnerGcAsIs(ludoteca.rllib.LudotecaLeanEnvRunner):  # type: ignore[misc]
    """The lean runner without its ``gc.freeze()`` (the ``lean-gc`` row)."""

    freeze_gc = False


# The other rows' runners build their modules inference-only too, as the
# lean runner does (RLlib asks for that, but a user's MultiRLModuleSpec keeps
# the flag off: the module then runs its critic tower at every step), so that
# every row's module does the same work per step.
class _InferenceOnlyRunner(MultiAgentEnvRunner):  # type: ignore[misc]
    make_module = ludoteca.rllib.LudotecaLeanEnvRunner.make_module


class _InferenceOnlyVecRunner(ludoteca.rllib.LudotecaEnvRunner):  # type: ignore[misc]
    make_module = ludoteca.rllib.LudotecaLeanEnvRunner.make_module


def _config(kind: str, runners: int, envs: int, hidden: tuple[int, ...], rllib_masking: bool = False) -> Any:
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    module_class = ActionMaskingTorchRLModule if rllib_masking else ludoteca.rllib.ACTION_MASKING_MODULE
    if kind == "openspiel":
        env_cls = _openspiel_env_class()
        proto = env_cls()
        spec = RLModuleSpec(module_class=module_class,
                            observation_space=proto.observation_spaces["player_0"],
                            action_space=proto.action_spaces["player_0"],
                            model_config={"fcnet_hiddens": list(hidden), "head_fcnet_hiddens": []})
        config = (ludoteca.rllib.ppo_config("checkers", runners, envs, hidden=hidden, vectorized=False)
                  # RLlib's env checker samples illegal actions, which OpenSpiel rejects.
                  .environment(env_cls, env_config={}, disable_env_checking=True)
                  .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"main": spec})))
    else:
        # The compact observation: the 7 of the full format's 26 planes that
        # checkers can change (the other 19 are always zero in it), the same
        # information in 448 floats instead of 1,664 (OpenSpiel's: 320).
        obs_format = "compact" if kind == "lean-compact" else "full"
        config = ludoteca.rllib.ppo_config("checkers", runners, envs, hidden=hidden, vectorized=(kind == "vec"),
                                           lean=kind.startswith("lean"),
                                           env_config={"obs_format": obs_format} if obs_format != "full" else None)
        if kind == "lean-gc":
            config = config.env_runners(env_runner_cls=_LeanRunnerGcAsIs)
        if obs_format != "full":
            config = config.rl_module(rl_module_spec=ludoteca.rllib.multi_module_spec("checkers", ["main"], hidden,
                                                                                      obs_format))
        if rllib_masking:
            spec = ludoteca.rllib.module_spec("checkers", hidden, obs_format)
            spec.module_class = module_class
            config = config.rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"main": spec}))
    if not kind.startswith("lean"):
        config = config.env_runners(env_runner_cls=_InferenceOnlyVecRunner if kind == "vec" else _InferenceOnlyRunner)
    return config.env_runners(rollout_fragment_length="auto").debugging(seed=0)


def _measure(kinds: dict[str, int], runners: int, steps: int, rounds: int, hidden: tuple[int, ...],
             rllib_masking: bool) -> dict[str, dict[str, float]]:
    """Rows ``kind -> envs per runner``, each on its own algorithm's env
    runners (all built first), rounds interleaved across the rows."""
    algos = {kind: _config(kind, runners, envs, hidden, rllib_masking).build_algo() for kind, envs in kinds.items()}

    def sample(runner: Any) -> tuple[int, float]:
        import torch

        torch.set_num_threads(1)
        t, cpu = time.perf_counter(), time.process_time()
        episodes = runner.sample(num_timesteps=steps)
        return sum(e.env_steps() for e in episodes), time.perf_counter() - t, time.process_time() - cpu

    per_runner: dict[str, list[float]] = {kind: [] for kind in kinds}
    per_cpu: dict[str, list[float]] = {kind: [] for kind in kinds}
    totals: dict[str, list[float]] = {kind: [] for kind in kinds}
    for algo in algos.values():
        algo.env_runner_group.foreach_env_runner(sample, local_env_runner=False)  # warm-up
        algo.env_runner_group.foreach_env_runner(lambda runner: runner.get_metrics(), local_env_runner=False)
    for _ in range(rounds):
        for kind, algo in algos.items():
            t = time.perf_counter()
            out = algo.env_runner_group.foreach_env_runner(sample, local_env_runner=False)
            wall = time.perf_counter() - t
            per_runner[kind] += [n / s for n, s, _ in out]
            per_cpu[kind] += [n / c for n, _, c in out]
            totals[kind].append(sum(n for n, _, _ in out) / wall)
            # What PPO's training step asks each runner for after sampling
            # (it frees the finished episodes the runner keeps for its
            # metrics); outside the timed round, as the same for every row.
            algo.env_runner_group.foreach_env_runner(lambda runner: runner.get_metrics(), local_env_runner=False)
    for algo in algos.values():
        algo.stop()
    return {kind: {"per_runner": float(np.median(per_runner[kind])), "total": float(np.median(totals[kind])),
                   "per_cpu": float(np.median(per_cpu[kind]))}
            for kind in kinds}


def _env_only(kind: str, envs: int, seconds: float) -> float:
    """Env steps/s through RLlib's env interface alone (no runner, no
    network): random legal actions picked per env from the observed mask,
    in one process."""
    rng = np.random.default_rng(0)

    def pick(obs: dict[str, Any]) -> dict[str, int]:
        (agent, o), = obs.items()
        return {agent: int(rng.choice(np.flatnonzero(o["action_mask"])))}

    steps = 0
    t0 = time.perf_counter()
    if kind == "vec":
        venv = ludoteca.rllib.LudotecaVectorMultiAgentEnv(envs, {"game": "checkers", "seed": 0})
        obs, _ = venv.reset()
        ended = [False] * envs
        while time.perf_counter() - t0 < seconds:
            obs, _, term, trunc, _ = venv.step([{} if ended[i] else pick(obs[i]) for i in range(envs)])
            steps += envs - sum(ended)
            ended = [t["__all__"] or u["__all__"] for t, u in zip(term, trunc)]
        return steps / (time.perf_counter() - t0)
    if kind == "sync":
        singles = [ludoteca.rllib.LudotecaMultiAgentEnv({"game": "checkers", "seed": i}) for i in range(envs)]
    else:
        env_cls = _openspiel_env_class()
        singles = [env_cls() for _ in range(envs)]
    current = [e.reset(seed=i)[0] for i, e in enumerate(singles)]
    while time.perf_counter() - t0 < seconds:
        for i, e in enumerate(singles):
            obs, _, term, trunc, _ = e.step(pick(current[i]))
            steps += 1
            current[i] = e.reset()[0] if term["__all__"] or trunc["__all__"] else obs
    return steps / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env-runners", type=int, default=2)
    ap.add_argument("--envs-per-runner", type=int, default=32, help="games per runner, rows other than the lean one")
    ap.add_argument("--lean-envs-per-runner", type=int, default=128, help="games per runner, lean row")
    ap.add_argument("--steps", type=int, default=4096, help="env steps per runner per round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hidden", type=int, nargs="+", default=[64, 64])
    ap.add_argument("--quick", action="store_true", help="tiny smoke run")
    ap.add_argument("--skip-openspiel", action="store_true")
    ap.add_argument("--rows", nargs="+", help="only these rows (and OpenSpiel's): lean, lean-compact, lean-gc, vec, sync")
    ap.add_argument("--skip-env-only", action="store_true", help="leave out the envs-alone table")
    ap.add_argument("--rllib-masking", action="store_true", help="RLlib's ActionMaskingTorchRLModule in every row")
    args = ap.parse_args()
    if args.quick:
        args.envs_per_runner, args.lean_envs_per_runner, args.steps, args.rounds = 8, 8, 200, 1

    import ray

    hidden = tuple(args.hidden)
    rows = [("ludoteca lean (LudotecaLeanEnvRunner)", "lean"),
            ("the same, compact observations (obs_format='compact')", "lean-compact"),
            ("the same (full observations), garbage collector not frozen", "lean-gc"),
            ("ludoteca VecEnv (LudotecaEnvRunner)", "vec"), ("ludoteca, RLlib sync vector", "sync")]
    if not args.skip_openspiel:
        rows.append(("OpenSpiel checkers via Shimmy + PettingZooEnv", "openspiel"))
    if args.rows:
        unknown = set(args.rows) - {kind for _, kind in rows}
        if unknown:
            ap.error(f"unknown rows {sorted(unknown)}; rows: {[kind for _, kind in rows]}")
        rows = [(name, kind) for name, kind in rows if kind in args.rows or kind == "openspiel"]
    # Every row's runners live at once (one row samples at a time): Ray must
    # be able to place them all.
    ray.init(num_cpus=len(rows) * args.env_runners + 1, include_dashboard=False, log_to_driver=False)
    envs = {kind: args.lean_envs_per_runner if kind.startswith("lean") else args.envs_per_runner for _, kind in rows}
    env_only = {kind: _env_only(kind, args.envs_per_runner, 2.0 if args.quick else 10.0) for _, kind in rows
                if not kind.startswith("lean") and not args.skip_env_only}
    results = _measure(envs, args.env_runners, args.steps, args.rounds, hidden, args.rllib_masking)
    ray.shutdown()

    module = "RLlib's ActionMaskingTorchRLModule" if args.rllib_masking else "ludoteca.rllib.MaskingTorchRLModule"
    print(f"RLlib {ray.__version__}, ludoteca {ludoteca.__version__}, {platform.processor() or platform.machine()},"
          f" {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end; {args.env_runners} env runners;"
          f" {args.steps} env steps per runner per round, median of {args.rounds} interleaved rounds; MLP"
          f" {list(hidden)}, {module}")
    anchor = results.get("openspiel")
    print("| env | envs per runner | env steps/s per runner | env steps/s total | vs OpenSpiel |"
          " env steps per CPU second per runner | vs OpenSpiel (CPU) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, kind in rows:
        r = results[kind]
        ratio = f"{r['total'] / anchor['total']:.1f}x" if anchor else "-"
        cpu_ratio = f"{r['per_cpu'] / anchor['per_cpu']:.1f}x" if anchor else "-"
        print(f"| {name} | {envs[kind]} | {r['per_runner']:,.0f} | {r['total']:,.0f} | {ratio} | {r['per_cpu']:,.0f}"
              f" | {cpu_ratio} |")
    if not env_only:
        return
    print(f"\nThe env alone through RLlib's env interface ({args.envs_per_runner} envs, one process, random legal"
          " actions picked in Python per env, no runner, no network):")
    print("| env | env steps/s | vs OpenSpiel |")
    print("|---|---:|---:|")
    for name, kind in rows:
        if kind in env_only:
            ratio = f"{env_only[kind] / env_only['openspiel']:.1f}x" if "openspiel" in env_only else "-"
            print(f"| {name} | {env_only[kind]:,.0f} | {ratio} |")


if __name__ == "__main__":
    main()
