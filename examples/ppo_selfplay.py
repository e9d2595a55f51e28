"""PPO self-play with legal-action masks on one ``ludoteca.VecEnv``, in one
file, CleanRL-style: read it top to bottom.

    python examples/ppo_selfplay.py                          # checkers, 64 games, ~3 minutes
    python examples/ppo_selfplay.py --game damas --minutes 10
    python examples/ppo_selfplay.py --num-envs 128 --num-steps 32 --seed 1

Needs torch (``pip install '.[train]'`` brings it; any CPU build will do).

Self-play design: **the current policy plays both sides.** Every game of the
batch is one ``VecEnv`` env; at each step the network picks the move of
whichever player is to move in each env (observations are already from the
mover's point of view, so one network serves both colours). Every decision is
training data, for whichever side made it. We chose this over a pool of
frozen snapshots because it keeps the loop to one forward pass per step over
all N games and needs no opponent bookkeeping; the price is that the policy
only ever meets itself, so the script measures progress against a fixed
yardstick instead, the uniformly random player (``--eval-games`` games,
half with each colour, the greedy masked policy against
``VecEnv.sample_actions()``), before training and after every
``--eval-every`` updates.

Two-player zero-sum bookkeeping: the value ``V(s)`` is from the point of
view of the player to move in ``s``, and the reward of a step is the mover's
own entry of ``rewards``. When the next decision belongs to the other player
(the usual case) its value counts negated: ``V_me(s') = -V_other(s')``; when
the same player moves again (backgammon's several checker moves per roll) it
counts as is. So the TD error of step t is

    delta_t = r_t + gamma * sign_t * V(s_{t+1}) * (1 - done_t) - V(s_t),
    sign_t  = +1 if the mover at t+1 is the mover at t else -1,

and GAE runs the same recursion with ``sign_t`` in front of ``A_{t+1}``.
Rewards only come at the end (+1 win, -1 loss, 0 draw or truncation), and
the ending step's reward is the mover's, so nothing is lost by the sign flip.

Legal moves: the logits of illegal actions are set to a large negative
number before the softmax, both when sampling and in the PPO loss (with the
mask stored per step), so the policy never plays, and never learns about,
an illegal move.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

import ludoteca


@dataclass
class Args:
    game: str = "checkers"
    num_envs: int = 64
    num_steps: int = 64           # steps per env per update: a batch is num_envs * num_steps decisions
    minutes: float = 3.0          # training budget (wall clock, evaluation excluded)
    max_updates: int = 10_000
    seed: int = 0
    max_turns: int = 150          # longer games are truncated (a draw for both)
    lr: float = 2.5e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    update_epochs: int = 4
    num_minibatches: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: int = 256
    eval_games: int = 200
    eval_every: int = 10
    threads: int = 1              # torch threads (the machine's other cores step the games)


def parse_args() -> Args:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name, default in vars(Args()).items():
        ap.add_argument("--" + name.replace("_", "-"), type=type(default), default=default)
    return Args(**vars(ap.parse_args()))


# --- the network: one torso, a masked policy head and a value head ---------

ILLEGAL = -1e8


class Agent(nn.Module):
    def __init__(self, obs_size: int, num_actions: int, hidden: int) -> None:
        super().__init__()
        self.torso = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.actor = nn.Linear(hidden, num_actions)
        self.critic = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.actor.weight, 0.01)  # near-uniform over legal moves at the start
        nn.init.zeros_(self.actor.bias)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(self.torso(obs)).squeeze(-1)

    def act(self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        """Samples (or re-scores ``action``) from the legal moves only:
        returns action, log-prob, entropy, value."""
        h = self.torso(obs)
        logits = self.actor(h).masked_fill(~mask, ILLEGAL)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(h).squeeze(-1)

    def greedy(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.actor(self.torso(obs)).masked_fill(~mask, ILLEGAL).argmax(-1)


def flat(obs: np.ndarray) -> torch.Tensor:
    return torch.as_tensor(obs, dtype=torch.float32).reshape(len(obs), -1)


# --- the yardstick: the greedy policy against the uniformly random player ---

@torch.no_grad()
def win_rate_vs_random(agent: Agent, args: Args, seed: int) -> dict[str, float]:
    """Plays ``eval_games`` games at once (env i: the agent has colour i % 2),
    one game per env; returns the agent's win/draw/loss rates."""
    n = args.eval_games
    venv = ludoteca.VecEnv(args.game, n, seed=seed, max_turns=args.max_turns)
    obs, info = venv.reset()
    side = np.arange(n) % 2
    result = np.full(n, np.nan)
    while np.isnan(result).any():
        actions = venv.sample_actions()  # the random player's move (and the dice, if any)
        ours = info["current_player"] == side
        if ours.any():
            greedy = agent.greedy(flat(obs[ours]), torch.as_tensor(info["legal_action_mask"][ours]))
            actions[ours] = greedy.numpy()
        obs, rewards, terminated, truncated, info = venv.step(actions)
        ended = (terminated | truncated) & np.isnan(result)
        result[ended] = rewards[ended, side[ended]]
    return {"win": float((result > 0).mean()), "draw": float((result == 0).mean()), "loss": float((result < 0).mean())}


def show(label: str, r: dict[str, float]) -> str:
    return f"{label}: win {r['win']:.1%}  draw {r['draw']:.1%}  loss {r['loss']:.1%}"


# --- advantages for two players sharing one policy ----------------------------

def compute_advantages(rewards: torch.Tensor, values: torch.Tensor, dones: torch.Tensor, players: torch.Tensor,
                       next_value: torch.Tensor, next_player: torch.Tensor, gamma: float, lam: float) -> torch.Tensor:
    """GAE over (T, N) steps where each step's reward and value are its
    mover's: a following decision by the other player counts negated."""
    T = len(rewards)
    advantages = torch.zeros_like(rewards)
    last = torch.zeros_like(next_value)
    for t in reversed(range(T)):
        following_player = next_player if t == T - 1 else players[t + 1]
        following_value = next_value if t == T - 1 else values[t + 1]
        sign = torch.where(following_player == players[t], 1.0, -1.0)
        alive = 1.0 - dones[t]
        delta = rewards[t] + gamma * sign * following_value * alive - values[t]
        last = delta + gamma * lam * sign * alive * last
        advantages[t] = last
    return advantages


# --- training ---------------------------------------------------------------

def train(args: Args) -> dict[str, dict[str, float]]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    venv = ludoteca.VecEnv(args.game, args.num_envs, seed=args.seed, max_turns=args.max_turns)
    obs_size, num_actions = int(np.prod(venv.observation_shape)), venv.num_actions
    agent = Agent(obs_size, num_actions, args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)

    before = win_rate_vs_random(agent, args, seed=10_000 + args.seed)
    print(show("before training", before), flush=True)

    # Rollout storage: T steps x N envs.
    T, N = args.num_steps, args.num_envs
    b_obs = torch.zeros(T, N, obs_size)
    b_mask = torch.zeros(T, N, num_actions, dtype=torch.bool)
    b_act = torch.zeros(T, N, dtype=torch.long)
    b_logp, b_val, b_rew = torch.zeros(T, N), torch.zeros(T, N), torch.zeros(T, N)
    b_done, b_player = torch.zeros(T, N), torch.zeros(T, N, dtype=torch.long)

    obs, info = venv.reset()
    next_obs, next_mask = flat(obs), torch.as_tensor(info["legal_action_mask"])
    next_player = torch.as_tensor(info["current_player"], dtype=torch.long)
    training_time, steps, games, update = 0.0, 0, 0, 0
    after = before
    while update < args.max_updates and training_time < args.minutes * 60:
        t0 = time.perf_counter()
        # 1. Play T steps in every env; the current policy moves for whoever is to move.
        for t in range(T):
            b_obs[t], b_mask[t], b_player[t] = next_obs, next_mask, next_player
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            b_act[t], b_logp[t], b_val[t] = action, logp, value
            obs, rewards, terminated, truncated, info = venv.step(action.numpy())
            done = terminated | truncated
            # The mover's own reward (same-step auto-reset: obs/mask are already the next game's).
            b_rew[t] = torch.as_tensor(rewards[np.arange(N), next_player.numpy()])
            b_done[t] = torch.as_tensor(done, dtype=torch.float32)
            next_obs, next_mask = flat(obs), torch.as_tensor(info["legal_action_mask"])
            next_player = torch.as_tensor(info["current_player"], dtype=torch.long)
            games += int(done.sum())
        steps += T * N

        # 2. Advantages with the zero-sum sign flip (see the header).
        with torch.no_grad():
            advantages = compute_advantages(b_rew, b_val, b_done, b_player, agent.value(next_obs), next_player,
                                            args.gamma, args.gae_lambda)
            returns = advantages + b_val

        # 3. PPO: clipped policy loss, value loss, entropy bonus, over minibatches.
        f_obs, f_mask, f_act = b_obs.reshape(T * N, -1), b_mask.reshape(T * N, -1), b_act.reshape(-1)
        f_logp, f_adv, f_ret = b_logp.reshape(-1), advantages.reshape(-1), returns.reshape(-1)
        size = T * N // args.num_minibatches
        for _ in range(args.update_epochs):
            for idx in torch.randperm(T * N).split(size):
                _, logp, entropy, value = agent.act(f_obs[idx], f_mask[idx], f_act[idx])
                ratio = (logp - f_logp[idx]).exp()
                adv = f_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * (value - f_ret[idx]).pow(2).mean()
                loss = pg_loss + args.vf_coef * v_loss - args.ent_coef * entropy.mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        update += 1
        training_time += time.perf_counter() - t0

        # 4. Log, and now and then measure against the random player.
        line = (f"update {update:4d}  steps {steps:8,d}  games {games:6,d}  {steps / training_time:6,.0f} steps/s"
                f"  policy loss {pg_loss.item():+.3f}  value loss {v_loss.item():.3f}  entropy {entropy.mean().item():.2f}")
        if update % args.eval_every == 0:
            after = win_rate_vs_random(agent, args, seed=10_000 + args.seed)
            line += "  |  " + show("vs random", after)
        print(line, flush=True)

    if update % args.eval_every != 0:
        after = win_rate_vs_random(agent, args, seed=10_000 + args.seed)
    print(show("before training", before))
    print(show(f"after {update} updates, {steps:,} steps, {training_time / 60:.1f} min", after))
    return {"before": before, "after": after}


if __name__ == "__main__":
    train(parse_args())
