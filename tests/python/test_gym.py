"""ludoteca.gym: Gymnasium's env checker on every game, sides, opponents,
rewards, masks, rendering, and the vector env against the random opponent."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import ludoteca  # noqa: E402
import ludoteca.gym as lgym  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402


def _play(env: Any, rng: np.random.Generator, seed: int) -> tuple[float, dict[str, Any], int]:
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert env.observation_space.contains(obs), "observation outside the declared Box"
        assert info["current_player"] == info["agent_player"]
        assert np.array_equal(info["action_mask"], env.action_masks())
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, r, term, trunc, info = env.step(a)
        total += r
        steps += 1
        if term or trunc:
            return total, info, steps


def test_check_env_every_game(game_id: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(lgym.make(game_id))
        check_env(lgym.make(game_id, agent_player=1, opponent=lambda s: int(s.legal_actions()[0])))
    assert not [str(w.message) for w in caught]


def test_registered_with_gymnasium(game_id: str) -> None:
    env_id = f"ludoteca/{game_id}-v{ludoteca.Game(game_id).version}"
    env = gymnasium.make(env_id, agent_player=1)
    obs, info = env.reset(seed=3)
    assert info["agent_player"] == 1 and obs.shape == ludoteca.Game(game_id).observation_shape
    check_env(env.unwrapped)
    assert gymnasium.make(f"ludoteca.gym:{env_id}").unwrapped.game.id == game_id


def test_agent_side_and_rewards(game_id: str) -> None:
    rng = np.random.default_rng(0)
    env = lgym.make(game_id, agent_player="random", max_turns=60)
    sides = set()
    for ep in range(6):
        total, info, _ = _play(env, rng, seed=ep)
        sides.add(info["agent_player"])
        assert total in (-3, -2, -1, 0, 1, 2, 3)
    assert sides == {0, 1}, "agent_player='random' gives both sides"


def test_reward_is_agents_return() -> None:
    game_id = ludoteca.games()[0]
    rng = np.random.default_rng(1)
    for side in (0, 1):
        env = lgym.make(game_id, agent_player=side)
        for ep in range(3):
            total, info, _ = _play(env, rng, seed=ep)
            state = env.state
            if state.is_terminal():
                assert total == state.returns()[side]
            else:
                assert total == 0.0


def test_opponents_callable_and_object() -> None:
    game_id = ludoteca.games()[0]
    seen: list[str] = []

    def first_legal(state: ludoteca.State) -> int:
        seen.append(state.to_string())
        return int(state.legal_actions()[0])

    class Last:
        def act(self, state: ludoteca.State) -> int:
            return int(state.legal_actions()[-1])

    env = lgym.make(game_id, opponent=first_legal, agent_player=1)
    obs, info = env.reset(seed=0)
    assert seen and info["opponent_actions"], "the opponent opened the game inside reset"
    env2 = lgym.make(game_id, opponent=Last())
    env2.reset(seed=0)
    obs, r, term, trunc, info = env2.step(int(env2.action_masks().nonzero()[0][0]))
    assert info["opponent_actions"] or term
    with pytest.raises(ValueError, match="opponent"):
        lgym.make(game_id, opponent="minimax")
    with pytest.raises(ValueError, match="agent_player"):
        lgym.make(game_id, agent_player=2)


def test_reset_option_picks_side() -> None:
    env = lgym.make(ludoteca.games()[0])
    _, info = env.reset(seed=0, options={"agent_player": 1})
    assert info["agent_player"] == 1
    _, info = env.reset(seed=0)
    assert info["agent_player"] == 0
    with pytest.raises(ValueError, match="reset option"):
        env.reset(options={"colour": 1})


def test_illegal_action_loses_by_default() -> None:
    env = lgym.make(ludoteca.games()[0])
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, r, term, _, info = env.step(illegal)
    assert term and r == -1.0 and info["illegal_action"]
    strict = lgym.make(ludoteca.games()[0], illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError):
        strict.step(illegal)


def test_render_modes(game_id: str) -> None:
    pytest.importorskip("PIL")
    env = lgym.make(game_id, render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3 and min(img.shape[:2]) > 100
    text = lgym.make(game_id, render_mode="ansi")
    text.reset(seed=0)
    assert isinstance(text.render(), str)


def test_vector_env_against_random(game_id: str) -> None:
    venv = lgym.make_vec(game_id, num_envs=16, seed=0, agent_player="random", max_turns=40)
    assert venv.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, info = venv.reset(seed=5)
    assert obs.shape == (16, *venv.single_observation_space.shape)
    assert venv.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        assert (info["current_player"] == info["agent_player"]).all(), "every env waits for the agent"
        mask = venv.action_masks()
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, rewards, term, trunc, info = venv.step(actions)
        assert rewards.shape == (16,) and term.dtype == bool
        if "_final_obs" in info:
            rows = np.flatnonzero(info["_final_obs"])
            assert set(rows) == set(np.flatnonzero(term | trunc))
            fin = info["final_returns"][rows, info["final_agent_player"][rows]]
            assert np.array_equal(fin * term[rows], rewards[rows])
            ended += len(rows)
    assert ended > 0


def test_vector_env_self_play_and_gymnasium_make_vec() -> None:
    game_id = ludoteca.games()[0]
    venv = lgym.make_vec(game_id, num_envs=4, opponent="self")
    obs, info = venv.reset(seed=0)
    for _ in range(5):
        obs, r, term, trunc, info = venv.step(venv.action_masks().argmax(axis=1))
        assert (info["agent_player"] == np.maximum(info["current_player"], 0)).all()
    env_id = f"ludoteca/{game_id}-v{ludoteca.Game(game_id).version}"
    v2 = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point")
    obs, info = v2.reset(seed=0)
    assert obs.shape[0] == 3
    with pytest.raises(ValueError, match="opponent"):
        lgym.make_vec(game_id, 2, opponent="minimax")


def test_vector_env_plays_explicit_chance_inside() -> None:
    if "backgammon" not in ludoteca.games():
        pytest.skip("backgammon is not registered yet")
    venv = lgym.make_vec("backgammon", num_envs=8, seed=0, agent_player="random", chance="explicit")
    obs, info = venv.reset(seed=0)
    for _ in range(100):
        assert (info["current_player"] == info["agent_player"]).all(), "chance nodes never reach the agent"
        obs, rewards, term, trunc, info = venv.step(venv.action_masks().argmax(axis=1))


def test_observation_space_bound_is_the_core_s_and_holds(game_id: str) -> None:
    # The bound comes from the core (Game.observation_high), not a Python
    # table: 1.0 for 0/1 planes, 2**15 for backgammon's raw match score and
    # length; observations of a random game stay inside it.
    game = ludoteca.Game(game_id)
    space = lgym.observation_space(game)
    assert float(space.high.max()) == game.observation_high == (2.0**15 if game_id == "backgammon" else 1.0)
    rng = np.random.default_rng(0)
    state = game.new_state(seed=1)
    for _ in range(60):
        if state.is_terminal():
            break
        assert space.contains(state.observation())
        if state.current_player == -1:
            from ludoteca._chance import sample_chance

            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(int(rng.choice(np.flatnonzero(state.legal_action_mask()))))


@pytest.mark.parametrize("game, spec", [("backgammon", "greedy"), ("checkers", "alphabeta:depth=1"), ("kharbaga", "mcts:simulations=4")])
def test_an_agent_answering_complete_moves_is_an_opponent(game: str, spec: str) -> None:
    # Every built-in agent answers a complete move in notation; the env plays its decisions one by
    # one and asks the agent once per turn.
    from ludoteca.agents import make_agent

    agent = make_agent(spec, game_id=game, seed=0)
    asked: list[Any] = []

    def opponent(state: ludoteca.State) -> str:
        move = agent.act(state)
        asked.append(move)
        return move

    env = lgym.make(game, opponent=opponent, agent_player=1, max_turns=30)
    obs, info = env.reset(seed=1)
    decisions = len(info["opponent_actions"])
    for _ in range(40):
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, term, trunc, info = env.step(int(legal[0]))
        decisions += len(info["opponent_actions"])
        if term or trunc:
            break
    assert asked and all(isinstance(m, str) for m in asked)
    # Asked once per turn: a backgammon roll's checker moves are several decisions of one answer.
    assert decisions >= len(asked) and (game != "backgammon" or decisions > len(asked))
