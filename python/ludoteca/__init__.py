"""ludoteca: fast, rule-exact environments for traditional board games.

Quick start::

    import ludoteca
    ludoteca.games()                        # registered game ids
    game = ludoteca.Game("tablut")
    state = game.new_state(seed=0)
    state.legal_moves()[:3]
    env = ludoteca.VecEnv("tablut", num_envs=1024, seed=0)
    obs, info = env.reset()

See the README and ``docs/`` for every game's rules, observations and actions.
"""

from __future__ import annotations

from . import errors
from ._core import MCTS, Env, Game, SearchResult, State, VecEnv, __version__, game_info, games
from ._obs import unpack_observation
from ._sampling import masked_categorical, masked_uniform
from .errors import (
    ActionsError,
    GameOverError,
    IllegalActionError,
    LudotecaError,
    MoveError,
    OptionError,
    PositionError,
    SamplingError,
    SearchError,
    UnknownGameError,
)

__all__ = [
    "Env",
    "Game",
    "State",
    "VecEnv",
    "MCTS",
    "SearchResult",
    "games",
    "game_info",
    "masked_categorical",
    "masked_uniform",
    "unpack_observation",
    "errors",
    "LudotecaError",
    "UnknownGameError",
    "OptionError",
    "IllegalActionError",
    "ActionsError",
    "PositionError",
    "MoveError",
    "GameOverError",
    "SearchError",
    "SamplingError",
    "__version__",
]
