"""Tree search over ``State.clone`` and ``State.chance_outcomes``: a plain UCT
Monte-Carlo tree search (any game, chance by sampling) and a depth-limited
expectimax (exact over chance nodes, e.g. backgammon with ``chance="explicit"``).

    python examples/search.py                 # UCT (white) against random in checkers
    python examples/search.py --game backgammon

Both are written for clarity, not speed: a search is a loop of ``clone``,
``apply_action`` and ``legal_actions`` calls, each a few microseconds in Rust.
"""

from __future__ import annotations

import argparse
import math
from typing import Callable, Optional

import numpy as np

import ludoteca

Evaluate = Callable[[ludoteca.State], float]
"""A leaf value from player 0's point of view (in [-1, 1] for MCTS rollouts)."""


def _sample_chance(state: ludoteca.State, rng: np.random.Generator) -> int:
    actions, probs = zip(*state.chance_outcomes())
    return int(rng.choice(actions, p=np.asarray(probs) / sum(probs)))


def random_rollout(state: ludoteca.State, rng: np.random.Generator, max_decisions: int = 400) -> float:
    """Plays random legal decisions to the end (or ``max_decisions``); player 0's return."""
    state = state.clone()
    for _ in range(max_decisions):
        if state.is_terminal():
            break
        if state.current_player == -1:
            state.apply_action(_sample_chance(state, rng))
        else:
            actions = state.legal_actions()
            state.apply_action(int(actions[rng.integers(len(actions))]))
    return float(state.returns()[0])


class _Node:
    __slots__ = ("player", "children", "visits", "value", "untried")

    def __init__(self, state: ludoteca.State) -> None:
        self.player = state.current_player  # who decides here (-1 chance, -2 terminal)
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.value = 0.0  # sum of player-0 returns through this node
        self.untried = list(state.legal_actions()) if self.player >= 0 else []


def mcts(state: ludoteca.State, iterations: int = 400, c: float = 1.4, seed: int = 0,
         rollout: Optional[Evaluate] = None) -> int:
    """The action UCT prefers at ``state`` (a player's decision) after
    ``iterations`` simulations. Chance nodes are sampled, not expanded."""
    rng = np.random.default_rng(seed)
    leaf_value: Evaluate = rollout or (lambda s: random_rollout(s, rng))
    root = _Node(state)
    for _ in range(iterations):
        node, sim, path = root, state.clone(), [root]
        # Selection / expansion.
        while not sim.is_terminal():
            if sim.current_player == -1:
                sim.apply_action(_sample_chance(sim, rng))
                node = _Node(sim)  # chance successors are not shared: a fresh node per sample
                path.append(node)
                continue
            if node.untried:
                a = int(node.untried.pop(rng.integers(len(node.untried))))
                sim.apply_action(a)
                child = node.children[a] = _Node(sim)
                path.append(child)
                break
            sign = 1.0 if node.player == 0 else -1.0
            log_n = math.log(node.visits + 1)
            a, node = max(
                node.children.items(),
                key=lambda kv: sign * kv[1].value / (kv[1].visits + 1e-9) + c * math.sqrt(log_n / (kv[1].visits + 1e-9)),
            )
            sim.apply_action(a)
            path.append(node)
        value = leaf_value(sim)
        for n in path:
            n.visits += 1
            n.value += value
    return max(root.children.items(), key=lambda kv: kv[1].visits)[0]


def expectimax(state: ludoteca.State, depth: int, evaluate: Evaluate) -> float:
    """Player 0's expected value of ``state`` searched ``depth`` decisions deep:
    chance nodes average their outcomes by probability, player 0 maximises,
    player 1 minimises; ``evaluate`` scores the leaves."""
    if state.is_terminal():
        return float(state.returns()[0])
    if depth == 0:
        return evaluate(state)
    if state.current_player == -1:
        total = 0.0
        for a, p in state.chance_outcomes():
            child = state.clone()
            child.apply_action(a)
            total += p * expectimax(child, depth - 1, evaluate)
        return total
    values = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(int(a))
        values.append(expectimax(child, depth - 1, evaluate))
    return max(values) if state.current_player == 0 else min(values)


def best_expectimax_action(state: ludoteca.State, depth: int, evaluate: Evaluate) -> int:
    """The decision with the best expectimax value for the player to move."""
    sign = 1.0 if state.current_player == 0 else -1.0
    best, best_value = -1, -math.inf
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(int(a))
        v = sign * expectimax(child, depth - 1, evaluate)
        if v > best_value:
            best, best_value = int(a), v
    return best


def backgammon_pips(state: ludoteca.State) -> float:
    """A crude backgammon evaluation from player 0's view: the pip-count race."""
    from ludoteca.render.backgammon import from_view

    pos = from_view(state.board_view())
    pips = [sum((i + 1) * n for i, n in enumerate(pos.points[p])) + 25 * pos.bar[p] for p in (0, 1)]
    return float(np.tanh((pips[1] - pips[0]) / 40.0))


def play(game_id: str, games: int, choose: Callable[[ludoteca.State], int], seed: int = 0, **options: object) -> list[float]:
    """Player 0 uses ``choose``, player 1 plays at random; player 0's returns."""
    rng = np.random.default_rng(seed)
    game = ludoteca.Game(game_id, **options)  # type: ignore[arg-type]
    out = []
    for g in range(games):
        state = game.new_state(seed=seed + g)
        while not state.is_terminal() and (game.max_turns == 0 or state.turns_played < game.max_turns):
            if state.current_player == -1:
                state.apply_action(_sample_chance(state, rng))
            elif state.current_player == 0:
                state.apply_action(choose(state))
            else:
                actions = state.legal_actions()
                state.apply_action(int(actions[rng.integers(len(actions))]))
        out.append(float(state.returns()[0]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="checkers")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--iterations", type=int, default=200)
    args = ap.parse_args()
    if args.game == "backgammon":
        results = play("backgammon", args.games, lambda s: best_expectimax_action(s, 2, backgammon_pips),
                       chance="explicit")
        print(f"expectimax (2 decisions, pip race) vs random: mean return {np.mean(results):+.2f} over {args.games} games")
    else:
        results = play(args.game, args.games, lambda s: mcts(s, args.iterations), max_turns=150)
        print(f"UCT ({args.iterations} simulations) vs random in {args.game}: "
              f"wins {sum(r > 0 for r in results)}/{args.games}")


if __name__ == "__main__":
    main()
