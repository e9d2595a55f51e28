"""ludoteca.pettingzoo: PettingZoo's API, seed and render tests on every game."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import ludoteca  # noqa: E402
import ludoteca.pettingzoo as lpz  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402


# PettingZoo's api_test warns about Dict observations, as for its own classic games.
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


def test_api_test_every_game(game_id: str) -> None:
    api_test(lpz.env(game_id), num_cycles=400)


def test_seed_and_render(game_id: str) -> None:
    seed_test(lambda: lpz.env(game_id), num_cycles=100)
    render_test(lambda render_mode=None: lpz.env(game_id, render_mode=render_mode))


def test_game_to_the_end_matches_state(game_id: str) -> None:
    env = lpz.env(game_id, max_turns=80)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    totals = {"player_0": 0.0, "player_1": 0.0}
    for agent in env.agent_iter(10_000):
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        assert obs["action_mask"].dtype == np.int8
        if term or trunc:
            env.step(None)
            continue
        assert agent == f"player_{info['current_player']}"
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.unwrapped.state_object
    expected = state.returns() if state.is_terminal() else np.zeros(2)
    assert [totals["player_0"], totals["player_1"]] == expected.tolist()


def test_bad_render_mode() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        lpz.env(ludoteca.games()[0], render_mode="3d")


def test_chance_nodes_are_internal() -> None:
    if "backgammon" not in ludoteca.games():
        pytest.skip("backgammon is not registered yet")
    env = lpz.env("backgammon", chance="explicit")
    api_test(env, num_cycles=300)
