"""``python -m ludoteca arena``: the command-line front of ``ludoteca.arena.tournament``."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Callable, TextIO

from .play import NOT_STARTED
from .tournament import MAX_GAMES, MAX_JOBS


# Most random opening turns: more than any game lasts.
MAX_OPENING_TURNS = 10_000


def _integer(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected an integer in [{low:,}, {high:,}], got {value}")
        return value

    return parse


def _number(positive: bool) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not math.isfinite(value) or value < 0 or (positive and value == 0):
            raise argparse.ArgumentTypeError(f"expected a finite number {'> 0' if positive else '>= 0'}, got {text!r}")
        return value

    return parse


def _openings(text: str) -> str:
    """K random turns (0 <= K <= 10,000) or a readable file; a number is never looked for as a file."""
    try:
        value = int(text)
    except ValueError:
        if not os.path.isfile(text):
            raise argparse.ArgumentTypeError(f"expected a number of random turns or a file of positions; no file {text!r}") from None
        return text
    if not 0 <= value <= MAX_OPENING_TURNS:
        raise argparse.ArgumentTypeError(f"expected a number of random turns in [0, {MAX_OPENING_TURNS:,}] (or a file), got {value}")
    return str(value)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``arena`` subcommand's arguments (numbers checked here: a bad value is a usage error, exit 2)."""
    p.add_argument("game")
    p.add_argument("--agents", nargs="+", required=True, metavar="SPEC", help="agent specs: random, gnubg:plies=1, pydraughts:time=0.1, ...")
    p.add_argument("--games", type=_integer(1, MAX_GAMES), default=10, help="games per pairing (colours alternate; default 10)")
    p.add_argument("--jobs", type=_integer(1, MAX_JOBS), default=1, help="games played in parallel processes (default 1)")
    p.add_argument("--threads", action="store_true", help="parallel games in threads (agents that release the GIL)")
    p.add_argument("--openings", type=_openings, default="0", metavar="K|FILE", help="K random opening turns, or a file of position strings")
    p.add_argument("--gauntlet", default=None, metavar="SPEC", help="this agent plays all others; the others do not meet")
    p.add_argument("--out", default=None, metavar="DIR", help="write summary.json, games.pdn, games.jsonl, summary.md, ratings.png (checked before playing)")
    p.add_argument("--seed", type=_integer(0, 2**63 - 1), default=0)
    p.add_argument("--time-limit", type=_number(positive=True), default=None, metavar="SECONDS", help="per move; slower agents forfeit")
    p.add_argument("--prior", type=_number(positive=False), default=1.0, help="virtual draws per pairing in the rating fit (0: pure maximum likelihood)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    p.add_argument("--json", action="store_true", help="print the summary as JSON instead of tables")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Runs the tournament the arguments describe and prints its tables (or JSON).

    Returns 1 when a result is missing: a pairing is void (an engine did not
    start), a worker died, or the output folder could not be written; else 0.
    """
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
        # A game voided because an engine did not start is said once per agent below, not per game.
        for e in summary["errors"]:
            if e.get("reason") != NOT_STARTED:
                out.write(f"error: {e}\n")
    # Why results are missing, on stdout after the tables (on stderr with --json, whose
    # stdout stays one JSON document; the same facts are in it).
    notes = [f"engine did not start: `{name}`: {message}" for name, message in summary["not_started"].items()]
    notes += [f"void pairing: `{v['a']}` v `{v['b']}`: no game counted, `{v['agent']}`'s engine did not start" for v in summary["void_pairings"]]
    broken = [e.get("worker_failure") or e.get("output") for e in summary["errors"] if "worker_failure" in e or "output" in e]
    if args.json:
        notes += [f"error: {b}" for b in broken]
    for line in notes:
        (sys.stderr if args.json else out).write(line + "\n")
    failed = bool(notes or broken)
    return 1 if failed else 0
