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

      from ray.rllib.algorithms.ppo import PPOConfig
      import ludoteca.rllib

      config = ludoteca.rllib.ppo_config("checkers", num_env_runners=2, num_envs_per_env_runner=64)
      algo = config.build_algo()
      algo.train()

* **Masks.** :data:`ACTION_MASKING_MODULE` is RLlib's action-masking PPO
  module (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``): it
  strips ``"action_mask"`` from the observation and adds ``log(mask)`` to the
  logits, so PPO samples legal actions only. :func:`module_spec` builds its
  ``RLModuleSpec``.
* **Env config** (``config.environment(env_config=...)``): ``game`` (the game
  id, required), ``seed`` (default: derived from the env runner's index),
  ``num_threads`` (vector env), and any game option (``max_turns``, ...).
  ``illegal_action="lose"`` is set unless given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.env.vector.vector_multi_agent_env import VectorMultiAgentEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
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
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

from ._core import Env, Game, VecEnv
from .errors import OptionError
from .gym import observation_space as _box

__all__ = [
    "ACTION_MASKING_MODULE",
    "AGENTS",
    "LudotecaEnvRunner",
    "LudotecaMultiAgentEnv",
    "LudotecaVectorMultiAgentEnv",
    "agent_observation_space",
    "module_spec",
    "multi_module_spec",
    "ppo_config",
]

AGENTS = ("player_0", "player_1")
"""The agent ids: ``AGENTS[p]`` plays player ``p``."""

ACTION_MASKING_MODULE = ActionMaskingTorchRLModule
"""RLlib's action-masking PPO torch module (the documented pattern)."""

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
    must name the ``game``."""

    def make_env(self) -> None:
        """Builds the vector env (RLlib calls this at start and on env errors)."""
        old: Optional[LudotecaVectorMultiAgentEnv] = getattr(self, "env", None)
        if old is not None:
            old.close()
        config = dict(self.config.env_config)
        config.setdefault("seed", 1_000_003 * int(self.worker_index or 0))
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


def module_spec(game_id: str, hidden: tuple[int, ...] = (256, 256)) -> RLModuleSpec:
    """An ``RLModuleSpec`` of :data:`ACTION_MASKING_MODULE` for ``game_id``."""
    game = Game(game_id)
    return RLModuleSpec(
        module_class=ACTION_MASKING_MODULE,
        observation_space=agent_observation_space(game),
        action_space=gym.spaces.Discrete(game.num_actions),
        model_config={"fcnet_hiddens": list(hidden), "head_fcnet_hiddens": [], "vf_share_layers": False},
    )


def multi_module_spec(game_id: str, module_ids: Sequence[str], hidden: tuple[int, ...] = (256, 256)) -> MultiRLModuleSpec:
    """A ``MultiRLModuleSpec`` with one :func:`module_spec` per module id."""
    return MultiRLModuleSpec(rl_module_specs={m: module_spec(game_id, hidden) for m in module_ids})


def _shared_policy(agent_id: Any, episode: Any, **kwargs: Any) -> str:
    return "main"


def ppo_config(
    game_id: str,
    num_env_runners: int = 2,
    num_envs_per_env_runner: int = 32,
    env_config: Optional[Mapping[str, Any]] = None,
    hidden: tuple[int, ...] = (256, 256),
    vectorized: bool = True,
) -> PPOConfig:
    """A ``PPOConfig`` for shared-policy self-play on ``game_id``: one module
    ``"main"`` plays both sides with legal-action masking; ``vectorized``
    uses :class:`LudotecaEnvRunner` (one ``VecEnv`` per env runner), else
    RLlib's runner over :class:`LudotecaMultiAgentEnv` copies. Change the
    policies and mapping with ``.multi_agent(...)``."""
    config: dict[str, Union[str, int, bool]] = {"game": game_id, **(env_config or {})}
    ppo = (
        PPOConfig()
        .environment(LudotecaMultiAgentEnv, env_config=config)
        .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=num_envs_per_env_runner)
        .multi_agent(policies={"main"}, policy_mapping_fn=_shared_policy)
        .rl_module(rl_module_spec=multi_module_spec(game_id, ["main"], hidden))
    )
    if vectorized:
        ppo = ppo.env_runners(env_runner_cls=LudotecaEnvRunner)
    return ppo
