"""``MCTSAgent``: Monte-Carlo tree search in Rust, with the built-in
random-rollout evaluator or your network as a batched callback.

::

    from ludoteca.agents.mcts import MCTSAgent
    agent = MCTSAgent(simulations=400, seed=1)
    move = agent.act(state)                    # a complete move in notation, as every agent answers
    moves = agent.act_batch(states)            # many games searched together
    result = agent.search(states)              # one decision each: actions, visits, policy targets

With a network, ``evaluator(obs, mask) -> (logits, values)`` gets the leaves
of every game of the batch in one call per simulation wave (see
``docs/search.md`` for the contract).
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from .._core import MCTS, SearchResult, State
from . import BaseAgent, Choice

Evaluator = Callable[
    [npt.NDArray[np.float32], npt.NDArray[np.bool_]], Tuple[npt.ArrayLike, npt.ArrayLike]
]

__all__ = ["MCTSAgent", "Evaluator"]


def _turn_over(before: State, now: State) -> bool:
    return now.is_terminal() or now.turns_played != before.turns_played


def _move_to(before: State, after: State) -> str:
    """The legal complete move of ``before`` that leads to ``after`` (decisions applied to a clone:
    the same generator, so a sampled roll after the turn is the same too)."""
    target = after.to_string()
    for move in before.legal_moves():
        trial = before.clone()
        trial.play(move)
        if trial.to_string() == target:
            return move
    raise AssertionError(f"no legal move of {before.to_string()!r} leads to {target!r}")  # the search plays legal decisions


class MCTSAgent(BaseAgent):
    """Chooses each decision by MCTS (``ludoteca.MCTS``); deterministic for ``seed``.

    ``simulations`` per decision; ``evaluator=None`` uses the built-in
    evaluator (uniform prior, the result of one random playout), otherwise a
    callable ``evaluator(obs, mask) -> (logits, values)``. Every other keyword
    is an option of ``ludoteca.MCTS`` (``selection="puct" | "gumbel"``,
    ``c_puct``, ``temperature``, ``dirichlet_fraction``, ``reuse_tree``,
    ``evaluate_chance``, ``num_threads``, ...). Like every built-in agent,
    ``act`` answers a complete move in the game's notation (one of
    ``state.legal_moves()``): MCTS decides decision by decision, so a
    multi-decision turn (a capture's hops, a backgammon roll's checker moves)
    is searched once per decision, each search from the position its
    decisions so far lead to. ``search`` gives the search of one decision.
    """

    name = "mcts"

    def __init__(
        self,
        simulations: int = 800,
        evaluator: Optional[Evaluator] = None,
        seed: int = 0,
        **options: Any,
    ) -> None:
        super().__init__(seed)
        self.simulations = simulations
        self.evaluator = evaluator
        self.options = options
        self._searches: dict[tuple[str, str], MCTS] = {}
        self.last_result: Optional[SearchResult] = None
        # Fail on bad options now rather than at the first move.
        MCTS("checkers", simulations, seed=seed, **options)

    def _search_for(self, state: State) -> MCTS:
        game = state.game
        key = (game.id, repr(sorted(game.options.items())))
        search = self._searches.get(key)
        if search is None:
            search = MCTS(game, self.simulations, seed=self.seed, **self.options)
            self._searches[key] = search
        return search

    def search(self, states: Sequence[State]) -> SearchResult:
        """The full search result (actions, visit counts, policy targets, values) for states of one game."""
        if not states:
            raise ValueError("states must hold at least one State")
        result = self._search_for(states[0]).search(list(states), self.evaluator)
        self.last_result = result
        return result

    def act(self, state: State) -> Choice:
        """The searched complete move for ``state``, in notation."""
        return self.act_batch([state])[0]

    def act_batch(self, states: Sequence[State]) -> list[Choice]:
        """One complete move per state; the states of each game are searched together (one evaluator call per wave)."""
        work = [s.clone() for s in states]
        pending = list(range(len(states)))
        while pending:
            groups: dict[tuple[str, str], list[int]] = {}
            for i in pending:
                g = work[i].game
                groups.setdefault((g.id, repr(sorted(g.options.items()))), []).append(i)
            for rows in groups.values():
                result = self.search([work[i] for i in rows])
                for i, a in zip(rows, result.actions.tolist()):
                    work[i].apply_action(int(a))
            # A turn ends when the turn count moves on (or the game ends).
            pending = [i for i in pending if not _turn_over(states[i], work[i])]
        return [_move_to(s, w) for s, w in zip(states, work)]

    def __repr__(self) -> str:
        return f"MCTSAgent(simulations={self.simulations}, evaluator={'built-in' if self.evaluator is None else 'callable'})"
