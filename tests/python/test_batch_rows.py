"""Every row of a VecEnv batch is written, whatever the game's info fields."""

from __future__ import annotations

import numpy as np
import pytest

import ludoteca


def test_vecenv_rows_match_states(game_id: str) -> None:
    venv = ludoteca.VecEnv(game_id, num_envs=5, seed=3)
    obs, info = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(3):
        for i in range(5):
            state = venv.state(i)
            assert info["current_player"][i] == state.current_player
            assert np.array_equal(info["legal_action_mask"][i], state.legal_action_mask())
            assert np.array_equal(obs[i], state.observation())
        mask = info["legal_action_mask"]
        obs, rewards, term, trunc, info = venv.step((rng.random(mask.shape) * mask).argmax(axis=1))
        assert not rewards[~(term | trunc)].any()


def test_vecenv_active_steps_only_some_envs() -> None:
    venv = ludoteca.VecEnv(ludoteca.games()[0], num_envs=3, seed=0)
    obs, info = venv.reset()
    mask = info["legal_action_mask"]
    actions = mask.argmax(axis=1)
    before = [venv.state(i).to_string() for i in range(3)]
    obs2, r, term, trunc, info2 = venv.step(actions, active=np.array([True, False, True]))
    after = [venv.state(i).to_string() for i in range(3)]
    assert after[0] != before[0] and after[2] != before[2]
    assert after[1] == before[1] and np.array_equal(obs2[1], obs[1])
    assert np.array_equal(info2["legal_action_mask"][1], mask[1]) and not r[1].any()
    with pytest.raises(ValueError, match="active must be a bool array of shape"):
        venv.step(actions, active=np.array([1, 0, 1]))
    with pytest.raises(ValueError, match="active must be a bool array of shape"):
        venv.step(actions, active=np.array([True, False]))
