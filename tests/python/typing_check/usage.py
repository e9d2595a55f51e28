"""A user's script, checked with ``mypy --strict`` by tests/python/test_typing.py:
the stubs and the Python modules must type it without a single error."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import ludoteca
import ludoteca.gym
import ludoteca.pettingzoo
from ludoteca import render


def first_legal(state: ludoteca.State) -> int:
    return int(state.legal_actions()[0])


def play_random(game_id: str, seed: int) -> float:
    game = ludoteca.Game(game_id, max_turns=50)
    state: ludoteca.State = game.new_state(seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.current_player == -1:
            action, _probability = state.chance_outcomes()[0]
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    returns: npt.NDArray[np.float32] = state.returns()
    return float(returns[0])


def gym_episode(game_id: str) -> float:
    env = ludoteca.gym.make(game_id, opponent=first_legal, agent_player="random", render_mode="rgb_array")
    obs, info = env.reset(seed=0)
    total = 0.0
    done = False
    while not done:
        mask: npt.NDArray[np.bool_] = env.action_masks()
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        total += reward
        done = terminated or truncated
    return total


def vector(game_id: str) -> int:
    venv = ludoteca.gym.make_vec(game_id, num_envs=4, seed=1)
    obs, info = venv.reset(seed=1)
    actions = venv.action_masks().argmax(axis=1)
    obs, rewards, terminated, truncated, info = venv.step(actions)
    batch = ludoteca.VecEnv(game_id, num_envs=4)
    batch.step(actions, active=np.array([True, False, True, False]))
    return int(terminated.sum())


def aec(game_id: str) -> None:
    env = ludoteca.pettingzoo.env(game_id)
    env.reset(seed=0)
    for agent in env.agent_iter(20):
        observation, reward, termination, truncation, info = env.last()
        env.step(None if termination or truncation else int(np.flatnonzero(observation["action_mask"])[0]))


def pictures(game_id: str) -> tuple[int, int]:
    state = ludoteca.Game(game_id).new_state()
    svg: str = render.svg(state)
    image: npt.NDArray[np.uint8] = render.rgb_array(state)
    scene: render.Scene = render.scene(state)
    render.save_gif([state, state.clone()], "game.gif")
    return len(svg), image.shape[0] + scene.width
