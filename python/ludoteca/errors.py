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
    "SearchError",
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


class SearchError(LudotecaValueError):
    """A search could not run: e.g. an ``evaluate`` callback answered arrays of the wrong shape or non-finite numbers."""
