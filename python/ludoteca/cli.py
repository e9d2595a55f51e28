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
from ._chance import sample_chance
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
    """``list``: one line per registered game."""
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

# What a human types, per game family: the notation with examples. The
# examples are real moves from the start position (tests play them).
NOTATION = {
    "tablut": (
        "Squares: files a-i left to right, ranks 1-9 bottom to top, as printed around the board.\n"
        "A move is from-to, every piece (the king too) moving like a rook: e3-h3, c5-c8.\n"
        "Captures happen by themselves; only the king may stop on the throne (+) or a corner (#)."
    ),
    "alquerque": (
        "Points: files a-i left to right, ranks 1-9 bottom to top, as printed around the board;\n"
        "pieces move along the lines drawn. A move is from-to: d4-e5 (a mula, B or W, flies).\n"
        "A capture is the whole sequence, listing every landing point: c3xe5 or c3xe5xg7."
    ),
    "draughts": (
        "Squares are the numbers printed beside the board. A move: 22-18;\n"
        "a capture lists every landing square: 22x15 or 22x15x8 (the whole sequence).\n"
        "Soplo games (tablero, damas, damas_10x10): huff an opponent's piece that failed to capture\n"
        "with s12 (tablero: the huff is the whole turn; damas: s12 alone or s12 22-18), force with f."
    ),
    "backgammon": (
        "One token per die, from/to in the mover's own numbering (it moves from 24 down to 1):\n"
        "24/18 13/11, bar/22, 6/off; a double plays up to four tokens (13/7 13/7 8/2 8/2).\n"
        "Compact forms work too: 24/15 (one checker using both dice), 24/18(2) (two checkers),\n"
        "bar/20, 8/off. The board is numbered from X's side: player 1's (O's) point p is printed 25-p.\n"
        "With --option cube=True: roll or double before rolling; take or drop (pass) a double."
    ),
}

COMMANDS = """commands:
  <move>     play it (see the notation above); 'moves' lists every legal move
  moves      the legal moves            board     print the board again
  resign     give up the game           draw      offer a draw (accept / decline answer one)
  help       this text                  quit      stop the game (also Ctrl-C, Ctrl-D)
"""


class _Quit(Exception):
    """The human typed ``quit`` (or the input ended)."""


def _agent_player(spec: str, game_id: str, seed: int, rng: random.Random) -> Player:
    """Any agent spec (``random``, ``mcts:simulations=800``, ...): see
    ``ludoteca.agents``. ``random`` draws from the game's own ``rng`` (the
    one that rolls the dice), so a seed replays the same game as before."""
    if spec == "random":
        return lambda state: rng.choice(state.legal_moves())
    from .agents import make_agent

    return make_agent(spec, game_id=game_id, seed=seed).act


def _offers(state: State) -> tuple[bool, bool]:
    """Whether the game's options enable resigning and draw offers."""
    options = state.game.options
    return bool(options.get("resign", False)), bool(options.get("draw_offers", False))


def _human_player(inp: TextIO, out: TextIO) -> Player:
    """Reads a move (or a command) from ``inp``; returns a move in the game's
    notation, ``resign``, or an offer action name."""

    def choose(state: State) -> str:
        resign, draws = _offers(state)
        pending = state.legal_moves() == ["accept_draw", "decline_draw"]
        while True:
            legal = state.legal_moves()
            if pending:
                out.write(f"player {1 - state.current_player} offers a draw: accept or decline? ")
            else:
                out.write(f"player {state.current_player} to move (e.g. {legal[0]}; 'help' for the notation and commands): ")
            out.flush()
            line = inp.readline()
            if not line:
                raise _Quit("end of input")
            text = line.strip()
            if not inp.isatty():
                # Piped or scripted input: echo it, so the transcript reads like a session.
                out.write(text + "\n")
            word = text.lower()
            if word in ("quit", "exit", "q"):
                raise _Quit("quit")
            if word in ("help", "?", "h"):
                family = game_info(state.game.id)["family"]
                out.write(NOTATION.get(family, "") + "\n")
                out.write(f"legal here, e.g.: {', '.join(legal[:5])}\n{COMMANDS}")
                if not (resign and draws) and "resign" in state.game.options:
                    out.write("  (resign and draw offers follow the game's options: --option resign=true --option draw_offers=true)\n")
                continue
            if word == "moves":
                out.write(", ".join(legal) + "\n")
                continue
            if word == "board":
                out.write(f"{state}\n")
                continue
            if word == "resign":
                if resign or "resign" not in state.game.options:
                    return "resign"
                out.write("refused: resigning is off in this game (--option resign=true turns it on)\n")
                continue
            if word in ("draw", "offer", "offer_draw"):
                if pending:
                    out.write("refused: a draw offer is pending: accept or decline\n")
                elif not draws:
                    out.write("refused: draw offers are off in this game (--option draw_offers=true turns them on)\n")
                elif "offer_draw" not in _named_legal(state):
                    out.write("refused: you cannot offer a draw again this turn\n")
                else:
                    return "offer_draw"
                continue
            if word in ("accept", "decline", "accept_draw", "decline_draw"):
                if not pending:
                    out.write("refused: no draw offer is pending\n")
                    continue
                return word if word.endswith("_draw") else word + "_draw"
            trial = state.clone()
            try:
                trial.play(text)
            except LudotecaError as e:
                out.write(f"refused: {e}\n")
                continue
            return text

    return choose


def _named_legal(state: State) -> set[str]:
    """Names of every legal action (offer actions included)."""
    return {state.action_to_string(int(a)) for a in state.legal_actions()}


def _beside(left: str, right: Sequence[str], gap: int = 4) -> str:
    """Two blocks of text side by side (the board and the move record); the
    left block's lines below the right one's keep their full width."""
    lines = left.splitlines()
    width = max(len(line) for line in lines[: max(len(right), 1)])
    rows = max(len(lines), len(right))
    lines += [""] * (rows - len(lines))
    notes = list(right) + [""] * (rows - len(right))
    return "\n".join((a.ljust(width + gap) + b).rstrip() for a, b in zip(lines, notes))


class _Record:
    """Backgammon's move record: both sides' moves in one numbering, X's in
    the first column and O's in the second (``3. X 64: 24/18 13/9    O 31:
    8/5 6/5``; when O starts, line 1 has only O's), restarted at every game of
    a match."""

    def __init__(self) -> None:
        self.pairs: list[list[str]] = []
        self.score: tuple[int, int] = (0, 0)

    def add(self, state_before: State, move: str) -> None:
        info = state_before.info()
        score = (info["score_p0"], info["score_p1"])
        if score != self.score:
            self.pairs, self.score = [], score
        player = state_before.current_player
        # Cube decisions (cube=True) come before any dice: "X double", "O take".
        dice = f" {info['die1']}{info['die2']}:" if info["die1"] else ""
        entry = f"{'XO'[player]}{dice} {move}"
        if player == 0 or not self.pairs or self.pairs[-1][1]:
            self.pairs.append(["", ""])
        self.pairs[-1][player] = entry

    def lines(self) -> list[str]:
        return [f"{n:>3}. {x:<26}{o}".rstrip() for n, (x, o) in enumerate(self.pairs, 1)]

    def show(self, board: str, last: int = 5) -> str:
        return _beside(board, self.lines()[-last:])


def _turn_notation(start: State, end: State) -> str:
    """The complete move that took ``start`` to ``end`` (an agent may answer
    one decision at a time)."""
    target = end.to_string()
    for move in start.legal_moves():
        trial = start.clone()
        trial.play(move)
        if trial.to_string() == target:
            return move
    raise LudotecaError(f"no legal move leads from {start.to_string()!r} to {target!r}")


def _result_line(state: State) -> str:
    r = state.returns()
    result = "draw" if r[0] == r[1] else f"player {0 if r[0] > r[1] else 1} wins"
    return f"game over after {state.turns_played} turns: {result} (returns {r[0]:+g} {r[1]:+g})\n"


def cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO = sys.stdin) -> int:
    """``play``: a game in the terminal, board by board; humans type moves or
    commands (``help``) on ``inp``. Returns the exit code: 0, 1 when the input
    ended, 130 on Ctrl-C."""
    kinds = (args.p0, args.p1)
    options = _parse_options(args.option)
    if "human" in kinds and "resign" in Game(args.game).options:
        # A person at the terminal can resign and offer draws unless told otherwise.
        options.setdefault("resign", True)
        options.setdefault("draw_offers", True)
    game = Game(args.game, **options)
    state = game.new_state(seed=args.seed)
    rng = random.Random(args.seed)
    players = [
        _human_player(inp, out) if kind == "human" else _agent_player(kind, args.game, args.seed + seat, rng)
        for seat, kind in enumerate(kinds)
    ]
    record = _Record() if game.family == "backgammon" else None
    show = (lambda s: record.show(str(s))) if record is not None else str
    out.write(f"{game!r}, seed {args.seed}\n")
    if "human" in kinds:
        out.write(f"type 'help' for the notation and commands\n")
    out.write(f"{show(state)}\n")
    start = state.clone()
    played: list[str | int] = []  # for --save
    try:
        return _play_loop(state, game, players, rng, out, played, show, record)
    finally:
        if getattr(args, "save", None):
            tags = {"Event": f"python -m ludoteca play, seed {args.seed}", "White": args.p0, "Black": args.p1}
            write_game(args.save, start, played, tags)


def _play_loop(
    state: State,
    game: Game,
    players: list[Player],
    rng: random.Random,
    out: TextIO,
    played: list[str | int],
    show: Callable[[State], str],
    record: _Record | None,
) -> int:
    """The moves of ``play`` until the game ends or a human stops it; every
    move (and chance outcome) goes into ``played``."""
    turn_start: State | None = None  # where an agent's turn of several decisions began
    try:
        while not state.is_terminal():
            if state.turns_played >= game.max_turns > 0:
                out.write(f"truncated after {game.max_turns} turns\n")
                return 0
            if state.current_player == -1:
                a = sample_chance(state, rng)
                out.write(f"chance: {state.action_to_string(a)}\n")
                state.apply_action(a)
                played.append(a)
                continue
            mover = state.current_player
            move = players[mover](state)
            before = state.clone()
            if move == "resign" and "resign" not in game.options:
                # Backgammon has no resign action: the command line ends the game itself.
                out.write(f"\nplayer {mover} resigns: player {1 - mover} wins\n")
                return 0
            if move in ("resign", "offer_draw", "accept_draw", "decline_draw"):
                state.apply_action(state.string_to_action(move))
                what = {
                    "resign": "resigns",
                    "offer_draw": "offers a draw",
                    "accept_draw": "accepts the draw",
                    "decline_draw": "declines the draw",
                }[move]
                out.write(f"\nplayer {mover} {what}\n")
                if move == "decline_draw":
                    out.write(f"{show(state)}\n")
                continue
            if isinstance(move, str):
                state.play(move)
                played.append(move)
            else:
                # An agent's single decision (one hop, one checker move): the
                # record gets the complete turn once the turn is over.
                if turn_start is None:
                    turn_start = before
                choice, move = move, state.action_to_string(move)
                state.apply_action(choice)
                if state.turns_played == turn_start.turns_played and not state.is_terminal():
                    out.write(f"\nplayer {mover} plays {move}\n")
                    continue
                move = _turn_notation(turn_start, state)
                before, turn_start = turn_start, None
                played.append(move)
            if record is not None:
                record.add(before, move)
            out.write(f"\nturn {state.turns_played}: player {mover} plays {move}\n{show(state)}\n")
    except _Quit as why:
        out.write(f"\n{'end of input' if str(why) == 'end of input' else 'game abandoned'}\n")
        return 1 if str(why) == "end of input" else 0
    except KeyboardInterrupt:
        out.write("\ninterrupted: game abandoned\n")
        return 130
    out.write(_result_line(state))
    return 0


def cmd_perft(args: argparse.Namespace, out: TextIO) -> int:
    """``perft``: leaf counts and speed at every depth up to ``args.depth``."""
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
    """The argument parser of every subcommand."""
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
    except KeyboardInterrupt:
        # Ctrl-C: stop quietly, as a command line program should.
        sys.stderr.write("\ninterrupted\n")
        return 130
