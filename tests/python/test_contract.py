"""The spec's Python contract, checked over every registered game."""

import pickle

import numpy as np
import pytest

import ludoteca
from ludoteca.testing import check_state_contract, check_vecenv_matches_envs


def test_games_are_registered() -> None:
    ids = ludoteca.games()
    assert isinstance(ids, list) and ids and all(isinstance(i, str) for i in ids)
    assert "tablut" in ids


def test_game_info_and_properties(game_id: str) -> None:
    info = ludoteca.game_info(game_id)
    assert info["id"] == game_id and info["version"] >= 1 and info["summary"]
    names = [o["name"] for o in info["options"]]
    assert names[:2] == ["max_turns", "illegal_action"]
    game = ludoteca.Game(game_id)
    assert game.id == game_id and game.num_players == 2
    assert game.num_actions > 0 and all(d > 0 for d in game.observation_shape)
    assert game.options["max_turns"] == info["max_turns"]
    assert repr(game) == f"Game({game_id!r})"


def test_state_contract(game_id: str) -> None:
    assert check_state_contract(game_id, games=4, max_decisions=300) > 0


def test_vecenv_equals_separate_envs(game_id: str) -> None:
    check_vecenv_matches_envs(game_id, num_envs=6, steps=250, num_threads=2)


def test_vecenv_bit_identical_for_any_thread_count(game_id: str) -> None:
    results = []
    for threads in (1, 2, 3):
        venv = ludoteca.VecEnv(game_id, num_envs=16, seed=3, num_threads=threads)
        rng = np.random.default_rng(0)
        obs, info = venv.reset()
        trace = [obs.copy()]
        for _ in range(60):
            m = info["legal_action_mask"]
            a = (rng.random(m.shape) * m).argmax(axis=1)
            obs, r, term, trunc, info = venv.step(a)
            trace += [obs.copy(), r.copy(), term.copy(), trunc.copy()]
        stats = venv.rollout(50)
        trace.append(np.array(sorted(stats.items()), dtype=object))
        results.append(trace)
    for other in results[1:]:
        for x, y in zip(results[0], other):
            assert np.array_equal(x, y)


def test_clone_is_independent(game_id: str) -> None:
    state = ludoteca.Game(game_id).new_state(seed=1)
    if state.current_player == -1:
        state.apply_action(state.chance_outcomes()[0][0])
    before = state.to_string()
    copy = state.clone()
    copy.apply_action(int(copy.legal_actions()[0]))
    assert state.to_string() == before and copy.to_string() != before


def test_pickle_round_trip(game_id: str) -> None:
    game = ludoteca.Game(game_id, max_turns=77)
    state = game.new_state(seed=2)
    state.apply_action(int(state.legal_actions()[-1]))
    g2 = pickle.loads(pickle.dumps(game))
    assert g2.options == game.options
    s2 = pickle.loads(pickle.dumps(state))
    assert s2.to_string() == state.to_string() and s2 == state


def test_env_reset_step_shapes(game_id: str) -> None:
    env = ludoteca.Env(game_id, seed=5)
    obs, info = env.reset()
    assert obs.shape == env.observation_shape and obs.dtype == np.float32
    assert info["legal_action_mask"].shape == (env.num_actions,)
    a = int(np.flatnonzero(info["legal_action_mask"])[0])
    obs, rewards, terminated, truncated, info = env.step(a)
    assert rewards.shape == (2,) and rewards.dtype == np.float32
    assert isinstance(terminated, bool) and isinstance(truncated, bool)
    assert "turn" in info and "current_player" in info


def test_env_truncates_at_max_turns(game_id: str) -> None:
    env = ludoteca.Env(game_id, seed=0, max_turns=3)
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(200):
        a = int(rng.choice(np.flatnonzero(info["legal_action_mask"])))
        obs, r, term, trunc, info = env.step(a)
        if term or trunc:
            break
    assert term or trunc
    if trunc:
        assert info["turn"] == 3 and not r.any()


def test_uint8_observations_match_float(game_id: str) -> None:
    f = ludoteca.VecEnv(game_id, num_envs=4, seed=1)
    u = ludoteca.VecEnv(game_id, num_envs=4, seed=1, obs_dtype="uint8")
    of, _ = f.reset()
    ou, _ = u.reset()
    assert ou.dtype == np.uint8 and ou.shape == of.shape
    exact = np.all(of == np.floor(of))
    if exact:
        assert np.array_equal(ou.astype(np.float32), of)
