"""TorchRL: N games as one batched ``EnvBase`` (``batch_size=[N]``).

Needs ``torchrl`` and ``tensordict`` (``pip install 'ludoteca[torchrl]'``);
``import ludoteca`` alone never imports them.

TorchRL's OpenSpiel and PettingZoo wrappers step one game per env object;
:class:`LudotecaTorchRLEnv` steps all ``num_envs`` games in one Rust call (a
:class:`ludoteca.VecEnv` through :class:`ludoteca.gym.LudotecaVectorEnv`)::

    from torchrl.envs import TransformedEnv
    from torchrl.envs.transforms import ActionMask
    import ludoteca.torchrl

    env = TransformedEnv(ludoteca.torchrl.make("checkers", num_envs=64, opponent="self"), ActionMask())
    td = env.rollout(100)                       # [64, 100]; random *legal* actions

* **Specs.** ``observation`` (float32, the game's observation shape, from
  the point of view of the player to act), ``action_mask`` (bool,
  ``num_actions``: the legal actions), ``agent_player`` (the side the agent
  plays in this game, 0 or 1); ``action`` is a ``Categorical`` index (int64;
  ``categorical_action_encoding=False`` makes it one-hot); ``reward`` is
  ``[N, 1]`` float32; ``done``/``terminated``/``truncated`` ``[N, 1]`` bool.
  TorchRL's ``ActionMask`` transform copies ``action_mask`` into the action
  spec so ``rand_action`` and ``MaskedCategorical`` policies pick legal actions.
* **Opponents** as in :func:`ludoteca.gym.make_vec`: ``"random"`` (drawn in
  Rust) or ``"self"`` (self-play: each step is one decision of the player
  to act, the reward is that player's).
* **Resets.** The batch resets a finished game in the same Rust call that
  ended it; the step reports the game's last observation with ``done`` and
  keeps the next game's first observation for the ``_reset`` that TorchRL
  issues for that env (``rollout``, collectors and ``step_and_maybe_reset``
  all do). A ``reset()`` without a mask restarts every env; ``set_seed(s)``
  seeds the next full reset.
* **Illegal actions** end the game as a loss (``illegal_action="lose"``,
  set unless you pass one), as in ``ludoteca.gym``.
"""

from __future__ import annotations

from ._extras import require

require("ludoteca.torchrl", "torchrl", "torch", "tensordict", "torchrl")

from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt
import torch
from tensordict import TensorDict, TensorDictBase
from torchrl.data import Binary, Bounded, Categorical, Composite, OneHot, Unbounded
from torchrl.envs import EnvBase

from ._core import Game
from .errors import OptionError
from .gym import AgentPlayer, LudotecaVectorEnv, observation_space

__all__ = ["LudotecaTorchRLEnv", "make"]


class LudotecaTorchRLEnv(EnvBase):  # type: ignore[misc]
    """``num_envs`` games of ``game_id`` as a batched TorchRL env (``batch_size=[num_envs]``).

    ``opponent``, ``agent_player``, ``seed``, ``num_threads`` and ``**options``
    are those of :func:`ludoteca.gym.make_vec`; ``device`` is where the
    tensors are put (stepping always runs on the CPU). See the module docs.
    """

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        opponent: str = "random",
        agent_player: AgentPlayer = 0,
        seed: int = 0,
        num_threads: Optional[int] = None,
        device: Union[str, torch.device] = "cpu",
        categorical_action_encoding: bool = True,
        **options: Union[bool, int, str],
    ) -> None:
        self._venv = LudotecaVectorEnv(game_id, num_envs, opponent=opponent, agent_player=agent_player, seed=seed,
                                       num_threads=num_threads, **options)
        super().__init__(device=device, batch_size=torch.Size([num_envs]))
        self.game: Game = self._venv.game
        self.num_envs = num_envs
        n, a = num_envs, self.game.num_actions
        box = observation_space(self.game)
        # float32, or uint8 bytes under obs_format="packed".
        self._obs_dtype = torch.uint8 if self.game.observation_dtype == "uint8" else torch.float32
        self.observation_spec = Composite(
            observation=Bounded(low=float(box.low.min()), high=float(box.high.max()), shape=(n, *box.shape),
                                dtype=self._obs_dtype, device=self.device),
            action_mask=Binary(n=a, shape=(n, a), dtype=torch.bool, device=self.device),
            agent_player=Categorical(n=2, shape=(n,), dtype=torch.int64, device=self.device),
            shape=(n,),
            device=self.device,
        )
        action_cls = Categorical if categorical_action_encoding else OneHot
        self.action_spec = action_cls(n=a, shape=(n,) if categorical_action_encoding else (n, a), dtype=torch.int64,
                                      device=self.device)
        self.reward_spec = Unbounded(shape=(n, 1), dtype=torch.float32, device=self.device)
        self.done_spec = Composite(
            done=Categorical(n=2, shape=(n, 1), dtype=torch.bool, device=self.device),
            terminated=Categorical(n=2, shape=(n, 1), dtype=torch.bool, device=self.device),
            truncated=Categorical(n=2, shape=(n, 1), dtype=torch.bool, device=self.device),
            shape=(n,),
            device=self.device,
        )
        self._categorical = categorical_action_encoding
        self._next_seed: Optional[int] = seed
        # The first observation of the next game of every env whose game ended
        # at the last step (the batch already started it), until TorchRL's
        # _reset for that env hands it out.
        self._pending = np.zeros(n, dtype=bool)
        self._obs = np.zeros((n, *box.shape), dtype=box.dtype)
        self._mask = np.zeros((n, a), dtype=bool)
        self._agent = np.zeros(n, dtype=np.int64)

    def _observation_td(self, obs: npt.NDArray[Any], mask: npt.NDArray[np.bool_], agent: npt.NDArray[np.int64],
                        **extra: torch.Tensor) -> TensorDict:
        return TensorDict(
            {
                "observation": torch.as_tensor(obs, dtype=self._obs_dtype),
                "action_mask": torch.as_tensor(mask, dtype=torch.bool),
                "agent_player": torch.as_tensor(agent, dtype=torch.int64),
                **extra,
            },
            batch_size=self.batch_size,
        ).to(self.device)

    def _remember(self, obs: npt.NDArray[Any], info: dict[str, Any]) -> None:
        self._obs = np.asarray(obs, dtype=self.game.observation_dtype)
        self._mask = np.asarray(info["action_mask"], dtype=bool)
        self._agent = np.asarray(info["agent_player"], dtype=np.int64)

    def _reset(self, tensordict: Optional[TensorDictBase] = None, **kwargs: Any) -> TensorDict:
        rows = None if tensordict is None or "_reset" not in tensordict.keys() else (
            tensordict.get("_reset").reshape(self.num_envs).cpu().numpy().astype(bool))
        if rows is not None and rows.any() and not (rows & ~self._pending).any():
            # Only envs whose game just ended: their next game is already running.
            self._pending &= ~rows
        else:
            if rows is not None and not rows.all():
                raise OptionError(
                    "a ludoteca batch resets either every env or only the envs whose game just ended "
                    f"(asked for envs {np.flatnonzero(rows).tolist()}, ended: {np.flatnonzero(self._pending).tolist()})"
                )
            obs, info = self._venv.reset(seed=self._next_seed)
            self._next_seed = None
            self._pending[:] = False
            self._remember(obs, info)
        falses = torch.zeros((self.num_envs, 1), dtype=torch.bool)
        return self._observation_td(self._obs, self._mask, self._agent, done=falses, terminated=falses.clone(),
                                    truncated=falses.clone())

    def _step(self, tensordict: TensorDictBase) -> TensorDict:
        action = tensordict.get("action")
        if not self._categorical:
            action = action.argmax(-1)
        actions = action.reshape(self.num_envs).cpu().numpy().astype(np.int64)
        obs, rewards, term, trunc, info = self._venv.step(actions)
        ended = term | trunc
        out_obs = np.asarray(obs, dtype=self.game.observation_dtype)
        out_mask = np.asarray(info["action_mask"], dtype=bool)
        out_agent = np.asarray(info["agent_player"], dtype=np.int64)
        acted = self._agent
        self._remember(obs, info)
        if ended.any():
            # The step reports the finished game's last observation; the next
            # game's first one waits for _reset.
            out_obs = out_obs.copy()
            out_obs[ended] = info["final_obs"][ended] if "final_obs" in info else info["final_observation"][ended]
            out_mask = out_mask.copy()
            out_mask[ended] = False
            out_agent = out_agent.copy()
            out_agent[ended] = acted[ended]
            self._pending |= ended
        return self._observation_td(
            out_obs, out_mask, out_agent,
            reward=torch.as_tensor(rewards, dtype=torch.float32).reshape(self.num_envs, 1),
            done=torch.as_tensor(ended).reshape(self.num_envs, 1),
            terminated=torch.as_tensor(term).reshape(self.num_envs, 1),
            truncated=torch.as_tensor(trunc).reshape(self.num_envs, 1),
        )

    def _set_seed(self, seed: Optional[int]) -> None:
        self._next_seed = None if seed is None else int(seed)

    def __repr__(self) -> str:
        return f"LudotecaTorchRLEnv({self.game.id!r}, num_envs={self.num_envs}, opponent={self._venv.opponent!r})"


make = LudotecaTorchRLEnv
"""``make(game_id, num_envs, opponent="random", agent_player=0, seed=0,
num_threads=None, device="cpu", categorical_action_encoding=True, **options)``:
a :class:`LudotecaTorchRLEnv`."""
