"""Smoke test of examples/train_maskable_ppo.py's setup: sb3-contrib's
MaskablePPO learns a few hundred steps on a ludoteca.gym env and predicts
legal actions with the mask."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="needs torch and sb3-contrib: pip install '.[test-train]'")

import ludoteca  # noqa: E402
import ludoteca.gym  # noqa: E402


def test_maskable_ppo_smoke() -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_checker import check_env
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    game_id = "checkers" if "checkers" in ludoteca.games() else ludoteca.games()[0]
    check_env(ludoteca.gym.make(game_id), warn=False)
    venv = DummyVecEnv([lambda: ludoteca.gym.make(game_id, max_turns=60) for _ in range(2)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=300)
    assert model.num_timesteps >= 300
    obs = venv.reset()
    masks = get_action_masks(venv)
    assert masks.shape == (2, ludoteca.Game(game_id).num_actions)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert all(masks[i, a] for i, a in enumerate(np.asarray(actions)))
