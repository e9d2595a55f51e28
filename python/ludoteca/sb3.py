"""Stable-Baselines3: N games as one SB3 ``VecEnv``, in one process.

Needs ``stable-baselines3`` (``pip install 'ludoteca[sb3]'``; sb3-contrib for
``MaskablePPO``). ``import ludoteca`` alone never imports it.

SB3's own vectorisation (``DummyVecEnv``, ``SubprocVecEnv``) steps one Python
env at a time or one process per env. :class:`LudotecaSB3VecEnv` instead
steps all ``num_envs`` games in one Rust call (a :class:`ludoteca.VecEnv`
through :class:`ludoteca.gym.LudotecaVectorEnv`), so hundreds of envs cost one
process and no pickling::

    from sb3_contrib import MaskablePPO
    import ludoteca.sb3

    venv = ludoteca.sb3.make_vec("checkers", num_envs=64, opponent="random", seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=128, device="cpu")
    model.learn(50_000)

* **Opponents** as in :func:`ludoteca.gym.make_vec`: ``"random"`` (drawn in
  Rust, the agent plays ``agent_player``) or ``"self"`` (self-play: every
  decision of both sides is the agent's, the reward is that of the player who
  just acted; observations are always from the mover's point of view).
* **Masks.** ``action_masks()`` returns the ``(num_envs, num_actions)`` legal
  masks; ``env_method("action_masks")`` (what sb3-contrib's
  ``get_action_masks`` calls) returns the same rows as a list.
* **SB3 conventions.** Auto-reset: a finished env's ``step_wait`` returns its
  reward, ``done=True``, ``info["terminal_observation"]`` (its last
  observation) and ``info["TimeLimit.truncated"]`` (True when the game hit
  ``max_turns``), and the first observation of its next game.
  ``seed(s)`` then ``reset()`` restarts every env from ``s`` (env ``i`` gets
  the ``i``-th seed derived from ``s``: the whole batch is seeded as one).
* **Illegal actions** end the game as a loss (game option
  ``illegal_action="lose"``, set unless you pass one), as in ``ludoteca.gym``.
"""

from __future__ import annotations

from ._extras import require

require("ludoteca.sb3", "sb3", "gymnasium", "stable_baselines3")

from collections.abc import Sequence
from typing import Any, Optional, Union

import gymnasium
import numpy as np
import numpy.typing as npt
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvObs, VecEnvStepReturn

from ._core import Game
from .errors import ActionsError, OptionError
from .gym import AgentPlayer, LudotecaVectorEnv

__all__ = ["LudotecaSB3VecEnv", "make_vec"]

# Per-env methods SB3 (or sb3-contrib) may call through ``env_method``.
_ENV_METHODS = ("action_masks",)


class LudotecaSB3VecEnv(VecEnv):
    """``num_envs`` games of ``game_id`` as a Stable-Baselines3 ``VecEnv``.

    Arguments are those of :func:`ludoteca.gym.make_vec`; see the module docs.
    """

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        opponent: str = "random",
        agent_player: AgentPlayer = 0,
        seed: int = 0,
        num_threads: Optional[int] = None,
        **options: Union[bool, int, str],
    ) -> None:
        self.venv = LudotecaVectorEnv(
            game_id, num_envs, opponent=opponent, agent_player=agent_player, seed=seed, num_threads=num_threads, **options
        )
        self.game: Game = self.venv.game
        self.render_mode: Optional[str] = None
        super().__init__(num_envs, self.venv.single_observation_space, self.venv.single_action_space)
        self._base_seed = seed
        self._actions: Optional[npt.NDArray[np.int64]] = None

    # -- SB3 VecEnv API -------------------------------------------------------

    def reset(self) -> VecEnvObs:
        """Starts every env afresh (from the seed given to ``seed()``, if any,
        else the batch's generators continue) and returns the observations."""
        seed = self._seeds[0]
        obs, info = self.venv.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{"action_mask": info["action_mask"][i], "agent_player": int(info["agent_player"][i])}
                            for i in range(self.num_envs)]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Stores the actions of the next ``step_wait``."""
        actions = np.asarray(actions).reshape(-1)
        if actions.shape != (self.num_envs,):
            raise ActionsError(f"expected {self.num_envs} actions, got an array of shape {np.shape(actions)}")
        self._actions = actions.astype(np.int64)

    def step_wait(self) -> VecEnvStepReturn:
        """Steps every env with the stored actions (one Rust call, plus the
        opponent's replies); returns ``(obs, rewards, dones, infos)``."""
        if self._actions is None:
            raise ActionsError("step_wait() needs step_async(actions) first")
        actions, self._actions = self._actions, None
        obs, rewards, term, trunc, info = self.venv.step(actions)
        dones = term | trunc
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final_obs = info["final_obs"] if "final_obs" in info else info["final_observation"]
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = final_obs[i]
                infos[i]["TimeLimit.truncated"] = bool(trunc[i] and not term[i])
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``(num_envs, num_actions)`` legal masks of the decisions to take."""
        return self.venv.action_masks()

    def close(self) -> None:
        """Nothing to release: the batch is freed with the object."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The batch's attribute ``attr_name`` (``game``, ``render_mode``,
        ``opponent``, ...) repeated for each index: every env shares it."""
        value = getattr(self, attr_name) if attr_name in ("render_mode", "game") else getattr(self.venv, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Refused: the envs of one batch share their settings."""
        raise OptionError(f"cannot set {attr_name!r}: the envs of a ludoteca batch share their settings; build a new batch")

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any) -> list[Any]:
        """Per-env methods: ``action_masks`` (one mask per index)."""
        if method_name not in _ENV_METHODS:
            raise AttributeError(f"ludoteca SB3 envs have no per-env method {method_name!r} (only {', '.join(_ENV_METHODS)})")
        masks = self.action_masks()
        return [masks[i] for i in self._get_indices(indices)]

    # gymnasium >= 1.3 made Wrapper non-generic: ignore the missing arguments either way.
    def env_is_wrapped(self, wrapper_class: type[gymnasium.Wrapper], indices: VecEnvIndices = None) -> list[bool]:  # type: ignore[type-arg, unused-ignore]
        """Always False: the games are not gymnasium envs and carry no wrappers."""
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[Optional[np.ndarray]]:
        """No pictures: the batch keeps no renderer (``ludoteca.render`` draws a ``State``)."""
        return [None for _ in range(self.num_envs)]

    def __repr__(self) -> str:
        return f"LudotecaSB3VecEnv({self.game.id!r}, num_envs={self.num_envs}, opponent={self.venv.opponent!r})"


make_vec = LudotecaSB3VecEnv
"""``make_vec(game_id, num_envs, opponent="random", agent_player=0, seed=0,
num_threads=None, **options)``: a :class:`LudotecaSB3VecEnv`."""
