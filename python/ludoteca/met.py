"""Match equity tables for backgammon match play.

A match equity table (MET) gives a player's chance of winning the match
from a score, counted in points each player still needs ("away"). One
published table ships as data: the Kazaross-XG2 25-point table
(Copyright (C) 2011 Neil Kazaross; rolled out to 9 points by eXtreme
Gammon, then the Rockwell-Kazaross table rolled out to 15 points and
extended to 25 points; transcribed for GNU Backgammon by Michael Petch),
``ludoteca/data/Kazaross-XG2.xml``, the file GNU Backgammon distributes
with its copyright notice kept. It is gnubg's default table
(tests/python/test_met.py checks it against ``gnubg.met()``).
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache

from .errors import LudotecaValueError

__all__ = ["MatchEquityTable", "kazaross_xg2"]

_DATA = os.path.join(os.path.dirname(__file__), "data")


@dataclass(frozen=True)
class MatchEquityTable:
    """A match equity table: ``pre[i][j]`` is the chance that a player
    ``i + 1`` away wins the match against an opponent ``j + 1`` away before
    the Crawford game has been played (the Crawford game included);
    ``post[i]`` the chance of a player ``i + 1`` away against an opponent 1
    away after the Crawford game. ``length``: the longest match covered."""

    name: str
    length: int
    pre: tuple[tuple[float, ...], ...]
    post: tuple[float, ...]

    def equity(self, away: int, opponent_away: int, post_crawford: bool = False) -> float:
        """The chance of winning the match of a player ``away`` points from
        winning against an opponent ``opponent_away`` away (0 or less = the
        match is won); ``post_crawford`` when the Crawford game has been
        played (it matters only when a player is 1 away)."""
        if away <= 0 or opponent_away <= 0:
            if away <= 0 and opponent_away <= 0:
                raise LudotecaValueError("both players cannot have won the match")
            return 1.0 if away <= 0 else 0.0
        if max(away, opponent_away) > self.length:
            raise LudotecaValueError(f"the {self.name} table covers scores up to {self.length} away; got {away} and {opponent_away} away")
        if post_crawford and (away == 1 or opponent_away == 1):
            if away == 1 and opponent_away == 1:
                return 0.5
            return self.post[away - 1] if opponent_away == 1 else 1.0 - self.post[opponent_away - 1]
        return self.pre[away - 1][opponent_away - 1]


@lru_cache(maxsize=None)
def kazaross_xg2() -> MatchEquityTable:
    """The Kazaross-XG2 table (25 points; source and copyright in the module docstring)."""
    root = ET.parse(os.path.join(_DATA, "Kazaross-XG2.xml")).getroot()

    def rows(tag: str) -> list[list[float]]:
        table = root.find(tag)
        if table is None:
            raise LudotecaValueError(f"the match equity table file has no <{tag}>")
        return [[float(me.text or "") for me in row.findall("me")] for row in table.findall("row")]

    pre = rows("pre-crawford-table")
    post = rows("post-crawford-table")[0]
    length = int(root.find("info/length").text or "0")  # type: ignore[union-attr]
    return MatchEquityTable("Kazaross-XG2", length, tuple(tuple(r) for r in pre), tuple(post))
