"""PPO self-play on a ludoteca game with Ray RLlib, from one laptop to a cluster.

    pip install 'ludoteca[rllib]'
    python examples/rllib_selfplay.py                          # checkers, local Ray, 2 env runners, ~5 min
    python examples/rllib_selfplay.py --game damas --minutes 20 --env-runners 8
    python examples/rllib_selfplay.py --address auto           # an existing cluster (see docs/scale.md)
    python examples/rllib_selfplay.py --smoke                  # two small iterations (CI)

Two RLlib modules: ``main`` (trained) and ``opponent`` (frozen). Each game
maps one side to ``main`` and the other to ``opponent`` (which side depends
on the episode, so ``main`` learns both). The opponent starts as an untrained
network; when ``main`` wins more than ``--promote`` of its recent training
games against it, ``main``'s weights are copied into ``opponent`` (a
snapshot promotion) and the bar is raised again. Every env runner steps its
``--envs-per-runner`` games with one ``ludoteca.VecEnv`` (one Rust call per
step), legal actions only (``ludoteca.rllib.ACTION_MASKING_MODULE``); with
``--runner lean`` (the default, ``ludoteca.rllib.LudotecaLeanEnvRunner``)
each module's forward pass runs once per step over all the games it plays
and the episodes are built in bulk; ``--runner vector`` uses
``ludoteca.rllib.LudotecaEnvRunner`` (RLlib's own sampling loop).

Before and after training, ``main`` (greedy over legal actions) plays
``--eval-games`` games against the uniformly random player, half of them on
each side; the script prints its win/draw/loss rates. Truncated games
(``--max-turns``) count as draws.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

import ludoteca
import ludoteca.rllib


def selfplay_mapping(agent_id: str, episode: Any, **kwargs: Any) -> str:
    """``main`` plays player 0 in even episodes (by id hash), player 1 in odd ones."""
    return "main" if hash(episode.id_) % 2 == ludoteca.rllib.AGENTS.index(agent_id) else "opponent"


def make_callback(threshold: float) -> Any:
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS

    class SnapshotPromotion(RLlibCallback):  # type: ignore[misc]
        """Logs ``main``'s score per training game; promotes a snapshot of
        ``main`` to ``opponent`` when its recent win rate beats ``threshold``."""

        promotions = 0

        def on_episode_end(self, *, episode: Any, metrics_logger: Any, **kwargs: Any) -> None:
            main = next(a for a in ludoteca.rllib.AGENTS if episode.module_for(a) == "main")
            main_return = float(np.sum(episode.get_rewards().get(main, [0.0])))
            metrics_logger.log_value("main_win_rate", float(main_return > 0), reduce="mean", window=200)

        def on_train_result(self, *, algorithm: Any, result: dict[str, Any], **kwargs: Any) -> None:
            win = result[ENV_RUNNER_RESULTS].get("main_win_rate", 0.0)
            result["main_win_rate_vs_opponent"] = win
            if win > threshold:
                state = algorithm.get_module("main").get_state()
                algorithm.set_state({"learner_group": {"learner": {"rl_module": {"opponent": state}}}})
                # Only trained modules are synced every iteration: push the
                # new frozen opponent to the env runners now.
                algorithm.env_runner_group.sync_weights(from_worker_or_learner_group=algorithm.learner_group,
                                                        policies=["opponent"], inference_only=True)
                SnapshotPromotion.promotions += 1
            result["promotions"] = SnapshotPromotion.promotions

    return SnapshotPromotion


def greedy_policy(module: Any) -> Any:
    """obs (N, ...) float32, masks (N, A) bool -> the module's most likely legal actions."""
    import torch
    from ray.rllib.core.columns import Columns

    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        batch = {Columns.OBS: {"observations": torch.as_tensor(obs.reshape(len(obs), -1)),
                               "action_mask": torch.as_tensor(masks, dtype=torch.float32)}}
        with torch.no_grad():
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return logits.argmax(-1).numpy()

    return act


def evaluate(act: Any, game: str, games: int, max_turns: int, seed: int) -> dict[str, float]:
    """Win/draw/loss rates of ``act`` against uniform random, half the games on each side."""
    venv = ludoteca.VecEnv(game, games, seed=seed, max_turns=max_turns)
    obs, info = venv.reset()
    side = np.arange(games) % 2
    result = np.full(games, np.nan)
    while np.isnan(result).any():
        actions = venv.sample_actions()
        mine = (info["current_player"] == side) & np.isnan(result)
        if mine.any():
            actions[mine] = act(obs[mine], info["legal_action_mask"][mine])
        obs, rewards, term, trunc, info = venv.step(actions, active=np.isnan(result))
        ended = (term | trunc) & np.isnan(result)
        result[ended] = np.sign(rewards[ended, side[ended]]) * term[ended]
    return {"win": float((result > 0).mean()), "draw": float((result == 0).mean()), "loss": float((result < 0).mean())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="checkers")
    ap.add_argument("--address", default=None, help="Ray cluster address ('auto', 'ray://host:10001', ...); default: a local Ray")
    ap.add_argument("--env-runners", type=int, default=2)
    ap.add_argument("--envs-per-runner", type=int, default=32)
    ap.add_argument("--minutes", type=float, default=5.0, help="training time budget (wall clock)")
    ap.add_argument("--max-iterations", type=int, default=10_000)
    ap.add_argument("--promote", type=float, default=0.6, help="win rate against the frozen opponent that promotes a snapshot")
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--max-turns", type=int, default=150)
    ap.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runner", choices=["lean", "vector"], default="lean",
                    help="lean: LudotecaLeanEnvRunner; vector: LudotecaEnvRunner (RLlib's sampling loop)")
    ap.add_argument("--smoke", action="store_true", help="two tiny iterations (CI)")
    args = ap.parse_args()
    if args.smoke:
        args.envs_per_runner, args.max_iterations, args.eval_games, args.hidden = 8, 2, 20, [32]

    import ray
    import torch

    torch.set_num_threads(1)
    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=max(2, args.env_runners + 1), include_dashboard=False)
    batch = 256 if args.smoke else 4096
    config = (
        ludoteca.rllib.ppo_config(args.game, num_env_runners=args.env_runners,
                                  num_envs_per_env_runner=args.envs_per_runner,
                                  env_config={"max_turns": args.max_turns}, hidden=tuple(args.hidden),
                                  lean=args.runner == "lean")
        .multi_agent(policies={"main", "opponent"}, policy_mapping_fn=selfplay_mapping, policies_to_train=["main"])
        .rl_module(rl_module_spec=ludoteca.rllib.multi_module_spec(args.game, ["main", "opponent"], tuple(args.hidden)))
        .training(train_batch_size_per_learner=batch, minibatch_size=min(batch, 512), num_epochs=4 if not args.smoke else 1,
                  lr=3e-4, entropy_coeff=0.01)
        .callbacks(make_callback(args.promote))
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    eval_seed = 10_000_000
    before = evaluate(greedy_policy(algo.get_module("main")), args.game, args.eval_games, args.max_turns, eval_seed)
    print(f"{args.game}: main vs random, {args.eval_games} games, before: win {before['win']:.1%}"
          f"  draw {before['draw']:.1%}  loss {before['loss']:.1%}")
    deadline = time.monotonic() + args.minutes * 60
    t0 = time.monotonic()
    it = 0
    result: dict[str, Any] = {}
    while it < args.max_iterations and (args.smoke or time.monotonic() < deadline):
        result = algo.train()
        it += 1
        steps = result["env_runners"].get("num_env_steps_sampled_lifetime", 0)
        print(f"iter {it}: {steps:.0f} env steps, {steps / (time.monotonic() - t0):.0f}/s,"
              f" main vs opponent {result.get('main_win_rate_vs_opponent', float('nan')):.2f},"
              f" promotions {result.get('promotions', 0)}")
    after = evaluate(greedy_policy(algo.get_module("main")), args.game, args.eval_games, args.max_turns, eval_seed)
    print(f"after {it} iterations ({(time.monotonic() - t0) / 60:.1f} min): win {after['win']:.1%}"
          f"  draw {after['draw']:.1%}  loss {after['loss']:.1%}")
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
