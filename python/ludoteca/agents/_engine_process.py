"""A child process spoken to in JSON lines, with a time limit on every answer.

A late answer kills the child's whole process group (an engine it started
included) and raises ``EngineTimeoutError``; a child that dies raises
``EngineCrashError`` with its exit code and the end of its error output.
Either way the next request starts a fresh child. A child that cannot be
spawned at all raises ``EngineStartError``.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Optional, Sequence

from ..errors import EngineCrashError, EngineStartError, EngineTimeoutError

__all__ = ["EngineProcess"]


class EngineProcess:
    """``python -m <module>`` as a request/answer server; ``request(msg, timeout)`` returns its answer."""

    def __init__(self, module: str, name: str, env: Optional[dict[str, str]] = None) -> None:
        self.module = module
        self.name = name
        self.env = env
        self.proc: Optional[subprocess.Popen[bytes]] = None
        self._stderr: Any = None
        self._buffer = b""

    @property
    def running(self) -> bool:
        """Whether the child is alive."""
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        """Starts the child (in its own process group)."""
        self.close()
        self._stderr = tempfile.TemporaryFile()
        env = dict(os.environ)
        env.update(self.env or {})
        # The child imports ludoteca from wherever this process found it.
        env["PYTHONPATH"] = os.pathsep.join([p for p in sys.path + env.get("PYTHONPATH", "").split(os.pathsep) if p])
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", self.module],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                env=env,
                start_new_session=True,
            )
        except OSError as e:  # no interpreter to run, no processes left, ...
            raise EngineStartError(f"{self.name} could not start: {e}") from None
        self._buffer = b""

    def _stderr_tail(self, limit: int = 2000) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        data: bytes = self._stderr.read()
        return data.decode("utf-8", "replace")[-limit:]

    def kill(self) -> None:
        """Kills the child's process group."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
            self.proc.wait()

    def check_alive(self) -> None:
        """Raises ``EngineCrashError`` if the child died since its last answer (then forgets it)."""
        if self.proc is not None and self.proc.poll() is not None:
            self._crashed({"cmd": "(between requests)"})

    def request(self, msg: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Sends ``msg`` and waits at most ``timeout`` seconds for the answer (starting the child if needed)."""
        self.check_alive()
        if not self.running:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write((json.dumps(msg) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._crashed(msg)
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise EngineTimeoutError(f"{self.name} did not answer {msg.get('cmd')!r} within {timeout:g} s; its process was killed")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    self._crashed(msg)
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def _crashed(self, msg: dict[str, Any]) -> None:
        assert self.proc is not None
        try:
            code = self.proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.returncode
        tail = self._stderr_tail()
        self.proc = None
        raise EngineCrashError(f"{self.name} died (exit code {code}) during {msg.get('cmd')!r}; its error output ends: {tail.strip()[-800:]!r}")

    def close(self, commands: Sequence[dict[str, Any]] = ()) -> None:
        """Sends ``commands`` (e.g. a polite quit) with a short limit, then ends the child."""
        if self.running:
            for c in commands:
                try:
                    self.request(c, timeout=2.0)
                except (EngineTimeoutError, EngineCrashError):
                    break
            self.kill()
        self.proc = None
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
