"""``python -m ludoteca.train {alphazero,td} GAME [--minutes M] [--out DIR] [--resume DIR] [--seed S] ...``

Trains by self-play (``ludoteca.train.alphazero``, or ``ludoteca.train.td``
for TD(lambda) on afterstates); ``--resume DIR`` continues an interrupted run.
Every option is a field of ``AlphaZeroConfig`` (``TDConfig``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any, Optional, Sequence

from ..errors import LudotecaError


HELP = {
    "minutes": "wall-clock budget, evaluation included",
    "seed": "seed of self-play, training and evaluation openings",
    "iterations": "stop after this many iterations (if sooner than --minutes)",
    "games": "self-play games searched together",
    "simulations": "MCTS simulations per self-play decision",
    "selection": "root selection: gumbel or puct",
    "considered": "Gumbel: root actions considered",
    "max_turns": "self-play games end as draws after this many turns (default: the game's)",
    "search_threads": "MCTS threads",
    "chance_values": "games with dice: the network values chance nodes in the search (MCTS evaluate_chance) "
    "and learns the positions before each roll as value-only samples (new; not yet measured in a long run)",
    "channels": "ResNet channels",
    "blocks": "ResNet residual blocks",
    "hidden": "MLP hidden units (backgammon)",
    "torch_threads": "torch.set_num_threads",
    "buffer": "replay buffer size, in decisions (default 20000; backgammon 500000)",
    "min_buffer": "decisions stored before training starts",
    "batch_size": "minibatch size",
    "lr": "Adam learning rate",
    "weight_decay": "Adam weight decay",
    "selfplay_steps": "searches of all games per iteration",
    "train_steps": "gradient steps per iteration",
    "eval_minutes": "minutes between evaluations",
    "eval_games": "evaluation games per opponent (colours alternated)",
    "eval_simulations": "MCTS simulations per evaluation move",
    "eval_openings": "random turns of the evaluation openings (default 4; backgammon 0)",
    "checkpoint_minutes": "minutes between checkpoints",
    "log_seconds": "seconds between train.csv rows",
}

TD_HELP = {
    "games": "self-play games played together (one complete move each per iteration)",
    "lam": "lambda of the TD(lambda) targets (1: the final result, 0: the next position's value)",
    "epsilon": "fraction of self-play moves chosen at random (default 0 for a game with dice, 0.1 without)",
    "hidden": "MLP hidden units (the observation is flattened: planes too)",
    "lr": "Adam learning rate",
    "batch_size": "minibatch size (each target is trained on once)",
    "eval_games": "evaluation games per opponent (colours alternated)",
    "eval_plies": "search depth of the network in evaluations: expectimax plies with dice, alpha-beta turns without (0: the best-valued complete move)",
    "play_plies": "search depth Baseline plays the exported network at, as --eval-plies (default 1 for a game with dice, 0 without)",
    "eval_openings": "random turns of the evaluation openings (default 4; backgammon 0)",
    "openings": "random complete moves opening each self-play game",
    "init": "start from an exported MLP of the same game and size (an export.npz, or 'baseline' for the shipped network)",
}


def _add_options(p: argparse.ArgumentParser, config: type, defaults: Any, help: dict[str, str], skip: set[str]) -> None:
    p.add_argument("game", nargs="?", help="game id (optional with --resume)")
    p.add_argument("--out", help="run folder (default runs/RECIPE-GAME-seedS)")
    p.add_argument("--resume", metavar="DIR", help="continue the run in DIR from its checkpoint")
    for f in dataclasses.fields(config):
        if f.name in skip:
            continue
        default = getattr(defaults, f.name)
        text = help.get(f.name, HELP.get(f.name, f.name))
        if isinstance(default, bool):
            # A switch (off by default): given means True.
            p.add_argument("--" + f.name.replace("_", "-"), action="store_const", const=True, default=None, help=text)
            continue
        kind = type(default) if default is not None else (int if f.name in ("iterations", "max_turns", "eval_openings", "buffer") else str)
        p.add_argument("--" + f.name.replace("_", "-"), type=kind, default=None, metavar=kind.__name__.upper(),
                       help=text + ("" if "(default" in text else f" (default {default})"))
    p.add_argument("--opponents", nargs="+", help=f"agent specs to evaluate against (default {' '.join(defaults.opponents)})")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line; returns the exit status."""
    from .alphazero import AlphaZeroConfig, alphazero
    from .td import TDConfig, td

    parser = argparse.ArgumentParser(prog="python -m ludoteca.train", description="Self-play training recipes (torch).")
    sub = parser.add_subparsers(dest="recipe", required=True)
    skip = {"game", "progress", "opponents"}
    az = sub.add_parser("alphazero", help="AlphaZero self-play with the Rust MCTS (Gumbel root selection), rated in the arena")
    _add_options(az, AlphaZeroConfig, AlphaZeroConfig(game="tablut"), {}, skip)
    tdp = sub.add_parser("td", help="TD(lambda) self-play on afterstates (TD-Gammon), rated in the arena: the baselines of backgammon, damas_10x10 and tablut")
    _add_options(tdp, TDConfig, TDConfig(game="backgammon"), TD_HELP, skip)
    args = parser.parse_args(argv)
    config, train = (AlphaZeroConfig, alphazero) if args.recipe == "alphazero" else (TDConfig, td)
    options = {f.name: getattr(args, f.name) for f in dataclasses.fields(config) if f.name not in skip and getattr(args, f.name) is not None}
    if args.opponents:
        options["opponents"] = list(args.opponents)
    if args.no_progress:
        options["progress"] = False
    try:
        if args.resume:
            summary = train(args.game, resume=args.resume, **options)
        else:
            if not args.game:
                parser.error("a game id is needed (or --resume DIR)")
            out = args.out or f"runs/{args.recipe}-{args.game}-seed{options.get('seed', 0)}"
            summary = train(args.game, out=out, **options)
    except LudotecaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=1))
    return 130 if summary["interrupted"] else 0  # 130: stopped by Ctrl-C (checkpoint written)


if __name__ == "__main__":
    sys.exit(main())
