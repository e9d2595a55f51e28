"""Reconstructors used by ``Game`` and ``State`` pickling (``__reduce__``)."""

from __future__ import annotations

from typing import Any

from ._core import Game, State


def make_game(game_id: str, options: dict[str, Any]) -> Game:
    """Rebuilds a game from its id and resolved options."""
    return Game(game_id, **options)


def make_state(game: Game, position: str) -> State:
    """Rebuilds a state from its game and position string (history is not kept)."""
    return game.state_from_string(position)
