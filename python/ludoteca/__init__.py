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

# typing.TYPE_CHECKING without importing typing (a third of what is left of
# the import time); type checkers treat any name TYPE_CHECKING the same way.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._obs import unpack_observation
    from ._sampling import masked_categorical, masked_uniform
del TYPE_CHECKING

# numpy costs more than the rest of `import ludoteca` together (about 0.1 s
# of a cold start): these helpers, and numpy with them, are imported on first
# use. The Rust core imports numpy itself the first time it returns an array.
_LAZY = {
    "unpack_observation": "._obs",
    "masked_categorical": "._sampling",
    "masked_uniform": "._sampling",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
