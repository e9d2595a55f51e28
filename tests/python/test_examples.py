"""The examples behind docs/howto.md run (small budgets)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import ludoteca

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mcts_returns_a_legal_action(game_id: str) -> None:
    search = _load("search")
    state = ludoteca.Game(game_id).new_state(seed=0)
    while state.current_player == -1:
        state.apply_action(state.chance_outcomes()[0][0])
    a = search.mcts(state, iterations=20, rollout=lambda s: 0.0)
    assert state.legal_action_mask()[a]


def test_expectimax_over_explicit_dice() -> None:
    if "backgammon" not in ludoteca.games():
        pytest.skip("backgammon is not registered yet")
    search = _load("search")
    state = ludoteca.Game("backgammon", chance="explicit").new_state(seed=0)
    assert state.current_player == -1
    value = search.expectimax(state, 1, search.backgammon_pips)
    assert -1.0 <= value <= 1.0
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.legal_action_mask()[search.best_expectimax_action(state, 2, search.backgammon_pips)]


def test_pictures_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("PIL")
    needed = {"damas", "tablut", "backgammon"}
    if not needed <= set(ludoteca.games()):
        pytest.skip("needs damas, tablut and backgammon")
    monkeypatch.setattr(sys, "argv", ["pictures.py", "--out", str(tmp_path)])
    _load("pictures").main()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backgammon.png", "damas.png", "tablut.png"]


def test_pretraining_on_records_fits_better_than_a_uniform_policy(tmp_path: Path) -> None:
    from ludoteca import records

    f = tmp_path / "games.pdn"
    rng = np.random.default_rng(0)
    for seed in range(12):
        state = ludoteca.Game("international").new_state(seed)
        start, played = state.clone(), []
        while not state.is_terminal() and state.turns_played < 60:
            moves = state.legal_moves()
            m = moves[0] if rng.random() < 0.7 else moves[int(rng.integers(len(moves)))]  # a biased "player"
            state.play(m)
            played.append(m)
        records.write_game(f, start, played)
    out = _load("pretrain_from_records").pretrain([str(f)], epochs=2)
    assert out["train_accuracy"] > out["uniform_train"]
