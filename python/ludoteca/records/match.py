"""Backgammon matches with the doubling cube as match files.

A match played in ludoteca (``Game("backgammon", chance="explicit",
cube=True, match_length=N)``) is a start state and the steps played from it:
move strings as :meth:`State.play` takes them (``"roll"``, ``"double"``,
``"take"``, ``"drop"``, checker moves) and integer chance actions (the
opening roll, the dice). :func:`dumps_mat` / :func:`dumps_sgf` write it as a
Jellyfish ``.mat`` text and as a gnubg ``.sgf`` text (player 0 = the left
column of ``.mat`` = White ``W`` of SGF = gnubg's player 0);
:func:`replay_match` reads a ``.mat`` match back, cube actions included, into
the same steps and every state between them.
"""

from __future__ import annotations

import base64
import os
import re
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence, Union

from .._core import Game, State
from ..errors import LudotecaError, RecordError
from .jellyfish import _GAME, _ITEM, _LENGTH, _ROW, _count, _move, _players
from .pdn import MAX_MOVES, excerpt
from .notation import BackgammonCodec, codec_for

__all__ = ["dumps_mat", "write_mat", "dumps_sgf", "write_sgf", "replay_match", "MatchReplay"]

Step = Union[str, int]


def _match_fields(state: State) -> tuple[int, int, int, int, tuple[int, int]]:
    """(cube value, player on roll, game state, match length, score) of a state's Match ID."""
    mid = state.to_string().split(":")[1]
    bits = int.from_bytes(base64.b64decode(mid + "=" * (-len(mid) % 4)), "little")

    def f(at: int, width: int) -> int:
        return (bits >> at) & ((1 << width) - 1)

    return 1 << f(0, 4), f(6, 1), f(8, 3), f(21, 15), (f(36, 15), f(51, 15))


@dataclass
class _Game:
    score: tuple[int, int]
    events: list[tuple[int, str, tuple[Any, ...]]] = field(default_factory=list)  # (player, kind, data)
    winner: int = -1
    points: int = 0


def _games(start: State, steps: Sequence[Step]) -> tuple[list[_Game], int]:
    """The games of a played match: each player's rolls, moves and cube actions, and its end."""
    if start.to_string().count(":") != 1:
        raise RecordError("match files are written from a backgammon state (Game('backgammon', chance='explicit', cube=True, ...))")
    if start.game.options.get("rules", "standard") != "standard":
        # gnubg reads these files with its own (standard) rules: a reglamento game would not replay.
        raise RecordError("match files hold standard backgammon as gnubg plays it; this game plays rules='reglamento'")
    st = start.clone()
    length = _match_fields(st)[3]
    games = [_Game(_match_fields(st)[4])]
    for i, step in enumerate(steps):
        if st.is_terminal():
            raise RecordError(f"step {i + 1} {step!r}: the match is already over", kind="move after the end")
        before = _match_fields(st)
        g = games[-1]
        if isinstance(step, str) and step == "roll":
            st.play(step)
            continue
        if isinstance(step, str):
            mover = st.current_player
            if step == "double":
                g.events.append((mover, "double", (before[0] * 2,)))
            elif step in ("take", "drop"):
                g.events.append((mover, step, ()))
            elif step == "beaver":
                raise RecordError(f"step {i + 1} 'beaver': beavers (option beavers=True) are not written to match files", kind="move")
            else:
                hi, lo = BackgammonCodec.roll_of(None, st)  # type: ignore[arg-type]
                g.events.append((mover, "move", (hi, lo, step)))
            st.play(step)
        else:
            name = st.action_to_string(int(step))
            nums = [int(x) for x in re.findall(r"(?<![P\d])\d", name)]  # the dice, not P0 / P1
            if name.startswith("opening"):
                if nums[0] == nums[1]:
                    st.apply_action(int(step))  # equal dice: the opening is rolled again
                    continue
                mover = 0 if nums[0] > nums[1] else 1
                hi, lo = max(nums), min(nums)
            else:
                mover, (hi, lo) = before[1], (nums[0], nums[1])
            st.apply_action(int(step))
            if st.is_chance_node() or st.is_terminal() or st.current_player != mover:
                g.events.append((mover, "move", (hi, lo, "")))  # rolled, no legal move
        after = _match_fields(st)
        if after[4] != before[4]:
            gained = [after[4][p] - before[4][p] for p in (0, 1)]
            g.winner = 0 if gained[0] > 0 else 1
            g.points = max(gained)
            if not st.is_terminal():
                games.append(_Game(after[4]))
    if not games[-1].events:
        games.pop()
    return games, length


def _jf_move(move: str) -> str:
    return " ".join(t.replace("bar", "25").replace("off", "0") for t in move.split())


def dumps_mat(start: State, steps: Sequence[Step], names: tuple[str, str] = ("White", "Black")) -> str:
    """A played cube match (start state, then the steps played) as a Jellyfish ``.mat`` text.

    A money game (``match_length=0``) is written as gnubg writes a money
    session, a ``0 point match``.
    """
    games, length = _games(start, steps)
    out = ["", f" {length} point match", ""]
    for n, g in enumerate(games, 1):
        out.append(f" Game {n}")
        out.append(f" {names[0]} : {g.score[0]}".ljust(32) + f"{names[1]} : {g.score[1]}")
        cells: list[str] = []
        for player, kind, data in g.events:
            if len(cells) % 2 != player:
                cells.append("")
            if kind == "move":
                hi, lo, move = data
                cells.append(f"{hi}{lo}: {_jf_move(move)}".rstrip() if move else f"{hi}{lo}:")
            else:
                cells.append({"double": f" Doubles => {data[0] if data else ''}", "take": " Takes", "drop": " Drops"}[kind])
        for row in range(0, len(cells), 2):
            left = cells[row]
            right = cells[row + 1] if row + 1 < len(cells) else ""
            # gnubg's importer needs the left column padded even when the right one is empty.
            out.append(f"{row // 2 + 1:3d}) " + left.ljust(28) + right)
        if g.winner >= 0:
            last = n == len(games) and max(g.score) + g.points >= length > 0 and g.score[g.winner] + g.points >= length
            words = f"Wins {g.points} point{'s' if g.points != 1 else ''}{' and the match' if last else ''}"
            out.append((" " * 33 if g.winner else " " * 6) + words)
        out.append("")
    return "\n".join(out) + "\n"


def write_mat(file: Union[str, os.PathLike[str]], start: State, steps: Sequence[Step], names: tuple[str, str] = ("White", "Black")) -> None:
    """Writes :func:`dumps_mat` to a file."""
    with open(os.fspath(file), "w", encoding="utf-8") as fh:
        fh.write(dumps_mat(start, steps, names))


def _sgf_point(player: int, tok: str) -> str:
    if tok == "bar":
        return "y"
    if tok == "off":
        return "z"
    p = int(tok)
    return chr(ord("a") + (p if player == 0 else 25 - p) - 1)


def dumps_sgf(start: State, steps: Sequence[Step], names: tuple[str, str] = ("White", "Black")) -> str:
    """A played cube match as a gnubg ``.sgf`` text: one game tree per game.

    A money game (``match_length=0``) is written without ``RU[Crawford]``;
    the Jacoby rule is not written (``RU[Jacoby]``), as the state does not
    say whether it was on.
    """
    games, length = _games(start, steps)

    def esc(s: str) -> str:
        return s.replace("\\", "\\\\").replace("]", "\\]")

    trees = []
    for n, g in enumerate(games):
        head = (f"(;FF[4]GM[6]CA[UTF-8]AP[ludoteca]MI[length:{length}][game:{n}][ws:{g.score[0]}][bs:{g.score[1]}]"
                f"PW[{esc(names[0])}]PB[{esc(names[1])}]" + ("RU[Crawford]" if length else ""))
        if g.winner >= 0:
            head += f"RE[{'WB'[g.winner]}+{g.points}]"
        nodes = [head]
        for player, kind, data in g.events:
            c = "WB"[player]
            if kind == "move":
                hi, lo, move = data
                pts = "".join(_sgf_point(player, a) + _sgf_point(player, b) for a, _, b in (t.partition("/") for t in move.split()))
                nodes.append(f";{c}[{hi}{lo}{pts}]")
            else:
                nodes.append(f";{c}[{kind}]")
        trees.append("\n".join(nodes) + ")")
    return "\n".join(trees) + "\n"


def write_sgf(file: Union[str, os.PathLike[str]], start: State, steps: Sequence[Step], names: tuple[str, str] = ("White", "Black")) -> None:
    """Writes :func:`dumps_sgf` to a file."""
    with open(os.fspath(file), "w", encoding="utf-8") as fh:
        fh.write(dumps_sgf(start, steps, names))


@dataclass
class MatchReplay:
    """A ``.mat`` match replayed with the doubling cube.

    ``states``: the start, then the state after every step; ``steps``: what
    was played (move strings and chance actions, as :func:`dumps_mat` takes
    them); ``game``: the cube game replayed; ``scores``: the score written at
    the start of each game; ``winners`` / ``points``: each game's end as
    written (``-1`` / ``0`` when the file gives none); ``starts``: per game,
    the index in ``states`` and the index in ``steps`` where it begins (a
    money session starts each game from a new state, see :func:`replay_match`).
    """

    game: Game
    states: list[State]
    steps: list[Step]
    scores: list[tuple[int, int]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    starts: list[tuple[int, int]] = field(default_factory=list)

    @property
    def final(self) -> State:
        """The last state replayed."""
        return self.states[-1]


def _parse(text: str, source: str = "<string>") -> tuple[int, list[dict[str, Any]]]:
    """(match length, games as {score, split, events: (row, player, kind, text)})."""
    m = _LENGTH.search(text)
    if not m:
        raise RecordError(f"{source}: not a Jellyfish match: no 'N point match' line", source=source)
    length = _count(m.group(1), "match length", source, text.count("\n", 0, m.start()) + 1)
    games: list[dict[str, Any]] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        g = _GAME.match(line)
        if g:
            header = lines[i + 1] if i + 1 < len(lines) else ""
            names = _players(header)
            split = names[1][2] if len(names) >= 2 else 33
            score = (_count(names[0][1], "score", source, i + 2), _count(names[1][1], "score", source, i + 2)) if len(names) >= 2 else None
            games.append({"number": _count(g.group(1), "game number", source, i + 1), "score": score, "split": split, "events": [], "winner": -1, "points": 0})
            continue
        if not games:
            continue
        cur = games[-1]
        row = _ROW.match(line)
        start = row.start(2) if row else 0
        number = _count(row.group(1), "move number", source, i + 1) if row else None
        items = list(_ITEM.finditer(line, start))
        if len(cur["events"]) + len(items) > MAX_MOVES:
            raise RecordError(f"{source} line {i + 1}: more than {MAX_MOVES:,} moves and cube actions in one game", kind="syntax", source=source)
        for k, it in enumerate(items):
            end = items[k + 1].start() if k + 1 < len(items) else len(line)
            player = 1 if it.start() >= cur["split"] - 2 else 0
            if it.group("roll"):
                cur["events"].append((number, player, "move", line[it.start() : end].strip()))
            elif it.group("cube"):
                word = it.group(0).split()[0].lower()
                kind = {"doubles": "double", "double": "double", "takes": "take", "take": "take", "drops": "drop"}.get(word, word)
                cur["events"].append((number, player, kind, it.group(0)))
            elif it.group("resign"):
                cur["events"].append((number, player, "resign", it.group(0)))
            elif it.group("wins"):
                cur["winner"], cur["points"] = player, _count(it.group("points"), "points", source, i + 1)
    return length, games


def replay_match(source: Union[str, os.PathLike[str]], *, text: Optional[str] = None, jacoby: bool = False) -> MatchReplay:
    """Replays a Jellyfish ``.mat`` match with the doubling cube (``cube=True``).

    ``source`` is the file (or, with ``text=``, the name used in errors).
    A ``0 point match`` is a money session: ludoteca's money game is one
    game, so each game is replayed from a new money state (``jacoby`` says
    whether the session used the Jacoby rule, which a ``.mat`` file does not
    record); game k then plays ``steps[starts[k][1] : starts[k + 1][1]]``
    from ``states[starts[k][0]]``. The written money scores are not checked
    against a state (a money state has none); the points of each game are.
    A step that cannot be played raises :class:`~ludoteca.errors.RecordError`
    naming the file, the game, the move number, the move as written, the
    position and the legal moves; so does a game whose written score or
    result differs from the replay. Resignations cannot be replayed
    (ludoteca has no resign action) and are refused the same way.
    """
    name = os.fspath(source)
    if text is None:
        with open(name, "rb") as fh:
            text = fh.read().decode("utf-8", errors="replace")
    length, games = _parse(text, name)
    try:
        game = Game("backgammon", chance="explicit", cube=True, match_length=length, **({"jacoby": True} if jacoby and length == 0 else {}))
    except LudotecaError as err:
        raise RecordError(f"{name}: a {length} point match cannot be replayed: {excerpt(str(err), 200, quote=False)}", kind="game type", source=name) from None
    codec = codec_for(game)
    st = game.new_state(seed=0)
    out = MatchReplay(game, [st.clone()], [])

    def fail(g: dict[str, Any], number: Optional[int], written: str, why: str, kind: str = "illegal move") -> RecordError:
        legal = st.legal_moves() if not st.is_terminal() and not st.is_chance_node() else []
        shown = ", ".join(legal[:40]) + (f", ... ({len(legal)} in all)" if len(legal) > 40 else "")
        num = f"{number}" if number is not None else "?"
        return RecordError(
            f"{name}: game {g['number']}, move {num} {excerpt(written)}: {why} at {st.to_string()!r}; "
            f"legal moves: {shown or ('none (the match is over)' if st.is_terminal() else 'the dice are rolled first')}",
            kind=kind, source=name, tags={"Round": f"Game {g['number']}"}, number=num, move=written,
            position=st.to_string(), legal_moves=legal,
        )

    def step(s: Step) -> None:
        nonlocal st
        if isinstance(s, str):
            st.play(s)
        else:
            st.apply_action(s)
        out.steps.append(s)
        out.states.append(st.clone())

    for k, g in enumerate(games):
        if length == 0 and k > 0:
            st = game.new_state(seed=0)
            out.states.append(st.clone())
        out.starts.append((len(out.states) - 1, len(out.steps)))
        fields = _match_fields(st)
        if st.is_terminal():
            raise fail(g, None, f"Game {g['number']}", "the match is already over", "move after the end")
        if g["score"] is not None and length > 0 and fields[4] != g["score"]:
            raise fail(g, None, f"Game {g['number']}", f"the score written is {g['score'][0]}-{g['score'][1]}, the replay has {fields[4][0]}-{fields[4][1]}", "score")
        out.scores.append(fields[4])
        out.winners.append(g["winner"])
        out.points.append(g["points"])
        for e, (number, player, kind, written) in enumerate(g["events"]):
            if st.is_terminal() or _match_fields(st)[4] != fields[4]:
                raise fail(g, number, written, "the game is already over", "move after the end")
            if kind == "resign":
                raise fail(g, number, written, "a resignation cannot be replayed (ludoteca has no resign action)", "resignation")
            if kind in ("double", "take", "drop"):
                if kind not in (st.legal_moves() if not st.is_chance_node() else []):
                    raise fail(g, number, written, f"{'double' if kind == 'double' else kind} is not legal here")
                step(kind)
                continue
            if kind != "move" and kind not in ("double", "take", "drop"):
                raise fail(g, number, written, f"{kind} is not supported", "unknown move")
            roll, moves = BackgammonCodec.split(written.replace(":", ": ", 1))
            if not st.is_chance_node() and "roll" in (st.legal_moves() if not st.is_terminal() else []):
                step("roll")
            if not st.is_chance_node() or roll is None:
                raise fail(g, number, written, "not a legal move")
            hi, lo = max(roll), min(roll)
            outcomes = {st.action_to_string(a): a for a, _ in st.chance_outcomes()}
            opening = any(k.startswith("opening") for k in outcomes)
            if opening:
                key = f"opening P0 {lo} P1 {hi}" if player else f"opening P0 {hi} P1 {lo}"
            else:
                key = f"roll {hi}-{lo}"
            if key not in outcomes or (opening and hi == lo):
                raise fail(g, number, written, "not a roll that can be played here")
            step(outcomes[key])
            jf = _move(moves)
            if st.is_chance_node() or st.is_terminal() or st.current_player != player:
                if jf:
                    raise fail(g, number, written, "the roll has no legal move")
                continue
            if not jf and e == len(g["events"]) - 1 and g["winner"] < 0:
                break  # the file stops after a roll (gnubg writes the opening roll of the next game)
            cands = codec.candidates(st, jf, bool(player)) if jf else []
            if len(cands) != 1:
                raise fail(g, number, written, "not a legal move")
            # The step is the legal move in the core's notation (the file may write hits, chains, one die off).
            target = cands[0].state.to_string()
            for legal in st.legal_moves():
                trial = st.clone()
                trial.play(legal)
                if trial.to_string() == target:
                    step(legal)
                    break
        after = _match_fields(st)[4]
        gained = [after[p] - fields[4][p] for p in (0, 1)]
        if g["winner"] >= 0 and (gained[g["winner"]] != g["points"] or gained[1 - g["winner"]] != 0):
            raise fail(g, None, f"Wins {g['points']}", f"the replay ends the game {after[0] - fields[4][0]}-{after[1] - fields[4][1]}", "result")
    return out
