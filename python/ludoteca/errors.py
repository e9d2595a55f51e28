"""Exceptions raised by ludoteca.

Every error caused by the caller's input is a ``ValueError`` (so
``except ValueError`` catches them all); each also has its own class, and
some also derive from the builtin a caller may expect (``TypeError`` for a
wrongly typed actions array, ``RuntimeError`` for stepping a finished game).
"""

from __future__ import annotations

__all__ = [
    "LudotecaError",
    "LudotecaValueError",
    "UnknownGameError",
    "OptionError",
    "IllegalActionError",
    "ActionsError",
    "PositionError",
    "MoveError",
    "GameOverError",
    "EngineError",
    "EngineRulesError",
    "EngineCrashError",
    "EngineTimeoutError",
]


class LudotecaError(Exception):
    """Base class of every ludoteca exception."""


class LudotecaValueError(LudotecaError, ValueError):
    """A value passed to ludoteca was not what was expected."""


class UnknownGameError(LudotecaValueError):
    """The game id is not registered (see ``ludoteca.games()``)."""


class OptionError(LudotecaValueError, TypeError):
    """An unknown game option, or a value of the wrong type or range."""


class IllegalActionError(LudotecaValueError):
    """An action that is out of range or not legal at this decision."""


class ActionsError(LudotecaValueError, TypeError):
    """A batch of actions of the wrong dtype, shape or length."""


class PositionError(LudotecaValueError):
    """A malformed or impossible position string."""


class MoveError(LudotecaValueError):
    """A move in notation that is malformed or not legal here."""


class GameOverError(LudotecaValueError, RuntimeError):
    """An action applied to a finished game (call ``reset()`` first)."""


class EngineError(LudotecaError, RuntimeError):
    """An engine behind an agent (gnubg, py-draughts, a Hub engine) failed; not the caller's input."""


class EngineRulesError(EngineError):
    """An engine and ludoteca disagree on the rules: the engine played a move ludoteca does not
    list as legal, or refused a move ludoteca lists as legal.

    Carries ``game_id``, ``position`` (ludoteca's position string before the move), ``move``
    (as the engine or ludoteca wrote it), ``legal`` (ludoteca's legal moves there) and
    ``engine`` (its name), so that the disagreement can be replayed.
    """

    def __init__(self, message: str, *, game_id: str, position: str, move: str, legal: list[str], engine: str) -> None:
        super().__init__(
            f"{engine} in {game_id} at {position!r}: {message} (move {move!r}; ludoteca's legal moves: {', '.join(legal)})"
        )
        self.game_id = game_id
        self.position = position
        self.move = move
        self.legal = legal
        self.engine = engine


class EngineCrashError(EngineError):
    """The engine's process died (its exit code and the end of its error output are in the message)."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer within its time limit (its process was killed)."""
