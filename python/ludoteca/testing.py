"""Conformance checks every registered game must pass, through the Python
surface. The test suite runs them over ``ludoteca.games()``; a new game gets
them for free.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ._core import Env, Game, State, VecEnv
from ._chance import sample_chance

__all__ = ["check_state_contract", "check_vecenv_matches_envs", "random_legal_actions"]


def random_legal_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of a (N, A) boolean mask."""
    u = rng.random(mask.shape) * mask
    return np.asarray(u.argmax(axis=1), dtype=np.int64)


def check_state_contract(game_id: str, games: int = 5, max_decisions: int = 400, seed: int = 0, **options: Any) -> int:
    """Plays random games through ``State`` and checks the spec's contract at
    every decision. Returns the number of decisions checked."""
    game = Game(game_id, **options)
    rng = np.random.default_rng(seed)
    decisions = 0
    for g in range(games):
        state = game.new_state(seed=seed + g)
        for _ in range(max_decisions):
            _check_decision(game, state)
            if state.is_terminal():
                break
            mask = state.legal_action_mask()
            if state.current_player == -1:
                a = sample_chance(state, rng)
            else:
                a = int(rng.choice(np.flatnonzero(mask)))
            before = state.to_string()
            state.apply_action(a)
            assert state.to_string() != before or state.current_player != -2, "apply changed nothing"
            decisions += 1
    return decisions


def _check_decision(game: Game, state: State) -> None:
    n = game.num_actions
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (n,), (mask.dtype, mask.shape)
    legal = state.legal_actions()
    assert legal.dtype == np.int64 and np.array_equal(legal, np.flatnonzero(mask)), "legal_actions != mask"
    obs = state.observation()
    assert obs.dtype == np.float32 and obs.shape == game.observation_shape, (obs.dtype, obs.shape)
    assert np.isfinite(obs).all()
    r = state.returns()
    assert r.dtype == np.float32 and r.shape == (2,)
    text = state.to_string()
    again = game.state_from_string(text)
    assert again.to_string() == text, f"round trip {text!r} -> {again.to_string()!r}"
    assert np.array_equal(again.legal_action_mask(), mask)
    cp = state.current_player
    assert cp in (-2, -1, 0, 1)
    if cp == -2:
        assert state.is_terminal() and not mask.any() and abs(float(r.sum())) < 1e-6
        assert state.legal_moves() == []
        return
    assert mask.any(), f"no legal action at {text!r}"
    for a in legal[:8]:
        name = state.action_to_string(int(a))
        assert state.string_to_action(name) == a, (a, name)
    if cp >= 0:
        moves = state.legal_moves()
        assert moves and len(set(moves)) == len(moves), moves
        ends = set()
        for m in moves[:12]:
            s = state.clone()
            s.play(m)
            ends.add(s.to_string())
        assert len(ends) == min(len(moves), 12), "two moves lead to one position"


def check_vecenv_matches_envs(
    game_id: str, num_envs: int = 8, steps: int = 300, seed: int = 7, num_threads: Optional[int] = None, **options: Any
) -> None:
    """A ``VecEnv`` of N envs behaves exactly as N separate ``Env``s seeded
    with ``VecEnv.env_seeds()`` (auto-reset included)."""
    venv = VecEnv(game_id, num_envs=num_envs, seed=seed, num_threads=num_threads, **options)
    envs = [Env(game_id, seed=s, **options) for s in venv.env_seeds()]
    vobs, vinfo = venv.reset()
    for i, env in enumerate(envs):
        obs, info = env.reset()
        np.testing.assert_array_equal(vobs[i], obs)
        np.testing.assert_array_equal(vinfo["legal_action_mask"][i], info["legal_action_mask"])
    rng = np.random.default_rng(seed)
    mask = vinfo["legal_action_mask"]
    for _ in range(steps):
        actions = random_legal_actions(mask, rng)
        vobs, vrew, vterm, vtrunc, vinfo = venv.step(actions)
        for i, env in enumerate(envs):
            obs, rew, term, trunc, info = env.step(int(actions[i]))
            assert (term, trunc) == (bool(vterm[i]), bool(vtrunc[i]))
            np.testing.assert_array_equal(vrew[i], rew)
            if term or trunc:
                np.testing.assert_array_equal(vinfo["final_observation"][i], obs)
                np.testing.assert_array_equal(vinfo["final_returns"][i], rew)
                obs, info = env.reset()
            np.testing.assert_array_equal(vobs[i], obs)
            np.testing.assert_array_equal(vinfo["legal_action_mask"][i], info["legal_action_mask"])
            assert vinfo["current_player"][i] == info["current_player"]
        mask = vinfo["legal_action_mask"]
