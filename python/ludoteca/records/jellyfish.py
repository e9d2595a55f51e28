"""Jellyfish / gnubg match files (``.txt``, ``.mat``): backgammon games as records.

A match file holds several games; each becomes one backgammon
:class:`~ludoteca.records.pdn.Record` (left column = player 0), replayable
with :func:`ludoteca.records.replay`. These records are replayed without the
doubling cube (:func:`ludoteca.records.replay_match` replays a whole match
with ``cube=True``, cube actions included): cube
actions (``Doubles => 2``, ``Takes``, ``Drops``) are kept as comments and the
checker play is replayed as a single game; a game that ends with a dropped
double or a resignation did not end on the board.
"""

from __future__ import annotations

import os
import re
from typing import Optional

from ..errors import RecordError
from .pdn import MAX_MOVES, Record, Turn, excerpt

__all__ = ["read_match", "loads_match"]

_ROW = re.compile(r"^\s*(\d+)\)(.*)$")
_ITEM = re.compile(
    r"(?P<roll>\b[1-6][1-6]:)|(?P<cube>\bDoubles? => \d+|\bTakes?\b|\bDrops\b|\bBeavers?\b)|(?P<resign>\bResigns\b)"
    r"|(?P<wins>\bWins (?P<points>\d+) points?)|(?P<loss>\bLosses \d+ points?)"
)
_REPEAT = re.compile(r"^(\S+?)\((\d)\)$")
# `^[ \t]*`, not `^\s*`: with re.M, `\s*` runs across blank lines from every
# line start, and a file of a million blank lines took hours to search.
_LENGTH = re.compile(r"^[ \t]*(\d+) point match", re.M)
_GAME = re.compile(r"^\s*Game (\d+)\s*$")
_SCORE = re.compile(r":[ \t]*(\d+)")
_HEADER_TAG = re.compile(r'^;\s*\[([^"]+?) "(.*)"\]')
_MAX_DIGITS = 9


def _count(text: str, what: str, source: str, line: int) -> int:
    """A number written in a match file (a game number, a score, a match length, points)."""
    if len(text) > _MAX_DIGITS:
        raise RecordError(f"{source} line {line}: {what} {excerpt(text)} has more than {_MAX_DIGITS} digits", kind="syntax", source=source)
    return int(text)


def _players(header: str) -> list[tuple[str, str, int]]:
    r"""(name, score as written, column of the name) per ``Name : score`` of a game's header line.

    Found from each ``: score`` backwards, in linear time (a pattern starting
    at every character, ``(\S.*?)\s*:``, was quadratic in a long line)."""
    out = []
    prev = 0
    for m in _SCORE.finditer(header):
        name = header[prev : m.start()]
        start = prev + len(name) - len(name.lstrip())
        if name.strip():
            out.append((name.strip(), m.group(1), start))
        prev = m.end()
    return out


def _move(text: str) -> str:
    """Jellyfish checker moves → the core's notation (25 = bar, 0 = off, ``(n)`` repeats)."""
    out = []
    for tok in text.split():
        m = _REPEAT.match(tok)
        count = int(m.group(2)) if m else 1
        tok = m.group(1) if m else tok
        parts = tok.split("/")
        parts = ["bar" if p == "25" else "off" if p in ("0", "0*") else p for p in parts]
        # Chained moves `24/18/13` are one checker over several dice.
        hops = [f"{a}/{b}" for a, b in zip(parts, parts[1:])]
        out += hops * count
    return " ".join(out)


def loads_match(text: str, source: str = "<string>") -> list[Record]:
    """Every game of a Jellyfish match text as a backgammon record.

    Raises :class:`~ludoteca.errors.RecordError` for a number of more than
    9 digits and for a game of more than ``MAX_MOVES`` moves and cube actions.
    """
    lines = text.splitlines()
    header_tags: dict[str, str] = {}
    length = ""
    for i, line in enumerate(lines):
        m = _HEADER_TAG.match(line)
        # Only the tags used below are kept: a million header lines make no million-entry dict.
        if m and m.group(1).replace(" ", "") in ("Event", "Site"):
            header_tags[m.group(1).replace(" ", "")] = m.group(2)
        m = _LENGTH.match(line)
        if m:
            length = str(_count(m.group(1), "match length", source, i + 1))
            break
    records: list[Record] = []
    rec: Optional[Record] = None
    items_in_game = 0
    split = 33
    for i, line in enumerate(lines):
        g = _GAME.match(line)
        if g:
            rec = Record(source=source, index=len(records))
            rec.tags = {"Event": header_tags.get("Event", header_tags.get("Site", "?")), "Round": f"Game {_count(g.group(1), 'game number', source, i + 1)}"}
            if length:
                rec.tags["Match"] = f"{length} point match"
            records.append(rec)
            items_in_game = 0
            header = lines[i + 1] if i + 1 < len(lines) else ""
            names = _players(header)
            if len(names) >= 2:
                rec.tags["White"], rec.tags["Black"] = names[0][0], names[1][0]
                rec.tags["Score"] = f"{_count(names[0][1], 'score', source, i + 2)}-{_count(names[1][1], 'score', source, i + 2)}"
                split = names[1][2]
            rec.tags["GameType"] = "backgammon"
            continue
        row = _ROW.match(line)
        if rec is None or not row:
            if rec is not None:
                w = re.search(r"Wins (\d+) points?", line)
                if w:
                    _won(rec, right=w.start() >= split - 2, points=str(_count(w.group(1), "points", source, i + 1)))
            continue
        number = _count(row.group(1), "move number", source, i + 1)
        body = line
        items = list(_ITEM.finditer(body, row.start(2)))
        items_in_game += len(items)
        if items_in_game > MAX_MOVES:
            raise RecordError(f"{source} line {i + 1}: more than {MAX_MOVES:,} moves and cube actions in one game", kind="syntax", source=source)
        for k, it in enumerate(items):
            end = items[k + 1].start() if k + 1 < len(items) else len(body)
            right = it.start() >= split - 2
            if it.group("roll"):
                d = it.group("roll")[:2]
                roll = f"{max(d)}{min(d)}:"
                moves = _move(body[it.end() : end])
                rec.turns.append(Turn(f"{roll} {moves}".strip(), number=number, black=right))
            elif it.group("cube") or it.group("resign"):
                word = " ".join(it.group(0).split())
                if rec.turns:
                    rec.turns[-1].comments.append(("Black " if right else "White ") + word)
                else:
                    rec.pre_comments.append(word)
            elif it.group("wins"):
                _won(rec, right=right, points=str(_count(it.group("points"), "points", source, i + 1)))
    return records


def _won(rec: Record, right: bool, points: str) -> None:
    last = rec.turns[-1] if rec.turns else None
    if last is not None and last.text.endswith(":") and last.black != right:
        # A roll without a move, then the other side wins: the roller
        # conceded after rolling (the roll is kept as a comment).
        rec.turns.pop()
        target = rec.turns[-1].comments if rec.turns else rec.pre_comments
        target.append(f"{'Black' if last.black else 'White'} rolls {last.text[:2]} and resigns")
    rec.tags["Result"] = "0-1" if right else "1-0"
    rec.tags["Points"] = points
    rec.terminator = rec.tags["Result"]


def read_match(file: str | os.PathLike[str]) -> list[Record]:
    """The games of a Jellyfish match file (``.txt`` / ``.mat``)."""
    with open(os.fspath(file), "rb") as fh:
        text = fh.read().decode("utf-8", errors="replace")
    return loads_match(text, source=os.fspath(file))
