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
    "EngineStartError",
    "RecordError",
    "SearchError",
    "SamplingError",
    "CheckpointError",
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


class SamplingError(LudotecaValueError, TypeError):
    """Bad input to ``masked_categorical`` / ``masked_uniform``: arrays of the wrong type, dtype or
    shape, a mask row with no legal action, a NaN or +inf legal logit, or an ``rng`` that is neither
    ``None``, an integer seed nor a ``numpy.random.Generator``."""


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


class EngineStartError(EngineError):
    """The engine could not start: its package is missing, or its process failed or hung
    before its first answer. Nothing was played, so the arena voids the game rather than
    scoring it as a forfeit."""

class RecordError(LudotecaValueError):
    """A game record that cannot be read or replayed.

    The message names the file, the game (its tags), the move number, the
    move as written, the position string and the legal moves there. The
    same facts are attributes (``None`` where they do not apply): ``kind``
    (``"illegal move"``, ``"ambiguous move"``, ``"unknown move"`` (a ``-``),
    ``"move after the end"``,
    ``"position"``, ``"game type"``, ``"syntax"``), ``source``, ``tags``,
    ``number`` (the move number as written), ``move``, ``position``,
    ``legal_moves``.
    """

    def __init__(
        self,
        message: str,
        *,
        kind: str = "syntax",
        source: str | None = None,
        tags: dict[str, str] | None = None,
        number: str | None = None,
        move: str | None = None,
        position: str | None = None,
        legal_moves: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.source = source
        self.tags = tags
        self.number = number
        self.move = move
        self.position = position
        self.legal_moves = legal_moves
class SearchError(LudotecaValueError):
    """A search could not run: e.g. an ``evaluate`` callback answered arrays of the wrong shape or non-finite numbers."""


class CheckpointError(LudotecaValueError):
    """A training checkpoint that cannot be resumed: unreadable, truncated, not a ludoteca run's, or
    holding anything but tensors and plain data (it is read as data only: loading never runs code)."""
