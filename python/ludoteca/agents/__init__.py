"""Players: one ``Agent`` protocol for built-in bots, other people's engines and your own code.

An agent is any object with ``act(state) -> int | str``: it is asked only when
``state.current_player`` is 0 or 1 (never at a chance node, never at the end),
and answers either one action index (one decision) or one complete move in
the game's notation (as listed by ``state.legal_moves()``). ``apply_choice``
plays either kind.

Agents are named by spec strings on the command line and in the arena:
``"random"``, ``"alphabeta:depth=4"``, ``"mcts:simulations=800,c_puct=1.5"``,
``"gnubg:plies=1"``, ``"pydraughts:depth=4"``, ``"baseline:simulations=64"`` (a
trained network, ``ludoteca.agents.baseline``). ``make_agent`` turns a spec
(or an agent object, or a plain callable ``state -> int | str``) into an
agent. Every built-in agent is deterministic for its ``seed``.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Callable, Mapping, Protocol, Sequence, Union, runtime_checkable

from .._core import State
from ..errors import OptionError

Choice = Union[int, str]

__all__ = [
    "Agent",
    "BaseAgent",
    "Choice",
    "FunctionAgent",
    "RandomAgent",
    "AGENTS",
    "agent_names",
    "apply_choice",
    "make_agent",
    "parse_spec",
]


@runtime_checkable
class Agent(Protocol):
    """Anything that chooses a move: ``act(state)`` returns an action index or a complete move."""

    def act(self, state: State) -> Choice:
        """The choice for ``state`` (whose ``current_player`` is 0 or 1)."""
        ...


class BaseAgent:
    """Convenience base: a ``name``, a seed, and ``act_batch`` as a loop over ``act``.

    Subclasses that search many states at once (MCTS over a batch) override
    ``act_batch``.
    """

    name: str = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, state: State) -> Choice:  # pragma: no cover - abstract
        """The choice for ``state``."""
        raise NotImplementedError

    def act_batch(self, states: Sequence[State]) -> list[Choice]:
        """One choice per state, in order."""
        return [self.act(s) for s in states]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class RandomAgent(BaseAgent):
    """Uniform over the complete legal moves of the turn (``state.legal_moves()``).

    The arena's rating anchor (fixed at 0). Deterministic for ``seed``.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._rng = random.Random(seed)

    def act(self, state: State) -> Choice:
        """A uniformly random complete move."""
        return self._rng.choice(state.legal_moves())


class FunctionAgent(BaseAgent):
    """Wraps a plain callable ``state -> int | str`` as an agent."""

    def __init__(self, fn: Callable[[State], Choice], name: str | None = None) -> None:
        super().__init__(0)
        self._fn = fn
        self.name = name or str(getattr(fn, "__name__", "function"))

    def act(self, state: State) -> Choice:
        """Whatever the wrapped callable answers."""
        return self._fn(state)


def apply_choice(state: State, choice: Choice) -> None:
    """Plays an agent's answer on ``state``: an action index, or a complete move in notation."""
    if isinstance(choice, str):
        state.play(choice)
    else:
        state.apply_action(int(choice))


# Agent names -> "module:attribute" of a factory called as factory(game_id=..., seed=..., **options).
# Imported lazily so that naming an agent never imports an optional dependency it does not need.
AGENTS: dict[str, str] = {
    "random": "ludoteca.agents:RandomAgent",
    "gnubg": "ludoteca.agents.gnubg:GnubgAgent",
    "pydraughts": "ludoteca.agents.pydraughts:PyDraughtsAgent",
    "mcts": "ludoteca.agents.mcts:MCTSAgent",
    "greedy": "ludoteca.agents.search:GreedyAgent",
    "alphabeta": "ludoteca.agents.search:AlphaBetaAgent",
    "expectimax": "ludoteca.agents.search:ExpectimaxAgent",
    "baseline": "ludoteca.agents.baseline:Baseline",
}


def agent_names() -> list[str]:
    """The agent names ``make_agent`` accepts."""
    return sorted(AGENTS)


def _parse_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:simulations=800,c_puct=1.5"`` -> ``("mcts", {"simulations": 800, "c_puct": 1.5})``."""
    name, _, rest = spec.partition(":")
    name = name.strip()
    options: dict[str, Any] = {}
    if rest.strip():
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise OptionError(f"agent spec {spec!r}: expected NAME:KEY=VALUE[,KEY=VALUE...], got {part!r}")
            options[key.strip()] = _parse_value(value.strip())
    return name, options


def make_agent(
    spec: Union[str, Agent, Callable[[State], Choice]],
    game_id: str | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> Agent:
    """An agent from a spec string, an agent object (returned as is) or a callable.

    ``game_id`` is passed to factories that need it (engines that play only
    some games refuse the others with ``OptionError``).
    """
    if not isinstance(spec, str):
        if isinstance(spec, Agent):
            return spec
        if callable(spec):
            return FunctionAgent(spec)
        raise OptionError(f"an agent must be a spec string, an object with act(state) or a callable, got {type(spec).__name__}")
    name, opts = parse_spec(spec)
    if options:
        opts.update(options)
    target = AGENTS.get(name)
    if target is None:
        raise OptionError(f"unknown agent {name!r}; known: {', '.join(agent_names())}")
    module_name, _, attr = target.partition(":")
    factory = getattr(importlib.import_module(module_name), attr)
    kwargs: dict[str, Any] = dict(opts)
    kwargs.setdefault("seed", seed)
    if getattr(factory, "needs_game_id", False):
        kwargs["game_id"] = game_id
    try:
        return factory(**kwargs)  # type: ignore[no-any-return]
    except OptionError as e:  # keeps its type (NoBaselineError), with the spec in front
        raise type(e)(f"agent {spec!r}: {e}") from None
    except TypeError as e:
        raise OptionError(f"agent {spec!r}: {e}") from None
