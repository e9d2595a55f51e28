"""PettingZoo AEC environments, shaped like PettingZoo's classic board games.

Needs ``pettingzoo`` (``pip install '.[pettingzoo]'`` from the clone); ``import
ludoteca`` alone never imports it.

::

    import ludoteca.pettingzoo
    env = ludoteca.pettingzoo.env("tablut")
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = int(np.flatnonzero(obs["action_mask"])[0])
        env.step(action)

* Agents ``"player_0"`` and ``"player_1"`` are the game's players 0 and 1.
  ``env.agent_selection`` is the player to move; a multi-decision turn (a
  multi-capture, the checkers of a backgammon roll) selects the same agent
  for each decision.
* ``observe(agent)`` returns ``{"observation": float32 array, "action_mask":
  int8 array}``. The observation is the game's, from the point of view of the
  player to move (so for ``agent_selection`` it is that agent's own view; the
  other agent sees the same array). Only the agent to move has a non-zero mask.
* Rewards per decision, per agent (``+1/-1/0``, backgammon ``±1/±2/±3``), on
  the decision that ends the game; truncation after the game's ``max_turns``.
* Chance events (backgammon with ``chance="explicit"``) are sampled inside
  ``reset``/``step`` from their probabilities with the env's seeded
  generator; agents never see a chance node.
* Illegal actions: as in :mod:`ludoteca.gym`, the game option
  ``illegal_action`` defaults to ``"lose"`` here (the offender loses);
  pass ``illegal_action="raise"`` to get ``IllegalActionError``.
* ``render_mode="ansi"`` renders the text board, ``"human"`` prints it after
  every decision, ``"rgb_array"`` renders the picture (needs Pillow).
"""

from __future__ import annotations

from ._extras import require

require("ludoteca.pettingzoo", "pettingzoo", "gymnasium", "pettingzoo")

from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._core import Env, Game, State
from ._chance import sample_chance
from .errors import OptionError
from ._action import one_action
from .gym import observation_space

__all__ = ["LudotecaAECEnv", "env", "raw_env"]

AGENTS = ["player_0", "player_1"]


class LudotecaAECEnv(AECEnv[str, dict[str, npt.NDArray[Any]], Optional[int]]):  # type: ignore[misc]
    """One ludoteca game as a two-agent PettingZoo ``AECEnv`` (see the module docs)."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "ludoteca",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, game_id: str, render_mode: Optional[str] = None, **options: Union[bool, int, str]) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode must be None, 'human', 'ansi' or 'rgb_array', got {render_mode!r}")
        options.setdefault("illegal_action", "lose")
        self._env = Env(game_id, seed=0, **options)
        self.game: Game = self._env.game
        self.metadata = dict(self.metadata, name=f"ludoteca_{game_id}_v{self.game.version}")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        n = self.game.num_actions
        obs_space = spaces.Dict(
            {
                "observation": observation_space(self.game),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces: dict[str, spaces.Space[Any]] = {a: spaces.Discrete(n) for a in AGENTS}
        self._obs: npt.NDArray[Any] = np.zeros(self.game.observation_shape, dtype=self.game.observation_dtype)
        self._mask: npt.NDArray[np.int8] = np.zeros(n, dtype=np.int8)
        self._seeded = False
        self.np_random, _ = seeding.np_random(None)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The ``Dict(observation=Box, action_mask=Box(int8))`` space."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_actions)``."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """The observation (mover's point of view) and ``agent``'s action mask."""
        mask = self._mask.copy() if agent == self.agent_selection else np.zeros_like(self._mask)
        return {"observation": self._obs.copy(), "action_mask": mask}

    @property
    def state_object(self) -> State:
        """A copy of the current :class:`ludoteca.State`."""
        return self._env.state

    def _play_chance(self, obs: Any, info: dict[str, Any]) -> tuple[Any, npt.NDArray[np.float32], bool, bool, dict[str, Any]]:
        rewards = np.zeros(2, dtype=np.float32)
        term = trunc = False
        while int(info["current_player"]) == -1:
            a = sample_chance(self._env.state, self.np_random)
            obs, r, term, trunc, info = self._env.step(a)
            rewards += r
            if term or trunc:
                break
        return obs, rewards, bool(term), bool(trunc), info

    def _set_view(self, obs: Any, info: dict[str, Any]) -> None:
        self._obs = np.asarray(obs, dtype=self.game.observation_dtype)
        self._mask = np.asarray(info["legal_action_mask"], dtype=np.int8)
        cp = int(info["current_player"])
        if cp >= 0:
            self.agent_selection = AGENTS[cp]
        public = {k: v for k, v in info.items() if k != "legal_action_mask"}
        self.infos = {a: dict(public) for a in self.agents}

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        """Starts a new game (``seed`` seeds the game and the chance sampler).
        ``options`` is accepted for the API and ignored: game options go to ``env()``."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            obs, info = self._env.reset(seed=seed)
        elif not self._seeded:
            obs, info = self._env.reset(seed=int(self.np_random.integers(2**63)))
        else:
            obs, info = self._env.reset()
        self._seeded = True
        obs, _, _, _, info = self._play_chance(obs, info)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self._set_view(obs, info)

    def step(self, action: Optional[int]) -> None:
        """Applies the selected agent's decision (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise OptionError(f"{agent} is to move: step(None) is only for agents that are done")
        self._cumulative_rewards[agent] = 0.0
        obs, r, term, trunc, info = self._env.step(one_action(action))
        rewards = np.asarray(r, dtype=np.float32).copy()
        if not (term or trunc):
            obs, r2, term, trunc, info = self._play_chance(obs, info)
            rewards += r2
        self.rewards = {a: float(rewards[i]) for i, a in enumerate(AGENTS)}
        self._set_view(obs, info)
        if term or trunc:
            self.terminations = {a: bool(term) for a in AGENTS}
            self.truncations = {a: bool(trunc) and not term for a in AGENTS}
            self._mask = np.zeros_like(self._mask)
            # The agent who just moved is stepped out first, then the other.
            self.agent_selection = agent
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """``"ansi"``: the text board; ``"human"``: prints it; ``"rgb_array"``:
        the picture, (H, W, 3) uint8."""
        if self.render_mode == "ansi":
            return str(self._env.state) + "\n"
        if self.render_mode == "human":
            print(self._env.state)
            return None
        if self.render_mode == "rgb_array":
            from .render import rgb_array

            return rgb_array(self._env.state)
        return None

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game_id: str, render_mode: Optional[str] = None, **options: Union[bool, int, str]) -> LudotecaAECEnv:
    """The unwrapped AEC env."""
    return LudotecaAECEnv(game_id, render_mode=render_mode, **options)


def env(game_id: str, render_mode: Optional[str] = None, **options: Union[bool, int, str]) -> AECEnv[str, dict[str, npt.NDArray[Any]], Optional[int]]:
    """The AEC env of ``game_id`` with PettingZoo's ``OrderEnforcingWrapper``,
    like ``pettingzoo.classic`` games. ``**options`` are the game's options.
    Actions are checked by the env itself, as in ``raw_env``: a non-integer
    or out-of-range action raises ``IllegalActionError`` (PettingZoo's
    ``AssertOutOfBoundsWrapper`` would raise ``AssertionError``, and vanish
    under ``python -O``)."""
    e: AECEnv[str, dict[str, npt.NDArray[Any]], Optional[int]] = raw_env(game_id, render_mode=render_mode, **options)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
