#!/usr/bin/env python3
"""MCTS simulations per second: ludoteca's search next to OpenSpiel's C++
``MCTSBot`` and mctx on Pgx, measured in the same run when installed.

Rows:

* ``rollout``: the built-in evaluator (uniform prior, one random playout to
  the end of the game) on ``checkers`` and ``backgammon``, from the start
  position (backgammon: after an opening roll), ``SIMS`` simulations per
  move. Ours: one search over 1 state on 1 thread, and a batch of 2 x threads
  states searched together (one tree per state, trees in parallel). Anchor:
  OpenSpiel's C++ ``MCTSBot`` with ``RandomRolloutEvaluator(n_rollouts=1)``
  through ``pyspiel`` (single-threaded: it has no batch), same simulations.
* ``mlp``: a two-layer MLP (obs -> HIDDEN relu -> logits and tanh value, the
  same sizes on both sides up to each game's observation and action sizes),
  ``BATCH`` backgammon games searched together with Gumbel root selection.
  Ours: the network in numpy, called once per simulation wave with every
  tree's leaf. Anchor: ``mctx.gumbel_muzero_policy`` over Pgx's
  ``backgammon`` on CPU JAX, the network and ``env.step`` inside
  ``recurrent_fn``, jitted (compile time excluded).

Usage::

    python benches/mcts_bench.py            # full run (a few minutes)
    python benches/mcts_bench.py --quick    # smoke run: small sizes, no JAX anchor

Anchors (not dependencies of ludoteca): ``pip install open_spiel pgx mctx jax``;
a missing anchor prints ``nan``.

Each timing is the best of a few runs (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any, Callable, Optional

# A small network's matmuls (256 x 256 by 256 x 64) are slower on several BLAS
# threads than on one (10x on a shared two-core machine): the numpy network runs
# single-threaded, as a user should run it for small batches. Set before numpy loads.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import ludoteca  # noqa: E402
from ludoteca import MCTS, Game  # noqa: E402

HIDDEN = 64


def best_of(runs: int, fn: Callable[[], Any]) -> float:
    """Least wall-clock seconds of ``runs`` calls."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def start_state(game_id: str) -> ludoteca.State:
    """The start position (backgammon: sampled dice, the opening roll of seed 0 already rolled)."""
    return Game(game_id).new_state(seed=0)


def ours_rollout(game_id: str, sims: int, batch: int, threads: int, runs: int) -> float:
    states = [start_state(game_id) for _ in range(batch)]
    search = MCTS(states[0].game, sims, num_threads=threads, seed=1)
    return sims * batch / best_of(runs, lambda: search.search(states))


def openspiel_rollout(game_id: str, sims: int, runs: int) -> Optional[float]:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(game_id)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, sims, 1000, False, 1, False)
    state = game.new_initial_state()
    if state.is_chance_node():
        outcomes = dict(state.chance_outcomes())
        state.apply_action(next(iter(outcomes)))
    return sims / best_of(runs, lambda: bot.step(state))


class Mlp:
    """obs -> HIDDEN (relu) -> logits, tanh(value): numpy, float32."""

    def __init__(self, obs: int, actions: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = (rng.standard_normal((obs, HIDDEN)) / np.sqrt(obs)).astype(np.float32)
        self.w2 = (rng.standard_normal((HIDDEN, actions)) / np.sqrt(HIDDEN)).astype(np.float32)
        self.w3 = (rng.standard_normal((HIDDEN,)) / np.sqrt(HIDDEN)).astype(np.float32)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.maximum(obs.reshape(len(obs), -1) @ self.w1, 0.0)
        return h @ self.w2, np.tanh(h @ self.w3)


def ours_mlp(batch: int, sims: int, threads: int, runs: int) -> float:
    game = Game("backgammon")
    states = [game.new_state(seed=i) for i in range(batch)]
    net = Mlp(int(np.prod(game.observation_shape)), game.num_actions)
    search = MCTS(game, sims, selection="gumbel", num_threads=threads, seed=1)
    return sims * batch / best_of(runs, lambda: search.search(states, net))


def mctx_mlp(batch: int, sims: int, runs: int) -> Optional[float]:
    try:
        import jax
        import jax.numpy as jnp
        import mctx
        import pgx
    except ImportError:
        return None
    env = pgx.make("backgammon")
    obs_len = int(np.prod(env.observation_shape))
    net = Mlp(obs_len, env.num_actions)
    w1, w2, w3 = (jnp.asarray(w) for w in (net.w1, net.w2, net.w3))

    def forward(obs: Any) -> tuple[Any, Any]:
        h = jax.nn.relu(obs.reshape(obs.shape[0], -1).astype(jnp.float32) @ w1)
        return h @ w2, jnp.tanh(h @ w3)

    def recurrent_fn(params: Any, key: Any, action: Any, state: Any) -> tuple[Any, Any]:
        del params
        current = state.current_player
        keys = jax.random.split(key, action.shape[0])
        state = jax.vmap(env.step)(state, action, keys)
        logits, value = forward(state.observation)
        logits = jnp.where(state.legal_action_mask, logits, jnp.finfo(logits.dtype).min)
        reward = state.rewards[jnp.arange(state.rewards.shape[0]), current]
        value = jnp.where(state.terminated, 0.0, value)
        discount = jnp.where(state.terminated, 0.0, -1.0) * jnp.ones_like(value)
        out = mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=logits, value=value)
        return out, state

    @jax.jit
    def run(state: Any, key: Any) -> Any:
        logits, value = forward(state.observation)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
        return mctx.gumbel_muzero_policy(
            params=None, rng_key=key, root=root, recurrent_fn=recurrent_fn, num_simulations=sims,
            invalid_actions=~state.legal_action_mask, max_num_considered_actions=16,
        )

    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    state = jax.vmap(env.init)(keys)
    key = jax.random.PRNGKey(1)
    run(state, key).action.block_until_ready()  # compile
    return sims * batch / best_of(runs, lambda: run(state, key).action.block_until_ready())


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="smoke run: small sizes, no JAX anchor")
    p.add_argument("--sims", type=int, default=None, help="simulations per move for the rollout rows")
    p.add_argument("--batch", type=int, default=None, help="games searched together for the MLP row")
    p.add_argument("--json", default=None, help="write the results here")
    args = p.parse_args(argv)
    threads = os.cpu_count() or 1
    sims = args.sims or (50 if args.quick else 400)
    batch = args.batch or (8 if args.quick else 256)
    mlp_sims = 8 if args.quick else 32
    runs = 1 if args.quick else 3
    out: dict[str, Any] = {"machine": f"{platform.machine()} {threads} cores, {platform.python_version()}", "rows": []}
    print(f"# MCTS simulations per second ({out['machine']}; machine may be shared)")
    print(f"{'row':<32} {'ours 1 tree 1 thr':>18} {'ours batch':>14} {'anchor':>12} {'ratio':>8}")
    for game_id in ("checkers", "backgammon"):
        single = ours_rollout(game_id, sims, 1, 1, runs)
        many = ours_rollout(game_id, sims, 2 * threads, threads, runs)
        anchor = openspiel_rollout(game_id, sims, runs)
        ratio = many / anchor if anchor else None
        name = f"rollout {game_id} ({sims} sims)"
        print(f"{name:<32} {single:>18,.0f} {many:>14,.0f} {anchor or float('nan'):>12,.0f} {ratio or float('nan'):>7.1f}x")
        out["rows"].append({"row": name, "ours_single": single, "ours_batch": many, "anchor": anchor, "anchor_name": "OpenSpiel C++ MCTSBot", "ratio": ratio})
    ours = ours_mlp(batch, mlp_sims, threads, runs)
    anchor = None if args.quick else mctx_mlp(batch, mlp_sims, runs)
    ratio = ours / anchor if anchor else None
    name = f"mlp backgammon (B={batch}, {mlp_sims} sims)"
    print(f"{name:<32} {'':>18} {ours:>14,.0f} {anchor or float('nan'):>12,.0f} {ratio or float('nan'):>7.1f}x")
    out["rows"].append({"row": name, "ours_batch": ours, "anchor": anchor, "anchor_name": "mctx + Pgx (CPU JAX)", "ratio": ratio})
    print("Summary: ratio = ours (batch, all threads) / anchor")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
