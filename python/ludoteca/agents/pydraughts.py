"""py-draughts' engines (and Hub-protocol engines such as Scan) as agents.

``pip install 'ludoteca[pydraughts]'`` installs py-draughts (PyPI ``py-draughts``,
module ``draughts``). It plays ``international``, ``russian`` and ``brazilian``:
py-draughts implements those rule sets itself. ``checkers`` is left out because
py-draughts' ``american`` variant is not English checkers: its captures are
optional (``captures_optional=True`` in ``draughts/boards/american.py``) and
White moves first, while in checkers captures are compulsory and Black moves
first.

The engine runs in a child process (see ``_pydraughts_worker``): py-draughts
and ``pydraughts`` both install a module named ``draughts``, and a hung or
crashed engine must not stop the arena. Point ``path`` (or the environment
variable ``LUDOTECA_PY_DRAUGHTS``) at a folder holding py-draughts when it is
not the ``draughts`` found on the normal path (``pip install --target DIR
py-draughts``).

Every move is a rules check, both ways: the engine's move must lead to a
position ludoteca lists among the children of the current one, and the
opponent's move (from ludoteca) must be one py-draughts accepts; otherwise
``EngineRulesError`` with the position string, the move and ludoteca's legal
moves. Positions are compared, not move spellings, so the two notations never
need to agree on how a capture is written.
"""

from __future__ import annotations

import os
from typing import Any, Optional

from .._core import Game, State
from ..errors import EngineCrashError, EngineError, EngineRulesError, EngineStartError, EngineTimeoutError, OptionError
from . import BaseAgent
from ._engine_process import EngineProcess

__all__ = ["PyDraughtsAgent", "VARIANTS", "to_py_draughts_fen"]

VARIANTS = ("international", "russian", "brazilian")
# The strongest py-draughts engine per game: TurboEngine plays only the 10x10 board.
DEFAULT_ENGINE = {"international": "turbo", "russian": "simple", "brazilian": "simple"}


def to_py_draughts_fen(position: str) -> str:
    """ludoteca's turn-boundary position string (``W:B1,2:W31,K40``) as a PDN FEN py-draughts reads."""
    head = position.split(";")[0]
    side, *lists = head.split(":")
    parts = {p[0]: p[1:] for p in lists if p}
    return f"{side}:W{parts.get('W', '')}:B{parts.get('B', '')}"


def _from_py_draughts_fen(fen: str) -> str:
    fen = fen.strip()
    if fen.startswith("[FEN"):
        fen = fen.split('"')[1]
    side, *lists = fen.split(":")
    parts = {p[0]: p[1:] for p in lists if p}

    def squares(text: str) -> str:
        items = [x for x in text.split(",") if x]
        return ",".join(sorted(items, key=lambda x: int(x.lstrip("K"))))

    return f"{side}:B{squares(parts.get('B', ''))}:W{squares(parts.get('W', ''))}"


class PyDraughtsAgent(BaseAgent):
    """A py-draughts engine: ``engine="turbo"`` (international only), ``"simple"``, or the path of a
    Hub-protocol engine (international only, as py-draughts' ``HubEngine`` speaks the 10x10 protocol).

    ``depth`` and/or ``time`` (seconds per move) limit the search; neither: ``time=0.1``.
    ``timeout``: seconds to wait for a move before the engine is killed and
    ``EngineTimeoutError`` raised (default ``10 + 5 * time``, or 120 with a depth
    limit only). ``checks`` counts engine moves and opponent moves checked.
    """

    needs_game_id = True

    def __init__(
        self,
        game_id: Optional[str] = None,
        engine: Optional[str] = None,
        depth: Optional[int] = None,
        time: Optional[float] = None,
        timeout: Optional[float] = None,
        path: Optional[str] = None,
        seed: int = 0,
    ) -> None:
        super().__init__(seed)
        if game_id not in VARIANTS:
            raise OptionError(
                f"pydraughts plays {', '.join(VARIANTS)}, not {game_id!r} (py-draughts' american variant is not "
                "English checkers: its captures are optional and White moves first)"
            )
        engine = engine or DEFAULT_ENGINE[game_id]
        is_hub = engine not in ("turbo", "simple")
        if is_hub and not os.path.isfile(engine):
            raise OptionError(f"pydraughts engine must be 'turbo', 'simple' or the path of a Hub engine; {engine!r} is no file")
        if (engine == "turbo" or is_hub) and game_id != "international":
            raise OptionError(f"pydraughts engine {engine!r} plays only international (10x10); use engine=simple for {game_id}")
        if depth is not None and (not isinstance(depth, int) or depth < 1):
            raise OptionError(f"pydraughts depth must be a positive integer, got {depth!r}")
        if time is not None and not (isinstance(time, (int, float)) and time > 0):
            raise OptionError(f"pydraughts time must be a positive number of seconds, got {time!r}")
        if depth is None and time is None:
            time = 0.1
        self.game = Game(game_id)
        self.engine = os.path.abspath(engine) if is_hub else engine
        self.depth, self.time = depth, (float(time) if time is not None else None)
        self.timeout = float(timeout) if timeout is not None else (10.0 + 5.0 * self.time if self.time else 120.0)
        self.path = path or os.environ.get("LUDOTECA_PY_DRAUGHTS")
        limits = ",".join(f"{k}={v:g}" for k, v in (("depth", depth), ("time", time)) if v is not None)
        self.name = f"pydraughts:engine={os.path.basename(engine) if is_hub else engine},{limits}"
        self.checks = {"engine_moves": 0, "opponent_moves": 0}
        self._proc = EngineProcess("ludoteca.agents._pydraughts_worker", self.name)
        self._expect: Optional[str] = None  # ludoteca string after the engine's last move

    def _request(self, msg: dict[str, Any], timeout: Optional[float] = None) -> dict[str, Any]:
        self._proc.check_alive()
        if not self._proc.running:
            self._expect = None
            # A failure here (py-draughts missing, the worker dying or hanging while it loads)
            # is a start failure: the arena voids such games instead of scoring forfeits.
            try:
                answer = self._proc.request(
                    {"cmd": "init", "variant": self.game.id, "engine": self.engine, "depth": self.depth, "time": self.time, "path": self.path},
                    timeout=120.0,
                )
            except (EngineCrashError, EngineTimeoutError) as e:
                raise EngineStartError(f"{self.name} could not start: {e}") from None
            if not answer.get("ok"):
                self._proc.close()
                raise EngineStartError(f"{self.name} could not start: {answer.get('error')}")
        return self._proc.request(msg, timeout if timeout is not None else self.timeout)

    def _sync(self, state: State, text: str) -> None:
        """Brings py-draughts' board to ``text``: by the opponent's move when it follows the engine's
        last move (checking that py-draughts accepts it), else by setting the position up."""
        if self._expect is not None and self._proc.running:
            before = self.game.state_from_string(self._expect)
            for move in before.legal_moves():
                child = before.clone()
                child.play(move)
                if child.to_string() == text:
                    answer = self._request({"cmd": "push", "fen": to_py_draughts_fen(text)})
                    if not answer.get("ok"):
                        raise EngineRulesError(
                            f"py-draughts refuses this move (its legal moves: {', '.join(answer.get('legal', []))})",
                            game_id=self.game.id, position=self._expect, move=move, legal=before.legal_moves(), engine=self.name,
                        )
                    self.checks["opponent_moves"] += 1
                    return
        answer = self._request({"cmd": "new", "fen": to_py_draughts_fen(text)})
        if not answer.get("ok"):
            raise EngineError(f"{self.name}: {answer.get('error')}")

    def act(self, state: State) -> str:
        """The engine's move for ``state`` (a turn boundary), in ludoteca's notation."""
        if state.game.id != self.game.id:
            raise OptionError(f"this pydraughts agent plays {self.game.id}, got a {state.game.id} state")
        text = state.to_string()
        if ";" in text:
            raise OptionError(f"pydraughts plays whole turns from their start; got the mid-turn position {text!r}")
        self._sync(state, text)
        answer = self._request({"cmd": "go"})
        legal = state.legal_moves()
        if not answer.get("ok"):
            if answer.get("kind") == "illegal":
                raise EngineRulesError(
                    f"the engine's move is not legal in py-draughts either: {answer.get('error')}",
                    game_id=self.game.id, position=text, move="?", legal=legal, engine=self.name,
                )
            if answer.get("kind") == "crash":
                self._proc.kill()
                raise EngineCrashError(f"{self.name} at {text!r}: {answer.get('error')}")
            raise EngineError(f"{self.name} failed at {text!r}: {answer.get('error')}")
        children = {}
        for m in legal:
            child = state.clone()
            child.play(m)
            children[child.to_string()] = m
        try:
            after = self.game.state_from_string(_from_py_draughts_fen(answer["fen"])).to_string()
        except ValueError:
            after = _from_py_draughts_fen(answer["fen"])
        move = children.get(after)
        if move is None:
            self._expect = None
            raise EngineRulesError(
                f"the engine's move leads to {after!r}, which no legal move reaches",
                game_id=self.game.id, position=text, move=str(answer.get("move")), legal=legal, engine=self.name,
            )
        self.checks["engine_moves"] += 1
        self._expect = after
        return move

    def close(self) -> None:
        """Ends the engine process (a new one starts if the agent is asked again)."""
        self._proc.close([{"cmd": "quit"}])
        self._expect = None

    def __del__(self) -> None:
        try:
            self._proc.kill()
        except Exception:  # interpreter shutdown: nothing left to clean
            pass
