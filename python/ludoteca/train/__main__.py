"""``python -m ludoteca.train alphazero GAME [--minutes M] [--out DIR] [--resume DIR] [--seed S] ...``

Trains by self-play (``ludoteca.train.alphazero``); ``--resume DIR`` continues
an interrupted run. Every option is a field of ``AlphaZeroConfig``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Optional, Sequence

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


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line; returns the exit status."""
    from .alphazero import AlphaZeroConfig, alphazero

    parser = argparse.ArgumentParser(prog="python -m ludoteca.train", description="Self-play training recipes (torch).")
    sub = parser.add_subparsers(dest="recipe", required=True)
    az = sub.add_parser("alphazero", help="AlphaZero self-play with the Rust MCTS (Gumbel root selection), rated in the arena")
    az.add_argument("game", nargs="?", help="game id (optional with --resume)")
    az.add_argument("--out", help="run folder (default runs/alphazero-GAME-seedS)")
    az.add_argument("--resume", metavar="DIR", help="continue the run in DIR from its checkpoint")
    defaults = AlphaZeroConfig(game="tablut")
    skip = {"game", "progress", "opponents"}
    for f in dataclasses.fields(AlphaZeroConfig):
        if f.name in skip:
            continue
        default = getattr(defaults, f.name)
        if isinstance(default, bool):
            # A switch (off by default): given means True.
            az.add_argument("--" + f.name.replace("_", "-"), action="store_const", const=True, default=None, help=HELP.get(f.name, f.name))
            continue
        kind = type(default) if default is not None else (int if f.name in ("iterations", "max_turns", "eval_openings", "buffer") else str)
        az.add_argument("--" + f.name.replace("_", "-"), type=kind, default=None, metavar=kind.__name__.upper(),
                        help=HELP.get(f.name, f.name) + ("" if "(default" in HELP.get(f.name, "") else f" (default {default})"))
    az.add_argument("--opponents", nargs="+", help=f"agent specs to evaluate against (default {' '.join(defaults.opponents)})")
    az.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    options = {f.name: getattr(args, f.name) for f in dataclasses.fields(AlphaZeroConfig) if f.name not in skip and getattr(args, f.name) is not None}
    if args.opponents:
        options["opponents"] = list(args.opponents)
    if args.no_progress:
        options["progress"] = False
    try:
        if args.resume:
            summary = alphazero(args.game, resume=args.resume, **options)
        else:
            if not args.game:
                parser.error("a game id is needed (or --resume DIR)")
            out = args.out or f"runs/alphazero-{args.game}-seed{options.get('seed', 0)}"
            summary = alphazero(args.game, out=out, **options)
    except LudotecaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=1))
    return 130 if summary["interrupted"] else 0  # 130: stopped by Ctrl-C (checkpoint written)


if __name__ == "__main__":
    sys.exit(main())
