"""E. C. Joyce's transcription of American Checker Federation games (``ACF.txt``).

One game per line: moves separated by spaces, squares 0-based from the first
mover's side (0 = a1 ... 31 = h8, the file's ``REF.png``), jumps chained with
``-``; a tab; the result. Square ``i`` is PDN square ``4*(i//4) + 4 - i%4``.
Each line becomes an English checkers :class:`~ludoteca.records.pdn.Record`.
"""

from __future__ import annotations

import os
import re

from ..errors import RecordError
from .pdn import MAX_MOVES, Record, Turn, excerpt

__all__ = ["loads_acf", "read_acf"]


# Squares 0-31, ASCII digits: `int` takes `٣` and 5,000-digit numbers too.
_MOVE = re.compile(r"(?:[0-9]|[12][0-9]|3[01])(?:-(?:[0-9]|[12][0-9]|3[01]))+")
_RESULT = re.compile(r"1-0|0-1|1/2-1/2|\*|")


def _square(i: int) -> int:
    return 4 * (i // 4) + 4 - i % 4


def loads_acf(text: str, source: str = "<string>") -> list[Record]:
    """Every game of an ACF text as a checkers record (moves with captures
    written with ``-`` are matched to the legal captures on replay).

    A line that is not moves, a tab and a result (``1-0``, ``0-1``,
    ``1/2-1/2``, ``*`` or nothing) raises :class:`~ludoteca.errors.RecordError`
    naming the line and quoting the offending part.
    """
    out = []
    index = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        moves, _, result = line.partition("\t")
        where = f"{source} line {number} (game {index + 1})"
        if not _RESULT.fullmatch(result.strip()):
            raise RecordError(f"{where}: result {excerpt(result.strip())} is not 1-0, 0-1, 1/2-1/2 or *", kind="syntax", source=source)
        words = moves.split()
        if len(words) > MAX_MOVES:
            raise RecordError(f"{where}: more than {MAX_MOVES:,} moves", kind="syntax", source=source)
        turns = []
        for k, mv in enumerate(words):
            if not _MOVE.fullmatch(mv):
                raise RecordError(
                    f"{where}: move {k // 2 + 1}{'...' if k % 2 else '.'} {excerpt(mv)} is not squares 0-31 joined by '-'",
                    kind="syntax", source=source, move=excerpt(mv, quote=False), number=str(k // 2 + 1),
                )
            squares = [_square(int(x)) for x in mv.split("-")]
            turns.append(Turn("-".join(map(str, squares)), number=k // 2 + 1, black=k % 2 == 1))
        tags = {"Event": f"ACF game {index + 1}", "GameType": "21", "Result": result.strip() or "*"}
        out.append(Record(tags=tags, turns=turns, terminator=tags["Result"], source=source, index=index))
        index += 1
    return out


def read_acf(file: str | os.PathLike[str]) -> list[Record]:
    """The games of an ``ACF.txt`` file."""
    with open(os.fspath(file), encoding="utf-8", errors="replace") as fh:
        return loads_acf(fh.read(), source=os.fspath(file))
