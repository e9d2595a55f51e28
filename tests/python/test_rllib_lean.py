"""ludoteca.rllib.LudotecaLeanEnvRunner: the episodes it builds in bulk equal
the ones RLlib's own ``MultiAgentEpisode`` API builds step by step from the
same transitions (``add_env_reset``, ``add_env_step``, ``cut``, ``to_numpy``,
as ``MultiAgentEnvRunner`` does), for every game and a two-module self-play
mapping; PPO's learner connectors turn both into the same training batch;
its counters equal RLlib's per-step ones; legal-only sampling draws from the
module's own distribution; the fast masking module equals RLlib's."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import ludoteca  # noqa: E402
import ludoteca.rllib  # noqa: E402
from ludoteca.errors import LudotecaError  # noqa: E402

AGENTS = ludoteca.rllib.AGENTS


def _two_modules(agent_id: str, episode: Any, **kwargs: Any) -> str:
    return "main" if hash(episode.id_) % 2 == AGENTS.index(agent_id) else "opponent"


def _lean_runner(game_id: str, envs: int, max_turns: int, two_modules: bool = True) -> Any:
    config = ludoteca.rllib.ppo_config(game_id, 0, envs, hidden=(8,), env_config={"max_turns": max_turns}, lean=True)
    if two_modules:
        config = (config.multi_agent(policies={"main", "opponent"}, policy_mapping_fn=_two_modules)
                  .rl_module(rl_module_spec=ludoteca.rllib.multi_module_spec(game_id, ["main", "opponent"], (8,))))
    return ludoteca.rllib.LudotecaLeanEnvRunner(config=config)


class _Replay:
    """Feeds a lean runner's recorded steps (``runner._last_steps``) through
    RLlib's ``MultiAgentEpisode`` API one env step at a time, as
    ``MultiAgentEnvRunner`` builds its episodes (a game that ends is followed
    by the next one's reset observation in the same step, as the lean runner
    plays it); also counts what RLlib's ``_increase_sampled_metrics`` logs."""

    def __init__(self) -> None:
        self.episodes: list[Any] = []
        self.counts: Counter[tuple[str, ...]] = Counter()

    @staticmethod
    def _new(shell: Any, obs: dict[str, Any]) -> Any:
        from ray.rllib.env.multi_agent_episode import MultiAgentEpisode

        episode = MultiAgentEpisode(id_=shell.id_, observation_space=shell.observation_space,
                                    action_space=shell.action_space, agent_module_ids=dict(shell._agent_to_module_mapping),
                                    agent_to_module_mapping_fn=shell.agent_to_module_mapping_fn)
        episode.add_env_reset(observations=obs)
        return episode

    @staticmethod
    def _prune(episode: Any) -> Any:
        for agent, sa in list(episode.agent_episodes.items()):
            if not sa:
                del episode.agent_episodes[agent]
        return episode.to_numpy()

    def sample(self, steps: Any, weights_seq_no: int) -> list[Any]:
        from ray.rllib.utils.metrics import WEIGHTS_SEQ_NO

        def obs(k: int, i: int) -> dict[str, Any]:
            return {AGENTS[steps.player[k, i]]: {"observations": steps.obs[k, i].copy(), "action_mask": steps.mask[k, i].copy()}}

        if not self.episodes:
            self.episodes = [self._new(steps.start_shells[i], obs(0, i)) for i in range(steps.n)]
        out = []
        zero = np.zeros(steps.num_actions, np.float32)
        for k in range(steps.rows):
            for i in range(steps.n):
                p = steps.player[k, i]
                ended = steps.term[k, i] or steps.trunc[k, i]
                outputs = {key: np.copy(col[k, i]) if col.ndim > 2 else col[k, i] for key, col in steps.outputs.items()}
                outputs[WEIGHTS_SEQ_NO] = weights_seq_no
                if ended:
                    last = {"observations": steps.final[(k, i)], "action_mask": zero}
                    nxt = {AGENTS[0]: last, AGENTS[1]: last}
                    rewards = {AGENTS[0]: float(steps.reward[k, i, 0]), AGENTS[1]: float(steps.reward[k, i, 1])}
                else:
                    nxt = obs(k + 1, i)
                    rewards = {AGENTS[p]: float(steps.reward[k, i, p])}
                episode = self.episodes[i]
                episode.add_env_step(observations=nxt, actions={AGENTS[p]: steps.action[k, i]}, rewards=rewards, infos={},
                                     terminateds={"__all__": bool(steps.term[k, i])},
                                     truncateds={"__all__": bool(steps.trunc[k, i])},
                                     extra_model_outputs={AGENTS[p]: outputs})
                self.counts[("env",)] += 1
                self.counts[("episodes",)] += int(ended)
                for agent in nxt:
                    self.counts[("agent", agent)] += 1
                    self.counts[("module", episode.module_for(agent))] += 1
                if ended:
                    out.append(self._prune(episode))
                    self.episodes[i] = self._new(steps.shells[(k, i)], obs(k + 1, i))
        # A game that has not stepped yet is carried on as it is, not cut.
        successors = [e.cut(len_lookback_buffer=1) if e.env_t > 0 else e for e in self.episodes]
        out += [self._prune(e) for e in self.episodes if e.env_t > 0]
        self.episodes = successors
        return out


_IGNORED = {"id_", "multi_agent_episode_id", "_start_time", "_last_step_time", "agent_to_module_mapping_fn",
            "observation_space", "action_space", "_observation_space", "_action_space"}


def _differences(a: Any, b: Any, path: str = "") -> list[str]:
    if path.endswith(("_hanging_rewards_begin", "_hanging_rewards_end")):
        # defaultdict(float): RLlib adds 0.0 entries by reading them.
        a, b = {k: v for k, v in a.items() if v}, {k: v for k, v in b.items() if v}
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return [f"{path}: keys {sorted(map(str, a))} != {sorted(map(str, b))}"]
        return [d for k in a if k not in _IGNORED for d in _differences(a[k], b[k], f"{path}.{k}")]
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return [f"{path}: length {len(a)} != {len(b)}"]
        return [d for j, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{path}[{j}]")]
    if hasattr(a, "get_state") and hasattr(b, "get_state"):
        return _differences(a.get_state(), b.get_state(), path)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        x, y = np.asarray(a), np.asarray(b)
        if x.shape != y.shape or x.dtype != y.dtype or not np.array_equal(x, y):
            return [f"{path}: arrays {x.shape} {x.dtype} != {y.shape} {y.dtype}"]
        return []
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


def _episode_differences(lean: list[Any], reference: list[Any]) -> list[str]:
    def state(e: Any) -> dict[str, Any]:
        s = e.get_state()
        s["agent_episodes"] = {a: sa.get_state() for a, sa in e.agent_episodes.items()}
        return s

    found = [] if len(lean) == len(reference) else [f"{len(lean)} episodes, RLlib {len(reference)}"]
    by_key = {(e.id_, e.env_t_started): e for e in reference}
    for e in lean:
        ref = by_key.get((e.id_, e.env_t_started))
        found += ([f"{e.id_}@{e.env_t_started}: no RLlib chunk"] if ref is None
                  else _differences(state(e), state(ref), f"{e.id_[:6]}@{e.env_t_started}"))
    return found


@pytest.mark.parametrize("game", ["checkers", "backgammon", "tablut", "zamma"])
def test_lean_runner_episodes_equal_rllibs_step_by_step_episodes(game: str) -> None:
    # Short games and uneven sample sizes: chunks cut mid-game, games ending
    # and starting inside a call, the same player moving twice (backgammon).
    runner = _lean_runner(game, 5, 30)
    replay = _Replay()
    for n in (9, 1, 13, 40, 7, 26):
        episodes = runner.sample(num_timesteps=n)
        reference = replay.sample(runner._last_steps, runner._weights_seq_no)
        assert sum(e.env_steps() for e in episodes) == 5 * -(-n // 5)
        assert _episode_differences(episodes, reference) == []
    assert {e.module_for(a) for e in episodes for a in AGENTS} == {"main", "opponent"}
    runner.stop()


def test_lean_runner_logs_rllibs_step_counts() -> None:
    from ray.rllib.utils.metrics import (
        NUM_AGENT_STEPS_SAMPLED_LIFETIME,
        NUM_ENV_STEPS_SAMPLED_LIFETIME,
        NUM_EPISODES_LIFETIME,
        NUM_MODULE_STEPS_SAMPLED_LIFETIME,
    )

    runner = _lean_runner("checkers", 4, 12)
    replay = _Replay()
    for n in (30, 17, 40):
        runner.sample(num_timesteps=n)
        replay.sample(runner._last_steps, runner._weights_seq_no)
    peek = runner.metrics.peek
    assert peek(NUM_ENV_STEPS_SAMPLED_LIFETIME) == replay.counts[("env",)]
    assert peek(NUM_EPISODES_LIFETIME) == replay.counts[("episodes",)] > 0
    for agent in AGENTS:
        assert peek((NUM_AGENT_STEPS_SAMPLED_LIFETIME, agent)) == replay.counts[("agent", agent)]
    for module in ("main", "opponent"):
        assert peek((NUM_MODULE_STEPS_SAMPLED_LIFETIME, module)) == replay.counts[("module", module)]
    runner.stop()


def test_ppo_learner_gets_the_same_batch_from_lean_and_rllib_episodes() -> None:
    """PPO's learner connector pipeline (GAE included: value predictions,
    advantages, targets) over the lean episodes and over RLlib's own."""
    import torch
    from ray.rllib.core.columns import Columns

    config = (ludoteca.rllib.ppo_config("checkers", 0, 6, hidden=(8,), env_config={"max_turns": 20}, lean=True)
              .learners(num_learners=0))
    runner = ludoteca.rllib.LudotecaLeanEnvRunner(config=config)
    replay = _Replay()
    runner.sample(num_timesteps=30)
    replay.sample(runner._last_steps, runner._weights_seq_no)
    lean = runner.sample(num_timesteps=90)
    reference = replay.sample(runner._last_steps, runner._weights_seq_no)
    learner = config.build_learner(env=None, spaces=runner.get_spaces())
    learner.module.set_state(runner.module.get_state())
    order = {(e.id_, e.env_t_started): j for j, e in enumerate(lean)}
    reference.sort(key=lambda e: order[(e.id_, e.env_t_started)])
    batches = []
    for episodes in (lean, reference):
        with torch.no_grad():
            batches.append(learner._learner_connector(rl_module=learner.module, batch={}, episodes=episodes,
                                                      shared_data={}, metrics=None)["main"])
    ours, theirs = batches
    # GAE keeps the value predictions as value_targets - advantages; the
    # masking module moved the mask out of the observation into its column.
    columns = {Columns.OBS, "action_mask", Columns.ACTIONS, Columns.ACTION_LOGP, Columns.ACTION_DIST_INPUTS,
               Columns.REWARDS, Columns.ADVANTAGES, Columns.VALUE_TARGETS, Columns.LOSS_MASK, Columns.TERMINATEDS}
    assert columns <= set(ours) and set(ours) == set(theirs)
    for key in ours:
        assert torch.allclose(ours[key].double(), theirs[key].double(), atol=1e-6), key
    assert ours["action_mask"].shape[1] == ludoteca.Game("checkers").num_actions
    assert ours["action_mask"][ours[Columns.LOSS_MASK]].max(-1).values.min() == 1  # a legal action at every trained step
    runner.stop()


def _gathered_arrays(episodes: list[Any]) -> list[Any]:
    return [array for e in episodes for sa in e.agent_episodes.values()
            for array in (sa.observations.data["observations"], sa.observations.data["action_mask"],
                          *(buf.data for buf in sa.extra_model_outputs.values() if np.ndim(buf.data) == 2))]


def test_lean_runner_reuses_gather_memory_only_once_no_episode_views_it() -> None:
    """The episodes' observations, masks and logits are views of pooled
    blocks: a block that a held episode views is never written again, one
    that nothing views any more is reused."""
    runner = _lean_runner("checkers", 6, 40, two_modules=False)
    held = runner.sample(num_timesteps=60)
    copies = [a.copy() for a in _gathered_arrays(held)]
    assert copies and all(a.base is not None for a in _gathered_arrays(held))
    for _ in range(4):
        runner.sample(num_timesteps=60)  # dropped at once
        runner.get_metrics()
    assert all(np.array_equal(a, c) for a, c in zip(_gathered_arrays(held), copies))
    blocks = {id(a.base) for a in _gathered_arrays(held)}
    del held, copies
    runner.get_metrics()
    runner._ongoing_episodes_for_metrics.clear()  # what the runner itself keeps for its metrics
    again = runner.sample(num_timesteps=60)
    assert blocks & {id(a.base) for a in _gathered_arrays(again)}
    runner.stop()


def test_legal_only_sampling_draws_from_the_modules_distribution() -> None:
    import torch
    from ray.rllib.models.torch.torch_distributions import TorchCategorical

    torch.manual_seed(0)
    rows, actions = 4, 50
    mask = torch.zeros(rows, actions)
    legal = [[3, 7, 8], [0, 49], [10, 11, 12, 13, 14], [25]]
    for r, cols in enumerate(legal):
        mask[r, cols] = 1.0
    logits = torch.randn(rows, actions).masked_fill(mask == 0, ludoteca.rllib.FLOAT_MIN)
    dist = TorchCategorical.from_logits(logits)
    draws = 20_000  # of each row, in one call
    sampled = ludoteca.rllib.sample_legal(logits.repeat(draws, 1), mask.repeat(draws, 1))
    assert sampled is not None
    picked = sampled[0].numpy().reshape(draws, rows)
    probs = torch.softmax(logits, -1).numpy()
    for r, cols in enumerate(legal):
        assert set(np.unique(picked[:, r])) <= set(cols)
        freq = np.bincount(picked[:, r], minlength=actions)[cols] / draws
        sd = np.sqrt(probs[r, cols] * (1 - probs[r, cols]) / draws)
        assert np.all(np.abs(freq - probs[r, cols]) <= 5 * sd + 1e-12), (r, freq, probs[r, cols])
    sampled = ludoteca.rllib.sample_legal(logits, mask)
    assert sampled is not None
    a, logp = sampled
    assert torch.allclose(logp, dist.logp(a), atol=1e-6)
    assert ludoteca.rllib.sample_legal(logits, torch.zeros(rows, actions)) is None


def test_fast_masking_module_equals_rllibs() -> None:
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    spec = ludoteca.rllib.module_spec("checkers", hidden=(16,))
    ours = spec.build()
    spec.module_class = ActionMaskingTorchRLModule
    theirs = spec.build()
    theirs.set_state(ours.get_state())
    venv = ludoteca.VecEnv("checkers", 32, seed=1)
    obs, info = venv.reset()
    for _ in range(5):
        obs, _, _, _, info = venv.step(venv.sample_actions())

    def batch() -> dict[str, Any]:
        return {Columns.OBS: {"observations": torch.as_tensor(obs.reshape(32, -1), dtype=torch.float32),
                              "action_mask": torch.as_tensor(info["legal_action_mask"], dtype=torch.float32)}}

    def train_batch() -> dict[str, Any]:
        b = batch()
        return {Columns.OBS: b[Columns.OBS]["observations"], "action_mask": b[Columns.OBS]["action_mask"]}

    for method, make in (("forward_exploration", batch), ("forward_inference", batch), ("forward_train", train_batch)):
        x, y = getattr(ours, method)(make()), getattr(theirs, method)(make())
        assert torch.equal(x[Columns.ACTION_DIST_INPUTS], y[Columns.ACTION_DIST_INPUTS]), method
    assert (x[Columns.ACTION_DIST_INPUTS][~torch.as_tensor(info["legal_action_mask"])] == ludoteca.rllib.FLOAT_MIN).all()


def test_lean_runner_refuses_what_it_cannot_run() -> None:
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class PerStep(RLlibCallback):  # type: ignore[misc]
        def on_episode_step(self, **kwargs: Any) -> None:
            pass

    config = ludoteca.rllib.ppo_config("tablut", 0, 2, hidden=(8,), env_config={"max_turns": 20}, lean=True)
    with pytest.raises(LudotecaError, match="on_episode_step"):
        ludoteca.rllib.LudotecaLeanEnvRunner(config=config.copy(copy_frozen=False).callbacks(PerStep))
    runner = ludoteca.rllib.LudotecaLeanEnvRunner(config=config)
    with pytest.raises(LudotecaError, match="random actions"):
        runner.sample(num_timesteps=4, random_actions=True)
    episodes = runner.sample(num_episodes=3)
    assert len(episodes) >= 3 and all(e.is_done for e in episodes)
    runner.stop()


def test_ppo_config_refuses_packed_observations_its_modules_cannot_take() -> None:
    """Packed bytes reached RLlib's torch module as uint8 and failed there with a RuntimeError."""
    with pytest.raises(ludoteca.OptionError, match="obs_format='packed'"):
        ludoteca.rllib.ppo_config("checkers", 0, 4, hidden=(8,), env_config={"obs_format": "packed"}, lean=True)
    config = ludoteca.rllib.ppo_config("checkers", 0, 4, hidden=(8,), env_config={"max_turns": 30, "obs_format": "compact"}, lean=True)
    episodes = ludoteca.rllib.LudotecaLeanEnvRunner(config=config).sample(num_timesteps=32)
    obs = next(iter(episodes[0].agent_episodes.values())).get_observations(0)["observations"]
    assert obs.dtype == np.float32 and obs.shape == (int(np.prod(ludoteca.Game("checkers", obs_format="compact").observation_shape)),)
