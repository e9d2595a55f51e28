"""Reading, replaying and writing game records (see :mod:`ludoteca.records`)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Iterable, Iterator, Optional, Sequence, Union

from .._core import Game, State
from ..errors import LudotecaError, RecordError
from .gametypes import GAME_TYPES, GameType, format_options, game_type_for, game_type_tag, parse_options
from .notation import BackgammonCodec, Candidate, Codec, codec_for
from .pdn import Record, Turn, excerpt, format_record, parse

if TYPE_CHECKING:
    from ..render.backgammon import BackgammonPosition

__all__ = [
    "read",
    "loads",
    "replay",
    "replay_record",
    "ReplayedGame",
    "Recorder",
    "write_game",
    "dumps",
    "game_of",
    "assumed_game",
    "result_winner",
]

PathLike = Union[str, "os.PathLike[str]"]
Source = Union[PathLike, IO[str], Record, Iterable[Record]]

# How far ahead a move with several meanings is tried before calling it ambiguous.
_LOOKAHEAD = 6
# Most written turns tried to decide one such move. Real records need a few
# hundred at most (schildpad.pdn game 3 move 35: two meanings, the rest of the
# game decides); a record ambiguous move after move would take exponential time.
_READINGS = 10_000


def _decode(data: bytes) -> str:
    for enc in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _grouper(default_game: Optional[str]):  # type: ignore[no-untyped-def]
    def for_tags(tags: dict[str, str]):  # type: ignore[no-untyped-def]
        try:
            gid = default_game or game_type_for(tags.get("GameType")).game_id
        except RecordError:
            return None
        return codec_for(gid).group

    return for_tags


def loads(text: str, game_id: Optional[str] = None, source: str = "<string>") -> list[Record]:
    """Every game record in a PDN text (``game_id`` overrides the ``GameType`` tags)."""
    return parse(text, _grouper(game_id), source=source)


def read(file: Union[PathLike, IO[str]], game_id: Optional[str] = None) -> list[Record]:
    """Every game record of a PDN file (a path or an open text file).

    Files are read as UTF-8, falling back to Windows-1252 (older PDN files).
    Jellyfish / gnubg backgammon match files (``N point match``) and the
    ``ACF.txt`` checkers transcription are recognised by their content and
    read by :mod:`~ludoteca.records.jellyfish` and :mod:`~ludoteca.records.acf`.
    """
    if hasattr(file, "read"):
        text = file.read()
        name = getattr(file, "name", "<stream>")
    else:
        with open(os.fspath(file), "rb") as fh:
            text = _decode(fh.read())
        name = os.fspath(file)
    # Other formats in the collections, told by their content.
    from .jellyfish import _LENGTH

    if _LENGTH.search(text):
        from .jellyfish import loads_match

        return loads_match(text, source=str(name))
    if re.match(r"^[\d\- ]+\t\S", text):
        from .acf import loads_acf

        return loads_acf(text, source=str(name))
    return loads(text, game_id, source=str(name))


def game_of(record: Record, game_id: Optional[str] = None) -> tuple[Game, GameType]:
    """The :class:`Game` a record is replayed with (``GameType`` and ``Options`` tags).

    ``game_id`` overrides the ``GameType`` tag (replaying Czech records with
    ``russian`` rules, for instance). Backgammon is always replayed with
    ``chance="explicit"``: the record holds the dice.
    """
    try:
        if game_id:
            gt = GAME_TYPES[game_id]
        elif record.tags.get("GameType", "").strip():
            gt = game_type_for(record.tags["GameType"])
        else:
            gt = GAME_TYPES[assumed_game(record)[0]]
        options = parse_options(record.tags.get("Options", ""))
        if gt.game_id == "backgammon":
            options["chance"] = "explicit"
        return Game(gt.game_id, **options), gt  # type: ignore[arg-type]
    except RecordError as e:
        raise RecordError(f"{record.describe()}: {e}", kind=e.kind, source=record.source, tags=record.tags) from None
    except LudotecaError as e:
        # The core's message quotes the option's value whole: cut short.
        raise RecordError(
            f"{record.describe()}: Options tag: {excerpt(str(e), 300, quote=False)}", kind="game type", source=record.source, tags=record.tags
        ) from None


# ASCII digits only: str.isdigit and re's \d also take other scripts' digits and superscripts.
_NUMBER = re.compile(r"[0-9]+")


def assumed_game(record: Record) -> tuple[str, str]:
    """The game a record without a ``GameType`` tag is replayed as, and why (docs/records.md, "GameType").

    PDN's default is international draughts, but collections of English
    checkers often leave the tag out. Where the record leaves no doubt it is
    checkers: without a ``FEN``, its first move starts on a square from 1 to
    12 (Black's men: Black moves first in checkers, while White opens
    international draughts from 31-35) and no square past 32 follows; with
    one, the ``FEN`` and the moves name only squares 1-32 (a 10x10 position
    has 50).
    """
    fen = record.tags.get("FEN", "").strip()
    moves = [t.text for t in record.turns if _NUMBER.match(t.text)]
    squares = [int(n) for text in [fen, *moves] for n in _NUMBER.findall(text)]
    if squares and max(squares) <= 32:
        if fen:
            return "checkers", "its FEN and moves name only squares 1-32, English checkers' board"
        if moves and int(_NUMBER.match(moves[0]).group()) <= 12:  # type: ignore[union-attr]
            return "checkers", ("its first move starts on a square of 1-12 and no square is past 32, as in English checkers, "
                                "where Black opens from 1-12 (White opens international draughts from 31-35)")
    return "international", "PDN's default for a record without a GameType tag"


def _start(record: Record, game: Game, gt: GameType, codec: Codec) -> State:
    fen = record.tags.get("FEN")
    if fen is None or not fen.strip():
        return game.new_state(0) if gt.first is not None or gt.game_id == "backgammon" else _tablero_start(record, game, gt)
    text = fen.strip()
    try:
        if gt.draughts:
            text = _normalise_fen(text, codec)
        return game.state_from_string(text)
    except (LudotecaError, ValueError) as e:
        # ValueError: an algebraic square off the board (`z9`) in _normalise_fen.
        raise RecordError(
            f"{record.describe()}: FEN {excerpt(fen)} is not a {game.id} position: {excerpt(str(e), 300, quote=False)}",
            kind="position", source=record.source, tags=record.tags, position=fen,
        ) from None


def _tablero_start(record: Record, game: Game, gt: GameType) -> State:
    # Tablero draws who starts; the long GameType says which colour did.
    value = record.tags.get("GameType", "")
    first = value.split(",")[1].strip() if value.count(",") >= 1 else "B"
    for seed in range(64):
        st = game.new_state(seed)
        if gt.colours[st.current_player] == first:
            return st
    raise RecordError(f"{record.describe()}: no tablero start with {first} to move", kind="position")


_ALG_NAME = re.compile(r"[a-z][0-9]{1,2}")


def _normalise_fen(fen: str, codec: Codec) -> str:
    """PDN FEN as files write it → the core's string: no final dot, no spaces,
    algebraic squares turned into numbers."""
    from .notation import DraughtsCodec

    head, sep, extra = fen.partition(";")
    head = head.strip().rstrip(".").replace(" ", "")
    if isinstance(codec, DraughtsCodec) and any(c in "abcdefghij" for c in head[2:]):
        parts = head.split(":")
        for i, part in enumerate(parts[1:], start=1):
            colour, items = part[:1], part[1:]
            out = []
            for item in items.split(","):
                king = item.startswith("K")
                name = item[1:] if king else item
                if name and name[0].isalpha():
                    if not _ALG_NAME.fullmatch(name):
                        raise ValueError(f"{excerpt(name)} is not a square")
                    sq = str(codec.from_algebraic(name))
                else:
                    sq = name
                out.append(("K" if king else "") + sq)
            parts[i] = colour + ",".join(out)
        head = ":".join(parts)
    return head + (sep + extra if sep else "")


def result_winner(result: str, gt: GameType) -> Optional[int]:
    """The player a recorded result makes the winner: 0, 1, -1 for a draw,
    ``None`` when unknown (``*``, ``0-0``, other formats).

    The first number is the score of the colour that starts the standard
    game (White in international draughts, Black in English checkers:
    ``1-0`` is a Black win in English checkers records) — for our own
    types and the other games, of player 0.
    """
    r = result.replace(" ", "")
    first = {"1-0": 1, "2-0": 1, "0-1": 0, "0-2": 0, "1/2-1/2": None, "1-1": None}
    if r not in first:
        return None
    won = first[r]
    if won is None:
        return -1
    first_player = _first_column_player(gt)
    return first_player if won else 1 - first_player


def _first_column_player(gt: GameType) -> int:
    if gt.draughts and gt.number is not None and gt.number < 90 and gt.first is not None:
        return gt.colours.index(gt.first)
    return 0


def result_string(state: State, gt: GameType) -> str:
    """The result tag of a finished state (``*`` while it is not over)."""
    if not state.is_terminal():
        return "*"
    r = state.returns()
    if r[0] == r[1]:
        return "1-1" if gt.two_point else "1/2-1/2"
    winner = 0 if r[0] > r[1] else 1
    first_wins = winner == _first_column_player(gt)
    if gt.two_point:
        return "2-0" if first_wins else "0-2"
    return "1-0" if first_wins else "0-1"


@dataclass
class ReplayedGame:
    """One record replayed: its states, decisions and what was found.

    ``states[0]`` is the start, ``states[i]`` the position after turn ``i``
    (``len(states) == len(turns) + 1`` for a complete replay); ``actions[i]``
    the decisions of turn ``i``; ``moves[i]`` turn ``i`` in the core's
    notation. ``error`` is the :class:`~ludoteca.errors.RecordError` that
    stopped the replay (then ``states`` ends at the position where the bad
    move was written; it is empty when the game could not even be set up:
    unknown ``GameType``, bad ``FEN``). Iterating over a ``ReplayedGame``
    iterates over its states.
    """

    record: Record
    game: Game
    states: list[State] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    actions: list[list[int]] = field(default_factory=list)
    error: Optional[RecordError] = None

    def __iter__(self) -> Iterator[State]:
        return iter(self.states)

    @property
    def final(self) -> State:
        """The last position reached."""
        return self.states[-1]

    @property
    def ended_on_board(self) -> bool:
        """Whether the whole record replayed and its last position is terminal."""
        return self.error is None and self.final.is_terminal()

    @property
    def recorded_winner(self) -> Optional[int]:
        """The winner the record states (0, 1, -1 draw, ``None`` unknown)."""
        return result_winner(self.record.result, game_type_for(self.game.id))

    @property
    def board_winner(self) -> Optional[int]:
        """The winner by the rules (0, 1, -1 draw) if the game ended on the board."""
        if not self.ended_on_board:
            return None
        r = self.final.returns()
        return -1 if r[0] == r[1] else (0 if r[0] > r[1] else 1)

    @property
    def result_agrees(self) -> Optional[bool]:
        """Whether the recorded result is the board's (``None``: not decided on
        the board, or no result recorded)."""
        if self.board_winner is None or self.recorded_winner is None:
            return None
        return self.board_winner == self.recorded_winner


def _error(record: Record, state: State, codec: Codec, turn: Turn, i: int, kind: str, why: str) -> RecordError:
    legal = codec.legal_moves(state) if not state.is_terminal() and not state.is_chance_node() else []
    number = f"{turn.number}{'...' if turn.black else '.'}" if turn.number is not None else f"turn {i + 1}"
    shown = ", ".join(legal[:40]) + (f", ... ({len(legal)} in all)" if len(legal) > 40 else "")
    return RecordError(
        f"{record.describe()}: move {number} {excerpt(turn.text)}: {why} at {state.to_string()!r}; "
        f"legal moves: {shown or ('none (the game is over)' if state.is_terminal() else 'the dice are rolled first')}",
        kind=kind, source=record.source, tags=dict(record.tags), number=number, move=turn.text,
        position=state.to_string(), legal_moves=legal,
    )


class _Undecided(Exception):
    """More than ``_READINGS`` written turns tried to decide one ambiguous move."""


def _survives(codec: Codec, state: State, turns: list[Turn], depth: int, budget: list[int]) -> bool:
    """Whether the next ``depth`` written turns can be played from ``state``.

    Depth first over the readings of the ambiguous turns met, with a stack
    rather than recursion (a game ambiguous move after move recursed once per
    move, past Python's limit); ``budget[0]`` counts down the turns tried and
    raises ``_Undecided`` at zero (readings multiply at each ambiguous turn).
    """
    limit = min(depth, len(turns))
    stack = [(state, 0)]
    while stack:
        st, k = stack.pop()
        while k < limit:
            if st.is_terminal():
                break
            budget[0] -= 1
            if budget[0] < 0:
                raise _Undecided
            t = turns[k]
            cands = codec.candidates(st, t.text, t.black)
            if not cands:
                break
            stack.extend((c.state, k + 1) for c in reversed(cands[1:]))
            st, k = cands[0].state, k + 1
        else:
            return True
    return False


def _decisions(before: State, after: State) -> list[int]:
    """The decisions that lead from ``before`` to ``after`` in one turn (depth-first)."""
    target = after.to_string()
    stack: list[tuple[State, list[int]]] = [(before, [])]
    seen: set[str] = set()
    while stack:
        st, acts = stack.pop()
        for a in st.legal_actions():
            child = st.clone()
            child.apply_action(int(a))
            key = child.to_string()
            if _done(before, child):
                if key == target:
                    return acts + [int(a)]
            elif key not in seen:
                seen.add(key)
                stack.append((child, acts + [int(a)]))
    raise RecordError(f"no decisions lead from {before.to_string()!r} to {target!r}", kind="illegal move")


def _done(before: State, child: State) -> bool:
    return child.turns_played != before.turns_played or child.is_terminal() or child.is_chance_node()


def _turn_actions(before: State, cand: Candidate) -> list[int]:
    """The decisions of one turn; at a chance node the chance action comes first."""
    if cand.actions is not None:
        return cand.actions
    if not before.is_chance_node():
        return _decisions(before, cand.state)
    target = cand.state.to_string()
    for a, _ in before.chance_outcomes():
        trial = before.clone()
        trial.apply_action(a)
        if trial.to_string() == target:
            return [a]
        if not trial.is_chance_node() and not trial.is_terminal():
            try:
                return [a] + _decisions(trial, cand.state)
            except RecordError:
                continue
    raise RecordError(f"no roll leads from {before.to_string()!r} to {target!r}", kind="illegal move")


def replay_record(record: Record, game_id: Optional[str] = None, *, actions: bool = False) -> ReplayedGame:
    """Replays one record; never raises for a bad move (see ``ReplayedGame.error``).

    Raises ``RecordError`` only when the game itself cannot be set up
    (unknown ``GameType``, bad ``FEN``). With ``actions=True`` the decisions
    of every turn are found too (``ReplayedGame.actions``).
    """
    game, gt = game_of(record, game_id)
    codec = codec_for(game)
    state = _start(record, game, gt, codec)
    out = ReplayedGame(record, game, [state.clone()])
    turns = record.turns
    for i, turn in enumerate(turns):
        if state.is_terminal():
            out.error = _error(record, state, codec, turn, i, "move after the end", "the game is already over")
            break
        if turn.text.strip("-") == "":
            # PDN's sign for a move nobody wrote down (`41. - -`).
            out.error = _error(record, state, codec, turn, i, "unknown move", "the record does not give this move")
            break
        cands = codec.candidates(state, turn.text, turn.black)
        if not cands:
            out.error = _error(record, state, codec, turn, i, "illegal move", "not a legal move")
            break
        if len(cands) > 1:
            rest = turns[i + 1 :]
            budget = [_READINGS]
            try:
                alive = [c for c in cands if _survives(codec, c.state, rest, _LOOKAHEAD, budget)]
                if len(alive) > 1:
                    # Still open: let the whole rest of the game decide.
                    alive = [c for c in alive if _survives(codec, c.state, rest, len(rest), budget)]
            except _Undecided:
                meant = ", ".join(_core_move(state, c) for c in cands)
                out.error = _error(record, state, codec, turn, i, "ambiguous move",
                                   f"ambiguous: {meant} fit it, and {_READINGS:,} readings of the moves after it did not decide")
                break
            if len(alive) != 1:
                meant = ", ".join(_core_move(state, c) for c in (alive or cands))
                out.error = _error(record, state, codec, turn, i, "ambiguous move",
                                   f"ambiguous: {meant} fit it{' and every move after it' if alive else ' but none fits the moves after it'}")
                break
            cands = alive
        cand = cands[0]
        if actions:
            out.actions.append(_turn_actions(state, cand))
        out.moves.append(_core_move(state, cand, turn.text))
        state = cand.state
        out.states.append(state.clone())
    return out


def _core_move(before: State, cand: Candidate, written: str = "") -> str:
    """The turn in the core's notation (the legal move leading to the candidate)."""
    st = before
    if cand.move is not None:
        return cand.move
    if st.is_chance_node():
        return "pass"  # a roll with no legal move
    target = cand.state.to_string()
    for m in st.legal_moves():
        trial = st.clone()
        trial.play(m)
        if trial.to_string() == target:
            return m
    return "?"


def _records(source: Source, game_id: Optional[str]) -> Iterator[Record]:
    if isinstance(source, Record):
        yield source
    elif isinstance(source, (str, os.PathLike)) or hasattr(source, "read"):
        yield from read(source, game_id)  # type: ignore[arg-type]
    else:
        yield from source


def replay(
    file: Source, game_id: Optional[str] = None, *, errors: str = "raise", actions: bool = False
) -> Iterator[ReplayedGame]:
    """Replays every game of a record file, game by game.

    ``file`` is a path, an open text file, a :class:`Record` or records.
    Each game is yielded as a :class:`ReplayedGame` (iterate over it for its
    states). A move that is not legal stops that game: with
    ``errors="raise"`` (default) the :class:`~ludoteca.errors.RecordError`
    is raised, naming the file, the game's tags, the move number, the move
    as written, the position string and the legal moves; with
    ``errors="keep"`` the game is yielded with ``error`` set and the next
    game follows. ``game_id`` overrides the ``GameType`` tags.
    """
    if errors not in ("raise", "keep"):
        raise RecordError(f"errors must be 'raise' or 'keep', got {errors!r}", kind="syntax")
    for rec in _records(file, game_id):
        try:
            g = replay_record(rec, game_id, actions=actions)
        except RecordError as e:
            if errors == "raise":
                raise
            g = ReplayedGame(rec, Game(game_id or "international"), [], error=e)
        if g.error is not None and errors == "raise":
            raise g.error
        yield g


# ---------------------------------------------------------------------- writing


class Recorder:
    """Builds the record of a game while (or after) it is played.

    ``Recorder(start)`` starts from a copy of ``start``; :meth:`play` takes
    each complete turn in the core's notation (as ``State.play``), and
    :meth:`chance` each chance action of an explicit-chance game. With
    sampled chance (backgammon's default) the dice are read from the state
    itself. :meth:`record` returns the :class:`Record`, :meth:`text` its
    PDN text.
    """

    def __init__(self, start: State, tags: Optional[dict[str, str]] = None) -> None:
        self.start = start.clone()
        self.state = start.clone()
        self.gt = GAME_TYPES[start.game.id]
        self.codec = codec_for(start.game)
        self.tags = dict(tags or {})
        self.turns: list[Turn] = []
        self._opening = False  # the last chance action was a backgammon opening roll
        self._number = 0
        self._black = True
        self._first_player = self._first_mover(self.state)

    def _first_mover(self, state: State) -> int:
        if self.gt.draughts and self.gt.number is not None and self.gt.number < 90 and self.gt.first:
            return self.gt.colours.index(self.gt.first)
        if self.gt.draughts and state.current_player in (0, 1):
            return state.current_player  # tablero, damas: who starts is column one
        return 0

    def _add(self, text: str, mover: int, opening: bool = False) -> None:
        black = mover != self._first_player
        if opening or not self.turns:
            self._number = 1
        elif not black or self._black:
            self._number += 1
        self._black = black
        self.turns.append(Turn(text, number=self._number, black=black))

    def chance(self, action: int) -> None:
        """Applies a chance action (explicit chance) and remembers the roll."""
        st = self.state
        name = st.action_to_string(action)
        st.apply_action(action)
        if not isinstance(self.codec, BackgammonCodec):
            return
        nums = [int(x) for x in re.findall(r"\d", name)]
        roll = (max(nums), min(nums)) if len(nums) == 2 else None
        opening = name.startswith("opening")
        if st.is_chance_node() and roll is not None:
            # No legal move with this roll: the turn passed by itself.
            mover = self._mover_of_pass(opening, nums)
            self._add(f"{roll[0]}{roll[1]}:", mover, opening)
        else:
            self._opening = opening

    def _mover_of_pass(self, opening: bool, nums: list[int]) -> int:
        if opening:
            return 0 if nums[0] > nums[1] else 1
        last = self.turns[-1].black if self.turns else True
        return 0 if last else 1

    def play(self, move: str) -> None:
        """Applies one complete turn written in the core's notation and records it."""
        st = self.state
        mover = st.current_player
        before = st.clone()
        opening = False
        if isinstance(self.codec, BackgammonCodec):
            opening = self._opening or not self.turns or _opening_board(before)
            self._opening = False
        st.play(move)
        written = self.codec.write(before, move)
        self._add(written, mover, opening)
        if isinstance(self.codec, BackgammonCodec) and not st.is_terminal() and st.current_player == mover:
            # Sampled dice: the opponent's roll had no legal move and passed
            # unseen (its dice are not in the state any more).
            self._add("pass", 1 - mover)

    def record(self, result: Optional[str] = None) -> Record:
        """The record so far (``Result`` from the game's end unless given)."""
        game = self.start.game
        tags: dict[str, str] = {}
        for k in ("Event", "Site", "Date", "Round", "White", "Black"):
            tags[k] = self.tags.get(k, "?")
        tags["Result"] = result or result_string(self.state, self.gt)
        tags["GameType"] = game_type_tag(self.gt, self.start)
        opts = format_options(game)
        if opts:
            tags["Options"] = opts
        if not self._standard_start():
            tags["SetUp"] = "1"
            tags["FEN"] = self.start.to_string()
        for k, v in self.tags.items():
            tags.setdefault(k, v)
        return Record(tags=tags, turns=[Turn(t.text, t.number, t.black) for t in self.turns], terminator=tags["Result"])

    def _standard_start(self) -> bool:
        """Whether the game began at the standard start (no FEN needed)."""
        if self.gt.game_id == "backgammon":
            # Any opening with the score at 0-0 (sampled dice already rolled or not).
            return _opening_board(self.start) and decode_backgammon(self.start).score == (0, 0)
        game = self.start.game
        # Tablero draws who starts; its long GameType says which, so both starts are standard.
        starts = {game.new_state(seed).to_string() for seed in range(16 if self.gt.first is None else 1)}
        return self.start.to_string() in starts

    def text(self, result: Optional[str] = None) -> str:
        """The PDN text of :meth:`record`."""
        return format_record(self.record(result))


_BG_START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)


def decode_backgammon(st: State) -> "BackgammonPosition":
    """The gnubg-style position record of a backgammon state (from its board view)."""
    from ..render.backgammon import from_view

    return from_view(st.board_view())


def _opening_board(st: State) -> bool:
    """Both sides' 15 checkers on their start points: the first turn of a game."""
    pos = decode_backgammon(st)
    return pos.points == (_BG_START, _BG_START) and pos.off == (0, 0) and pos.bar == (0, 0)


def write_game(
    file: Union[PathLike, IO[str], None],
    start: State,
    moves: Sequence[Union[str, int]],
    tags: Optional[dict[str, str]] = None,
    *,
    result: Optional[str] = None,
    append: bool = True,
) -> Record:
    """Writes one game as a record and returns the :class:`Record`.

    ``start`` is the state the game began from (``Game.new_state(seed)``
    or any position); ``moves`` are its complete turns in the core's
    notation, as ``State.play`` takes them, with the integer chance actions
    in between for an explicit-chance game. ``tags`` adds PDN tags
    (``Event``, ``White``, ``Black``, ...); ``Result``, ``GameType``,
    ``Options`` (non-default game options) and ``FEN`` (a start other than
    the standard one) are filled in. ``file``: a path (appended to unless
    ``append=False``), an open text file, or ``None`` to only build the
    record. Reading the file back with :func:`replay` gives the same game.
    """
    rec = Recorder(start, tags)
    for m in moves:
        if isinstance(m, str):
            rec.play(m)
        else:
            rec.chance(int(m))
    record = rec.record(result)
    if file is not None:
        text = format_record(record)
        if hasattr(file, "write"):
            file.write(text + "\n")
        else:
            path = os.fspath(file)
            exists = append and os.path.exists(path) and os.path.getsize(path) > 0
            with open(path, "a" if append else "w", encoding="utf-8") as fh:
                fh.write(("\n" if exists else "") + text)
    return record


def dumps(records: Iterable[Record]) -> str:
    """PDN text of several records, separated by blank lines."""
    return "\n".join(format_record(r) for r in records)

