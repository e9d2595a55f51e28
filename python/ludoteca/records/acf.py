"""E. C. Joyce's transcription of American Checker Federation games (``ACF.txt``).

One game per line: moves separated by spaces, squares 0-based from the first
mover's side (0 = a1 ... 31 = h8, the file's ``REF.png``), jumps chained with
``-``; a tab; the result. Square ``i`` is PDN square ``4*(i//4) + 4 - i%4``.
Each line becomes an English checkers :class:`~ludoteca.records.pdn.Record`.
"""

from __future__ import annotations

import os

from .pdn import Record, Turn

__all__ = ["loads_acf", "read_acf"]


def _square(i: int) -> int:
    return 4 * (i // 4) + 4 - i % 4


def loads_acf(text: str, source: str = "<string>") -> list[Record]:
    """Every game of an ACF text as a checkers record (moves with captures
    written with ``-`` are matched to the legal captures on replay)."""
    out = []
    for index, line in enumerate(l for l in text.splitlines() if l.strip()):
        moves, _, result = line.partition("\t")
        turns = []
        for k, mv in enumerate(moves.split()):
            squares = [_square(int(x)) for x in mv.split("-")]
            turns.append(Turn("-".join(map(str, squares)), number=k // 2 + 1, black=k % 2 == 1))
        tags = {"Event": f"ACF game {index + 1}", "GameType": "21", "Result": result.strip() or "*"}
        out.append(Record(tags=tags, turns=turns, terminator=tags["Result"], source=source, index=index))
    return out


def read_acf(file: str | os.PathLike[str]) -> list[Record]:
    """The games of an ``ACF.txt`` file."""
    with open(os.fspath(file), encoding="utf-8", errors="replace") as fh:
        return loads_acf(fh.read(), source=os.fspath(file))
