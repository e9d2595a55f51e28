"""Ray RLlib (new API stack): two-player self-play on every ludoteca game.

Needs ``ray[rllib]`` (``pip install 'ludoteca[rllib]'``); ``import ludoteca``
alone never imports it.

* :class:`LudotecaMultiAgentEnv` is one game as an RLlib ``MultiAgentEnv``:
  agents ``"player_0"`` and ``"player_1"``; the observation dict holds only
  the agent to act; its observation is ``{"observations": <flat float32
  observation from its point of view (uint8 bytes under obs_format="packed")>, "action_mask": <float32 0/1 legal
  mask>}``; rewards come at the end for both agents (``+1/-1/0``, backgammon
  ``±2/±3``), with ``terminateds["__all__"]`` (or ``truncateds["__all__"]``
  after ``max_turns``); chance events (backgammon dice) happen inside.
  On the final step both agents get the game's last observation with an
  all-zero mask (no decision follows).
* :class:`LudotecaVectorMultiAgentEnv` is ``num_envs`` such games on one
  :class:`ludoteca.VecEnv` (one Rust call per step for all of them), with
  RLlib's ``VectorMultiAgentEnv`` interface (lists of per-env dicts,
  next-step auto-reset). RLlib's ``MultiAgentEnvRunner`` always builds its
  own ``SyncVectorMultiAgentEnv`` (one Python env per sub-env), so
  :class:`LudotecaEnvRunner` is the runner to use: it builds this env
  instead. :func:`ppo_config` wires it all::

      import ludoteca.rllib

      config = ludoteca.rllib.ppo_config("checkers", num_env_runners=2, num_envs_per_env_runner=64)
      algo = config.build_algo()
      algo.train()

* :class:`LudotecaLeanEnvRunner` (``ppo_config(..., lean=True)``) samples
  the same env without RLlib's per-env, per-step connector pipeline: one
  forward pass per module and step, actions drawn over the legal ones
  (:func:`sample_legal`), the ``MultiAgentEpisode`` chunks built in bulk at
  the end of ``sample``, equal to the ones RLlib builds step by step.
* **Masks.** :data:`ACTION_MASKING_MODULE` is RLlib's action-masking PPO
  pattern (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) on
  RLlib's current ``DefaultPPOTorchRLModule``, as
  :class:`MaskingTorchRLModule`: it strips ``"action_mask"`` from the
  observation and gives illegal actions' logits ``FLOAT_MIN``, so PPO
  samples legal actions only. :func:`module_spec` builds its
  ``RLModuleSpec``.
* **Env config** (``config.environment(env_config=...)``): ``game`` (the game
  id, required), ``seed`` (default: derived from the env runner's index),
  ``num_threads`` (vector env), and any game option (``max_turns``, ...).
  ``illegal_action="lose"`` is set unless given.
"""

from __future__ import annotations

from ._extras import require

require("ludoteca.rllib", "rllib", "gymnasium", "torch", "ray")

import gc
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.callbacks.utils import make_callback
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode
from ray.rllib.env.utils.infinite_lookback_buffer import InfiniteLookbackBuffer
from ray.rllib.env.vector.vector_multi_agent_env import VectorMultiAgentEnv
from ray.rllib.utils.metrics import (
    NUM_AGENT_STEPS_SAMPLED,
    NUM_AGENT_STEPS_SAMPLED_LIFETIME,
    NUM_ENV_STEPS_SAMPLED,
    NUM_ENV_STEPS_SAMPLED_LIFETIME,
    NUM_EPISODES,
    NUM_EPISODES_LIFETIME,
    NUM_MODULE_STEPS_SAMPLED,
    NUM_MODULE_STEPS_SAMPLED_LIFETIME,
    WEIGHTS_SEQ_NO,
)
from ray.rllib.utils.pre_checks.env import check_multiagent_environments
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.util.debug import log_once

from ._core import Env, Game, VecEnv
from .errors import OptionError
from .gym import observation_space as _box

__all__ = [
    "ACTION_MASKING_MODULE",
    "AGENTS",
    "LudotecaEnvRunner",
    "LudotecaLeanEnvRunner",
    "LudotecaMultiAgentEnv",
    "LudotecaVectorMultiAgentEnv",
    "MaskingTorchRLModule",
    "agent_observation_space",
    "module_spec",
    "multi_module_spec",
    "ppo_config",
    "sample_legal",
]

AGENTS = ("player_0", "player_1")
"""The agent ids: ``AGENTS[p]`` plays player ``p``."""

_AGENT_INDEX = {agent: p for p, agent in enumerate(AGENTS)}



# RLlib 2.60's RLModule.__init__ builds a deprecated RLModuleConfig itself
# (rl_module.py, "Deprecate this ... in case users still have custom
# models"), so every module any caller builds logs "RLModule(config=...) has
# been deprecated" once per process. A caller cannot avoid it (passing
# config= is an error there, not a warning): take that one message's
# log-once slot so it does not bury the warnings that concern the user.
log_once("RLModule(config=[RLModuleConfig object])")

# RLlib's example module (action_masking_rlm.ActionMaskingTorchRLModule)
# subclasses the deprecated PPOTorchRLModule alias, and importing it logs a
# DeprecationWarning: the same masking is built here on the current
# DefaultPPOTorchRLModule, with the example's inputs, outputs and errors.
_EXAMPLE_MODULE = "ray.rllib.examples.rl_modules.classes.action_masking_rlm"


class MaskingTorchRLModule(DefaultPPOTorchRLModule):  # type: ignore[misc]
    """RLlib's action-masking PPO torch module
    (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) on
    RLlib's current ``DefaultPPOTorchRLModule``, with the same outputs,
    computed faster. Its observation space is a ``Dict`` of
    ``"observations"`` (what the network sees) and ``"action_mask"``.
    RLlib adds ``clamp(log(mask), FLOAT_MIN)`` to the logits; this sets the
    logits of illegal actions to ``FLOAT_MIN`` (``masked_fill``). For 0/1
    masks the results are bit-identical (a float32 logit plus ``FLOAT_MIN``
    rounds to ``FLOAT_MIN``) and so are the gradients that reach the loss
    (an illegal action has probability 0); torch's ``log`` of a mask full
    of zeros takes its slow path (about 1 ms for 128 x 934 entries on one
    core, ten times ``masked_fill``)."""

    def __init__(self, *, observation_space: Optional[gym.Space[Any]] = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, gym.spaces.Dict) or {"observations", "action_mask"} - set(
                observation_space.spaces):
            raise OptionError("MaskingTorchRLModule needs a Dict observation space with keys 'observations' and"
                              f" 'action_mask', got {observation_space!r}")
        # The networks are built for the observations alone; the module
        # reports the Dict space the env gives (set again in setup, which the
        # base __init__ calls after assigning the space it was given).
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observations"], **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self.observation_space_with_mask

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        action_mask, batch = self._split_mask(batch)
        return self._mask_action_logits(super()._forward_inference(batch, **kwargs), action_mask)

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        action_mask, batch = self._split_mask(batch)
        return self._mask_action_logits(super()._forward_exploration(batch, **kwargs), action_mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        # compute_values (GAE, before the update) left the mask beside OBS.
        return self._mask_action_logits(super()._forward_train(batch, **kwargs), batch["action_mask"])

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if isinstance(batch[Columns.OBS], dict):
            action_mask, batch = self._split_mask(batch)
            batch["action_mask"] = action_mask
        return super().compute_values(batch, embeddings)

    @staticmethod
    def _split_mask(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """``batch[OBS]``'s mask, and the batch with the bare observations as ``OBS`` (in place, as RLlib's)."""
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict) or "action_mask" not in obs or "observations" not in obs:
            keys = sorted(obs) if isinstance(obs, dict) else type(obs).__name__
            raise OptionError(f"MaskingTorchRLModule needs batch[{Columns.OBS!r}] to be a dict with 'observations' and"
                              f" 'action_mask', got {keys}")
        action_mask = obs.pop("action_mask")
        batch[Columns.OBS] = obs.pop("observations")
        return action_mask, batch

    def _mask_action_logits(self, batch: dict[str, Any], action_mask: Any) -> dict[str, Any]:
        batch[Columns.ACTION_DIST_INPUTS] = batch[Columns.ACTION_DIST_INPUTS].masked_fill(action_mask <= 0, FLOAT_MIN)
        return batch


ACTION_MASKING_MODULE = MaskingTorchRLModule
"""The action-masking PPO torch module: RLlib's documented pattern
(``ActionMaskingTorchRLModule``) on the current PPO module, as
:class:`MaskingTorchRLModule`."""

Obs = dict[str, npt.NDArray[np.float32]]


def agent_observation_space(game: Game) -> gym.spaces.Dict:
    """One agent's observation space: the flat observation and the legal mask."""
    box = _box(game)
    return gym.spaces.Dict({
        "observations": gym.spaces.Box(low=box.low.min(), high=box.high.max(), shape=(int(np.prod(box.shape)),),
                                       dtype=np.uint8 if game.observation_dtype == "uint8" else np.float32),
        "action_mask": gym.spaces.Box(low=0.0, high=1.0, shape=(game.num_actions,), dtype=np.float32),
    })


def _split_config(config: Optional[Mapping[str, Any]]) -> tuple[str, int, dict[str, Any]]:
    """(game id, seed, game options) from an RLlib env config."""
    options = dict(config or {})
    game_id = options.pop("game", None)
    if not isinstance(game_id, str):
        raise OptionError(f"the env config needs 'game' (a game id string), got {config!r}")
    seed = options.pop("seed", None)
    if seed is None:
        # Different env runners must not play the same games.
        seed = 1_000_003 * int(getattr(config, "worker_index", 0)) + int(getattr(config, "vector_index", 0))
    options.setdefault("illegal_action", "lose")
    return game_id, int(seed), options


class LudotecaMultiAgentEnv(MultiAgentEnv):  # type: ignore[misc]
    """One ludoteca game as an RLlib ``MultiAgentEnv`` (see the module docs).

    ``config`` is the env config: ``{"game": id, "seed": s, **game options}``.
    """

    def __init__(self, config: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__()
        game_id, seed, options = _split_config(config)
        options.pop("num_threads", None)
        self._env = Env(game_id, seed=seed, **options)
        self.game: Game = self._env.game
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        space = agent_observation_space(self.game)
        self.observation_spaces: dict[str, gym.Space[Any]] = {a: space for a in AGENTS}
        self.action_spaces: dict[str, gym.Space[Any]] = {a: gym.spaces.Discrete(self.game.num_actions) for a in AGENTS}
        self._rng = np.random.default_rng(seed)
        self._last_obs: Obs = {}

    def _agent_obs(self, obs: npt.NDArray[Any], mask: npt.NDArray[np.bool_]) -> Obs:
        return {"observations": np.asarray(obs, dtype=self.game.observation_dtype).reshape(-1),
                "action_mask": np.asarray(mask, dtype=np.float32)}

    def _skip_chance(self, obs: Any, info: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        while int(info["current_player"]) == -1:
            outcomes = self._env.state.chance_outcomes()
            probs = np.array([p for _, p in outcomes])
            a = outcomes[int(self._rng.choice(len(outcomes), p=probs / probs.sum()))][0]
            obs, _, _, _, info = self._env.step(a)
        return obs, info

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> tuple[dict[str, Obs], dict[str, Any]]:
        """Starts a new game; returns the first mover's observation."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        obs, info = self._env.reset(seed=seed)
        obs, info = self._skip_chance(obs, info)
        mover = AGENTS[int(info["current_player"])]
        self._last_obs = self._agent_obs(obs, info["legal_action_mask"])
        return {mover: self._last_obs}, {}

    def step(self, action_dict: Mapping[str, Any]) -> tuple[
        dict[str, Obs], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]
    ]:
        """Plays the action of the agent to act (the only key of ``action_dict``)."""
        mover = AGENTS[int(self._env.current_player)]
        if set(action_dict) != {mover}:
            raise OptionError(f"expected an action of {mover!r} only, got actions for {sorted(action_dict)}")
        obs, r, term, trunc, info = self._env.step(int(action_dict[mover]))
        if term or trunc:
            last = self._agent_obs(obs, np.zeros(self.game.num_actions, dtype=bool))
            rewards = {a: float(r[p]) for p, a in enumerate(AGENTS)}
            return ({a: last for a in AGENTS}, rewards, {"__all__": bool(term)}, {"__all__": bool(trunc and not term)}, {})
        obs, info = self._skip_chance(obs, info)
        nxt = AGENTS[int(info["current_player"])]
        return ({nxt: self._agent_obs(obs, info["legal_action_mask"])}, {mover: float(r[AGENTS.index(mover)])},
                {"__all__": False}, {"__all__": False}, {})

    def get_observation_space(self, agent_id: str) -> gym.Space:  # type: ignore[type-arg]
        """Every agent sees the same space."""
        return self.observation_spaces[agent_id]

    def get_action_space(self, agent_id: str) -> gym.Space:  # type: ignore[type-arg]
        """``Discrete(num_actions)`` for both agents."""
        return self.action_spaces[agent_id]


class LudotecaVectorMultiAgentEnv(VectorMultiAgentEnv):  # type: ignore[misc]
    """``num_envs`` games on one :class:`ludoteca.VecEnv` with RLlib's
    ``VectorMultiAgentEnv`` interface (see the module docs).

    ``step(actions)`` takes a list of per-env action dicts (the agent to act,
    or ``{}`` for an env that ended at the previous step) and returns lists
    of per-env dicts; an env that ended is reset on the next step (RLlib's
    ``"next_step"`` auto-reset): that step returns its next game's first
    observation and no rewards.
    """

    def __init__(self, num_envs: int, config: Optional[Mapping[str, Any]] = None) -> None:
        game_id, seed, options = _split_config(config)
        num_threads = options.pop("num_threads", None)
        self._venv = VecEnv(game_id, num_envs, seed=seed, num_threads=num_threads, copy=True, obs_dtype=None,
                            **options)
        self.num_envs = num_envs
        self.game: Game = self._venv.game
        # RLlib reads spaces and agent ids through `envs[i].unwrapped`; the
        # games of one batch share them, so one single env stands for all.
        proto = LudotecaMultiAgentEnv({"game": game_id, "seed": seed, **options})
        self.envs = [proto] * num_envs
        self.single_observation_spaces: dict[str, gym.Space[Any]] = dict(proto.observation_spaces)
        self.single_action_spaces: dict[str, gym.Space[Any]] = dict(proto.action_spaces)
        self.single_observation_space = gym.spaces.Dict(dict(self.single_observation_spaces))
        self.single_action_space = gym.spaces.Dict(dict(self.single_action_spaces))
        self.metadata = {"autoreset_mode": "next_step"}
        self._rows = np.arange(num_envs)
        self._zeros = np.zeros(num_envs, dtype=np.int64)
        self._obs: npt.NDArray[Any] = np.zeros((num_envs, int(np.prod(self.game.observation_shape))),
                                               dtype=self.game.observation_dtype)
        self._mask: npt.NDArray[np.bool_] = np.zeros((num_envs, self.game.num_actions), dtype=bool)
        self._player: npt.NDArray[np.int64] = np.zeros(num_envs, dtype=np.int64)
        self._ended = np.zeros(num_envs, dtype=bool)

    def _play_chance(self, obs: Any, info: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        while True:
            chance = info["current_player"] == -1
            if not chance.any():
                return obs, info
            obs, _, _, _, info = self._venv.step(self._venv.sample_actions(), active=chance)

    def _remember(self, obs: Any, info: dict[str, Any]) -> None:
        self._obs = np.asarray(obs, dtype=self.game.observation_dtype).reshape(self.num_envs, -1)
        self._mask = np.asarray(info["legal_action_mask"], dtype=bool)
        self._player = np.asarray(info["current_player"], dtype=np.int64)

    def _mover_obs(self, i: int) -> dict[str, Obs]:
        return {AGENTS[int(self._player[i])]: {"observations": self._obs[i], "action_mask": self._mask[i].astype(np.float32)}}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> tuple[list[dict[str, Obs]], list[dict[str, Any]]]:
        """Starts every game afresh (``seed`` re-derives every env's seed)."""
        super().reset(seed=seed)
        obs, info = self._venv.reset(seed=seed)
        obs, info = self._play_chance(obs, info)
        self._remember(obs, info)
        self._ended[:] = False
        return [self._mover_obs(i) for i in range(self.num_envs)], [{} for _ in range(self.num_envs)]

    def step(self, actions: list[Mapping[str, Any]]) -> tuple[
        list[dict[str, Obs]], list[dict[str, float]], list[dict[str, bool]], list[dict[str, bool]], list[dict[str, Any]]
    ]:
        """Steps every running game with its mover's action, in one Rust call."""
        if len(actions) != self.num_envs:
            raise OptionError(f"expected {self.num_envs} per-env action dicts, got {len(actions)}")
        flat = self._zeros.copy()
        stepping = ~self._ended
        for i in map(int, np.flatnonzero(stepping)):
            mover = AGENTS[int(self._player[i])]
            a = actions[i].get(mover)
            if a is None or len(actions[i]) != 1:
                raise OptionError(f"env {i}: expected an action of {mover!r} only, got actions for {sorted(actions[i])}")
            flat[i] = int(a)
        # Envs that ended at the last step already hold their next game (the
        # batch resets same-step): they are not stepped now.
        movers = self._player.copy()
        obs, r, term, trunc, info = self._venv.step(flat, active=stepping)
        ended = term | trunc
        if ended.any():
            final_obs = np.asarray(info["final_observation"], dtype=self.game.observation_dtype).reshape(self.num_envs, -1)
        obs, info = self._play_chance(obs, info)
        self._remember(obs, info)
        zero_mask = np.zeros(self.game.num_actions, dtype=np.float32)
        out_obs: list[dict[str, Obs]] = []
        out_r: list[dict[str, float]] = []
        out_term: list[dict[str, bool]] = []
        out_trunc: list[dict[str, bool]] = []
        for i in range(self.num_envs):
            if ended[i]:
                last = {"observations": final_obs[i], "action_mask": zero_mask}
                out_obs.append({a: last for a in AGENTS})
                out_r.append({AGENTS[0]: float(r[i, 0]), AGENTS[1]: float(r[i, 1])})
                out_term.append({"__all__": bool(term[i])})
                out_trunc.append({"__all__": bool(trunc[i] and not term[i])})
            else:
                out_obs.append(self._mover_obs(i))
                out_r.append({AGENTS[int(movers[i])]: float(r[i, movers[i]])} if stepping[i] else {})
                out_term.append({"__all__": False})
                out_trunc.append({"__all__": False})
        self._ended = ended
        return out_obs, out_r, out_term, out_trunc, [{} for _ in range(self.num_envs)]

    @property
    def vec_env(self) -> VecEnv:
        """The underlying :class:`ludoteca.VecEnv`."""
        return self._venv


class LudotecaEnvRunner(MultiAgentEnvRunner):  # type: ignore[misc]
    """RLlib's ``MultiAgentEnvRunner`` stepping its ``num_envs_per_env_runner``
    games with one :class:`LudotecaVectorMultiAgentEnv` (one Rust call per
    step) instead of a ``SyncVectorMultiAgentEnv`` of Python envs. Set it with
    ``config.env_runners(env_runner_cls=LudotecaEnvRunner)``; the env config
    must name the ``game``. The ``VecEnv`` steps on one thread unless the env
    config sets ``num_threads``."""

    def make_env(self) -> None:
        """Builds the vector env (RLlib calls this at start and on env errors)."""
        old: Optional[LudotecaVectorMultiAgentEnv] = getattr(self, "env", None)
        if old is not None:
            old.close()
        config = dict(self.config.env_config)
        config.setdefault("seed", 1_000_003 * int(self.worker_index or 0))
        # An env runner is one core's worth of work (RLlib runs one per CPU):
        # a pool of VecEnv threads per runner only adds wake-ups, which on a
        # loaded machine stall the step.
        config.setdefault("num_threads", 1)
        self.env = LudotecaVectorMultiAgentEnv(self.config.num_envs_per_env_runner, config)
        self.num_envs = self.env.num_envs
        if not self.config.disable_env_checking:
            check_multiagent_environments(self.env.envs[0])
        self._needs_initial_reset = True

    def sample(self, **kwargs: Any) -> Any:
        """RLlib's ``sample``; the step counters its loop keeps are logged
        once at the end of the call (see ``_increase_sampled_metrics``)."""
        self._sampled: Counter[tuple[Any, ...]] = Counter()
        try:
            return super().sample(**kwargs)
        finally:
            self._log_sampled_metrics()

    def _increase_sampled_metrics(self, num_steps: int, next_obs: Mapping[Any, Any], episode: Any) -> int:
        # RLlib logs four values per agent and two per env at every env step
        # (10-14% of sampling time in benches/rllib_runner_profile.py):
        # count them here and log the same totals once per `sample`.
        c = self._sampled
        c[(NUM_ENV_STEPS_SAMPLED,)] += num_steps
        if episode.is_done:
            c[(NUM_EPISODES,)] += 1
        for aid in next_obs:
            c[(NUM_AGENT_STEPS_SAMPLED, str(aid))] += 1
            c[(NUM_MODULE_STEPS_SAMPLED, episode.module_for(aid))] += 1
        return num_steps

    def _log_sampled_metrics(self) -> None:
        lifetime = {NUM_ENV_STEPS_SAMPLED: NUM_ENV_STEPS_SAMPLED_LIFETIME, NUM_EPISODES: NUM_EPISODES_LIFETIME,
                    NUM_AGENT_STEPS_SAMPLED: NUM_AGENT_STEPS_SAMPLED_LIFETIME,
                    NUM_MODULE_STEPS_SAMPLED: NUM_MODULE_STEPS_SAMPLED_LIFETIME}
        if not self._sampled[(NUM_ENV_STEPS_SAMPLED,)]:
            self._sampled[(NUM_ENV_STEPS_SAMPLED,)] += 0  # RLlib logs the env steps even when none were sampled
        for key, value in self._sampled.items():
            name = key[0] if len(key) == 1 else key
            life = lifetime[key[0]] if len(key) == 1 else (lifetime[key[0]], key[1])
            self.metrics.log_value(name, value, reduce="sum")
            self.metrics.log_value(life, value, reduce="lifetime_sum",
                                   with_throughput=key[0] == NUM_ENV_STEPS_SAMPLED)
        self._sampled.clear()


def sample_legal(logits: Any, mask: Any) -> Optional[tuple[Any, Any]]:
    """(actions, log-probabilities) drawn from ``Categorical(logits)`` over
    the legal actions only, for masked logits (illegal ones at
    ``FLOAT_MIN``, so of probability exactly 0 in float32): the same
    distribution as RLlib's ``TorchCategorical`` over all ``num_actions``
    entries, at the cost of the few legal ones (checkers: about 8 of 934;
    torch's ``multinomial`` over the full rows was most of a lean runner's
    step). ``None`` when a row has no legal action.

    ``logits`` and ``mask`` are torch tensors of shape (n, num_actions)."""
    import torch

    n, num_actions = logits.shape
    # numpy on the tensors' memory: `flatnonzero` of a bool mask takes a
    # tenth of torch's `nonzero` of the float one, and the per-row softmax
    # over ~8 entries a row is a few small numpy calls instead of a dozen
    # torch ops (together most of a lean runner's sampling time).
    flat = np.flatnonzero(mask.detach().cpu().numpy() != 0)
    rows = flat // num_actions
    cols = flat - rows * num_actions
    counts = np.bincount(rows, minlength=n)
    if n == 0 or not counts.all():
        return None
    starts = np.cumsum(counts) - counts
    legal = logits.detach().cpu().numpy()[rows, cols]
    top = np.maximum.reduceat(legal, starts)
    shifted = legal - np.repeat(top, counts)
    weights = np.exp(shifted).astype(np.float64)
    totals = np.add.reduceat(weights, starts)
    # Inverse CDF of each row's categorical: one uniform per row from torch's
    # generator (seeded as the rest of the runner), cumulative sums in float64.
    cum = np.cumsum(weights)
    before = cum[starts] - weights[starts]
    u = torch.rand(n, dtype=torch.float64).numpy()
    pick = np.searchsorted(cum, before + u * totals, side="right")
    pick = np.minimum(pick, starts + counts - 1)
    logp = shifted[pick] - np.log(totals).astype(shifted.dtype)
    return torch.from_numpy(cols[pick]), torch.from_numpy(logp)


class _Steps:
    """One ``sample`` call's per-step data, preallocated and grown by
    doubling (``num_episodes`` sampling does not know its length ahead).

    Row ``k`` of ``obs``, ``mask``, ``player`` is what the envs showed before
    batch step ``k`` (row ``K`` after the last step); row ``k`` of the
    others is what step ``k`` did. An env that ended at step ``k`` holds its
    next game's first observation in row ``k + 1`` (the batch resets it in the
    same step) and its last observation in ``final[(k, i)]``."""

    def __init__(self, num_envs: int, obs_size: int, num_actions: int, rows: int, obs_dtype: Any = np.float32) -> None:
        self.n, self.obs_size, self.num_actions, self.rows = num_envs, obs_size, num_actions, 0
        # The observation space's dtype: bytes under obs_format="packed", as the vector runner gives.
        self.obs = np.zeros((rows + 1, num_envs, obs_size), obs_dtype)
        self.mask = np.zeros((rows + 1, num_envs, num_actions), np.float32)
        self.player = np.zeros((rows + 1, num_envs), np.int64)
        self.action = np.zeros((rows, num_envs), np.int64)
        self.reward = np.zeros((rows, num_envs, 2), np.float64)
        self.term = np.zeros((rows, num_envs), bool)
        self.trunc = np.zeros((rows, num_envs), bool)
        self.outputs: dict[str, npt.NDArray[Any]] = {}
        self.final: dict[tuple[int, int], npt.NDArray[np.float32]] = {}
        self.shells: dict[tuple[int, int], MultiAgentEpisode] = {}
        self.start_shells: list[MultiAgentEpisode] = []

    def grow(self) -> None:
        """Doubles the capacity, keeping the rows written so far."""
        cap = len(self.action)
        for name in ("obs", "mask", "player", "action", "reward", "term", "trunc"):
            old = getattr(self, name)
            new = np.zeros((old.shape[0] + max(cap, 1),) + old.shape[1:], old.dtype)
            new[:len(old)] = old
            setattr(self, name, new)
        for key, old in self.outputs.items():
            new = np.zeros((old.shape[0] + max(cap, 1),) + old.shape[1:], old.dtype)
            new[:len(old)] = old
            self.outputs[key] = new

    def output(self, key: str, shape: tuple[int, ...], dtype: Any) -> npt.NDArray[Any]:
        """The buffer of one module output column (made on first use)."""
        buf = self.outputs.get(key)
        if buf is None:
            buf = self.outputs[key] = np.zeros((len(self.action), self.n) + shape, dtype)
        return buf


class _Carry:
    """What one env's episode carries from one ``sample`` call to the next:
    the episode shell (id, module mapping, callbacks' custom data) and, once a
    chunk of it was returned, what RLlib's ``MultiAgentEpisode.cut`` hands the
    successor chunk (its lookback steps, timesteps and agent episode ids)."""

    __slots__ = ("shell", "obs", "actions", "rewards", "outputs", "lookback", "env_t_started", "agent_t_started",
                 "agent_episode_ids", "hanging_rewards_begin", "hanging", "started")

    def __init__(self, shell: MultiAgentEpisode) -> None:
        self.shell = shell
        self.obs: list[dict[str, Any]] = []
        self.actions: list[dict[str, Any]] = []
        self.rewards: list[dict[str, Any]] = []
        self.outputs: list[dict[str, Any]] = []
        self.lookback = 0
        self.env_t_started = 0
        self.agent_t_started: Optional[dict[str, int]] = None
        self.agent_episode_ids: Optional[dict[str, str]] = None
        self.hanging_rewards_begin: Optional[dict[str, float]] = None
        self.hanging: set[str] = set()  # agents whose last action waits for their next observation
        self.started = False  # on_episode_start was called


class LudotecaLeanEnvRunner(LudotecaEnvRunner):
    """An env runner that samples like :class:`LudotecaEnvRunner` (same env,
    modules, policy mapping, masks and rewards, same episodes out) without
    RLlib's per-env, per-step machinery: every step it calls each RLModule's
    forward pass ONCE over all the envs whose mover maps to it (torch, no
    connector pipeline), draws the actions (over the legal ones only with
    :func:`sample_legal` for a masking module with a categorical
    distribution, the same distribution; else with the module's own
    distribution class), steps all games with one Rust call and writes what
    it saw into preallocated numpy arrays. At the end of ``sample`` it builds the
    ``MultiAgentEpisode`` chunks from those arrays as RLlib's runner builds
    them (``cut`` for a chunk's carried-over lookback, ``add_env_step`` for a
    game's first and last steps, the other steps written straight into the
    agent episodes' buffers), so PPO's learner consumes them unchanged:
    observations with their masks, actions, ``action_logp``,
    ``action_dist_inputs`` (and any other module output), ``weights_seq_no``,
    rewards, terminated/truncated flags, chunk lookbacks and ids; value
    predictions are the learner's own, as with RLlib's runner.

    Set it with ``config.env_runners(env_runner_cls=LudotecaLeanEnvRunner)``
    or ``ppo_config(..., lean=True)``. Differences from RLlib's runner:

    * an env whose game ended starts its next game in the same batch step
      (RLlib's vector envs spend one step on the reset observation);
    * its modules are built inference-only even from the specs of a
      user's ``MultiRLModuleSpec`` (RLlib's runners ask for inference-only
      modules but leave those specs as they are), so PPO's critic tower
      does not run while sampling; each module is in eval mode during
      ``sample``;
    * custom env-to-module or module-to-env connectors are refused (there is
      no pipeline to run them in), and so are ``on_episode_step`` callbacks
      and ``random_actions=True``; ``on_episode_created`` runs when a game
      starts, ``on_episode_start`` and ``on_episode_end`` run at the end of the
      ``sample`` call that returns the episode's first (resp. last) chunk,
      with the chunk already in numpy form.
    """

    freeze_gc = True
    """Whether a remote runner (``worker_index`` > 0, its own Ray actor
    process) calls ``gc.freeze()`` once built; a subclass may turn it off."""

    def __init__(self, config: Any, **kwargs: Any) -> None:
        super().__init__(config=config, **kwargs)
        if config.callbacks_on_episode_step is not None or any(
                type(cb).on_episode_step is not RLlibCallback.on_episode_step for cb in self._callbacks):
            raise OptionError("LudotecaLeanEnvRunner does not call on_episode_step callbacks;"
                              " use LudotecaEnvRunner for them")
        if config._env_to_module_connector is not None or config._module_to_env_connector is not None:
            raise OptionError("LudotecaLeanEnvRunner runs no connector pipeline; custom env-to-module or"
                              " module-to-env connectors need LudotecaEnvRunner")
        self._carry: list[_Carry] = []
        self._pool = _BlockPool()
        if self.worker_index and self.freeze_gc:
            # A remote runner is its own long-lived Ray actor process. The
            # 300,000-odd objects alive now (torch, Ray, the module) live as long
            # as it does; left in the collector's oldest generation, each full
            # collection rescans them, and the chunks every `sample` keeps
            # trigger one every few calls: two runners sampled 1.35x faster
            # frozen (benches/rllib_bench.py). Frozen, collections skip them.
            gc.freeze()

    def make_module(self) -> None:
        """Builds the runner's modules inference-only, as every RLlib env
        runner asks for (``get_multi_rl_module_spec(inference_only=True)``),
        which keeps the flag off the module specs that a user's
        ``MultiRLModuleSpec`` names (:func:`ppo_config` gives one): PPO's
        module then ran its critic tower at every step for nothing (the
        learner computes the values). Same actions and logits; the learner's
        weights load into it as into any inference-only module."""
        env = self.env.unwrapped if self.env is not None else None
        try:
            spec = self.config.get_multi_rl_module_spec(env=env, spaces=self.get_spaces(), inference_only=True)
        except NotImplementedError:  # no module: RLlib's runner samples random actions only then
            setattr(self, "module", None)
            return
        for module_spec in spec.rl_module_specs.values():
            module_spec.inference_only = True
        self.module = spec.build()

    def _new_shell(self, env_index: int) -> MultiAgentEpisode:
        shells: list[Any] = [None] * self.num_envs
        self._new_episode(env_index, shells)
        shell: MultiAgentEpisode = shells[env_index]
        shell._start_time = time.perf_counter()
        return shell

    def _lean_reset(self) -> None:
        venv = self.env.vec_env
        obs, info = venv.reset(seed=self._seed if self._needs_initial_reset else None)
        obs, info = self.env._play_chance(obs, info)
        self._needs_initial_reset = False
        self._ongoing_episodes_for_metrics.clear()
        self._pending = (np.asarray(obs, self.env.game.observation_dtype).reshape(self.num_envs, -1),
                         np.asarray(info["legal_action_mask"], np.float32),
                         np.asarray(info["current_player"], np.int64))
        self._carry = [_Carry(self._new_shell(i)) for i in range(self.num_envs)]
        self._module_index: dict[str, int] = {}
        self._module_ids: list[str] = []
        self._modmap = np.zeros((self.num_envs, 2), np.int64)
        for i, c in enumerate(self._carry):
            self._map_modules(i, c.shell)

    @staticmethod
    def _samples_legal_only(module: Any) -> bool:
        """Whether :func:`sample_legal` draws from ``module``'s own
        exploration distribution: a categorical over logits in which the
        masking module gave illegal actions ``FLOAT_MIN`` (probability 0)."""
        from ray.rllib.core.distribution.torch.torch_distribution import TorchCategorical

        masking: tuple[type[Any], ...] = (MaskingTorchRLModule,)
        # RLlib's own example module masks the same way; it is never imported
        # here (its import logs a deprecation), only recognised if the user did.
        example = sys.modules.get(_EXAMPLE_MODULE)
        if example is not None:
            masking += (example.ActionMaskingTorchRLModule,)
        return isinstance(module, masking) and module.get_exploration_action_dist_cls() is TorchCategorical

    def _map_modules(self, i: int, shell: MultiAgentEpisode) -> None:
        """Env ``i``'s row of the (env, player) -> module index map, from its game's shell."""
        for p, agent in enumerate(AGENTS):
            module_id = shell.module_for(agent)
            if module_id not in self._module_index:
                if module_id not in self.module.keys():
                    raise OptionError(f"the policy mapping gave module {module_id!r}; the runner has"
                                      f" {sorted(self.module.keys())}")
                self._module_index[module_id] = len(self._module_ids)
                self._module_ids.append(module_id)
            self._modmap[i, p] = self._module_index[module_id]

    def _sample(self, *, num_timesteps: Optional[int] = None, num_episodes: Optional[int] = None, explore: bool,
                random_actions: bool = False, force_reset: bool = False) -> list[MultiAgentEpisode]:
        import torch

        if random_actions:
            raise OptionError("LudotecaLeanEnvRunner does not sample random actions; use LudotecaEnvRunner")
        if force_reset or num_episodes is not None or self._needs_initial_reset or not self._carry:
            self._lean_reset()
        n = self.num_envs
        rows = max(1, math.ceil(num_timesteps / n)) if num_timesteps is not None else 64
        obs0, mask0, player0 = self._pending
        # The arrays of the previous call are reused: fresh ones cost a page
        # fault per 4 KiB written (tens of MB per call), a tenth of the loop.
        steps = getattr(self, "_steps", None)
        if steps is None or steps.n != n or len(steps.action) < rows:
            steps = self._steps = _Steps(n, obs0.shape[1], mask0.shape[1], rows, obs0.dtype)
        steps.final, steps.shells, steps.rows = {}, {}, 0
        steps.obs[0], steps.mask[0], steps.player[0] = obs0, mask0, player0
        agent_steps = np.zeros(2, np.int64)
        module_steps: Counter[int] = Counter()
        # RLlib's public forward switches a torch module to eval mode and back
        # on every call (a walk over all its submodules, twice per step); the
        # loop puts each module in eval mode once and calls the inner forward.
        forwards: dict[int, Any] = {}
        training: dict[str, bool] = {}
        try:
            with torch.no_grad():
                k, episodes_done = self._step_loop(steps, rows, num_timesteps, num_episodes, forwards, training,
                                                   explore, agent_steps, module_steps)
        finally:
            for module_id, was_training in training.items():
                if was_training:
                    self.module[module_id].train()
        steps.rows = k
        c = self._sampled
        c[(NUM_ENV_STEPS_SAMPLED,)] += k * n
        if episodes_done:
            c[(NUM_EPISODES,)] += episodes_done
        for p, agent in enumerate(AGENTS):
            if agent_steps[p]:
                c[(NUM_AGENT_STEPS_SAMPLED, agent)] += int(agent_steps[p])
        for m, count in module_steps.items():
            c[(NUM_MODULE_STEPS_SAMPLED, self._module_ids[int(m)])] += int(count)
        if k * n:
            self._log_env_steps(metric=self._metrics_num_env_steps_sampled, num_steps=k * n)
        steps.start_shells = [c.shell for c in self._carry]
        self._last_steps = steps  # what tests replay through RLlib's own episode API
        self._pending = (steps.obs[k].copy(), steps.mask[k].copy(), steps.player[k].copy())
        done, ongoing = self._build_episodes(steps, keep_ongoing=num_timesteps is not None)
        return done + ongoing

    @staticmethod
    def _forward(module: Any, explore: bool) -> Any:
        """The module's forward for this call: the inner
        ``_forward_exploration`` / ``_forward_inference`` (the module is put
        in eval mode once per ``sample``) unless the module replaces RLlib's
        public ``forward_exploration`` / ``forward_inference`` itself."""
        from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule

        public = "forward_exploration" if explore else "forward_inference"
        if isinstance(module, TorchRLModule) and getattr(type(module), public) is getattr(TorchRLModule, public):
            return module._forward_exploration if explore else module._forward_inference
        return getattr(module, public)

    def _step_loop(self, steps: _Steps, rows: int, num_timesteps: Optional[int], num_episodes: Optional[int],
                   forwards: dict[int, Any], training: dict[str, bool], explore: bool,
                   agent_steps: npt.NDArray[np.int64], module_steps: Counter[int]) -> tuple[int, int]:
        """Steps all envs until ``rows`` batch steps (or ``num_episodes``
        finished games), writing into ``steps``; returns the batch steps and
        the games finished. ``forwards`` gets each module's forward as the
        module is first used, in eval mode (``training`` its mode before)."""
        import torch

        n, venv = self.num_envs, self.env.vec_env
        all_rows = np.arange(n)
        k = episodes_done = 0
        while (k < rows) if num_timesteps is not None else (episodes_done < num_episodes):  # type: ignore[operator]
            if k == len(steps.action):
                steps.grow()
            obs, mask, player = steps.obs[k], steps.mask[k], steps.player[k]
            single = len(self._module_ids) == 1  # a game that started in this call may map to a new module
            groups: list[tuple[int, Any]] = [(0, slice(None))]
            if not single:
                movers_module = self._modmap[all_rows, player]
                groups = [(int(m), np.flatnonzero(movers_module == m)) for m in np.unique(movers_module)]
            for m, idx in groups:
                module = self.module[self._module_ids[m]]
                mask_t = torch.from_numpy(mask[idx])
                batch = {Columns.OBS: {"observations": torch.from_numpy(obs[idx]), "action_mask": mask_t}}
                forward = forwards.get(m)
                if forward is None:
                    training[self._module_ids[m]] = module.training
                    module.eval()
                    forward = forwards[m] = self._forward(module, explore)
                out = forward(batch)
                if Columns.ACTIONS not in out:
                    sampled = None
                    if explore and self._samples_legal_only(module):
                        sampled = sample_legal(out[Columns.ACTION_DIST_INPUTS], mask_t)
                    if sampled is None:
                        dist_cls = (module.get_exploration_action_dist_cls() if explore
                                    else module.get_inference_action_dist_cls())
                        dist = dist_cls.from_logits(out[Columns.ACTION_DIST_INPUTS])
                        if not explore:
                            dist = dist.to_deterministic()
                        sampled = dist.sample(), None
                        if Columns.ACTION_LOGP not in out:
                            sampled = sampled[0], dist.logp(sampled[0])
                    out[Columns.ACTIONS] = sampled[0]
                    if sampled[1] is not None:
                        out[Columns.ACTION_LOGP] = sampled[1]
                for key, value in out.items():
                    if key == Columns.ACTIONS:
                        steps.action[k, idx] = value.numpy()
                    elif key not in (Columns.STATE_OUT, Columns.EMBEDDINGS) and isinstance(value, torch.Tensor):
                        v = value.numpy()
                        steps.output(key, v.shape[1:], v.dtype)[k, idx] = v
            obs_, r, term, trunc, info = venv.step(steps.action[k])
            ended = term | trunc
            if ended.any():
                final = np.asarray(info["final_observation"], steps.obs.dtype).reshape(n, -1)
                for i in map(int, np.flatnonzero(ended)):
                    steps.final[(k, i)] = final[i].copy()
            obs_, info = self.env._play_chance(obs_, info)
            steps.reward[k] = r
            steps.term[k] = term
            steps.trunc[k] = trunc & ~term
            steps.obs[k + 1] = np.asarray(obs_, steps.obs.dtype).reshape(n, -1)
            steps.mask[k + 1] = info["legal_action_mask"]
            steps.player[k + 1] = info["current_player"]
            # The counters RLlib logs per env step: each agent that gets an
            # observation (both at a game's end) and its module (the module
            # map still the ended games').
            nxt_player = steps.player[k + 1]
            any_ended = bool(ended.any())
            live = ~ended if any_ended else slice(None)
            seen = np.bincount(nxt_player[live], minlength=2)
            finished = int(ended.sum()) if any_ended else 0
            agent_steps += seen + finished
            if single:
                module_steps[0] += int(seen.sum()) + 2 * finished
            else:
                if any_ended:
                    module_steps.update(self._modmap[ended].ravel().tolist())
                nxt = self._modmap[all_rows, nxt_player][live]
                module_steps.update(dict(zip(*np.unique(nxt, return_counts=True))))
            if any_ended:
                episodes_done += finished
                for i in map(int, np.flatnonzero(ended)):
                    # The next game's shell: `_build_episodes` moves it into `self._carry`.
                    steps.shells[(k, i)] = self._new_shell(i)
                    self._map_modules(i, steps.shells[(k, i)])
            k += 1
        return k, episodes_done

    def _callback(self, which: str, episode: MultiAgentEpisode, env_index: int) -> None:
        kwargs: dict[str, Any] = dict(episode=episode, env_runner=self, metrics_logger=self.metrics,
                                      env=self.env.unwrapped, rl_module=self.module, env_index=env_index)
        if which == "on_episode_end":
            kwargs["prev_episode_chunks"] = self._ongoing_episodes_for_metrics[episode.id_]
        make_callback(which, callbacks_objects=self._callbacks,
                      callbacks_functions=getattr(self.config, f"callbacks_{which}"), kwargs=kwargs)

    def _lists(self, c: _Carry, e: "_EnvSteps", t: "_Tables", start: int, k0: int, k1: int,
               terminal: bool) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
        """Env ``e.i``'s steps ``start .. k1 - 1`` of the chunk that began at
        row ``k0`` as the per-step dicts of row handles that RLlib's episode
        API takes (observations, actions, rewards, module outputs), after
        what the chunk carried over when ``start == k0``."""
        n, i, player, action, reward = e.n, e.i, e.player, e.action, e.reward
        if start == k0 and c.obs:
            obs_l = [{a: t.add_obs(*row) for a, row in o.items()} for o in c.obs]
            act_l, rew_l = list(c.actions), list(c.rewards)
            out_l = [{a: t.add_outputs(e) for a, e in o.items()} for o in c.outputs]
        else:
            obs_l = [{AGENTS[player[start]]: start * n + i}]
            act_l, rew_l, out_l = [], [], []
        for k in range(start, k1):
            p = player[k]
            agent = AGENTS[p]
            act_l.append({agent: action[k]})
            out_l.append({agent: self._outputs(e, t, k)})
            if terminal and k == k1 - 1:
                last = t.add_obs(e.final[(k, i)], t.zero_mask)
                obs_l.append({AGENTS[0]: last, AGENTS[1]: last})
                rew_l.append({AGENTS[0]: reward[k][0], AGENTS[1]: reward[k][1]})
            else:
                obs_l.append({AGENTS[player[k + 1]]: (k + 1) * n + i})
                rew_l.append({agent: reward[k][p]})
        return obs_l, act_l, rew_l, out_l

    def _outputs(self, e: "_EnvSteps", t: "_Tables", k: int) -> dict[str, Any]:
        """Step ``k``'s module outputs for env ``e.i``: scalars, vector rows by handle."""
        out = {key: column[k] for key, column in e.scalars}
        h = k * e.n + e.i
        for key in t.out:
            out[key] = h
        out[WEIGHTS_SEQ_NO] = self._weights_seq_no
        return out

    def _episode(self, c: _Carry, e: "_EnvSteps", t: "_Tables", k0: int, k1: int,
                 terminal: bool) -> MultiAgentEpisode:
        """Env ``e.i``'s chunk of steps ``k0 .. k1 - 1`` (the game's last step
        if ``terminal``), built as RLlib's runner builds it: a game's first
        chunk from its reset observation, a later one as
        ``MultiAgentEpisode.cut`` starts it (RLlib's constructor over what
        the chunk carried over), then one env step at a time. A step in which
        the next mover already has an agent episode and either moved itself
        or gets its waiting action completed (all but a game's first step
        and its last, in two-player turn-based play) is written straight into
        the agent episode's buffers, the state ``add_env_step`` leaves; any
        other step goes through ``add_env_step`` itself (whose checks and
        set operations cost several times the direct writes)."""
        shell = c.shell
        n, i, player, action, reward = e.n, e.i, e.player, e.action, e.reward
        if c.obs:
            obs_l, act_l, rew_l, out_l = self._lists(c, e, t, k0, k0, k0, False)
            ep = MultiAgentEpisode(
                id_=shell.id_, observations=obs_l, observation_space=shell.observation_space,
                actions=act_l, action_space=shell.action_space, rewards=rew_l, extra_model_outputs=out_l,
                env_t_started=c.env_t_started, agent_t_started=c.agent_t_started, len_lookback_buffer=c.lookback,
                agent_episode_ids=c.agent_episode_ids, agent_module_ids=dict(shell._agent_to_module_mapping),
                agent_to_module_mapping_fn=shell.agent_to_module_mapping_fn)
            ep._hanging_rewards_begin = defaultdict(float, c.hanging_rewards_begin or {})  # as `cut` leaves it
        else:
            ep = MultiAgentEpisode(
                id_=shell.id_, observation_space=shell.observation_space, action_space=shell.action_space,
                agent_module_ids=dict(shell._agent_to_module_mapping),
                agent_to_module_mapping_fn=shell.agent_to_module_mapping_fn)
            ep.add_env_reset(observations={AGENTS[player[k0]]: k0 * n + i})
        skip = ep.SKIP_ENV_TS_TAG
        # Agents whose action waits for their next observation: the row of
        # that action, or -1 for one that waits in `ep` (from before the run).
        waiting = dict.fromkeys(ep._hanging_actions_end, -1)
        agent_episodes, env_t_to_agent_t = ep.agent_episodes, ep.env_t_to_agent_t
        for k in range(k0, k1):
            p = player[k]
            mover = AGENTS[p]
            last = terminal and k == k1 - 1
            nxt = None if last else AGENTS[player[k + 1]]
            sa = agent_episodes.get(nxt) if nxt is not None else None
            if sa is not None and not sa.is_done and mover not in waiting and (nxt == mover or nxt in waiting):
                if nxt == mover:
                    done_action, done_reward, done_outputs = action[k], reward[k][p] or 0.0, self._outputs(e, t, k)
                else:
                    w = waiting.pop(nxt)
                    if w < 0:
                        done_action = ep._hanging_actions_end.pop(nxt)
                        done_outputs = ep._hanging_extra_model_outputs_end.pop(nxt, None)
                        done_reward = ep._hanging_rewards_end.pop(nxt, 0.0) + 0.0
                    else:
                        done_action = action[w]
                        done_outputs = self._outputs(e, t, w)
                        done_reward = (reward[w][player[k + 1]] or 0.0) + 0.0  # nxt's reward
                    waiting[mover] = k
                ep.env_t += 1
                for agent, mapping in env_t_to_agent_t.items():
                    if agent != nxt:
                        mapping.data.append(skip)
                handle = (k + 1) * n + i
                sa.observations.data.append(handle)
                sa.actions.data.append(done_action)
                sa.rewards.data.append(done_reward)
                sa.infos.data.append({})
                sa.t += 1
                if done_outputs is not None:
                    emo = sa.extra_model_outputs
                    for key, value in done_outputs.items():
                        if key in emo:
                            emo[key].data.append(value)
                        else:
                            emo[key] = InfiniteLookbackBuffer([value])
                sa._last_added_observation = handle
                sa._last_added_infos = {}
                env_t_to_agent_t[nxt].data.append(sa.t - sa.t_started + ep.agent_t_started[nxt])  # len(sa) + start
                continue
            self._hand_over(ep, e, t, waiting)
            obs_l, act_l, rew_l, out_l = self._lists(c, e, t, k, k0, k + 1, last)
            ep.add_env_step(observations=obs_l[-1], actions=act_l[-1], rewards=rew_l[-1], infos={},
                            terminateds={"__all__": last and e.term[k]},
                            truncateds={"__all__": last and e.trunc[k]},
                            extra_model_outputs=out_l[-1])
            waiting = dict.fromkeys(ep._hanging_actions_end, -1)
        self._hand_over(ep, e, t, waiting)
        for agent in ep.agent_episodes:
            # RLlib's constructor (and `cut`, on the chunk it cuts) reads every agent's start from a defaultdict.
            ep.agent_t_started.setdefault(agent, 0)
        ep._custom_data = shell._custom_data
        ep._start_time, ep._last_step_time = shell._start_time, time.perf_counter()
        return ep

    def _hand_over(self, ep: MultiAgentEpisode, e: "_EnvSteps", t: "_Tables", waiting: dict[str, int]) -> None:
        """Puts the actions still waiting since a row of this call into
        ``ep``'s own waiting-action state, as ``add_env_step`` keeps it."""
        for agent, w in waiting.items():
            if w >= 0:
                ep._hanging_actions_end[agent] = e.action[w]
                ep._hanging_rewards_end[agent] = e.reward[w][_AGENT_INDEX[agent]] or 0.0
                ep._hanging_extra_model_outputs_end[agent] = self._outputs(e, t, w)
        waiting.clear()

    def _finish(self, ep: MultiAgentEpisode, c: _Carry, env_index: int, t: "_Tables", done: bool) -> None:
        """Queues the row handles in ``ep`` for the one gather per table at
        the end of ``_build_episodes`` (``t.fill``), and its callbacks:
        ``on_episode_start`` for an episode's first chunk, ``on_episode_end``
        for its last."""
        for agent, emo in ep._hanging_extra_model_outputs_end.items():
            ep._hanging_extra_model_outputs_end[agent] = t.resolve_outputs(emo)
        for sa in ep.agent_episodes.values():
            t.queue(sa)
        if not c.started:
            t.callbacks.append(("on_episode_start", ep, env_index))
            c.started = True
        if done:
            t.callbacks.append(("on_episode_end", ep, env_index))

    def _successor(self, c: _Carry, ep: MultiAgentEpisode, t: "_Tables", obs: list[Any], actions: list[Any],
                   rewards: list[Any], outputs: list[Any]) -> _Carry:
        """What ``ep.cut(config.episode_lookback_horizon)`` would start the
        next chunk with, from the per-step dicts (``cut`` itself only when an
        agent's last observation lies further back than the horizon); rows
        are copied out of this call's arrays."""
        lookback = self.config.episode_lookback_horizon
        for agent in ep._hanging_actions_end:
            back = next((j for j in range(1, len(obs) + 1) if agent in obs[-j]), 1)
            lookback = max(lookback, back - 1)
        if lookback > self.config.episode_lookback_horizon or lookback + 1 > ep.env_t - ep.env_t_started + 1:
            lookback = ep.cut(len_lookback_buffer=self.config.episode_lookback_horizon)._len_lookback_buffers
        nxt = _Carry(c.shell)
        nxt.started = True
        nxt.lookback = lookback
        nxt.obs = [{a: t.obs_row(h) for a, h in o.items()} for o in obs[len(obs) - lookback - 1:]]
        if lookback:
            nxt.actions = actions[len(actions) - lookback:]
            nxt.rewards = rewards[len(rewards) - lookback:]
            nxt.outputs = [{a: t.resolve_outputs(e) for a, e in o.items()} for o in outputs[len(outputs) - lookback:]]
        nxt.env_t_started = ep.env_t
        nxt.agent_t_started = {a: sa.t for a, sa in ep.agent_episodes.items() if not sa.is_done}
        nxt.agent_episode_ids = ep.agent_episode_ids
        nxt.hanging_rewards_begin = ep._hanging_rewards_end.copy()
        nxt.hanging = set(ep._hanging_actions_end)
        c.shell._start_time = time.perf_counter()
        return nxt

    def _build_episodes(self, steps: _Steps, keep_ongoing: bool) -> tuple[list[MultiAgentEpisode], list[MultiAgentEpisode]]:
        """The episode chunks of one ``sample`` call, from its arrays: each
        env's chunks (split where its games end) built by :meth:`_episode`
        over row handles (ints); then each agent's handles become its rows
        with one numpy gather per column."""
        n, rows = steps.n, steps.rows
        t = _Tables(steps, self._pool)
        ended = steps.term[:rows] | steps.trunc[:rows]
        window = self.config.episode_lookback_horizon + 4
        done: list[MultiAgentEpisode] = []
        ongoing: list[MultiAgentEpisode] = []
        for i, e in enumerate(_EnvSteps.every_env(steps, t)):
            c = self._carry[i]
            k0 = 0
            for k in map(int, np.flatnonzero(ended[:, i])):
                ep = self._episode(c, e, t, k0, k + 1, True)
                self._finish(ep, c, i, t, done=True)
                done.append(ep)
                c, k0 = _Carry(steps.shells[(k, i)]), k + 1
            if rows > k0 and keep_ongoing:
                ep = self._episode(c, e, t, k0, rows, False)
                # The successor needs the chunk's last steps back to each waiting agent's last observation.
                start = max(k0, rows - window)
                lists = self._lists(c, e, t, start, k0, rows, False)
                if start > k0 and any(all(a not in o for o in lists[0]) for a in ep._hanging_actions_end):
                    lists = self._lists(c, e, t, k0, k0, rows, False)
                c_next = self._successor(c, ep, t, *lists)
                self._finish(ep, c, i, t, done=False)
                c = c_next
                self._ongoing_episodes_for_metrics[ep.id_].append(ep)
                ongoing.append(ep)
            self._carry[i] = c
        t.fill(self.episodes_to_numpy)
        for which, ep, i in t.callbacks:
            self._callback(which, ep, i)
        for ep in done + ongoing:
            self._prune_zero_len_sa_episodes(ep)
        self._done_episodes_for_metrics.extend(done)
        return done, ongoing


class _EnvSteps:
    """One env's column of a ``sample`` call's step arrays as Python lists:
    the chunk building reads each step's fields several times, and a list
    item costs a fraction of a numpy scalar read. Actions and scalar module
    outputs stay numpy scalars (what RLlib's episodes hold), rewards and
    flags become Python floats and bools (what ``float()``/``bool()`` gave)."""

    __slots__ = ("i", "n", "player", "action", "reward", "term", "trunc", "scalars", "final")

    def __init__(self, i: int, n: int, final: dict[tuple[int, int], npt.NDArray[Any]], player: list[int],
                 action: list[Any], reward: list[list[float]], term: list[bool], trunc: list[bool],
                 scalars: list[tuple[str, list[Any]]]) -> None:
        self.i, self.n, self.final = i, n, final
        self.player, self.action, self.reward, self.term, self.trunc = player, action, reward, term, trunc
        self.scalars = scalars

    @staticmethod
    def every_env(steps: _Steps, t: "_Tables") -> list["_EnvSteps"]:
        """Every env's columns (one transposed ``tolist`` per array for all envs)."""
        rows = steps.rows
        player = steps.player[:rows + 1].T.tolist()
        action = steps.action[:rows].T
        reward = steps.reward[:rows].transpose(1, 0, 2).tolist()
        term, trunc = steps.term[:rows].T.tolist(), steps.trunc[:rows].T.tolist()
        scalars = [(key, col[:rows].T) for key, col in t.scalar_outputs]
        return [_EnvSteps(i, steps.n, steps.final, player[i], list(action[i]), reward[i], term[i], trunc[i],
                          [(key, list(col[i])) for key, col in scalars]) for i in range(steps.n)]


class _BlockPool:
    """The arrays the episodes' observations, masks and vector module
    outputs are gathered into: blocks of ``rows`` rows (about 2 MiB), each
    reused once nothing holds a view of it any more (its reference count
    says so: every episode array is a view of its block, and a view keeps its
    base alive). Fresh arrays for every call cost a page fault per 4 KiB
    written (tens of MB per call, more than the copying itself), and arrays
    from 4 MiB on get numpy's huge-page advice, whose compaction cost 100 ms
    per call on the loaded development machine."""

    rows_bytes = 2 << 20

    def __init__(self) -> None:
        self.rows = 0
        self.blocks: dict[tuple[Any, ...], list[npt.NDArray[Any]]] = {}
        self.used: Counter[tuple[Any, ...]] = Counter()

    def size(self, row_bytes: int) -> None:
        """Sets the block height for rows of ``row_bytes`` (all columns of one step)."""
        rows = max(1, self.rows_bytes // max(1, row_bytes))
        if rows != self.rows:
            self.rows, self.blocks = rows, {}

    def block(self, shape: tuple[int, ...], dtype: Any, rows: int) -> npt.NDArray[Any]:
        """The first ``rows`` rows of a free block (or of a fresh one, a
        fresh array of its own above the block height)."""
        if rows > self.rows:
            return np.empty((rows, *shape), dtype)
        key = (shape, np.dtype(dtype).str)
        blocks = self.blocks.setdefault(key, [])
        self.used[key] += 1
        for j in range(len(blocks)):
            if sys.getrefcount(blocks[j]) == 2:  # the pool's list and getrefcount's argument
                return blocks[j][:rows]
        block = np.empty((self.rows, *shape), dtype)
        blocks.append(block)
        return block[:rows]

    def trim(self) -> None:
        """Keeps at most as many free blocks of each shape as the call just
        used (the next call needs about as many)."""
        for key, blocks in self.blocks.items():
            free = [j for j in range(len(blocks)) if sys.getrefcount(blocks[j]) == 2]
            for j in reversed(free[self.used[key]:]):
                del blocks[j]
        self.used.clear()


class _Tables:
    """The rows one ``_build_episodes`` call hands out by handle: row
    ``k * n + i`` of the step arrays (observations and masks up to the
    pending row ``K``, vector module outputs such as ``action_dist_inputs``
    up to ``K - 1``), then rows added for final observations and for what
    episodes carried over from the previous call."""

    def __init__(self, steps: _Steps, pool: "_BlockPool") -> None:
        rows = steps.rows
        self.pool = pool
        pool.size(steps.obs.itemsize * steps.obs_size + steps.mask.itemsize * steps.num_actions)
        self.obs = steps.obs[:rows + 1].reshape(-1, steps.obs_size)
        self.mask = steps.mask[:rows + 1].reshape(-1, steps.num_actions)
        self.out = {key: col[:rows].reshape(rows * steps.n, *col.shape[2:])
                    for key, col in steps.outputs.items() if col.ndim > 2}
        self.extra_obs: list[npt.NDArray[np.float32]] = []
        self.extra_mask: list[npt.NDArray[np.float32]] = []
        self.extra_out: dict[str, list[npt.NDArray[Any]]] = {key: [] for key in self.out}
        self.zero_mask = np.zeros(steps.num_actions, np.float32)
        self.scalar_outputs = [(key, col) for key, col in steps.outputs.items() if col.ndim == 2]
        self.agent_episodes: list[Any] = []
        self.callbacks: list[tuple[str, MultiAgentEpisode, int]] = []

    def queue(self, sa: Any) -> None:
        """An agent's chunk whose observation and vector output buffers
        hold row handles, to fill in ``fill``."""
        self.agent_episodes.append(sa)

    def fill(self, numpy: bool) -> None:
        """Gives every queued agent chunk its rows: one gather per table for
        all of them (a gather per agent chunk cost ten times more: each new
        small array page-faults), then views of it; and finalizes the
        scalar columns as ``SingleAgentEpisode.to_numpy`` does (or leaves
        lists of rows, without ``episodes_to_numpy``)."""
        # Groups of at most `pool.rows` rows (about 2 MiB per column), each
        # gathered into blocks of the pool.
        group: list[Any] = []
        size = 0
        for sa in self.agent_episodes:
            rows = len(sa.observations.data)
            if group and size + rows > self.pool.rows:
                self._fill(group, numpy)
                group, size = [], 0
            group.append(sa)
            size += rows
        self._fill(group, numpy)
        self.pool.trim()

    def _fill(self, episodes: list[Any], numpy: bool) -> None:
        if not episodes:
            return
        obs_handles = [np.fromiter(sa.observations.data, np.int64, len(sa.observations.data)) for sa in episodes]
        bounds = np.cumsum([0] + [len(h) for h in obs_handles])
        handles = np.concatenate(obs_handles)
        obs = self.gather(self.obs, self.extra_obs, handles)
        mask = self.gather(self.mask, self.extra_mask, handles)
        for j, sa in enumerate(episodes):
            a, b = bounds[j], bounds[j + 1]
            if numpy:
                sa.observations.data = {"observations": obs[a:b], "action_mask": mask[a:b]}
                sa.observations.finalized = True
            else:
                sa.observations.data = [{"observations": o, "action_mask": m} for o, m in zip(obs[a:b], mask[a:b])]
        for key, table in self.out.items():
            having = [sa for sa in episodes if key in sa.extra_model_outputs]  # an agent with no action yet has none
            if not having:
                continue
            out_handles = [np.fromiter(sa.extra_model_outputs[key].data, np.int64, len(sa.extra_model_outputs[key].data))
                           for sa in having]
            bounds = np.cumsum([0] + [len(h) for h in out_handles])
            rows = self.gather(table, self.extra_out[key], np.concatenate(out_handles))
            for j, sa in enumerate(having):
                buf = sa.extra_model_outputs[key]
                buf.data = rows[bounds[j]:bounds[j + 1]]
                if numpy and len(sa) > 0:
                    buf.finalized = True
                else:
                    buf.data = list(buf.data)
        if numpy:
            for sa in episodes:
                if len(sa) > 0:
                    for buf in (sa.actions, sa.rewards, *sa.extra_model_outputs.values()):
                        buf.finalize()

    def add_obs(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.float32]) -> int:
        self.extra_obs.append(obs)
        self.extra_mask.append(mask)
        return len(self.obs) + len(self.extra_obs) - 1

    def obs_row(self, h: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        if h < len(self.obs):
            return self.obs[h].copy(), self.mask[h].copy()
        return self.extra_obs[h - len(self.obs)], self.extra_mask[h - len(self.obs)]

    def add_outputs(self, outputs: dict[str, Any]) -> dict[str, Any]:
        """A carried-over step's outputs with its vector rows as new handles."""
        out = dict(outputs)
        for key, rows in self.extra_out.items():
            rows.append(out[key])
            out[key] = len(self.out[key]) + len(rows) - 1
        return out

    def resolve_outputs(self, outputs: dict[str, Any]) -> dict[str, Any]:
        """Outputs with their vector handles replaced by (copied) rows."""
        out = dict(outputs)
        for key, table in self.out.items():
            h = out[key]
            out[key] = table[h].copy() if h < len(table) else self.extra_out[key][h - len(table)]
        return out

    def gather(self, table: npt.NDArray[Any], extra: list[npt.NDArray[Any]], handles: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        """Rows ``handles`` of ``table`` followed by ``extra``, in (the
        first rows of) a block of the pool."""
        out = self.pool.block(table.shape[1:], table.dtype, len(handles))
        # mode="clip": the handles are in range, and "raise" buffers `out`.
        np.take(table, np.minimum(handles, len(table) - 1), axis=0, out=out, mode="clip")
        outside = np.flatnonzero(handles >= len(table))
        if len(outside):
            out[outside] = np.stack([extra[j] for j in handles[outside] - len(table)])
        return out


def module_spec(game_id: str, hidden: tuple[int, ...] = (256, 256), obs_format: str = "full") -> RLModuleSpec:
    """An ``RLModuleSpec`` of :data:`ACTION_MASKING_MODULE` for ``game_id``
    (its input sized for the observations of ``obs_format``)."""
    game = Game(game_id, obs_format=obs_format)
    return RLModuleSpec(
        module_class=ACTION_MASKING_MODULE,
        observation_space=agent_observation_space(game),
        action_space=gym.spaces.Discrete(game.num_actions),
        model_config={"fcnet_hiddens": list(hidden), "head_fcnet_hiddens": [], "vf_share_layers": False},
    )


def multi_module_spec(game_id: str, module_ids: Sequence[str], hidden: tuple[int, ...] = (256, 256),
                      obs_format: str = "full") -> MultiRLModuleSpec:
    """A ``MultiRLModuleSpec`` with one :func:`module_spec` per module id."""
    return MultiRLModuleSpec(rl_module_specs={m: module_spec(game_id, hidden, obs_format) for m in module_ids})


def _shared_policy(agent_id: Any, episode: Any, **kwargs: Any) -> str:
    return "main"


def ppo_config(
    game_id: str,
    num_env_runners: int = 2,
    num_envs_per_env_runner: int = 32,
    env_config: Optional[Mapping[str, Any]] = None,
    hidden: tuple[int, ...] = (256, 256),
    vectorized: bool = True,
    lean: bool = False,
) -> PPOConfig:
    """A ``PPOConfig`` for shared-policy self-play on ``game_id``: one module
    ``"main"`` plays both sides with legal-action masking; ``vectorized``
    uses :class:`LudotecaEnvRunner` (one ``VecEnv`` per env runner), else
    RLlib's runner over :class:`LudotecaMultiAgentEnv` copies; ``lean``
    uses :class:`LudotecaLeanEnvRunner` (one batched forward pass per step,
    episodes built in bulk). Change the policies and mapping with
    ``.multi_agent(...)``. ``obs_format="packed"`` is refused: RLlib's
    modules take float observations (use ``"full"`` or ``"compact"``, or a
    module of your own that unpacks the bytes)."""
    config: dict[str, Union[str, int, bool]] = {"game": game_id, **(env_config or {})}
    if config.get("obs_format") == "packed":
        raise OptionError("ppo_config: obs_format='packed' gives uint8 bytes, which RLlib's torch modules cannot take;"
                          " use obs_format='full' or 'compact' (or unpack the bytes in a module of your own)")
    ppo = (
        PPOConfig()
        .environment(LudotecaMultiAgentEnv, env_config=config)
        .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=num_envs_per_env_runner)
        .multi_agent(policies={"main"}, policy_mapping_fn=_shared_policy)
        .rl_module(rl_module_spec=multi_module_spec(game_id, ["main"], hidden, str(config.get("obs_format", "full"))))
    )
    if lean:
        ppo = ppo.env_runners(env_runner_cls=LudotecaLeanEnvRunner)
    elif vectorized:
        ppo = ppo.env_runners(env_runner_cls=LudotecaEnvRunner)
    return ppo
