"""``Baseline`` without torch: a game with no shipped network is refused with a
library error that says how to train one, from Python, the arena and the CLI."""

from __future__ import annotations

import subprocess
import sys

import pytest

import ludoteca
from ludoteca.agents import agent_names, make_agent
from ludoteca.agents.baseline import Baseline, NoBaselineError, shipped_baselines
from ludoteca.arena import play_match


def _unshipped() -> str:
    missing = [g for g in ludoteca.games() if g not in shipped_baselines()]
    assert missing
    return missing[0]


def test_baseline_for_a_game_without_a_shipped_network_says_how_to_train_one() -> None:
    game = _unshipped()
    with pytest.raises(NoBaselineError, match=r"no baseline network ships with ludoteca for .* `python -m ludoteca.train alphazero"):
        Baseline(game)
    assert issubclass(NoBaselineError, ludoteca.OptionError) and issubclass(NoBaselineError, ValueError)


def test_baseline_is_an_agent_spec_refused_up_front_in_the_arena() -> None:
    assert "baseline" in agent_names()
    game = _unshipped()
    with pytest.raises(NoBaselineError):
        make_agent("baseline:simulations=8", game_id=game)
    with pytest.raises(NoBaselineError):
        play_match(game, "baseline", "random", games=2)


def test_cli_play_with_an_unshipped_baseline_is_an_error_message_not_a_traceback() -> None:
    game = _unshipped()
    done = subprocess.run([sys.executable, "-m", "ludoteca", "play", game, "--p0", "random", "--p1", "baseline"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert "no baseline network ships" in done.stderr and "Traceback" not in done.stderr
