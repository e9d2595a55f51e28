"""The TD(lambda) recipe on afterstates (``ludoteca.train.td``) and the way ``Baseline`` plays
its networks: lambda-returns against a hand computation, self-play that plays the move its
network rates best and learns the positions before the dice, the observation the arena's
sampled dice are read as, board games (planes, the session's draw rules, moves that end the
game), and a smoke run that exports, resumes and repeats itself."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ludoteca
from ludoteca.agents.baseline import AfterstateEvaluation, Baseline, NumpyNet
from ludoteca.agents.search import AlphaBetaAgent, turn_values

torch = pytest.importorskip("torch")

from ludoteca.train import td  # noqa: E402
from ludoteca.train.__main__ import main as train_main  # noqa: E402
from ludoteca.train.td import TDConfig, _Game, _SelfPlay  # noqa: E402

FAST: dict[str, Any] = dict(games=8, hidden=16, batch_size=32, eval_games=2, opponents=["random"], progress=False, minutes=5.0, checkpoint_minutes=0.01, log_seconds=0.0)


class _TableNet(torch.nn.Module):
    """A stand-in network: the value of an observation is looked up by its first entry."""

    value_scale = 3.0

    def __init__(self, values: dict[float, float]) -> None:
        super().__init__()
        self.values = values

    def forward(self, x: Any) -> Any:
        v = torch.tensor([self.values[float(row[0])] for row in x])
        return torch.zeros(len(x), 1), v


def test_lambda_returns_match_a_hand_computation() -> None:
    # Afterstates x0, x1, x2 alternate sides (0, 1, 0); the game ends with returns [-2, +2]
    # (player 1 wins a gammon). V(x1) = 0.5 for player 1, V(x2) = -1.0 for player 0.
    cfg = TDConfig(game="backgammon", lam=0.25, games=1)
    sp = _SelfPlay(ludoteca.Game("backgammon", chance="explicit"), cfg, random.Random(0))
    g = _Game(sp.games[0].state)
    g.obs = [np.full(256, float(i), np.float32) for i in range(3)]
    g.sides = [0, 1, 0]
    net = _TableNet({0.0: 9.0, 1.0: 0.5, 2.0: -1.0})
    (x, y), = sp._targets(net, [(g, np.array([-2.0, 2.0], np.float32))])  # type: ignore[arg-type]
    g2 = -2.0  # the last afterstate: the final points for its side (player 0)
    g1 = -((1 - 0.25) * -1.0 + 0.25 * g2)  # = 1.25, for player 1
    g0 = -((1 - 0.25) * 0.5 + 0.25 * g1)  # = -0.6875, for player 0
    np.testing.assert_allclose(y, [g0, g1, g2], rtol=1e-6)
    assert x.shape == (3, 256)
    # lambda = 1 is the final result seen from each side; lambda = 0 the next value only.
    sp.cfg = TDConfig(game="backgammon", lam=1.0, games=1)
    np.testing.assert_allclose(sp._targets(net, [(g, np.array([-2.0, 2.0], np.float32))])[0][1], [-2.0, 2.0, -2.0])  # type: ignore[arg-type]
    sp.cfg = TDConfig(game="backgammon", lam=0.0, games=1)
    np.testing.assert_allclose(sp._targets(net, [(g, np.array([-2.0, 2.0], np.float32))])[0][1], [-0.5, 1.0, -2.0])  # type: ignore[arg-type]


class _PipNet(torch.nn.Module):
    """A value that prefers fewer pips: the side's checkers' weighted count, for a brute-force comparison."""

    value_scale = 3.0

    def forward(self, x: Any) -> Any:
        # Entry 5 (q - 1) + 4 is n / 15 for the side's n checkers on its point q; entry 120 + the
        # same, the opponent's checkers on that point (their point 25 - q).
        mine = (x[:, 4:120:5] * 15 * torch.arange(1, 25)).sum(1)
        theirs = (x[:, 124:240:5] * 15 * torch.arange(24, 0, -1)).sum(1)
        return torch.zeros(len(x), 1), torch.tanh((theirs - mine) / 100.0) * 3.0


def test_self_play_plays_the_move_whose_afterstate_is_best_for_the_mover() -> None:
    game = ludoteca.Game("backgammon", chance="explicit")
    cfg = TDConfig(game="backgammon", games=6)
    sp = _SelfPlay(game, cfg, random.Random(5))
    net = _PipNet()
    for _ in range(12):
        before = [g.state.clone() for g in sp.games]
        n_before = [len(g.obs) for g in sp.games]
        sp.step(net)  # type: ignore[arg-type]
        for s, g, n in zip(before, sp.games, n_before):
            if len(g.obs) != n + 1:
                continue  # a game that ended (and was replaced) this step
            # Brute force: rate every complete move's afterstate with the same network.
            best = -1e9
            for move, _ in turn_values(s, None):
                t = s.clone()
                t.play(move)
                assert t.is_chance_node() and t.chance_player != s.current_player
                with torch.no_grad():
                    v = float(net(torch.from_numpy(t.observation()[None]))[1][0])
                best = max(best, -v)
            with torch.no_grad():
                chosen = -float(net(torch.from_numpy(g.obs[-1][None]))[1][0])
            assert chosen == pytest.approx(best, abs=1e-5)
            # What is learnt is the position before the roll, from the side of the player about to roll.
            assert g.obs[-1][253] == 1.0 and g.obs[-1][244:250].sum() == 0.0
            assert g.sides[-1] == 1 - s.current_player


def test_games_end_and_every_afterstate_gets_a_target_within_the_points_of_a_game() -> None:
    game = ludoteca.Game("backgammon", chance="explicit")
    sp = _SelfPlay(game, TDConfig(game="backgammon", games=16, lam=0.7), random.Random(1))
    net = _PipNet()
    done: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(400):
        out, made = sp.step(net)  # type: ignore[arg-type]
        assert made == 16
        done += out
        if len(done) >= 5:
            break
    assert len(done) >= 5
    for x, y in done:
        assert len(x) == len(y) >= 3 and np.all(np.abs(y) <= 3.0 + 1e-6)
        assert abs(y[-1]) in (1.0, 2.0, 3.0)  # the final position's points, for its side


def test_sampled_dice_are_read_as_the_chance_node_before_them(tmp_path: Path) -> None:
    """The arena plays backgammon with sampled dice: the position after a move already has the
    opponent's roll. AfterstateEvaluation reads it as the chance node the network learnt."""
    out = td("backgammon", out=tmp_path / "run", iterations=2, **FAST)
    evaluation = AfterstateEvaluation(NumpyNet(Path(out["out"]) / "export.npz"))
    game = ludoteca.Game("backgammon", chance="explicit")
    rng = random.Random(3)
    s = game.new_state(3)
    checked = 0
    while not s.is_terminal() and checked < 30:
        if s.is_chance_node():
            before = s.clone()
            a = s.chance_outcomes()[rng.randrange(len(s.chance_outcomes()))][0]
            s.apply_action(a)
            if s.is_chance_node() or s.is_terminal() or before.chance_player != s.current_player:
                continue
            o_before, side_before = evaluation.observation(before)
            o_after, side_after = evaluation.observation(s)
            np.testing.assert_array_equal(o_before, o_after)
            assert side_before == side_after and evaluation(s, 0) == pytest.approx(evaluation(before, 0))
            checked += 1
        else:
            s.apply_action(int(s.legal_actions()[rng.randrange(len(s.legal_actions()))]))
    assert checked >= 10


def test_smoke_run_exports_a_baseline_that_plays_by_expectimax_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary = td("backgammon", out=out, iterations=60, seed=2, **FAST)
    assert summary["selfplay_games"] > 0 and summary["train_steps"] > 0 and summary["recipe"] == "td"
    for name in ("config.json", "train.csv", "eval.csv", "checkpoint.pt", "export.npz", "summary.json"):
        assert (out / name).exists(), name
    net = NumpyNet(out / "export.npz")
    assert net.afterstate_plies == 1 and net.meta["training"]["recipe"] == "td"
    assert net.meta["options"] == {"chance": "explicit"}
    bot = Baseline("backgammon", path=out / "export.npz")
    assert bot.plies == 1 and "plies=1" in repr(bot)
    s = ludoteca.Game("backgammon").new_state(4)
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    move = bot.act(s)
    assert isinstance(move, str) and move in dict(turn_values(s, None))
    with pytest.raises(ludoteca.OptionError, match="give plies=, not simulations="):
        Baseline("backgammon", path=out / "export.npz", simulations=8)
    with pytest.raises(ludoteca.OptionError, match="not MCTS"):
        bot.search([s])
    greedy = Baseline("backgammon", path=out / "export.npz", plies=0)
    assert greedy.plies == 0 and greedy.act_batch([s, s]) == [greedy.act(s)] * 2
    # Resume: the counters continue; a longer budget is given as a keyword.
    again = td(resume=out, iterations=200)
    assert again["resumed"] == 1 and again["iteration"] == 200 and again["train_steps"] > summary["train_steps"]
    assert json.loads((out / "config.json").read_text())["recipe"] == "td"


def test_same_seed_same_network(tmp_path: Path) -> None:
    a = td("backgammon", out=tmp_path / "a", iterations=120, seed=7, **FAST)
    b = td("backgammon", out=tmp_path / "b", iterations=120, seed=7, **FAST)
    assert a["train_steps"] == b["train_steps"] > 0
    na, nb = np.load(tmp_path / "a" / "export.npz"), np.load(tmp_path / "b" / "export.npz")
    for k in na.files:
        if k != "meta":
            np.testing.assert_array_equal(na[k], nb[k])


def test_command_line_and_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = train_main(["td", "backgammon", "--out", str(tmp_path / "cli"), "--iterations", "5", "--games", "4", "--hidden", "8",
                       "--eval-games", "2", "--opponents", "random", "--no-progress"])  # fmt: skip
    assert code == 0
    assert json.loads(capsys.readouterr().out)["iteration"] == 5
    assert NumpyNet(tmp_path / "cli" / "export.npz").meta["training"]["command"] == (
        "python -m ludoteca.train td backgammon --seed 0 --minutes 60 --iterations 5 --games 4 --hidden 8 --eval-games 2 --opponents random"
    )
    with pytest.raises(ludoteca.OptionError, match="lam must be in"):
        td("backgammon", out=tmp_path / "x", lam=1.5)
    with pytest.raises(ludoteca.OptionError, match="nothing to resume"):
        td(resume=tmp_path / "empty")
    with pytest.raises(ludoteca.OptionError, match="unexpected keyword"):
        td("backgammon", out=tmp_path / "z", lamda=0.5)
    # No deeper than an exported file may ask Baseline to search (which would refuse it).
    with pytest.raises(ludoteca.OptionError, match=r"play_plies must be an integer in \[0, 2\] for backgammon, got 3"):
        td("backgammon", out=tmp_path / "p", play_plies=3)
    with pytest.raises(ludoteca.OptionError, match=r"play_plies must be an integer in \[0, 4\] for tablut, got 5"):
        td("tablut", out=tmp_path / "p", play_plies=5)
    mcts_net = Path(ludoteca.__file__).parent / "baselines" / "kharbaga.npz"
    with pytest.raises(ludoteca.OptionError, match="give simulations=, not plies="):
        Baseline("kharbaga", path=mcts_net, plies=1)


class _LinearNet(torch.nn.Module):
    """A fixed random linear value of the flattened planes, for a brute-force comparison."""

    value_scale = 1.0

    def __init__(self, shape: tuple[int, ...]) -> None:
        super().__init__()
        self.w = torch.from_numpy(np.random.default_rng(0).normal(size=int(np.prod(shape))).astype(np.float32))

    def forward(self, x: Any) -> Any:
        return torch.zeros(len(x), 1), torch.tanh(x.flatten(1) @ self.w / 10.0)


@pytest.mark.parametrize("board", ["tablut", "damas_10x10"])
def test_board_game_self_play_plays_the_best_afterstate_and_the_sessions_draw_rules_end_its_games(board: str) -> None:
    # max_turns is a rule of the session, which the positions turn_values lists do not carry:
    # self-play must still end its games there (a draw).
    game = ludoteca.Game(board, max_turns=6)
    cfg = TDConfig(game=board, games=4)
    assert cfg.epsilon == 0.1 and cfg.play_plies == 0  # the defaults of a game without dice
    cfg.epsilon = 0.0
    sp = _SelfPlay(game, cfg, random.Random(2))
    net = _LinearNet(game.observation_shape)
    done: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(7):
        before = [g.state.clone() for g in sp.games]
        n_before = [len(g.obs) for g in sp.games]
        out, _ = sp.step(net)  # type: ignore[arg-type]
        done += out
        for s, g, n in zip(before, sp.games, n_before):
            if len(g.obs) != n + 1:
                continue
            best = -1e9
            for move, _ in turn_values(s, None):
                t = s.clone()
                t.play(move)
                with torch.no_grad():
                    v = float(net(torch.from_numpy(t.observation()[None]))[1][0])
                best = max(best, v if t.current_player == s.current_player else -v)
            with torch.no_grad():
                chosen = -float(net(torch.from_numpy(g.obs[-1][None]))[1][0])
            assert chosen == pytest.approx(best, abs=1e-5)
            assert g.obs[-1].shape == game.observation_shape and g.sides[-1] == 1 - s.current_player
    assert sp.finished_turns == [6, 6, 6, 6]
    # Six afterstates each, the last (cut by max_turns) worth 0.
    assert len(done) == 4 and all(len(x) == 6 and abs(float(y[-1])) < 1e-6 for x, y in done)


def test_board_game_self_play_can_open_with_random_moves() -> None:
    game = ludoteca.Game("tablut")
    starts = [g.state for g in _SelfPlay(game, TDConfig(game="tablut", games=6, openings=3), random.Random(4)).games]
    assert all(s.turns_played == 3 for s in starts)
    assert len({s.to_string() for s in starts}) > 1
    again = [g.state for g in _SelfPlay(game, TDConfig(game="tablut", games=6, openings=3), random.Random(4)).games]
    assert [s.to_string() for s in again] == [s.to_string() for s in starts]  # the run's generator draws them
    assert all(g.state.turns_played == 0 for g in _SelfPlay(game, TDConfig(game="tablut", games=2), random.Random(4)).games)
    with pytest.raises(ludoteca.OptionError, match="openings must be"):
        TDConfig(game="tablut", openings=-1).validate()


def test_a_turn_whose_every_move_ends_the_game_is_played() -> None:
    # Kings only in damas_10x10 with the counter at 9: every move of white draws the game (no
    # afterstate to value, no winning move).
    game = ludoteca.Game("damas_10x10")
    sp = _SelfPlay(game, TDConfig(game="damas_10x10", games=1), random.Random(0))
    sp.games[0] = _Game(game.state_from_string("W:BK46:WK5;k=9"))
    out, made = sp.step(_LinearNet(game.observation_shape))  # type: ignore[arg-type]
    assert made == 1 and out == [] and sp.finished_turns == [1]


def test_board_game_smoke_run_exports_a_baseline_that_plays_greedy_or_by_alpha_beta(tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary = td("tablut", out=out, iterations=120, seed=1, **FAST)
    assert summary["selfplay_games"] > 0 and summary["train_steps"] > 0
    net = NumpyNet(out / "export.npz")
    assert net.afterstate_plies == 0 and net.observation_shape == ludoteca.Game("tablut").observation_shape
    s = ludoteca.Game("tablut").new_state(0)
    legal = dict(turn_values(s, None))
    greedy = Baseline("tablut", path=out / "export.npz")
    assert greedy.plies == 0 and greedy.act(s) in legal
    # The move greedy plays is the one the network values best for the mover.
    ev = AfterstateEvaluation(net)
    values = dict(turn_values(s, ev))
    assert values[str(greedy.act(s))] == pytest.approx(max(values.values()), abs=1e-6)
    deep = Baseline("tablut", path=out / "export.npz", plies=2)
    assert isinstance(deep.afterstate_agent, AlphaBetaAgent) and deep.afterstate_agent.depth == 2
    assert deep.act(s) in legal and deep.afterstate_agent.last["depth"] == 2
    with pytest.raises(ludoteca.OptionError, match="takes plies, contempt, threats, builtin and builtin_from, not filter"):
        Baseline("tablut", path=out / "export.npz", plies=1, filter=4)


def test_init_starts_from_an_exported_network_or_the_shipped_one(tmp_path: Path) -> None:
    first = tmp_path / "first"
    td("tablut", out=first, iterations=30, seed=1, **FAST)
    start = NumpyNet(first / "export.npz")
    # A learning rate too small to move a weight: the second run's export is where it started.
    td("tablut", out=tmp_path / "second", iterations=30, seed=2, init=str(first / "export.npz"), **{**FAST, "lr": 1e-12})
    again = NumpyNet(tmp_path / "second" / "export.npz")
    for k, w in start._w.items():
        np.testing.assert_allclose(again._w[k], w, atol=1e-8, err_msg=k)
    assert json.loads((tmp_path / "second" / "config.json").read_text())["init"] == str(first / "export.npz")
    # The shipped network of the game (its hidden size), and mismatches named.
    shipped = NumpyNet(Path(ludoteca.__file__).parent / "baselines" / "tablut.npz")
    td("tablut", out=tmp_path / "third", iterations=2, init="baseline", **{**FAST, "hidden": int(shipped.meta["hidden"]), "lr": 1e-12})
    np.testing.assert_allclose(NumpyNet(tmp_path / "third" / "export.npz")._w["fc1.w"], shipped._w["fc1.w"], atol=1e-8)
    with pytest.raises(ludoteca.OptionError, match="hidden"):
        td("tablut", out=tmp_path / "fourth", iterations=2, init=str(first / "export.npz"), **{**FAST, "hidden": 32})
    with pytest.raises(ludoteca.OptionError, match="'zamma'"):
        td("zamma", out=tmp_path / "fifth", iterations=2, init=str(first / "export.npz"), **FAST)
    with pytest.raises(ludoteca.OptionError, match="no network of 'russian' ships"):
        td("russian", out=tmp_path / "sixth", iterations=2, init="baseline", **FAST)
    with pytest.raises(ludoteca.OptionError, match="no network file"):
        td("tablut", out=tmp_path / "seventh", iterations=2, init=str(tmp_path / "missing.npz"), **FAST)
