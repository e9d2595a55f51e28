"""Command line: ``python -m ludoteca list | play | perft | replay``.

Examples::

    python -m ludoteca list
    python -m ludoteca play tablut --p0 human --p1 random --seed 3
    python -m ludoteca play checkers --p0 human --p1 mcts:simulations=800
    python -m ludoteca perft tablut 3
    python -m ludoteca perft kharbaga 4 --option removal=deferred
    python -m ludoteca play tablut --p0 random --p1 random --save games.pdn
    python -m ludoteca replay ../shared/records/international/*.pdn
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any, Callable, Sequence, TextIO, Union

from ._core import Game, State, game_info, games
from .arena import cli as arena_cli
from .errors import LudotecaError
from .records import cli as records_cli
from .records import write_game


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``["removal=deferred", "max_turns=50", "resign=true"]`` -> option kwargs."""
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise SystemExit(f"--option expects NAME=VALUE, got {pair!r}")
        name, value = pair.split("=", 1)
        low = value.lower()
        parsed: Any
        if low in ("true", "false"):
            parsed = low == "true"
        else:
            try:
                parsed = int(value)
            except ValueError:
                parsed = value
        out[name] = parsed
    return out


def cmd_list(_: argparse.Namespace, out: TextIO) -> int:
    rows = [("id", "family", "version", "actions", "observation", "summary")]
    for gid in games():
        info = game_info(gid)
        g = Game(gid)
        rows.append(
            (gid, info["family"], str(info["version"]), str(g.num_actions), "x".join(map(str, g.observation_shape)), info["summary"])
        )
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:
        out.write("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[5] + "\n")
    return 0


Player = Callable[[State], Union[int, str]]


def _agent_player(spec: str, game_id: str, seed: int) -> Player:
    """Any agent spec (``random``, ``mcts:simulations=800``, ...): see ``ludoteca.agents``."""
    from .agents import make_agent

    return make_agent(spec, game_id=game_id, seed=seed).act


def _human_player(inp: TextIO, out: TextIO) -> Player:
    def choose(state: State) -> str:
        while True:
            out.write(f"player {state.current_player} move (e.g. {state.legal_moves()[0]}; 'moves' lists all): ")
            out.flush()
            line = inp.readline()
            if not line:
                raise EOFError
            text = line.strip()
            if text == "moves":
                out.write(" ".join(state.legal_moves()) + "\n")
                continue
            trial = state.clone()
            try:
                trial.play(text)
            except LudotecaError as e:
                out.write(f"refused: {e}\n")
                continue
            return text

    return choose


def cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO = sys.stdin) -> int:
    game = Game(args.game, **_parse_options(args.option))
    state = game.new_state(seed=args.seed)
    rng = random.Random(args.seed)
    players = [
        _human_player(inp, out) if kind == "human" else _agent_player(kind, args.game, args.seed + seat)
        for seat, kind in enumerate((args.p0, args.p1))
    ]
    out.write(f"{game!r}, seed {args.seed}\n{state}\n")
    start = state.clone()
    played: list[str | int] = []  # for --save
    try:
        return _play_loop(state, game, players, rng, out, played)
    finally:
        if getattr(args, "save", None):
            write_game(args.save, start, played, {"Event": f"python -m ludoteca play, seed {args.seed}", "White": args.p0, "Black": args.p1})


def _play_loop(state: State, game: Game, players: list[Player], rng: random.Random, out: TextIO, played: list[str | int]) -> int:
    while not state.is_terminal():
        if state.turns_played >= game.max_turns > 0:
            out.write(f"truncated after {game.max_turns} turns\n")
            return 0
        if state.current_player == -1:
            actions, probs = zip(*state.chance_outcomes())
            a = rng.choices(actions, weights=probs)[0]
            out.write(f"chance: {state.action_to_string(a)}\n")
            state.apply_action(a)
            played.append(a)
            continue
        mover = state.current_player
        try:
            move = players[mover](state)
        except EOFError:
            out.write("\nend of input\n")
            return 1
        if isinstance(move, str):
            state.play(move)
            played.append(move)
        else:
            # An agent's single decision (one hop, one checker move): name it before playing it.
            name = state.action_to_string(move)
            state.apply_action(move)
            played.append(move)
            move = name
        out.write(f"\nturn {state.turns_played}: player {mover} plays {move}\n{state}\n")
    r = state.returns()
    result = "draw" if r[0] == r[1] else f"player {0 if r[0] > r[1] else 1} wins"
    out.write(f"game over after {state.turns_played} turns: {result} (returns {r[0]:+g} {r[1]:+g})\n")
    return 0


def cmd_perft(args: argparse.Namespace, out: TextIO) -> int:
    game = Game(args.game, **_parse_options(args.option))
    state = game.state_from_string(args.position) if args.position else game.new_state(seed=args.seed)
    out.write(f"{game!r} from {state.to_string()!r}\n")
    out.write(f"{'depth':>5}  {'nodes':>14}  {'seconds':>9}  {'nodes/s':>14}\n")
    for depth in range(1, args.depth + 1):
        t0 = time.perf_counter()
        n = state.perft(depth)
        dt = time.perf_counter() - t0
        out.write(f"{depth:>5}  {n:>14,}  {dt:>9.3f}  {n / dt if dt > 0 else float('inf'):>14,.0f}\n")
        out.flush()
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ludoteca", description="ludoteca: rule-exact board game environments")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the registered games")
    play = sub.add_parser("play", help="play a game in the terminal (humans type moves in the game's notation)")
    play.add_argument("game")
    who = "'human' or an agent spec (random, mcts:simulations=800, ...)"
    play.add_argument("--p0", default="human", help=who)
    play.add_argument("--p1", default="random", help=who)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    play.add_argument("--save", default=None, metavar="FILE", help="append the game's record (PDN) to FILE")
    perft = sub.add_parser("perft", help="count leaves of the tree of complete turns")
    perft.add_argument("game")
    perft.add_argument("depth", type=int)
    perft.add_argument("--position", default=None, help="position string (default: the initial position)")
    perft.add_argument("--seed", type=int, default=0, help="seed of the initial position")
    perft.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    arena_cli.add_arguments(sub.add_parser("arena", help="a tournament of agents with ratings (docs/arena.md)"))
    records_cli.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m ludoteca`` and the ``ludoteca`` script."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "list":
            return cmd_list(args, sys.stdout)
        if args.command == "arena":
            return arena_cli.run(args, sys.stdout)
        if args.command == "play":
            return cmd_play(args, sys.stdout)
        if args.command == "replay":
            return records_cli.run(args, sys.stdout)
        return cmd_perft(args, sys.stdout)
    except LudotecaError as e:
        sys.stderr.write(f"error: {e}\n")
        return 2
