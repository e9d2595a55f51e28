"""How each game's turns are written in a record and matched to legal turns.

A :class:`Codec` groups the written words of a movetext into turns, turns a
written turn into the candidate legal turns it can mean (usually one), and
writes a legal turn the way records of that game are written:

* draughts: PDN squares in the board's numbering (numeric ``32-28``,
  ``28x19``; algebraic ``c3-d4``, ``d4:b6`` for the types that use it).
  Captures are written short (origin and destination) unless that is
  ambiguous; read, a short or partial capture matches every legal capture
  whose path passes through the written squares in order. The soplo presets
  (tablero, damas) are written in the core's notation (``s12 22-18``,
  ``f``, every landing square of a capture);
* tablut, kharbaga, zamma: the core's notation, one word per turn;
* backgammon: the roll and the checker moves, ``52: 13/11 13/8`` (a roll
  with no legal move is written ``52:`` alone; a pass whose dice were not
  seen is written ``pass``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Optional

from .._core import Game, State
from ..errors import LudotecaError, RecordError
from .gametypes import GAME_TYPES, GameType

__all__ = ["Candidate", "Codec", "codec_for"]


@dataclass
class Candidate:
    """A legal turn a written move can mean: the state after it, its
    decisions and its core notation when the matching found them (else ``None``)."""

    state: State
    actions: Optional[list[int]] = None
    move: Optional[str] = None


def _turn_done(before: State, after: State) -> bool:
    return after.turns_played != before.turns_played or after.is_terminal()


class Codec:
    """Default codec: one word per turn, written and read in the core's notation."""

    def __init__(self, gt: GameType) -> None:
        self.gt = gt

    def group(self, words: list[str]) -> list[str]:
        """The turns (as written) that the words of a movetext make up."""
        return list(words)

    def write(self, before: State, move: str) -> str:
        """How the turn ``move`` (core notation), played from ``before``, is written."""
        return move

    def core_spelling(self, written: str) -> str:
        """The written move in the core's notation (what ``State.play`` reads)."""
        return written

    def candidates(self, state: State, written: str, black: bool) -> list[Candidate]:
        """Every distinct legal turn ``written`` can mean from ``state`` (empty: none)."""
        trial = state.clone()
        try:
            trial.play(self.core_spelling(written))
        except LudotecaError:
            return []
        return [Candidate(trial, move=self.core_spelling(written))]

    def legal_moves(self, state: State) -> list[str]:
        """The legal turns at ``state`` as this game's records write them."""
        return [self.write(state, m) for m in state.legal_moves()]


# --------------------------------------------------------------------- draughts

# `0*([1-9]\d?)`, not `0*(\d{1,2})`: with the latter a run of zeros splits
# between the two in several ways per square, and a long word that fails at
# its end (`1-000-000-...-000a`) backtracked exponentially. (Square 0 does
# not exist: both forms refuse it.)
_NUM_MOVE = re.compile(r"^0*([1-9]\d?)((?:[-x:]0*[1-9]\d?)+)$")
_ALG_MOVE = re.compile(r"^([a-j](?:10|[1-9]))((?:[-x:]?[a-j](?:10|[1-9]))+)$")
_HOP_NAME = re.compile(r"^(\d+)([-x])(\d+)$")
_DIGITS = re.compile(r"\d+")
_SEPS = re.compile(r"[-x:]")
_ALG_SQUARE = re.compile(r"[a-j](?:10|[1-9])")


class DraughtsCodec(Codec):
    """PDN squares; see the module docstring."""

    def __init__(self, gt: GameType) -> None:
        super().__init__(gt)
        self.half = gt.size // 2
        self.soplo = gt.game_id in ("tablero", "damas", "damas_10x10")
        self._parsed: dict[str, Optional[tuple[list[int], list[str]]]] = {}

    # Squares: our numbering is PDN's (1 at the top left of player 0, row by row).
    def rc(self, sq: int) -> tuple[int, int]:
        """(row, column) of a square, row 0 at the top, column 0 at the left."""
        row, idx = divmod(sq - 1, self.half)
        return row, 2 * idx + (1 if row % 2 == 0 else 0)

    def square(self, row: int, col: int) -> int:
        """The square number of a dark square."""
        return row * self.half + col // 2 + 1

    def algebraic(self, sq: int) -> str:
        """``c3`` for a square number."""
        row, col = self.rc(sq)
        return f"{chr(ord('a') + col)}{self.gt.size - row}"

    def from_algebraic(self, name: str) -> int:
        """The square number of an algebraic name (``c3``) on this board."""
        col = ord(name[0]) - ord("a")
        row = self.gt.size - int(name[1:])
        if not (0 <= col < self.gt.size and 0 <= row < self.gt.size) or (row + col) % 2 == 0:
            raise ValueError(f"{name!r} is not a dark square of the {self.gt.size}x{self.gt.size} board")
        return self.square(row, col)

    def parse_squares(self, written: str) -> Optional[tuple[list[int], list[str]]]:
        """Squares and separators of a written move, or ``None`` if it is no square move."""
        # Collections repeat the same few hundred moves: parse each spelling once.
        if written not in self._parsed:
            self._parsed[written] = self._parse_squares(written)
        return self._parsed[written]

    def _parse_squares(self, written: str) -> Optional[tuple[list[int], list[str]]]:
        m = _NUM_MOVE.match(written)
        if m:
            squares = [int(m.group(1))] + [int(x) for x in _DIGITS.findall(m.group(2))]
            seps = _SEPS.findall(m.group(2))
        else:
            m = _ALG_MOVE.match(written)
            if not m:
                return None
            names = [m.group(1)] + _ALG_SQUARE.findall(m.group(2))
            seps = _SEPS.findall(m.group(2)) or ["-"]
            try:
                squares = [self.from_algebraic(n) for n in names]
            except ValueError:
                return None
        if not all(1 <= s <= self.half * self.gt.size for s in squares):
            return None
        return squares, seps

    def group(self, words: list[str]) -> list[str]:
        if self.gt.game_id not in ("damas", "damas_10x10"):
            return list(words)
        # damas: a huff and the move that follows it are one turn (`s12 22-18`).
        out: list[str] = []
        for w in words:
            if out and re.fullmatch(r"s\d+", out[-1]) and self.parse_squares(w) is not None:
                out[-1] = f"{out[-1]} {w}"
            else:
                out.append(w)
        return out

    def core_spelling(self, written: str) -> str:
        parsed = self.parse_squares(written)
        if parsed is None:
            return written
        squares, seps = parsed
        sep = "-" if len(squares) == 2 and seps[0] == "-" else "x"
        return sep.join(str(s) for s in squares)

    def write_square(self, sq: int) -> str:
        """A square as this game type writes it: algebraic or its number."""
        return self.algebraic(sq) if self.gt.notation == "A" else str(sq)

    def write(self, before: State, move: str) -> str:
        if self.soplo:
            return move
        squares = [int(x) for x in re.findall(r"\d+", move)]
        if "x" not in move:
            return "-".join(self.write_square(s) for s in squares)
        short = [squares[0], squares[-1]]
        if len(squares) > 2 and len(self._distinct(self._routes(before, short))) > 1:
            short = squares
        return self.gt.capture.join(self.write_square(s) for s in short)

    def path(self, landings: list[int]) -> list[int]:
        """Every square a piece passes over along its landing squares (origin included)."""
        out = [landings[0]]
        for a, b in zip(landings, landings[1:]):
            (r0, c0), (r1, c1) = self.rc(a), self.rc(b)
            dr = (r1 > r0) - (r1 < r0)
            dc = (c1 > c0) - (c1 < c0)
            r, c = r0, c0
            while (r, c) != (r1, c1):
                r, c = r + dr, c + dc
                out.append(self.square(r, c))
        return out

    def _routes(self, state: State, written: list[int]) -> Iterator[tuple[list[int], list[int], State]]:
        """Every legal turn (all routes) of the piece on ``written[0]``
        ending on ``written[-1]``, as (actions, landing squares, end state)."""
        origin, dest = written[0], written[-1]
        stack: list[tuple[State, list[int], list[int]]] = [(state, [], [origin])]
        while stack:
            st, actions, landings = stack.pop()
            for a in st.legal_actions():
                a = int(a)
                m = _HOP_NAME.match(st.action_to_string(a))
                if not m or int(m.group(1)) != landings[-1]:
                    continue
                child = st.clone()
                child.apply_action(a)
                route = landings + [int(m.group(3))]
                if _turn_done(state, child):
                    if route[-1] == dest:
                        yield actions + [a], route, child
                else:
                    stack.append((child, actions + [a], route))

    @staticmethod
    def _distinct(routes: Iterator[tuple[list[int], list[int], State]]) -> list[Candidate]:
        seen: dict[str, Candidate] = {}
        for actions, landings, end in routes:
            seen.setdefault(end.to_string(), Candidate(end, actions, "x".join(map(str, landings))))
        return list(seen.values())

    def candidates(self, state: State, written: str, black: bool) -> list[Candidate]:
        parsed = self.parse_squares(written)
        if self.soplo:
            # Soplo presets are written in the core's notation (a capture may stop early).
            return super().candidates(state, written, black)
        if parsed is None or len(parsed[0]) > 2 or parsed[1] == ["-"]:
            # A full capture in the core's spelling names one route exactly.
            direct = super().candidates(state, written, black)
            if direct or parsed is None:
                return direct
        assert parsed is not None
        squares = parsed[0]

        def fits(landings: list[int]) -> bool:
            it = iter(self.path(landings)[1:-1])
            return all(any(s == p for p in it) for s in squares[1:-1])

        # Every route, so that a short capture with two meanings is seen as such
        # (and a capture written with `-` is still found).
        return self._distinct(r for r in self._routes(state, squares) if fits(r[1]))


# ------------------------------------------------------------------- backgammon

_ROLL = re.compile(r"^([1-6])-?([1-6]):$")
# ASCII digits only: `str.isdigit` accepts `²`, which `int` refuses.
_POINT = re.compile(r"[0-9]{1,2}")


class BackgammonCodec(Codec):
    """``52: 13/11 13/8``: the roll, then the checker moves of the core's notation."""

    def group(self, words: list[str]) -> list[str]:
        # Each turn's words are joined once at the end: appending to the turn's
        # string word by word copied it each time (quadratic in a long turn).
        turns: list[list[str]] = []
        for w in words:
            if _ROLL.match(w) or w.lower() == "pass" and (not turns or not (len(turns[-1]) == 1 and _ROLL.match(turns[-1][0]))):
                turns.append([w])
            elif turns:
                turns[-1].append(w)
            else:
                turns.append([w])
        return [" ".join(t) for t in turns]

    @staticmethod
    def split(written: str) -> tuple[Optional[tuple[int, int]], str]:
        """(roll or ``None``, the checker moves) of a written turn."""
        head, _, rest = written.strip().partition(" ")
        m = _ROLL.match(head)
        if not m:
            return None, written.strip()
        return (int(m.group(1)), int(m.group(2))), rest.strip()

    def candidates(self, state: State, written: str, black: bool) -> list[Candidate]:
        roll, moves = self.split(written)
        st = state.clone()
        if st.is_chance_node():
            outcomes = {st.action_to_string(a): a for a, _ in st.chance_outcomes()}
            if roll is None:
                if moves.lower() != "pass":
                    return []
                return self._blocked_roll(st)
            hi, lo = max(roll), min(roll)
            if any(k.startswith("opening") for k in outcomes):
                if hi == lo:
                    return []
                p0, p1 = (lo, hi) if black else (hi, lo)
                name = f"opening P0 {p0} P1 {p1}"
            else:
                name = f"roll {hi}-{lo}"
            if name not in outcomes:
                return []
            st.apply_action(outcomes[name])
        elif roll is not None and not self._dice_match(st, roll):
            return []
        if st.is_chance_node() or st.is_terminal():
            # The roll had no legal move: the turn passed by itself.
            return [Candidate(st)] if not moves or moves.lower() == "pass" else []
        if not moves or moves.lower() == "pass":
            return []
        try:
            trial = st.clone()
            trial.play(moves)
            return [Candidate(trial, move=moves)]
        except LudotecaError:
            return self._same_board(st, moves)

    @staticmethod
    def _same_board(st: State, moves: str) -> list[Candidate]:
        """The legal move that leaves the board the written checker moves leave.

        Bearing off the last checker with one die (``2/off`` with 2-1)
        uses fewer dice than the legal ``2/1 1/off`` but ends in the same
        position; gnubg and Jellyfish write it so.
        """
        from ..render.backgammon import from_view

        pos = from_view(st.board_view())
        me = pos.turn
        mine, theirs = list(pos.points[me]), list(pos.points[1 - me])
        bar, off = [pos.bar[me], pos.bar[1 - me]], pos.off[me]
        for tok in moves.replace("*", "").split():
            a, _, b = tok.partition("/")
            if a.lower() == "bar":
                if bar[0] == 0:
                    return []
                bar[0] -= 1
            else:
                if not _POINT.fullmatch(a) or not 1 <= int(a) <= 24 or mine[int(a) - 1] == 0:
                    return []
                mine[int(a) - 1] -= 1
            if b.lower() == "off":
                off += 1
                continue
            if not _POINT.fullmatch(b) or not 1 <= int(b) <= 24:
                return []
            q = 24 - int(b)  # the opponent's index of my point b
            if theirs[q] > 1:
                return []
            if theirs[q] == 1:
                theirs[q], bar[1] = 0, bar[1] + 1
            mine[int(b) - 1] += 1
        for m in st.legal_moves():
            trial = st.clone()
            trial.play(m)
            p = from_view(trial.board_view())
            if (list(p.points[me]), list(p.points[1 - me]), p.bar[me], p.bar[1 - me], p.off[me]) == (mine, theirs, bar[0], bar[1], off):
                return [Candidate(trial, move=m)]
        return []

    @staticmethod
    def _dice_match(state: State, roll: tuple[int, int]) -> bool:
        from ..render.backgammon import from_view

        dice = from_view(state.board_view()).dice
        return sorted(dice) == sorted(roll)

    @staticmethod
    def _blocked_roll(state: State) -> list[Candidate]:
        for a, _ in state.chance_outcomes():
            trial = state.clone()
            trial.apply_action(a)
            if trial.is_chance_node() or trial.is_terminal():
                return [Candidate(trial)]
        return []

    def roll_of(self, before: State) -> tuple[int, int]:
        """The dice to play at a decision node (larger first)."""
        from ..render.backgammon import from_view

        d = from_view(before.board_view()).dice
        return max(d), min(d)

    def write(self, before: State, move: str) -> str:
        hi, lo = self.roll_of(before)
        return f"{hi}{lo}: {move}" if move.lower() != "pass" else f"{hi}{lo}:"


def codec_for(game: Game | str) -> Codec:
    """The codec of a game id."""
    gid = game if isinstance(game, str) else game.id
    gt = GAME_TYPES.get(gid)
    if gt is None:
        raise RecordError(f"no record conventions for game {gid!r}; known: {', '.join(GAME_TYPES)}", kind="game type")
    if gt.draughts:
        return DraughtsCodec(gt)
    if gid == "backgammon":
        return BackgammonCodec(gt)
    return Codec(gt)
