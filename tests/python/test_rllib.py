"""ludoteca.rllib: RLlib's env checker passes for every game, the vectorized
multi-agent env replays on single game states with RLlib's next-step reset,
the action-masking module samples legal actions only, and the self-play
example trains two iterations on a local Ray with two env runners."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import ludoteca  # noqa: E402
import ludoteca.rllib  # noqa: E402
from ludoteca.errors import LudotecaError  # noqa: E402

AGENTS = ludoteca.rllib.AGENTS
ROOT = Path(__file__).resolve().parents[2]


def test_rllib_env_checker_passes(game_id: str) -> None:
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    check_multiagent_environments(ludoteca.rllib.LudotecaMultiAgentEnv({"game": game_id, "max_turns": 30}))


def _legal(obs: dict[str, dict[str, np.ndarray]], rng: np.random.Generator) -> dict[str, int]:
    (agent, o), = obs.items()
    return {agent: int(rng.choice(np.flatnonzero(o["action_mask"])))}


def test_single_env_plays_a_whole_game_with_rewards_at_the_end(game_id: str) -> None:
    env = ludoteca.rllib.LudotecaMultiAgentEnv({"game": game_id, "seed": 3})
    rng = np.random.default_rng(0)
    obs, _ = env.reset()
    totals = dict.fromkeys(AGENTS, 0.0)
    for _ in range(5000):
        assert len(obs) == 1
        state = env._env.state
        (agent,) = obs
        assert agent == AGENTS[state.current_player]
        assert np.array_equal(obs[agent]["action_mask"].astype(bool), state.legal_action_mask())
        obs, rewards, term, trunc, _ = env.step(_legal(obs, rng))
        for a, r in rewards.items():
            totals[a] += r
        if term["__all__"] or trunc["__all__"]:
            break
    assert term["__all__"] and set(obs) == set(AGENTS)
    returns = env._env.state.returns()
    assert totals == {AGENTS[0]: returns[0], AGENTS[1]: returns[1]}
    with pytest.raises(LudotecaError, match="expected an action of"):
        env.reset()
        env.step({AGENTS[0]: 0, AGENTS[1]: 0})


def test_vector_env_replays_on_single_states_with_next_step_resets(game_id: str) -> None:
    n = 3
    venv = ludoteca.rllib.LudotecaVectorMultiAgentEnv(n, {"game": game_id, "seed": 9, "max_turns": 20})
    batch = venv.vec_env
    rng = np.random.default_rng(2)
    obs, _ = venv.reset()
    ended_before = np.zeros(n, dtype=bool)
    resets = 0
    for _ in range(70):
        before = [batch.state(i) for i in range(n)]
        actions = [{} if ended_before[i] else _legal(obs[i], rng) for i in range(n)]
        obs, rewards, term, trunc, _ = venv.step(actions)
        for i in range(n):
            if ended_before[i]:
                # The reset step: the next game's first observation, no rewards.
                assert len(obs[i]) == 1 and rewards[i] == {} and not term[i]["__all__"]
                resets += 1
                continue
            (agent, action), = actions[i].items()
            before[i].apply_action(action)
            if term[i]["__all__"]:
                returns = before[i].returns()
                assert before[i].is_terminal() and set(obs[i]) == set(AGENTS)
                assert rewards[i] == {AGENTS[0]: returns[0], AGENTS[1]: returns[1]}
            elif not trunc[i]["__all__"] and not before[i].is_chance_node():
                assert before[i] == batch.state(i)
                (nxt,) = obs[i]
                assert nxt == AGENTS[batch.state(i).current_player]
                assert np.array_equal(obs[i][nxt]["action_mask"].astype(bool), batch.state(i).legal_action_mask())
        ended_before = np.array([t["__all__"] for t in term]) | np.array([t["__all__"] for t in trunc])
    assert resets >= n  # max_turns=20 ends every game within the 70 steps


def test_action_masking_module_samples_legal_actions_only() -> None:
    import torch
    from ray.rllib.core.columns import Columns

    game = ludoteca.Game("tablut")
    module = ludoteca.rllib.module_spec("tablut", hidden=(16,)).build()
    venv = ludoteca.VecEnv("tablut", 16, seed=0)
    obs, info = venv.reset()
    masks = info["legal_action_mask"]
    batch = {Columns.OBS: {"observations": torch.as_tensor(obs.reshape(16, -1)),
                           "action_mask": torch.as_tensor(masks, dtype=torch.float32)}}
    logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
    dist = module.get_exploration_action_dist_cls().from_logits(logits)
    samples = torch.stack([dist.sample() for _ in range(200)]).numpy()
    assert samples.shape == (200, 16) and logits.shape == (16, game.num_actions)
    assert masks[np.arange(16), samples].all()


def test_bad_env_config_is_refused() -> None:
    with pytest.raises(LudotecaError, match="needs 'game'"):
        ludoteca.rllib.LudotecaMultiAgentEnv({})
    venv = ludoteca.rllib.LudotecaVectorMultiAgentEnv(2, {"game": "checkers"})
    venv.reset()
    with pytest.raises(LudotecaError, match="expected 2 per-env action dicts"):
        venv.step([{}])


def test_selfplay_example_trains_two_iterations_on_local_ray() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "rllib_selfplay.py"), "--smoke"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "iter 2:" in proc.stdout and "after 2 iterations" in proc.stdout, proc.stdout


def test_env_runner_logs_the_step_counts_rllib_logs() -> None:
    """LudotecaEnvRunner logs its step counters once per sample, with the
    totals RLlib's own per-step logging gives for the same sampling."""
    import torch
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
    from ray.rllib.utils.metrics import (
        NUM_AGENT_STEPS_SAMPLED,
        NUM_AGENT_STEPS_SAMPLED_LIFETIME,
        NUM_ENV_STEPS_SAMPLED,
        NUM_ENV_STEPS_SAMPLED_LIFETIME,
        NUM_EPISODES,
        NUM_EPISODES_LIFETIME,
        NUM_MODULE_STEPS_SAMPLED,
        NUM_MODULE_STEPS_SAMPLED_LIFETIME,
    )

    class PerStep(ludoteca.rllib.LudotecaEnvRunner):  # type: ignore[misc]
        sample = MultiAgentEnvRunner.sample
        _increase_sampled_metrics = MultiAgentEnvRunner._increase_sampled_metrics

    config = ludoteca.rllib.ppo_config("checkers", 0, 4, hidden=(8,), env_config={"max_turns": 10})
    logged = []
    for cls in (ludoteca.rllib.LudotecaEnvRunner, PerStep):
        torch.manual_seed(0)
        runner = cls(config=config)
        steps = 0
        for n in (120, 60):
            torch.manual_seed(n)
            steps += sum(e.env_steps() for e in runner.sample(num_timesteps=n))
        keys = [NUM_ENV_STEPS_SAMPLED, NUM_ENV_STEPS_SAMPLED_LIFETIME, NUM_EPISODES, NUM_EPISODES_LIFETIME]
        keys += [(k, a) for k in (NUM_AGENT_STEPS_SAMPLED, NUM_AGENT_STEPS_SAMPLED_LIFETIME) for a in ludoteca.rllib.AGENTS]
        keys += [(k, "main") for k in (NUM_MODULE_STEPS_SAMPLED, NUM_MODULE_STEPS_SAMPLED_LIFETIME)]
        logged.append({k: runner.metrics.peek(k, default=None) for k in keys})
        assert logged[-1][NUM_ENV_STEPS_SAMPLED_LIFETIME] == steps
        assert logged[-1][NUM_EPISODES] > 0
        runner.stop()
    assert logged[0] == logged[1]
