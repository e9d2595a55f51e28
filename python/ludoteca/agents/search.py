"""Search agents over complete moves, played in Rust: ``GreedyAgent``,
``AlphaBetaAgent`` and ``ExpectimaxAgent`` (docs/search.md).

Each one answers with a complete move in the game's notation. By default
they judge positions with the game's built-in evaluation; ``evaluate=`` takes
a Python callable ``evaluate(state, player) -> float`` instead: the value of
``state`` (a position after a complete move, or before a roll) for
``player``, in the units of ``state.returns()`` (1 is a won game; alpha-beta
clamps it into [-1, 1]). The search then holds the GIL and calls it once per
leaf, a few microseconds each: expect tens of thousands of leaves a second
rather than millions. An exception it raises stops the search and propagates.

The search functions themselves (``alphabeta_search``, ``expectimax_search``,
``turn_values``, from the compiled core) are re-exported here, with
``MlpEvaluation``: a value network the searches run natively (no Python call
per leaf; the baselines of the TD recipe play through it).
"""

from __future__ import annotations

import numbers
import random
from typing import Any, Callable, Optional

from .._core import Game, MlpEvaluation, State, alphabeta_search, expectimax_search, turn_values
from ..errors import OptionError
from . import BaseAgent, Choice

__all__ = [
    "AlphaBetaAgent",
    "Evaluate",
    "ExpectimaxAgent",
    "GreedyAgent",
    "MlpEvaluation",
    "alphabeta_search",
    "expectimax_search",
    "turn_values",
]

Evaluate = Callable[[State, int], float]

#: Deepest alpha-beta search, in complete turns.
MAX_DEPTH = 64
#: Deepest expectimax search, in dice rolls.
MAX_PLIES = 4


def _int_option(agent: str, name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= int(value) <= high:
        raise OptionError(f"{agent}: {name} must be an integer in [{low}, {high}], got {value!r}")
    return int(value)


def _bool_option(agent: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise OptionError(f"{agent}: {name} must be true or false, got {value!r}")
    return value


def _evaluate_option(agent: str, evaluate: Any) -> Optional[Evaluate]:
    if evaluate is not None and not callable(evaluate):
        raise OptionError(f"{agent}: evaluate must be a callable evaluate(state, player) -> float, got {evaluate!r}")
    return evaluate  # type: ignore[no-any-return]


class GreedyAgent(BaseAgent):
    """One ply: the complete move to the position the evaluation rates best
    for the mover (a move that wins the game outright first); ties are broken
    at random with the agent's seed.

    ``replies=True`` (the default; games without dice) first plays out the
    opponent's captures from that position and the recaptures they allow
    (alpha-beta's capture quiescence, ``turn_values(..., replies=True)``):
    a move that hangs a piece to a forced capture is seen as such. Without
    it, greedy lost to random play in kharbaga (docs/search.md, "Greedy").
    ``replies=False`` rates the position the move reaches alone."""

    name = "greedy"

    def __init__(self, seed: int = 0, evaluate: Optional[Evaluate] = None, replies: bool = True) -> None:
        super().__init__(seed)
        self._rng = random.Random(seed)
        self.evaluate = _evaluate_option("greedy", evaluate)
        self.replies: bool = _bool_option("greedy", "replies", replies)

    def act(self, state: State) -> Choice:
        """The best-rated complete move."""
        values = turn_values(state, self.evaluate, self.replies)
        if not values:
            raise OptionError("greedy: no move to choose (the state is terminal or a chance node)")
        best = max(v for _, v in values)
        return self._rng.choice([move for move, v in values if v >= best - 1e-6])


class AlphaBetaAgent(BaseAgent):
    """Alpha-beta over complete turns with iterative deepening, a
    transposition table and capture quiescence, for the games without dice.

    ``depth`` in complete turns (default 4), or ``time`` in seconds per move
    (then ``depth`` caps the iterations, default 64); ``quiescence=False``
    stops at the horizon; ``tt_size`` table entries (16 bytes each);
    ``contempt`` in (-1, 1) is what a draw by repetition costs the agent
    (default 0: a draw is worth 0; 0.3: the agent plays on in positions it
    values above -0.3 rather than repeat); ``threats=True`` adds threat
    quiescence where the game tells threats (tablut: a king with a route to
    a corner must be answered, and the moves that open one are followed
    past the horizon; docs/search.md, "Threats"). Deterministic: the same
    state always gets the same move.
    """

    name = "alphabeta"
    # make_agent passes the game id, so that a game with dice is refused up front.
    needs_game_id = True

    def __init__(
        self,
        depth: Optional[int] = None,
        time: Optional[float] = None,
        seed: int = 0,
        quiescence: bool = True,
        tt_size: int = 1 << 18,
        evaluate: Optional[Evaluate] = None,
        game_id: Optional[str] = None,
        contempt: float = 0.0,
        threats: bool = False,
    ) -> None:
        super().__init__(seed)
        if game_id is not None and "chance" in Game(game_id).options:
            raise OptionError(f"alphabeta searches games without dice; {game_id} has dice: use expectimax")
        if time is not None and (isinstance(time, bool) or not isinstance(time, numbers.Real) or not 0 < time <= 3600):
            raise OptionError(f"alphabeta: time must be a number of seconds in (0, 3600], got {time!r}")
        if depth is None:
            depth = MAX_DEPTH if time is not None else 4
        self.depth = _int_option("alphabeta", "depth", depth, 1, MAX_DEPTH)
        self.time = None if time is None else float(time)
        self.quiescence = _bool_option("alphabeta", "quiescence", quiescence)
        self.tt_size = _int_option("alphabeta", "tt_size", tt_size, 0, 1 << 24)
        self.evaluate = _evaluate_option("alphabeta", evaluate)
        if isinstance(contempt, bool) or not isinstance(contempt, numbers.Real) or not -1 < contempt < 1:
            raise OptionError(f"alphabeta: contempt must be a number in (-1, 1), got {contempt!r}")
        self.contempt: float = float(contempt)
        self.threats: bool = _bool_option("alphabeta", "threats", threats)
        #: The full result of the last search (move, value, depth, nodes, seconds).
        self.last: dict[str, Any] = {}

    def search(self, state: State) -> dict[str, Any]:
        """The search result: ``move``, ``actions``, ``value`` (for the player to
        move), ``player``, ``depth`` (deepest completed), ``nodes``, ``seconds``."""
        self.last = alphabeta_search(
            state, self.depth, self.time, self.tt_size, self.quiescence, self.evaluate, self.contempt, self.threats
        )
        return self.last

    def act(self, state: State) -> Choice:
        """The best complete move found."""
        move = self.search(state)["move"]
        if move is None:
            raise OptionError("alphabeta: no move to choose (the state is terminal)")
        return str(move)


class ExpectimaxAgent(BaseAgent):
    """n-ply expectimax over complete moves and the 21 dice rolls (backgammon):
    ``plies`` rolls looked ahead (0 = greedy on the built-in equity, 1 = each
    move judged by the opponent's best replies to every roll, ...), with the
    best ``filter`` moves by the 0-ply equity searched deeper at each decision
    (0 keeps all). Works on ``chance="sampled"`` and ``"explicit"`` games
    alike. Deterministic."""

    name = "expectimax"

    def __init__(
        self, plies: int = 1, seed: int = 0, filter: int = 8, evaluate: Optional[Evaluate] = None
    ) -> None:
        super().__init__(seed)
        self.plies = _int_option("expectimax", "plies", plies, 0, MAX_PLIES)
        self.filter = _int_option("expectimax", "filter", filter, 0, 1000)
        self.evaluate = _evaluate_option("expectimax", evaluate)
        self.last: dict[str, Any] = {}

    def search(self, state: State) -> dict[str, Any]:
        """The search result: ``move``, ``actions``, ``value`` (equity for the
        player to move), ``player``, ``depth`` (plies), ``nodes``, ``seconds``."""
        self.last = expectimax_search(state, self.plies, self.filter, self.evaluate)
        return self.last

    def act(self, state: State) -> Choice:
        """The best complete move found."""
        move = self.search(state)["move"]
        if move is None:
            raise OptionError("expectimax: no move to choose (the state is terminal or a chance node)")
        return str(move)
