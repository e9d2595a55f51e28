"""``MCTSAgent``: Monte-Carlo tree search in Rust, with the built-in
random-rollout evaluator or your network as a batched callback.

::

    from ludoteca.agents.mcts import MCTSAgent
    agent = MCTSAgent(simulations=400, seed=1)
    action = agent.act(state)                  # one decision (an action index)
    actions = agent.act_batch(states)          # many games searched together

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


class MCTSAgent(BaseAgent):
    """Chooses each decision by MCTS (``ludoteca.MCTS``); deterministic for ``seed``.

    ``simulations`` per decision; ``evaluator=None`` uses the built-in
    evaluator (uniform prior, the result of one random playout), otherwise a
    callable ``evaluator(obs, mask) -> (logits, values)``. Every other keyword
    is an option of ``ludoteca.MCTS`` (``selection="puct" | "gumbel"``,
    ``c_puct``, ``temperature``, ``dirichlet_fraction``, ``reuse_tree``,
    ``evaluate_chance``, ``num_threads``, ...). The agent answers one decision at a time: a
    multi-decision turn (a capture's hops, a backgammon roll's checker moves)
    asks it once per decision.
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
        """The searched decision for ``state``: an action index."""
        return self.act_batch([state])[0]

    def act_batch(self, states: Sequence[State]) -> list[Choice]:
        """One decision per state; the states of each game are searched together (one evaluator call per wave)."""
        out: list[Choice] = [0] * len(states)
        groups: dict[tuple[str, str], list[int]] = {}
        for i, s in enumerate(states):
            g = s.game
            groups.setdefault((g.id, repr(sorted(g.options.items()))), []).append(i)
        for rows in groups.values():
            result = self.search([states[i] for i in rows])
            for i, a in zip(rows, result.actions.tolist()):
                out[i] = int(a)
        return out

    def __repr__(self) -> str:
        return f"MCTSAgent(simulations={self.simulations}, evaluator={'built-in' if self.evaluator is None else 'callable'})"
