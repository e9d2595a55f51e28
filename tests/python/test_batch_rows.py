"""Every row of a VecEnv batch is written, whatever the game's info fields."""

from __future__ import annotations

import numpy as np

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
