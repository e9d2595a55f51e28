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
    sys.modules[spec.name] = module  # dataclasses look their module up there
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


@pytest.mark.parametrize("game", ["checkers", "backgammon"])
def test_ppo_selfplay_trains_and_reports_rates(game: str) -> None:
    pytest.importorskip("torch")
    if game not in ludoteca.games():
        pytest.skip(f"{game} is not registered")
    ppo = _load("ppo_selfplay")
    args = ppo.Args(game=game, num_envs=4, num_steps=8, max_updates=2, eval_games=4, eval_every=1, max_turns=10,
                    hidden=16)
    out = ppo.train(args)
    for rates in out.values():
        assert sum(rates.values()) == pytest.approx(1.0)
        assert all(0.0 <= r <= 1.0 for r in rates.values())


def test_ppo_selfplay_advantages_flip_sign_between_the_players() -> None:
    """A won last move is good for its mover and bad for the player who moved before."""
    pytest.importorskip("torch")
    import torch

    ppo = _load("ppo_selfplay")
    # Two steps of one env: player 0 moves, then player 1 moves and wins (+1 for the mover).
    player = torch.tensor([[0], [1]])
    reward = torch.tensor([[0.0], [1.0]])
    done = torch.tensor([[0.0], [1.0]])
    values = torch.zeros(2, 1)
    adv = ppo.compute_advantages(reward, values, done, player, torch.zeros(1), torch.tensor([0]), gamma=1.0, lam=1.0)
    assert adv[1, 0] == pytest.approx(1.0)
    assert adv[0, 0] == pytest.approx(-1.0)
