"""The py-draughts side of ``PyDraughtsAgent``, run in its own process.

Why a process: py-draughts and pydraughts both install a top-level module
``draughts`` (so py-draughts may live in its own folder, put first on this
process's path), and an engine that crashes or hangs (a Hub engine, a search
that never returns) must not take the arena with it: the parent kills this
process group when an answer is late.

Protocol: one JSON object per line on stdin, one answer per line on the
original stdout (Python's ``sys.stdout`` is sent to stderr so that nothing
else can corrupt the channel). Commands: ``init``, ``new``, ``push``, ``go``,
``quit``; every answer has ``ok``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import queue
import sys
import threading
import traceback
import types
from typing import Any

BOARDS = {"international": "standard", "russian": "russian", "brazilian": "brazilian"}


def canonical(fen: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """Side to move and the two piece lists of a PDN FEN, order-free (kings keep their K)."""
    fen = fen.strip()
    if fen.startswith("[FEN"):
        fen = fen.split('"')[1]
    side, *lists = fen.split(":")
    pieces: dict[str, list[str]] = {"W": [], "B": []}
    for part in lists:
        if part and part[0] in pieces:
            pieces[part[0]].extend(x for x in part[1:].split(",") if x)
    return side[:1], tuple(sorted(pieces["W"])), tuple(sorted(pieces["B"]))


def hub_engine_class(draughts: Any) -> Any:
    """py-draughts' ``HubEngine`` with a line reader that works when an engine writes several lines at once.

    py-draughts 1.10.1 reads the engine with ``select()`` on the pipe followed by a
    buffered ``readline()``: when the engine writes ``id``, ``param`` and ``wait`` in
    one go, the later lines sit in Python's buffer, ``select()`` never fires again
    and ``start()`` times out. A reader thread feeding a queue fixes that.
    """

    class HubEngine(draughts.HubEngine):  # type: ignore[misc]
        def _read_line(self, timeout: float = 1.0) -> Any:
            process = self.process
            if process is None or process.stdout is None:
                return None
            if getattr(self, "_lines_of", None) is not process:
                self._lines: queue.Queue[str] = queue.Queue()
                self._lines_of = process

                def pump(stream: Any, lines: "queue.Queue[str]") -> None:
                    for line in stream:
                        lines.put(line.strip())

                threading.Thread(target=pump, args=(process.stdout, self._lines), daemon=True).start()
            try:
                return self._lines.get(timeout=timeout)
            except queue.Empty:
                return None

    return HubEngine


class Worker:
    """The engine side of a PyDraughtsAgent: one py-draughts board and engine, driven by JSON messages."""

    def __init__(self) -> None:
        self.board: Any = None
        self.engine: Any = None
        self.is_hub = False

    def init(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Loads py-draughts and builds the engine the message names (built-in or a Hub engine path)."""
        path = msg.get("path")
        if path:
            sys.path.insert(0, path)
        spec = importlib.util.find_spec("draughts")
        folders = list(spec.submodule_search_locations or []) if spec is not None else []
        if not any(os.path.isfile(os.path.join(f, "engines", "turbo.py")) for f in folders):
            where = spec.origin if spec is not None else "nowhere"
            return {"ok": False, "error": f"the module 'draughts' found ({where}) is not py-draughts (pydraughts installs the same name); pass path= or set LUDOTECA_PY_DRAUGHTS to the folder holding py-draughts"}
        # py-draughts' __init__ also imports its web server (fastapi, uvicorn): half the start-up
        # time. Load only the boards and engines, under the package's own name.
        package = types.ModuleType("draughts")
        package.__path__ = folders
        sys.modules["draughts"] = package
        from loguru import logger

        logger.remove()
        boards = importlib.import_module(f"draughts.boards.{BOARDS[msg['variant']]}")
        version = "?"
        try:
            from importlib.metadata import version as dist_version

            version = dist_version("py-draughts")
        except Exception:  # an unpackaged checkout has no metadata; the version is only informative
            pass
        draughts = types.SimpleNamespace(
            TurboEngine=importlib.import_module("draughts.engines.turbo").TurboEngine,
            SimpleEngine=importlib.import_module("draughts.engines.simple").SimpleEngine,
            HubEngine=importlib.import_module("draughts.engines.hub").HubEngine,
            __version__=version,
        )
        self.board_class = boards.Board
        engine, depth, time_limit = msg["engine"], msg.get("depth"), msg.get("time")
        if engine == "turbo":
            self.engine = draughts.TurboEngine(depth_limit=depth, time_limit=time_limit)
        elif engine == "simple":
            self.engine = draughts.SimpleEngine(depth_limit=depth if depth is not None else 64, time_limit=time_limit)
        else:
            self.is_hub = True
            self.engine = hub_engine_class(draughts)(engine, time_limit=time_limit if time_limit is not None else 1.0, depth_limit=depth)
            self.engine.start()
        return {"ok": True, "version": draughts.__version__, "engine": type(self.engine).__name__}

    def new(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Starts a game from the message's position."""
        self.board = self.board_class.from_fen(msg["fen"])
        if canonical(self.board.fen) != canonical(msg["fen"]):
            return {"ok": False, "kind": "position", "error": f"py-draughts read {msg['fen']!r} as {self.board.fen!r}"}
        new_game = getattr(self.engine, "new_game", None)
        if callable(new_game):
            new_game()
        return {"ok": True, "fen": self.board.fen}

    def push(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Plays a move on the engine's board; an engine refusal is reported, not raised."""
        target = canonical(msg["fen"])
        legal = list(self.board.legal_moves)
        for move in legal:
            self.board.push(move)
            if canonical(self.board.fen) == target:
                return {"ok": True, "move": str(move)}
            self.board.pop()
        return {"ok": False, "kind": "refused", "legal": [str(m) for m in legal], "fen": self.board.fen}

    def go(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Asks the engine for its move within the message's depth or time."""
        before = self.board.fen
        result: dict[str, Any] = {}

        def search() -> None:
            try:
                result["move"] = self.engine.get_best_move(self.board)
            except ValueError as e:  # py-draughts' own check of an engine's move (HubEngine)
                result["illegal"] = str(e)
            except Exception as e:  # reported below like any engine failure
                result["error"] = f"{type(e).__name__}: {e}"

        # HubEngine keeps reading a dead engine's pipe forever: watch its process meanwhile.
        thread = threading.Thread(target=search, daemon=True)
        thread.start()
        while thread.is_alive():
            thread.join(0.05)
            if not self.is_hub:
                continue
            process: Any = self.engine.process
            if process is None or process.poll() is not None:
                code = process.returncode if process is not None else None
                return {"ok": False, "kind": "crash", "error": f"the Hub engine exited (code {code}) during its search"}
        if "illegal" in result:
            return {"ok": False, "kind": "illegal", "error": result["illegal"], "fen": before}
        if "error" in result:
            return {"ok": False, "kind": "error", "error": result["error"]}
        move = result["move"]
        if move not in list(self.board.legal_moves):
            return {"ok": False, "kind": "illegal", "error": f"{move} is not among py-draughts' legal moves", "fen": before}
        self.board.push(move)
        return {"ok": True, "move": str(move), "fen": self.board.fen}

    def quit(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Stops the engine (a Hub engine's process too)."""
        quit_engine = getattr(self.engine, "quit", None)
        if callable(quit_engine):
            quit_engine()
        return {"ok": True}


def main() -> None:
    """Serves JSON requests on stdin, one per line, until quit or end of input."""
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    sys.stdout = sys.stderr
    worker = Worker()
    for line in sys.stdin:
        msg = json.loads(line)
        cmd = msg.get("cmd")
        try:
            answer = getattr(worker, cmd)(msg)
        except Exception as e:  # reported to the parent as an engine error, with the traceback
            answer = {"ok": False, "kind": "error", "error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()}
        channel.write(json.dumps(answer) + "\n")
        if cmd == "quit":
            break


if __name__ == "__main__":
    main()
