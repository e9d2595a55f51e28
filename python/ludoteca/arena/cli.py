"""``python -m ludoteca arena``: the command-line front of ``ludoteca.arena.tournament``."""

from __future__ import annotations

import argparse
import json
from typing import TextIO


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``arena`` subcommand's arguments."""
    p.add_argument("game")
    p.add_argument("--agents", nargs="+", required=True, metavar="SPEC", help="agent specs: random, gnubg:plies=1, pydraughts:time=0.1, ...")
    p.add_argument("--games", type=int, default=10, help="games per pairing (colours alternate; default 10)")
    p.add_argument("--jobs", type=int, default=1, help="games played in parallel processes (default 1)")
    p.add_argument("--threads", action="store_true", help="parallel games in threads (agents that release the GIL)")
    p.add_argument("--openings", default="0", metavar="K|FILE", help="K random opening turns, or a file of position strings")
    p.add_argument("--gauntlet", default=None, metavar="SPEC", help="this agent plays all others; the others do not meet")
    p.add_argument("--out", default=None, metavar="DIR", help="write summary.json, games.pdn, games.jsonl, summary.md, ratings.png")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS", help="per move; slower agents forfeit")
    p.add_argument("--prior", type=float, default=1.0, help="virtual draws per pairing in the rating fit (0: pure maximum likelihood)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    p.add_argument("--json", action="store_true", help="print the summary as JSON instead of tables")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Runs the tournament the arguments describe and prints its tables (or JSON)."""
    from ..cli import _parse_options
    from .report import json_safe, format_summary
    from .tournament import tournament

    summary = tournament(
        args.game,
        args.agents,
        games=args.games,
        openings=args.openings,
        gauntlet=args.gauntlet,
        jobs=args.jobs,
        seed=args.seed,
        time_limit=args.time_limit,
        options=_parse_options(args.option),
        executor="thread" if args.threads else "process",
        progress=not args.quiet,
        prior=args.prior,
        out=args.out,
    )
    if args.json:
        out.write(json.dumps(json_safe({k: v for k, v in summary.items() if k != "records"}), indent=1) + "\n")
    else:
        out.write(f"{summary['game']}: {len(summary['records'])} games in {summary['seconds']:.1f} s\n\n")
        out.write(format_summary(summary))
        for e in summary["errors"]:
            out.write(f"error: {e}\n")
    return 0
