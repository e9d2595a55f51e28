"""Trains sb3-contrib's MaskablePPO on a ludoteca game against the random
opponent, on a CPU, and prints the win rate before and after.

    pip install '.[train]'                                     # from the clone
    python examples/train_maskable_ppo.py                      # checkers, ~8 minutes
    python examples/train_maskable_ppo.py --minutes 1          # a quick look
    python examples/train_maskable_ppo.py --game tablut --agent-player 1 --minutes 5
    python examples/train_maskable_ppo.py --vec --n-envs 64   # one process, one Rust call per step

The agent plays ``--agent-player`` (0 = the side at the bottom; in checkers
White, who moves second) through ``ludoteca.gym.make``; the legal mask comes
from ``env.action_masks()``. Evaluation plays ``--eval-games`` seeded games
(at least 200) with the deterministic masked policy, before training (the
untrained network) and after. Truncated games (``max_turns``) count as draws.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

import ludoteca.gym


def evaluate(model: Any, game: str, agent_player: int, games: int, max_turns: int, seed: int) -> dict[str, float]:
    """Win/draw/loss rates of ``model`` over ``games`` games against the random opponent."""
    env = ludoteca.gym.make(game, opponent="random", agent_player=agent_player, max_turns=max_turns)
    results = []
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        while True:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                results.append(np.sign(reward))
                break
    r = np.array(results)
    return {"win": float((r > 0).mean()), "draw": float((r == 0).mean()), "loss": float((r < 0).mean())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="checkers")
    ap.add_argument("--agent-player", type=int, default=0)
    ap.add_argument("--minutes", type=float, default=8.0, help="training time budget (wall clock)")
    ap.add_argument("--timesteps", type=int, default=2_000_000, help="upper bound on agent decisions")
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--n-envs", type=int, default=8)
    ap.add_argument("--vec", action="store_true",
                    help="step all --n-envs games in one Rust call (ludoteca.sb3) instead of DummyVecEnv")
    ap.add_argument("--max-turns", type=int, default=150)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    args = ap.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(args.threads)

    class TimeBudget(BaseCallback):
        """Stops training when the wall-clock budget is spent."""

        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.deadline = time.monotonic() + seconds

        def _on_step(self) -> bool:
            return time.monotonic() < self.deadline

    def make_env(i: int) -> Any:
        def thunk() -> Any:
            env = ludoteca.gym.make(args.game, agent_player=args.agent_player, max_turns=args.max_turns)
            env.reset(seed=args.seed * 1000 + i)
            return env

        return thunk

    if args.vec:
        from ludoteca.sb3 import make_vec

        venv = make_vec(args.game, args.n_envs, agent_player=args.agent_player, seed=args.seed,
                                     max_turns=args.max_turns)
    else:
        venv = DummyVecEnv([make_env(i) for i in range(args.n_envs)])
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        learning_rate=3e-4,
        n_steps=256,
        batch_size=512,
        n_epochs=4,
        gamma=0.99,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
        device="cpu",
    )
    eval_seed = 10_000_000
    t0 = time.monotonic()
    before = evaluate(model, args.game, args.agent_player, args.eval_games, args.max_turns, eval_seed)
    print(f"{args.game}, agent = player {args.agent_player}, vs random, {args.eval_games} games each")
    print(f"before training: win {before['win']:.1%}  draw {before['draw']:.1%}  loss {before['loss']:.1%}"
          f"  ({time.monotonic() - t0:.0f} s)")
    t1 = time.monotonic()
    model.learn(total_timesteps=args.timesteps, callback=TimeBudget(args.minutes * 60))
    trained = time.monotonic() - t1
    t2 = time.monotonic()
    after = evaluate(model, args.game, args.agent_player, args.eval_games, args.max_turns, eval_seed)
    print(f"after {model.num_timesteps} decisions ({trained / 60:.1f} min, {model.num_timesteps / trained:.0f}/s):"
          f" win {after['win']:.1%}  draw {after['draw']:.1%}  loss {after['loss']:.1%}"
          f"  ({time.monotonic() - t2:.0f} s)")
    print(f"total {(time.monotonic() - t0) / 60:.1f} min")


if __name__ == "__main__":
    main()
