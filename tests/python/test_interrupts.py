"""Ctrl-C during long native calls: each raises KeyboardInterrupt promptly and leaves its object usable.

Each case runs in a child process that starts a call lasting minutes, is sent
SIGINT after half a second, and reports how long the interrupt took to
arrive and whether the object still worked afterwards.
"""

from __future__ import annotations

import json
import selectors
import signal
import subprocess
import sys
import time

import pytest

import ludoteca

# Each child prints READY, then makes a call that would last minutes; after the interrupt it
# checks the object still answers and prints a JSON line.
CHILD = r"""
import json, sys, time
import ludoteca
from ludoteca._core import alphabeta_search, expectimax_search

case = sys.argv[1]
if case == "rollout":
    venv = ludoteca.VecEnv("backgammon", num_envs=64, seed=0, num_threads=1)
    venv.reset()
    call = lambda: venv.rollout(10**8)
    after = lambda: venv.rollout(10)["steps"] == 640
elif case == "mcts":
    search = ludoteca.MCTS("tablut", 10**7, num_threads=2, seed=0)
    root = ludoteca.Game("tablut").new_state(0)
    call = lambda: search.search([root, root.clone()])

    class Enough(Exception):
        pass

    def evaluate(obs, mask):
        # The next search starts afresh from the new roots: it asks for them, then is stopped.
        assert obs.shape[0] == 3 and mask.any(axis=1).all()
        raise Enough

    def after():
        try:
            search.search([root, root.clone(), root.clone()], evaluate)
        except Enough:
            return search.simulations == 10**7
        return False
elif case == "alphabeta":
    root = ludoteca.Game("tablut").new_state(0)
    call = lambda: alphabeta_search(root, depth=40, tt_size=1 << 16)
    after = lambda: alphabeta_search(root, depth=1)["move"] in root.legal_moves()
elif case == "expectimax":
    root = ludoteca.Game("backgammon").new_state(0)
    call = lambda: expectimax_search(root, plies=4, filter=0)
    after = lambda: expectimax_search(root, plies=0)["move"] in root.legal_moves()
print("READY", flush=True)
t0 = time.monotonic()
try:
    call()
    print(json.dumps({"interrupted": False}))
except KeyboardInterrupt:
    print("INTERRUPTED", flush=True)
    print(json.dumps({"interrupted": True, "usable": bool(after())}), flush=True)
"""


def _line(proc: "subprocess.Popen[str]", seconds: float) -> str:
    """The child's next line, or "" if none comes within ``seconds``."""
    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(seconds):
            return ""
    return proc.stdout.readline()


@pytest.mark.parametrize("case", ["rollout", "mcts", "alphabeta", "expectimax"])
def test_ctrl_c_interrupts_a_long_native_call_promptly_and_leaves_the_object_usable(case: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, case],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # As a terminal starts it: a suite run in the background passes SIGINT on ignored,
        # and Python then installs no KeyboardInterrupt handler at all.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert _line(proc, 60).strip() == "READY"
        time.sleep(0.5)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        first = _line(proc, 10)
        arrived = time.monotonic() - sent
        assert first.strip() == "INTERRUPTED", f"no KeyboardInterrupt within 10 s of SIGINT: {first!r}"
        line = _line(proc, 60)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert line, proc.stderr.read() if proc.stderr else ""
    report = json.loads(line)
    assert report["interrupted"] and report["usable"], report
    # Within a fraction of a second (a few tens of milliseconds on an idle machine); the bound is
    # loose for a machine busy with other work.
    print(f"{case}: KeyboardInterrupt {arrived * 1000:.0f} ms after SIGINT")
    assert arrived < 2.0, arrived


def test_a_rollout_in_pieces_plays_the_games_of_one_call() -> None:
    # Interrupting a rollout rests on this: its chunks continue each env's own games.
    one = ludoteca.VecEnv("checkers", num_envs=3, seed=5, max_turns=30, num_threads=1)
    two = ludoteca.VecEnv("checkers", num_envs=3, seed=5, max_turns=30, num_threads=1)
    one.reset()
    two.reset()
    whole = one.rollout(700)
    parts = [two.rollout(n) for n in (1, 299, 400)]
    assert {k: sum(p[k] for p in parts) for k in whole} == whole
    assert [one.state(i).to_string() for i in range(3)] == [two.state(i).to_string() for i in range(3)]
