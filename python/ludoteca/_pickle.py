"""Reconstructors used by ``Game``, ``State`` and ``Env`` pickling (``__reduce__``)."""

from __future__ import annotations

from typing import Any

from ._core import Env, Game, State


def make_game(game_id: str, options: dict[str, Any]) -> Game:
    """Rebuilds a game from its id and resolved options."""
    return Game(game_id, **options)


def make_state(game: Game, position: str, extras: Any = None) -> State:
    """Rebuilds a state from its game, position string and, when given, the
    rest of its session (random generator, turn count, strikes, repetition
    history), so that it continues exactly as the pickled one."""
    if extras is None:
        return game.state_from_string(position)
    return game._restore_state(position, extras)


def make_env(game: Game, snapshot: Any) -> Env:
    """Rebuilds an env from its game and snapshot; it continues exactly as the pickled one."""
    return Env._restore(game, snapshot)
