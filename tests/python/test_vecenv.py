"""VecEnv semantics: auto-reset, buffers, seeds, rollout."""

import numpy as np
import pytest

import ludoteca

GAME = "tablut"


def play_until_done(venv: ludoteca.VecEnv, info: dict, rng: np.random.Generator, limit: int = 5000):
    for _ in range(limit):
        m = info["legal_action_mask"]
        a = (rng.random(m.shape) * m).argmax(axis=1)
        obs, r, term, trunc, info = venv.step(a)
        if (term | trunc).any():
            return obs, r, term, trunc, info
    raise AssertionError("no game ended")


def test_same_step_autoreset_exposes_final_observation() -> None:
    venv = ludoteca.VecEnv(GAME, num_envs=8, seed=0, max_turns=20)
    obs, info = venv.reset()
    obs, r, term, trunc, info = play_until_done(venv, info, np.random.default_rng(1))
    done = term | trunc
    assert np.array_equal(info["_final_observation"], done)
    fin = info["final_observation"]
    assert fin.shape == obs.shape
    assert not fin[~done].any()
    for i in np.flatnonzero(done):
        # The returned observation already belongs to a fresh game.
        fresh = ludoteca.Game(GAME).new_state(0).observation()
        assert np.array_equal(obs[i], fresh)
        assert venv.state(int(i)).turns_played == 0
        assert np.array_equal(info["final_returns"][i], r[i])


def test_copy_false_reuses_buffers_and_copy_true_does_not() -> None:
    v = ludoteca.VecEnv(GAME, num_envs=4, copy=False)
    o1, i1 = v.reset()
    a = i1["legal_action_mask"].argmax(axis=1)
    o2, *_ = v.step(a)
    assert o1 is o2 or np.shares_memory(o1, o2)
    w = ludoteca.VecEnv(GAME, num_envs=4, copy=True)
    p1, j1 = w.reset()
    p2, *_ = w.step(j1["legal_action_mask"].argmax(axis=1))
    assert not np.shares_memory(p1, p2)


def test_reset_with_seed_reproduces() -> None:
    v = ludoteca.VecEnv(GAME, num_envs=3, seed=9)
    a, _ = v.reset(seed=4)
    seeds = v.env_seeds()
    v.rollout(30)
    b, _ = v.reset(seed=4)
    assert np.array_equal(a, b) and v.env_seeds() == seeds and v.seed == 4


def test_rollout_counts() -> None:
    v = ludoteca.VecEnv(GAME, num_envs=4, seed=0, max_turns=10)
    stats = v.rollout(200)
    assert stats["steps"] == 800
    assert stats["terminated"] + stats["truncated"] > 0
    assert stats["wins_p0"] + stats["wins_p1"] + stats["draws"] == stats["terminated"]


def test_num_threads_property() -> None:
    v = ludoteca.VecEnv(GAME, num_envs=4, num_threads=1)
    assert v.num_threads == 1
    v.num_threads = 2
    assert v.num_threads == 2


def test_env_seed_sequence_matches_reset() -> None:
    env = ludoteca.Env(GAME, seed=11)
    o1, _ = env.reset()
    o2, _ = env.reset(seed=11)
    assert np.array_equal(o1, o2)


def test_rollout_plays_the_games_of_step_with_sample_actions() -> None:
    # The rollout runs each env's decisions back to back; stepping every env
    # together with the actions of the same policy must give the same games.
    for game in ("checkers", "backgammon"):
        a = ludoteca.VecEnv(game, num_envs=8, seed=3, max_turns=20, copy=False)
        b = ludoteca.VecEnv(game, num_envs=8, seed=3, max_turns=20, copy=False)
        obs_a, info_a = a.reset()
        b.reset()
        stats = a.rollout(60)
        ended = 0
        for _ in range(60):
            obs_b, rew_b, term_b, trunc_b, info_b = b.step(b.sample_actions())
            ended += int(term_b.sum() + trunc_b.sum())
        assert stats["steps"] == 8 * 60
        assert stats["terminated"] + stats["truncated"] == ended > 0
        np.testing.assert_array_equal(obs_a, obs_b)
        np.testing.assert_array_equal(info_a["legal_action_mask"], info_b["legal_action_mask"])
