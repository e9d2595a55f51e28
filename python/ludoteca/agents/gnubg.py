"""GNU Backgammon as an agent, through the ``gnubg`` package on PyPI (``pip install 'ludoteca[gnubg]'``).

ludoteca's backgammon position string is gnubg's own ``PositionID:MatchID``,
so the board and dice go to gnubg as they are. Every move gnubg picks is
checked against ludoteca's rules: it is replayed decision by decision and
must end on one of ``state.legal_moves()``; otherwise ``EngineRulesError``.

gnubg's Python binding cuts a move tuple at the first checker borne off
(``(3,)`` for 3-3 bearing off four checkers): the steps before the cut are
replayed, and when several legal moves continue that prefix, the one gnubg
ranks best is taken by evaluating each candidate position with the same
evaluation context (what ``find_best_move`` does among its candidates).

Checker play: a single game (``match_length`` 1) is played for money
equity, so gammons and backgammons count; a longer match passes gnubg the
match length, score and cube.

Cube decisions (option ``cube=True``): the package's ``hint()`` answers
"Hints for cube actions not yet implemented", so they go through gnubg's own
command interpreter: the position string is set with ``set board`` and
``set matchid`` and gnubg's ``hint`` command prints its cube analysis; the
agent plays its "Proper cube action" (the doubler's part before the comma,
the taker's after it). gnubg's interpreter is set to one thread
(``set threads 1``: its threaded cube evaluation never returns inside the
package) and prints to the process's standard output, which is captured.
The agent leaves the interpreter with both players human, one thread, its
default automatic rolls, Jacoby and beaver settings, and a new money session (``gnubg.met()`` answers for the
current match length: a match left behind would shrink it).
"""

from __future__ import annotations

import base64
import contextlib
import ctypes
import io
import os
import re
import tempfile
from typing import Any, Sequence

from .._core import State
from ..errors import EngineRulesError, OptionError
from . import BaseAgent

__all__ = ["GnubgAgent"]


def _decode_match_id(match_id: str) -> dict[str, Any]:
    bits = int.from_bytes(base64.b64decode(match_id + "=" * (-len(match_id) % 4)), "little")
    return {
        "cube": 1 << (bits & 15),
        "owner": -1 if (bits >> 4) & 3 == 3 else (bits >> 4) & 3,
        "crawford": (bits >> 7) & 1,
        "turn": (bits >> 11) & 1,
        "dice": ((bits >> 15) & 7, (bits >> 18) & 7),
        "match_length": (bits >> 21) & 0x7FFF,
        "score0": (bits >> 36) & 0x7FFF,
        "score1": (bits >> 51) & 0x7FFF,
    }


def _interpreter(gnubg: Any, commands: Sequence[str]) -> str:
    """Runs gnubg interpreter commands and returns what they print: gnubg writes
    through Python's ``sys.stdout`` inside the package and to file descriptor 1
    otherwise, so both are captured."""
    libc = ctypes.CDLL(None)
    libc.fflush(None)
    saved = os.dup(1)
    text = io.StringIO()
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            with contextlib.redirect_stdout(text):
                for command in commands:
                    gnubg.command(command)
        finally:
            libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        return text.getvalue() + tmp.read().decode("utf-8", errors="replace")


class GnubgAgent(BaseAgent):
    """GNU Backgammon's move choice at ``plies`` 0, 1 or 2 (0-ply: the neural net alone).

    ``checks`` counts the engine moves checked against ludoteca's rules.
    Deterministic (``deterministic=1``, no noise).
    """

    needs_game_id = True

    def __init__(self, plies: int = 0, game_id: str | None = "backgammon", seed: int = 0) -> None:
        super().__init__(seed)
        if game_id not in (None, "backgammon"):
            raise OptionError(f"gnubg plays backgammon only, not {game_id!r}")
        if plies not in (0, 1, 2):
            raise OptionError(f"gnubg plies must be 0, 1 or 2, got {plies!r}")
        try:
            import gnubg
        except ImportError:
            raise OptionError("the gnubg agent needs the gnubg package: pip install 'ludoteca[gnubg]'") from None
        self._gnubg = gnubg
        self.plies = plies
        self.name = f"gnubg:plies={plies}"
        self._context = gnubg.eval_context(0, plies, 1, 0, 0.0)
        self.checks = {"engine_moves": 0}

    def _cube(self, info: dict[str, Any]) -> Any:
        if info["match_length"] == 1 or (info["match_length"] == 0 and info["cube"] == 1 and info["owner"] == -1):
            return self._gnubg.cube_info()
        return self._gnubg.cube_info(
            info["cube"], info["owner"], info["turn"], info["match_length"], (info["score0"], info["score1"]), info["crawford"], 0
        )

    def act(self, state: State) -> str:
        """gnubg's best complete move for the dice of ``state``, in ludoteca's notation."""
        text = state.to_string()
        if state.game.id == "backgammon" and state.game.options.get("rules", "standard") != "standard":
            raise OptionError("gnubg plays the standard rules only, not rules='reglamento'")
        if state.game.id == "backgammon" and not state.is_terminal() and state.legal_moves()[0] in ("roll", "take"):
            return self._cube_decision(state)
        fields = text.split(":")
        if state.game.id != "backgammon" or len(fields) != 2:
            raise OptionError(f"gnubg plays whole backgammon turns from their start; got {state.game.id} {text!r}")
        position_id, match_id = fields
        info = _decode_match_id(match_id)
        board = self._gnubg.position_from_id(position_id)
        cube = self._cube(info)
        steps = tuple(self._gnubg.find_best_move(board, cube, self._context, info["dice"]))
        move = self._to_ludoteca(state, steps, cube, text)
        self.checks["engine_moves"] += 1
        return move

    def _cube_decision(self, state: State) -> str:
        """gnubg's proper cube action through its command interpreter (module docstring)."""
        legal = state.legal_moves()
        position_id, match_id = state.to_string().split(":")[:2]
        options = state.game.options
        commands = [
            "set threads 1",
            "set player 0 human",
            "set player 1 human",
            "set automatic roll off",
            f"set jacoby {'on' if options.get('jacoby') else 'off'}",
            f"set beavers {'on' if options.get('beavers') else 'off'}",
            f"set evaluation cubedecision evaluation plies {self.plies}",
            "new session",
            f"set board {position_id}",
            f"set matchid {match_id}",
            "hint",
            # Leave gnubg's defaults (automatic rolls, Jacoby, beavers) and no
            # match behind (gnubg.met() answers for the current match length).
            "set automatic roll on",
            "set jacoby on",
            "set beavers 3",
            "new session",
        ]
        out = _interpreter(self._gnubg, commands)
        found = re.search(r"Proper cube action: ([^(\n]*)", out)
        if found is None:
            raise EngineRulesError(
                "gnubg gave no cube action", game_id="backgammon", position=state.to_string(), move=out[-300:], legal=legal, engine=self.name
            )
        doubler, _, taker = (part.strip().lower() for part in found.group(1).partition(","))
        self.checks["cube_decisions"] = self.checks.get("cube_decisions", 0) + 1
        if "roll" in legal:
            # "Double", "Redouble" and "Optional (re)double" double; "No", "Too good", "Never" roll.
            return "double" if re.match(r"(optional )?(re)?double", doubler) else "roll"
        if "pass" in taker:
            return "drop"
        return "beaver" if "beaver" in taker and "beaver" in legal else "take"

    def _to_ludoteca(self, state: State, steps: Sequence[int], cube: Any, text: str) -> str:
        legal = state.legal_moves()
        children: dict[str, str] = {}
        for m in legal:
            child = state.clone()
            child.play(m)
            children[child.to_string()] = m
        pairs = list(zip(steps[0::2], steps[1::2]))
        cut = len(steps) % 2 == 1  # the binding stopped at a bear-off: last source known, rest unknown
        gnubg_text = " ".join(f"{'bar' if a == 25 else a}/{'off' if b <= 0 else b}" for a, b in pairs)
        if cut:
            gnubg_text += f" {steps[-1]}/off ..."
        partial = state.clone()
        mover = partial.current_player
        try:
            for frm, to in pairs:
                partial.apply_action(self._action(partial, frm, to))
        except (ValueError, KeyError):
            raise EngineRulesError(
                "gnubg's move is not legal in ludoteca", game_id="backgammon", position=text, move=gnubg_text, legal=legal, engine=self.name
            ) from None
        if not cut and (partial.current_player == mover and not partial.is_terminal()):
            raise EngineRulesError(
                "gnubg's move leaves dice ludoteca says must be played", game_id="backgammon", position=text, move=gnubg_text, legal=legal, engine=self.name
            )
        if not cut:
            result = children.get(partial.to_string())
            if result is None:
                raise EngineRulesError(
                    "gnubg's move ends on a position no legal move reaches", game_id="backgammon", position=text, move=gnubg_text, legal=legal, engine=self.name
                )
            return result
        candidates = self._completions(partial, steps[-1], mover)
        found = {children[c] for c in candidates if c in children}
        if not found:
            raise EngineRulesError(
                "no legal move continues gnubg's move", game_id="backgammon", position=text, move=gnubg_text, legal=legal, engine=self.name
            )
        if len(found) == 1:
            return found.pop()
        return max(sorted(found), key=lambda m: self._equity_after(state, m, cube))

    @staticmethod
    def _action(state: State, frm: int, to: int) -> int:
        """The ludoteca decision moving one checker from gnubg's ``frm`` to ``to`` (0 = off, 25 = bar)."""
        source = 0 if frm == 25 else frm
        for a in state.legal_actions():
            a = int(a)
            src, die = divmod(a, 6)
            if src == source and (frm - die - 1 == to or (to <= 0 and frm - die - 1 <= 0)):
                if to > 0 or "off" in state.action_to_string(a):
                    return a
        raise KeyError((frm, to))

    def _completions(self, partial: State, source: int, mover: int) -> set[str]:
        """Positions reached by bearing off from ``source`` with any die that allows it, then any legal rest."""
        out: set[str] = set()
        for a in partial.legal_actions():
            a = int(a)
            if a // 6 != source or "off" not in partial.action_to_string(a):
                continue
            s = partial.clone()
            s.apply_action(a)
            if s.current_player != mover or s.is_terminal():
                out.add(s.to_string())
                continue
            for rest in s.legal_moves():
                t = s.clone()
                t.play(rest)
                out.add(t.to_string())
        return out

    def _equity_after(self, state: State, move: str, cube: Any) -> float:
        child = state.clone()
        child.play(move)
        if child.is_terminal():
            return 10.0 + float(child.returns()[state.current_player])
        position_id = child.to_string().split(":")[0]
        # After the move the opponent is on roll: gnubg evaluates for them, so negate.
        probs = self._gnubg.evaluate(self._gnubg.position_from_id(position_id), cube, self._context)
        return -float(probs[5]) if len(probs) > 5 else -(2 * probs[0] - 1 + probs[1] - probs[3] + probs[2] - probs[4])
