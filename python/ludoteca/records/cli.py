"""``python -m ludoteca replay FILE...``: validate record collections."""

from __future__ import annotations

import argparse
import collections
import os
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional, TextIO

from ..errors import RecordError
from .core import ReplayedGame, assumed_game, read, replay
from .gametypes import GAME_TYPES

__all__ = ["add_parser", "run", "Summary", "summarise"]


@dataclass
class Summary:
    """What replaying one file found."""

    file: str
    games: int = 0
    moves: int = 0
    replayed: int = 0
    ended_on_board: int = 0
    results_agree: int = 0
    results_disagree: int = 0
    failures: list[RecordError] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    #: Games without a ``GameType`` tag (and no ``--game``): (game id, why) -> [games, failed].
    assumed: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    @property
    def failures_by_kind(self) -> dict[str, int]:
        """Number of failed games per ``RecordError.kind``."""
        return dict(collections.Counter(e.kind for e in self.failures))


def summarise(file: str, game_id: Optional[str] = None, progress: bool = False) -> Summary:
    """Replays every game of ``file`` and counts what happened."""
    s = Summary(file)
    try:
        records = read(file, game_id)
    except (OSError, RecordError) as e:
        s.failures.append(e if isinstance(e, RecordError) else RecordError(f"{file}: {e}", kind="syntax", source=file))
        return s
    games: Iterable[ReplayedGame] = replay(records, game_id, errors="keep")
    if progress:
        games = _progress(games, len(records), os.path.basename(file))
    for g in games:
        s.games += 1
        s.moves += len(g.moves)
        if game_id is None and not g.record.tags.get("GameType", "").strip():
            seen = s.assumed.setdefault(assumed_game(g.record), [0, 0])
            seen[0] += 1
            seen[1] += g.error is not None
        if g.error is not None:
            s.failures.append(g.error)
            continue
        s.replayed += 1
        s.ended_on_board += g.ended_on_board
        if g.result_agrees is True:
            s.results_agree += 1
        elif g.result_agrees is False:
            s.results_disagree += 1
            s.disagreements.append(f"{g.record.describe()}: recorded {g.record.result}, the board says {g.final.returns().tolist()}")
    return s


def _progress(games: Iterable[ReplayedGame], total: int, name: str) -> Iterator[ReplayedGame]:
    # tqdm is optional: without it, no bar.
    try:
        from tqdm import tqdm
    except ImportError:
        yield from games
        return
    yield from tqdm(games, total=total, desc=name, unit="game", leave=False)


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Adds the ``replay`` command to the CLI's subparsers."""
    p = sub.add_parser("replay", help="replay game record files (PDN) through the rules and summarise")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--game", choices=sorted(GAME_TYPES), default=None,
                   help="game id for every file (default: each game's GameType tag; without one, checkers where the squares "
                        "leave no doubt, else international)")
    p.add_argument("--errors", action="store_true", help="print every failure in full")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Runs ``replay``; returns 1 if any game failed to replay or disagreed, else 0."""
    totals = Summary("total")
    rows = []
    for f in args.files:
        size = os.path.getsize(f) if os.path.exists(f) else 0
        s = summarise(f, args.game, progress=not args.no_progress and size > 200_000)
        rows.append(s)
        for k in ("games", "moves", "replayed", "ended_on_board", "results_agree", "results_disagree"):
            setattr(totals, k, getattr(totals, k) + getattr(s, k))
        totals.failures += s.failures
    header = f"{'file':<40} {'games':>6} {'moves':>7} {'replayed':>8} {'on board':>8} {'agree':>6} {'disagree':>8}  failures"
    out.write(header + "\n")
    for s in rows + ([totals] if len(rows) > 1 else []):
        kinds = ", ".join(f"{k}: {n}" for k, n in sorted(s.failures_by_kind.items())) or "-"
        name = os.path.basename(s.file)
        out.write(f"{name:<40} {s.games:>6} {s.moves:>7} {s.replayed:>8} {s.ended_on_board:>8} {s.results_agree:>6} {s.results_disagree:>8}  {kinds}\n")
    for s in rows:
        for (gid, why), (n, failed) in sorted(s.assumed.items()):
            # Say which rules were assumed, and how to choose others, above all when they failed.
            hint = f"; {failed} failed: if they are another game, name it with --game ({', '.join(sorted(GAME_TYPES))})" if failed else ""
            out.write(f"note: {os.path.basename(s.file)}: {n} game{'s' if n != 1 else ''} without a GameType tag replayed as {gid}: {why}{hint}\n")
    for s in rows:
        for d in s.disagreements:
            out.write(f"result disagrees: {d}\n")
        for e in s.failures:
            text = str(e)
            out.write(f"{e.kind}: {text if args.errors or len(text) < 400 else text[:400] + ' ...'}\n")
    return 1 if totals.failures or totals.results_disagree else 0
