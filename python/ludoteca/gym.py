"""Gymnasium environments: an agent plays one side of a ludoteca game.

Needs ``gymnasium`` (``pip install '.[gymnasium]'`` from the clone); ``import ludoteca``
alone never imports it.

Single env (``gymnasium.Env``)::

    import ludoteca.gym
    env = ludoteca.gym.make("tablut", opponent="random", agent_player=0)
    obs, info = env.reset(seed=0)
    mask = info["action_mask"]            # or env.action_masks()
    obs, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))

* **Which side.** ``agent_player=0`` (default) or ``1`` fixes the agent's
  side (player 0 is the side that starts in most games: the Swedes in
  tablut, Black in damas and alquerque); ``agent_player="random"`` draws the
  side at every ``reset`` from the env's seeded generator. ``reset(options=
  {"agent_player": 1})`` overrides it for one episode. ``info["agent_player"]``
  says which side the agent has.
* **The opponent** moves inside ``step`` and ``reset``: ``"random"`` (uniform
  over legal actions, from the env's seeded generator), a callable
  ``f(state) -> action``, or an object with ``act(state)`` (or
  ``__call__``), answering an action index or a complete move in notation
  (every ``ludoteca.agents`` agent, e.g. ``make_agent("alphabeta:depth=2")``;
  the move's decisions are then played without asking again). It receives a
  copy of the :class:`ludoteca.State`. Chance
  events (backgammon dice with ``chance="explicit"``) are sampled from
  their probabilities inside ``step``/``reset`` too. So the agent only ever
  sees its own decisions; in multi-decision turns (a multi-capture, the
  checkers of a backgammon roll) it is asked once per decision.
* **Reward** = the agent's return: ``+1/-1/0`` (``±2/±3`` for backgammon
  gammons) on the step that ends the game, 0 before. ``truncated`` after the
  game's ``max_turns`` (zero reward).
* **Spaces.** ``Box`` observations (float32, or uint8 under ``obs_format="packed"``; the game's observation shape,
  from the agent's point of view), ``Discrete(num_actions)`` actions. The
  legal mask is ``info["action_mask"]`` and ``env.action_masks()``
  (sb3-contrib ``MaskablePPO`` convention).
* **Illegal actions.** ``make`` sets the game option
  ``illegal_action="lose"`` unless you pass one: a gym agent samples the
  whole ``Discrete`` space (so does ``gymnasium.utils.env_checker``), and an
  illegal action then ends the episode as a loss. Pass
  ``illegal_action="raise"`` to get ``IllegalActionError`` instead.
* **Rendering.** ``render_mode="rgb_array"`` returns the board picture as a
  ``(H, W, 3)`` uint8 array (needs Pillow), ``"ansi"`` the text board.

Vector env (``gymnasium.vector.VectorEnv``) on top of :class:`ludoteca.VecEnv`::

    venv = ludoteca.gym.make_vec("tablut", num_envs=64, opponent="random", seed=0)

Every env's agent decisions are stepped in one Rust call; the random
opponent's decisions (and chance events) are drawn by ``VecEnv.sample_actions``
and applied with ``VecEnv.step(actions, active=...)`` to the envs where it
is the opponent's turn. ``opponent="self"`` is self-play: both sides are the agent,
every decision is returned, and the reward is that of the player who just
acted. Auto-reset is same-step (``metadata["autoreset_mode"]``): a finished
env's step returns its reward and flags, ``info["final_obs"]`` (rows flagged
by ``info["_final_obs"]``) and ``info["final_returns"]`` (per player), and
the observation of its next game.

Every game is also registered with Gymnasium as ``ludoteca/<game id>-v<version>``
(``gymnasium.make("ludoteca/tablut-v1", opponent="random")``) when this module
is imported.
"""

from __future__ import annotations

from ._extras import require

require("ludoteca.gym", "gymnasium", "gymnasium")

import dataclasses
from typing import Any, Callable, Optional, Protocol, SupportsInt, Union, runtime_checkable

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._core import Env, Game, State, VecEnv, game_info, games
from ._chance import sample_chance
from ._action import one_action
from .errors import OptionError

__all__ = [
    "LudotecaEnv",
    "LudotecaVectorEnv",
    "Opponent",
    "OpponentLike",
    "make",
    "make_vec",
    "observation_space",
    "register_envs",
]


@runtime_checkable
class Opponent(Protocol):
    """An opponent object: ``act(state)`` returns the action to play, or a complete move in notation
    (as every ``ludoteca.agents`` agent answers), played decision by decision."""

    def act(self, state: State) -> Union[SupportsInt, str]:
        """The action (an index) or the complete move (notation) to play in ``state``."""
        ...


OpponentLike = Union[str, Callable[[State], Union[SupportsInt, str]], Opponent]
"""``"random"``, a callable ``f(state) -> action or move``, or an :class:`Opponent`."""

AgentPlayer = Union[int, str]
"""``0``, ``1`` or ``"random"`` (drawn at every reset)."""

def observation_space(game: Game) -> spaces.Box:
    """The ``Box`` of one observation of ``game`` in its ``obs_format`` (float32, never negative;
    uint8 bytes for ``obs_format="packed"``)."""
    if game.observation_dtype == "uint8":
        return spaces.Box(low=0, high=255, shape=game.observation_shape, dtype=np.uint8)
    return spaces.Box(low=0.0, high=game.observation_high, shape=game.observation_shape, dtype=np.float32)


def _check_agent_player(agent_player: AgentPlayer) -> None:
    if agent_player not in (0, 1, "random") or isinstance(agent_player, bool):
        raise OptionError(f'agent_player must be 0, 1 or "random", got {agent_player!r}')


class _DecisionByDecision:
    """An opponent asked one decision at a time: an action index is played as it is; a complete move
    in notation (the answer of every ``ludoteca.agents`` agent) is played as its decisions, the later
    ones over the following calls without asking again."""

    def __init__(self, choose: Callable[[State], Union[SupportsInt, str]]) -> None:
        self._choose = choose
        # Position string before each planned decision -> that decision.
        self._plan: dict[str, int] = {}

    def __call__(self, state: State) -> SupportsInt:
        key = state.to_string()
        if key in self._plan:
            return self._plan.pop(key)
        choice = self._choose(state)
        if not isinstance(choice, str):
            return choice
        steps = _decisions_of(state, choice)
        self._plan = dict(steps[1:])
        return steps[0][1]


def _decisions_of(state: State, move: str) -> list[tuple[str, int]]:
    """The decisions of the complete move ``move`` from ``state``, each with the position string
    before it (depth-first over the turn's decisions, positions met twice searched once)."""
    after = state.clone()
    after.play(move)  # MoveError for a move that is not legal here
    target, turn = after.to_string(), state.turns_played
    stack: list[tuple[State, list[tuple[str, int]]]] = [(state, [])]
    seen: set[str] = set()
    while stack:
        st, path = stack.pop()
        here = st.to_string()
        for a in st.legal_actions().tolist():
            child = st.clone()
            child.apply_action(a)
            key = child.to_string()
            if child.turns_played != turn or child.is_terminal() or child.is_chance_node():
                if key == target:
                    return path + [(here, a)]
            elif key not in seen:
                seen.add(key)
                stack.append((child, path + [(here, a)]))
    raise OptionError(f"opponent's move {move!r}: no decisions lead to it from {state.to_string()[:80]!r}")


def _opponent_fn(opponent: OpponentLike) -> Optional[Callable[[State], SupportsInt]]:
    """None for the built-in random opponent, else a function state -> action."""
    if isinstance(opponent, str):
        if opponent != "random":
            raise OptionError(f'opponent must be "random", a callable or an object with act(state), got {opponent!r}')
        return None
    act = getattr(opponent, "act", None)
    if callable(act):
        return _DecisionByDecision(act)
    if callable(opponent):
        return _DecisionByDecision(opponent)
    raise OptionError(f"opponent must be \"random\", a callable or an object with act(state), got {type(opponent).__name__}")


class LudotecaEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One ludoteca game as a single-agent ``gymnasium.Env`` against an opponent.

    See the module docs (``ludoteca.gym``) for sides, opponents, rewards and
    masks. ``game_id`` and ``**options`` are those of :class:`ludoteca.Game`.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game_id: str,
        opponent: OpponentLike = "random",
        agent_player: AgentPlayer = 0,
        render_mode: Optional[str] = None,
        **options: Union[bool, int, str],
    ) -> None:
        _check_agent_player(agent_player)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        options.setdefault("illegal_action", "lose")
        self._env = Env(game_id, seed=0, **options)
        self.game: Game = self._env.game
        self.opponent = opponent
        self._opponent = _opponent_fn(opponent)
        self.agent_player_option: AgentPlayer = agent_player
        self.agent_player = 0 if agent_player == "random" else int(agent_player)
        self.render_mode = render_mode
        # gymnasium < 1.3 types the attribute differently: ignore both ways.
        self.observation_space = observation_space(self.game)  # type: ignore[assignment, unused-ignore]
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._seeded = False
        self._obs: npt.NDArray[Any] = np.zeros(self.game.observation_shape, dtype=self.game.observation_dtype)
        self._info: dict[str, Any] = {}

    # -- the opponent's and chance's decisions ------------------------------

    def _play_others(self, obs: Any, info: dict[str, Any]) -> tuple[Any, npt.NDArray[np.float32], bool, bool, dict[str, Any], list[int]]:
        """Applies opponent and chance decisions until the agent is to move or
        the game ends. Returns (obs, summed rewards, terminated, truncated,
        info, the actions played)."""
        rewards = np.zeros(2, dtype=np.float32)
        played: list[int] = []
        terminated = truncated = False
        while True:
            cp = int(info["current_player"])
            if cp == self.agent_player or cp == -2:
                break
            if cp == -1:
                a = sample_chance(self._env.state, self.np_random)
            elif self._opponent is None:
                legal = np.flatnonzero(info["legal_action_mask"])
                a = int(legal[self.np_random.integers(len(legal))])
            else:
                a = int(self._opponent(self._env.state))
            obs, r, terminated, truncated, info = self._env.step(a)
            rewards += r
            played.append(a)
            if terminated or truncated:
                break
        return obs, rewards, bool(terminated), bool(truncated), info, played

    def _agent_info(self, info: dict[str, Any], played: list[int], rewards: Optional[npt.NDArray[np.float32]] = None) -> dict[str, Any]:
        out = dict(info)
        out["action_mask"] = np.array(info["legal_action_mask"], dtype=bool)
        out["legal_action_mask"] = out["action_mask"]
        out["agent_player"] = self.agent_player
        out["opponent_actions"] = played
        if rewards is not None:
            out["rewards"] = rewards
        return out

    # -- gymnasium API --------------------------------------------------------

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Starts a new game and plays the opponent's (and chance's) decisions
        until the agent is to move. ``options={"agent_player": 0|1}`` picks the
        agent's side for this episode."""
        super().reset(seed=seed)
        options = dict(options or {})
        side = options.pop("agent_player", self.agent_player_option)
        if options:
            raise OptionError(f"unknown reset option(s) {sorted(options)}: only 'agent_player' is accepted")
        _check_agent_player(side)
        if seed is not None:
            obs, info = self._env.reset(seed=seed)
        elif not self._seeded:
            obs, info = self._env.reset(seed=int(self.np_random.integers(2**63)))
        else:
            obs, info = self._env.reset()
        self._seeded = True
        self.agent_player = int(self.np_random.integers(2)) if side == "random" else int(side)
        obs, _, terminated, truncated, info, played = self._play_others(obs, info)
        if terminated or truncated:  # pragma: no cover - no game ends before a decision of each side
            raise RuntimeError("the game ended before the agent's first decision")
        self._obs, self._info = obs, info
        return np.asarray(obs, dtype=self.game.observation_dtype), self._agent_info(info, played)

    def step(self, action: Union[int, np.integer[Any]]) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Plays the agent's decision, then the opponent's until the agent is
        to move again or the game ends. Returns ``(obs, reward, terminated,
        truncated, info)`` with the agent's reward."""
        obs, r, terminated, truncated, info = self._env.step(one_action(action))
        rewards = np.asarray(r, dtype=np.float32).copy()
        played: list[int] = []
        if not (terminated or truncated):
            obs, r2, terminated, truncated, info, played = self._play_others(obs, info)
            rewards += r2
        self._obs, self._info = obs, info
        reward = float(rewards[self.agent_player])
        return np.asarray(obs, dtype=self.game.observation_dtype), reward, bool(terminated), bool(truncated), self._agent_info(info, played, rewards)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal mask of the agent's decision (sb3-contrib ``MaskablePPO``)."""
        return self._env.legal_action_mask()

    @property
    def state(self) -> State:
        """A copy of the current game state."""
        return self._env.state

    def render(self) -> Any:
        """``"rgb_array"``: the picture, ``(H, W, 3)`` uint8; ``"ansi"``: the text board."""
        if self.render_mode == "ansi":
            return str(self._env.state) + "\n"
        if self.render_mode == "rgb_array":
            from .render import rgb_array

            return rgb_array(self._env.state)
        return None

    def __repr__(self) -> str:
        return f"LudotecaEnv({self.game.id!r}, opponent={self.opponent!r}, agent_player={self.agent_player_option!r})"


def make(
    game_id: str,
    opponent: OpponentLike = "random",
    agent_player: AgentPlayer = 0,
    render_mode: Optional[str] = None,
    **options: Union[bool, int, str],
) -> LudotecaEnv:
    """A :class:`LudotecaEnv`: the agent plays ``agent_player`` (0, 1 or
    ``"random"`` per episode) of ``game_id`` against ``opponent``."""
    env = LudotecaEnv(game_id, opponent=opponent, agent_player=agent_player, render_mode=render_mode, **options)
    env_id = _env_id(game_id)
    if env_id in gymnasium.registry:
        # The spec lets gymnasium (and its env checker) rebuild the same env.
        kwargs = dict(game_id=game_id, opponent=opponent, agent_player=agent_player, **options)
        env.spec = dataclasses.replace(gymnasium.spec(env_id), kwargs=kwargs)
    return env


class LudotecaVectorEnv(VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of one id as a ``gymnasium.vector.VectorEnv`` on a
    :class:`ludoteca.VecEnv`, the agent against a random opponent or in
    self-play. See the module docs."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

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
        if opponent not in ("random", "self"):
            raise OptionError(f'opponent must be "random" or "self" in a vector env, got {opponent!r}')
        _check_agent_player(agent_player)
        options.setdefault("illegal_action", "lose")
        self._venv = VecEnv(game_id, num_envs, seed=seed, num_threads=num_threads, copy=True, obs_dtype=None,
                             **options)
        self.game: Game = self._venv.game
        self.num_envs = num_envs
        self.opponent = opponent
        self.agent_player_option: AgentPlayer = agent_player
        self.single_observation_space = observation_space(self.game)
        self.single_action_space = spaces.Discrete(self.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rows = np.arange(num_envs)
        self._rng = np.random.default_rng(seed)
        self._np_random_seed = seed
        self._np_random = self._rng
        self._agent = np.zeros(num_envs, dtype=np.int64)
        self._mask = np.zeros((num_envs, self.game.num_actions), dtype=bool)
        self._to_act = np.zeros(num_envs, dtype=np.int64)

    def _draw_agents(self, rows: npt.NDArray[np.bool_]) -> None:
        if self.agent_player_option == "random":
            self._agent[rows] = self._rng.integers(0, 2, size=int(rows.sum()))
        else:
            self._agent[rows] = int(self.agent_player_option)

    def _play_opponent(
        self, obs: Any, info: dict[str, Any], rewards: npt.NDArray[np.float32], done: Optional[dict[str, Any]]
    ) -> tuple[Any, dict[str, Any]]:
        """Steps the envs where the opponent is to move until every env waits
        for the agent; adds the agent's rewards and records games that end."""
        while True:
            waiting = info["current_player"] != self._agent
            if not waiting.any():
                return obs, info
            # Uniform legal actions (chance: outcomes by probability), drawn in
            # Rust from each env's own seeded generator.
            actions = self._venv.sample_actions()
            obs, r, term, trunc, info = self._venv.step(actions, active=waiting)
            rewards += r[self._rows, self._agent]
            ended = term | trunc
            if ended.any():
                if done is None:  # pragma: no cover - no game ends at reset
                    raise RuntimeError("a game ended before the agent's first decision")
                self._record_end(done, ended, term, trunc, info)

    def _record_end(
        self,
        done: dict[str, Any],
        ended: npt.NDArray[np.bool_],
        term: npt.NDArray[np.bool_],
        trunc: npt.NDArray[np.bool_],
        info: dict[str, Any],
    ) -> None:
        done["terminated"] |= term
        done["truncated"] |= trunc
        done["final_obs"][ended] = info["final_observation"][ended]
        done["final_returns"][ended] = info["final_returns"][ended]
        done["final_agent"][ended] = self._agent[ended]
        done["ended"] |= ended
        self._draw_agents(ended)

    def _agent_info(self, info: dict[str, Any]) -> dict[str, Any]:
        out = dict(info)
        out["action_mask"] = info["legal_action_mask"]
        out["agent_player"] = self._agent.copy()
        self._mask = info["legal_action_mask"]
        self._to_act = info["current_player"]
        return out

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Starts every env afresh (``seed`` re-derives every env's seed and
        the opponent's generator) and plays the opponent's opening decisions."""
        if options:
            raise OptionError("reset(options=...) is not supported by the vector env")
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._np_random_seed = seed
            self._np_random = self._rng
        obs, info = self._venv.reset(seed=seed)
        self._draw_agents(np.ones(self.num_envs, dtype=bool))
        if self.opponent == "random":
            obs, info = self._play_opponent(obs, info, np.zeros(self.num_envs, dtype=np.float32), None)
        else:
            self._agent = np.asarray(info["current_player"], dtype=np.int64).clip(0)
        return obs, self._agent_info(info)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Plays the agent's action in every env (then the opponent's
        decisions); same-step auto-reset."""
        if self.opponent == "self":
            mover = np.maximum(self._to_act, 0)
            obs, r, term, trunc, info = self._venv.step(actions)
            self._agent = np.asarray(info["current_player"], dtype=np.int64).clip(0)
            out = self._agent_info(info)
            return obs, np.asarray(r[self._rows, mover], dtype=np.float32), term, trunc, out
        obs, r, term, trunc, info = self._venv.step(actions)
        rewards = np.asarray(r[self._rows, self._agent], dtype=np.float32)
        shape = (self.num_envs, *self.game.observation_shape)
        done: dict[str, Any] = {
            "terminated": term.copy(),
            "truncated": trunc.copy(),
            "ended": np.zeros(self.num_envs, dtype=bool),
            "final_obs": np.zeros(shape, dtype=self.game.observation_dtype),
            "final_returns": np.zeros((self.num_envs, 2), dtype=np.float32),
            "final_agent": self._agent.copy(),
        }
        ended = term | trunc
        if ended.any():
            self._record_end(done, ended, term, trunc, info)
        obs, info = self._play_opponent(obs, info, rewards, done)
        out = self._agent_info(info)
        if done["ended"].any():
            out["final_obs"] = done["final_obs"]
            out["_final_obs"] = done["ended"]
            out["final_returns"] = done["final_returns"]
            out["final_agent_player"] = done["final_agent"]
        return obs, rewards, done["terminated"], done["truncated"] & ~done["terminated"], out

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(num_envs, num_actions) legal masks of the agent's decisions."""
        return np.asarray(self._mask, dtype=bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the batch is freed with the object."""


def make_vec(
    game_id: str,
    num_envs: int,
    opponent: str = "random",
    agent_player: AgentPlayer = 0,
    seed: int = 0,
    num_threads: Optional[int] = None,
    **options: Union[bool, int, str],
) -> LudotecaVectorEnv:
    """A :class:`LudotecaVectorEnv` of ``num_envs`` games (``opponent="random"`` or ``"self"``)."""
    return LudotecaVectorEnv(game_id, num_envs, opponent=opponent, agent_player=agent_player, seed=seed, num_threads=num_threads, **options)


def _env_id(game_id: str) -> str:
    return f"ludoteca/{game_id}-v{game_info(game_id)['version']}"


def register_envs() -> list[str]:
    """Registers ``ludoteca/<game id>-v<version>`` with Gymnasium for every
    game (done on import of this module); returns the ids."""
    ids = []
    for gid in games():
        env_id = _env_id(gid)
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="ludoteca.gym:LudotecaEnv", kwargs={"game_id": gid},
                               vector_entry_point="ludoteca.gym:LudotecaVectorEnv")
        ids.append(env_id)
    return ids


register_envs()
