"""ludoteca.sb3: the one-process SB3 VecEnv over a ludoteca VecEnv follows
SB3's VecEnv contract for every game, replays like single game states, and
MaskablePPO trains on it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

import ludoteca  # noqa: E402
import ludoteca.gym  # noqa: E402
import ludoteca.sb3  # noqa: E402
from ludoteca.errors import LudotecaError  # noqa: E402


def _masked_random(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)


def test_sb3_check_env_passes_for_the_single_env(game_id: str) -> None:
    from stable_baselines3.common.env_checker import check_env

    check_env(ludoteca.gym.make(game_id), warn=False)


def test_vec_env_follows_the_sb3_contract(game_id: str) -> None:
    from stable_baselines3.common.vec_env import VecCheckNan, VecMonitor

    n = 4
    venv = VecMonitor(VecCheckNan(ludoteca.sb3.make_vec(game_id, n, opponent="random", seed=1, max_turns=30),
                                  raise_exception=True))
    space = venv.observation_space
    obs = venv.reset()
    assert obs.shape == (n, *space.shape) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(200):
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.shape == (n, ludoteca.Game(game_id).num_actions) and masks.any(axis=1).all()
        obs, rewards, dones, infos = venv.step(_masked_random(masks, rng))
        assert obs.shape == (n, *space.shape) and rewards.shape == (n,) and dones.shape == (n,)
        assert len(infos) == n
        for i in np.flatnonzero(dones):
            assert space.contains(infos[i]["terminal_observation"])
            assert isinstance(infos[i]["TimeLimit.truncated"], bool)
            # VecMonitor's episode record: the agent's return is the last reward.
            assert infos[i]["episode"]["r"] == pytest.approx(rewards[i])
            episodes += 1
        assert not any("terminal_observation" in infos[i] for i in np.flatnonzero(~dones))
    assert episodes > 0


def test_self_play_steps_replay_on_single_states(game_id: str) -> None:
    """Every non-final step of every env equals applying the same action to a
    copy of that env's state taken before the step; final steps pay the mover
    the return the state computes."""
    n = 3
    venv = ludoteca.sb3.make_vec(game_id, n, opponent="self", seed=5, max_turns=40)
    batch = venv.venv._venv
    venv.reset()
    rng = np.random.default_rng(1)
    for _ in range(120):
        before = [batch.state(i) for i in range(n)]
        actions = _masked_random(venv.action_masks(), rng)
        _, rewards, dones, infos = venv.step(actions)
        for i in range(n):
            mover = before[i].current_player
            before[i].apply_action(int(actions[i]))
            if dones[i]:
                if not infos[i]["TimeLimit.truncated"]:
                    assert before[i].is_terminal()
                    assert rewards[i] == before[i].returns()[mover]
            elif not before[i].is_chance_node():
                assert before[i] == batch.state(i)
                assert rewards[i] == 0


def test_seed_then_reset_repeats_the_episodes() -> None:
    venv = ludoteca.sb3.make_vec("tablut", 4, opponent="random", seed=0)

    def run() -> list[np.ndarray]:
        venv.seed(123)
        out = [venv.reset()]
        for _ in range(20):
            venv.step_async(venv.action_masks().argmax(axis=1))
            out.append(venv.step_wait()[0])
        return out

    assert all(np.array_equal(a, b) for a, b in zip(run(), run()))


def test_bad_actions_and_attributes_raise_clear_errors() -> None:
    venv = ludoteca.sb3.make_vec("tablut", 2)
    venv.reset()
    with pytest.raises(LudotecaError, match="expected 2 actions"):
        venv.step_async(np.zeros(3, dtype=np.int64))
    with pytest.raises(LudotecaError, match="step_async"):
        venv.step_wait()
    with pytest.raises(LudotecaError, match="share their settings"):
        venv.set_attr("opponent", "self")
    with pytest.raises(AttributeError, match="action_masks"):
        venv.env_method("render")
    assert venv.get_attr("render_mode") == [None, None]
    assert venv.env_is_wrapped(object, indices=[1]) == [False]  # type: ignore[arg-type]


def test_maskable_ppo_trains_on_many_envs_in_one_process() -> None:
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks

    torch.set_num_threads(1)
    venv = ludoteca.sb3.make_vec("checkers", 32, opponent="self", seed=0, max_turns=60)
    model = MaskablePPO("MlpPolicy", venv, n_steps=8, batch_size=256, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    obs = venv.reset()
    masks = get_action_masks(venv)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[np.arange(32), actions].all()
