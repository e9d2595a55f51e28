"""The AlphaZero recipe (``ludoteca.train``) and the numpy-only networks it exports
(``ludoteca.agents.baseline``): the numpy forward pass equals torch's, the
Baseline agent's errors, and a smoke run that writes its checkpoint and logs,
survives being killed and resumes, and repeats itself for the same seed."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import ludoteca
from ludoteca.agents.baseline import Baseline, NetworkFileError, NumpyNet
from ludoteca.arena import play_game, play_match
from ludoteca.errors import LudotecaValueError

torch = pytest.importorskip("torch")

from ludoteca.train import alphazero, export_npz, make_network  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _trained_looking(game_id: str, seed: int = 0) -> torch.nn.Module:
    """A network with batch-norm statistics away from their initial values, so folding them is tested."""
    g = ludoteca.Game(game_id)
    torch.manual_seed(seed)
    net = make_network(g.observation_shape, g.num_actions, 3.0 if game_id == "backgammon" else 1.0, channels=8, blocks=2, hidden=32)
    net.train()
    obs = torch.from_numpy(np.stack([g.new_state(i).observation() for i in range(16)]))
    with torch.no_grad():
        for _ in range(5):
            net(obs * 2.0 + 0.3)
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    return net.eval()


@pytest.mark.parametrize("name", ["kharbaga", "tablut", "damas", "backgammon"])
def test_numpy_forward_equals_the_torch_network(name: str, tmp_path: Path) -> None:
    net = _trained_looking(name)
    path = tmp_path / "net.npz"
    export_npz(net, path, name, {})
    g = ludoteca.Game(name)
    states = [g.new_state(i) for i in range(6)]
    for s in states[3:]:  # a few positions away from the start too
        for _ in range(6):
            if s.is_terminal():
                break
            s.apply_action(int(s.legal_actions()[0]))
    obs = np.stack([s.observation() for s in states])
    with torch.no_grad():
        lt, vt = net(torch.from_numpy(obs))
    ln, vn = NumpyNet(path)(obs)
    assert ln.dtype == vn.dtype == np.float32 and ln.shape == (6, g.num_actions) and vn.shape == (6,)
    np.testing.assert_allclose(ln, lt.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(vn, vt.numpy(), rtol=1e-4, atol=1e-5)
    assert np.abs(vn).max() <= net.value_scale


def test_baseline_plays_an_exported_network_in_the_arena(tmp_path: Path) -> None:
    path = tmp_path / "kharbaga.npz"
    export_npz(_trained_looking("kharbaga"), path, "kharbaga", {})
    bot = Baseline("kharbaga", simulations=4, path=path)
    rec = play_game("kharbaga", [bot, "random"], seed=1)
    assert rec["termination"] in ("rules", "max_turns") and rec["players"][0] == "baseline"
    res = play_match("kharbaga", f"baseline:simulations=4,path={path}", "random", games=2)
    assert sum(p["games"] for p in res["pairs"]) == 2 and not res["errors"]
    # Deterministic: the same answer twice.
    s = ludoteca.Game("kharbaga").new_state(3)
    assert Baseline("kharbaga", simulations=8, path=path).act(s) == Baseline("kharbaga", simulations=8, path=path).act(s)


def test_network_files_that_cannot_be_used_are_refused(tmp_path: Path) -> None:
    with pytest.raises(NetworkFileError, match="no network file"):
        NumpyNet(tmp_path / "nothing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(NetworkFileError, match="not a readable"):
        NumpyNet(tmp_path / "junk.npz")
    np.savez(tmp_path / "plain.npz", x=np.zeros(3))
    with pytest.raises(NetworkFileError, match="no 'meta'"):
        NumpyNet(tmp_path / "plain.npz")
    path = tmp_path / "k.npz"
    export_npz(_trained_looking("kharbaga"), path, "kharbaga", {})
    with pytest.raises(NetworkFileError, match="for 'kharbaga', not 'tablut'"):
        Baseline("tablut", path=path)
    with pytest.raises(LudotecaValueError, match="observations of shape"):
        NumpyNet(path)(np.zeros((1, 3), np.float32))


SMOKE = [
    "--games", "4", "--simulations", "4", "--channels", "8", "--blocks", "1", "--min-buffer", "32",
    "--batch-size", "16", "--eval-games", "2", "--eval-simulations", "2", "--opponents", "random",
    "--checkpoint-minutes", "0", "--log-seconds", "0", "--no-progress",
]  # fmt: skip


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", "ludoteca.train", *args], capture_output=True, text=True, env=env, timeout=120)


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_smoke_run_writes_checkpoint_logs_and_export_then_resumes_after_being_killed(tmp_path: Path) -> None:
    out = tmp_path / "run"
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    cmd = [sys.executable, "-m", "ludoteca.train", "alphazero", "kharbaga", "--out", str(out), "--minutes", "10", *SMOKE]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            rows = _rows(out / "train.csv") if (out / "train.csv").exists() else []
            if (out / "checkpoint.pt").exists() and any(int(r["train_steps"]) > 0 for r in rows):
                break
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            time.sleep(0.5)
        else:
            pytest.fail("no checkpoint after training started within 90 s")
        time.sleep(1.0)
    finally:
        proc.send_signal(signal.SIGKILL)  # the hardest interruption: no chance to save anything
        proc.wait()
    saved = torch.load(out / "checkpoint.pt", weights_only=True)["counters"]
    assert saved["iteration"] >= 1 and (out / "eval.csv").exists() and (out / "export.npz").exists()
    # Resume with a budget that ends soon: it continues from the checkpoint's counters.
    done = _cli("alphazero", "--resume", str(out), "--iterations", str(saved["iteration"] + 2), "--eval-games", "2")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["resumed"] == 1 and summary["iteration"] == saved["iteration"] + 2
    assert summary["train_steps"] > saved["train_steps"]
    rows = _rows(out / "train.csv")
    assert int(rows[-1]["iteration"]) == saved["iteration"] + 2
    assert float(rows[-1]["policy_loss"]) > 0
    evals = _rows(out / "eval.csv")
    assert len(evals) >= 2 and evals[-1]["opponent"] == "random" and evals[-1]["elo"] != ""
    assert json.loads((out / "config.json").read_text())["iterations"] == saved["iteration"] + 2
    assert NumpyNet(out / "export.npz").meta["training"]["train_steps"] == summary["train_steps"]
    assert (out / "curve.png").exists() or pytest.importorskip("matplotlib") is None
    # A folder that holds a run is not overwritten.
    again = _cli("alphazero", "kharbaga", "--out", str(out), "--minutes", "1", *SMOKE)
    assert again.returncode == 2 and "already holds a run" in again.stderr


def test_same_seed_same_network(tmp_path: Path) -> None:
    common = dict(iterations=4, games=4, simulations=4, channels=8, blocks=1, min_buffer=16, batch_size=8, eval_games=1,
                  eval_simulations=1, opponents=["random"], progress=False, minutes=5.0, max_turns=3)  # fmt: skip
    a = alphazero("backgammon", out=tmp_path / "a", seed=3, **common)
    b = alphazero("backgammon", out=tmp_path / "b", seed=3, **common)
    assert a["train_steps"] == b["train_steps"] > 0 and a["selfplay_games"] == b["selfplay_games"] > 0
    na, nb = np.load(tmp_path / "a" / "export.npz"), np.load(tmp_path / "b" / "export.npz")
    for k in na.files:
        if k != "meta":
            np.testing.assert_array_equal(na[k], nb[k])
    c = alphazero("backgammon", out=tmp_path / "c", seed=4, **common)
    assert c["train_steps"] > 0
    assert not np.array_equal(np.load(tmp_path / "c" / "export.npz")["fc1.w"], na["fc1.w"])


def test_bad_options_are_library_errors(tmp_path: Path) -> None:
    with pytest.raises(ludoteca.OptionError, match="unknown game"):
        alphazero("chess", out=tmp_path / "x")
    with pytest.raises(ludoteca.OptionError, match="simulations must be >= 1"):
        alphazero("tablut", out=tmp_path / "x", simulations=0)
    with pytest.raises(ludoteca.OptionError, match="nothing to resume"):
        alphazero(resume=tmp_path / "empty")
    with pytest.raises(ludoteca.OptionError, match="unexpected keyword"):
        alphazero("tablut", out=tmp_path / "x", simulatons=3)


def test_replay_buffer_keeps_the_latest_decisions_and_their_masks() -> None:
    from ludoteca.train import ReplayBuffer

    buf = ReplayBuffer(5, (2,), 11)
    for k in range(7):
        mask = np.zeros((1, 11), bool)
        mask[0, k] = True
        pol = mask.astype(np.float32)
        buf.add(np.full((1, 2), k, np.float32), mask, pol, np.array([k], np.float32))
    assert buf.size == 5
    obs, mask, pol, val, has_pol = buf.sample(np.random.default_rng(0), 200)
    assert has_pol.all()  # added without flags: decisions
    assert sorted(set(val.tolist())) == [2, 3, 4, 5, 6]  # 0 and 1 overwritten
    assert obs.dtype == np.float32 and (obs[:, 0] == val).all()
    assert mask.shape == (200, 11) and (mask.argmax(1) == val).all() and (mask.sum(1) == 1).all()
    assert (pol.argmax(1) == val).all()
    again = ReplayBuffer(5, (2,), 11)
    again.load_state_dict(buf.state_dict())
    np.testing.assert_array_equal(again.sample(np.random.default_rng(1), 9)[3], buf.sample(np.random.default_rng(1), 9)[3])


def test_replay_buffer_resumed_with_another_capacity_keeps_the_latest_samples_in_order() -> None:
    from ludoteca.train import ReplayBuffer

    def filled(capacity: int, count: int) -> ReplayBuffer:
        buf = ReplayBuffer(capacity, (1,), 3)
        for k in range(count):
            buf.add(np.full((1, 1), k, np.float32), np.ones((1, 3), bool), np.full((1, 3), 1 / 3, np.float32), np.array([k], np.float32))
        return buf

    wrapped = filled(5, 7).state_dict()  # holds 2..6, the oldest (2) in slot 2
    larger = ReplayBuffer(8, (1,), 3)
    larger.load_state_dict(wrapped)
    assert larger.size == 5 and larger.value[:5].tolist() == [2, 3, 4, 5, 6] and larger.next == 5
    # The next sample goes after the latest, not over it, and the empty slots are never drawn.
    larger.add(np.full((1, 1), 7, np.float32), np.ones((1, 3), bool), np.full((1, 3), 1 / 3, np.float32), np.array([7], np.float32))
    assert larger.size == 6 and sorted(set(larger.sample(np.random.default_rng(0), 300)[3].tolist())) == [2, 3, 4, 5, 6, 7]
    assert (larger.obs[:6, 0] == larger.value[:6]).all()
    smaller = ReplayBuffer(3, (1,), 3)
    smaller.load_state_dict(wrapped)
    assert smaller.size == 3 and smaller.value.tolist() == [4, 5, 6] and smaller.next == 0
    unwrapped = ReplayBuffer(2, (1,), 3)
    unwrapped.load_state_dict(filled(10, 4).state_dict())  # 0..3, never wrapped, too many for 2
    assert unwrapped.value.tolist() == [2, 3] and unwrapped.has_policy.all()


def test_the_exported_command_repeats_the_run() -> None:
    """``meta["training"]["command"]`` names every option that differs from its default, so the model card's
    command gives the same config (it said ``--minutes`` and ``--seed`` only, hiding e.g. ``--simulations 16``)."""
    from ludoteca.train.__main__ import main as train_main  # noqa: F401  (the command line the string is for)
    from ludoteca.train.alphazero import AlphaZeroConfig, _command_line

    cfg = AlphaZeroConfig(game="kharbaga", minutes=60, simulations=16, eval_minutes=10, lr=5e-4, opponents=["greedy", "alphabeta:depth=2"], progress=False)
    assert _command_line(cfg) == (
        "python -m ludoteca.train alphazero kharbaga --seed 0 --minutes 60 --simulations 16 --lr 0.0005 "
        "--eval-minutes 10 --opponents greedy alphabeta:depth=2"
    )
    assert _command_line(AlphaZeroConfig(game="tablut")) == "python -m ludoteca.train alphazero tablut --seed 0 --minutes 10"


def test_backgammon_keeps_a_replay_buffer_large_enough_to_average_out_the_dice() -> None:
    """Backgammon's default buffer is 500,000 decisions (a 20,000-decision window over-fitted the value head
    to its last 300 games' luck); every other game keeps 20,000; ``buffer`` given is used as given."""
    from ludoteca.train.alphazero import AlphaZeroConfig, _command_line

    assert AlphaZeroConfig(game="backgammon").buffer_size == 500_000
    assert AlphaZeroConfig(game="damas").buffer_size == 20_000
    assert AlphaZeroConfig(game="backgammon", buffer=1000).buffer_size == 1000
    cfg = AlphaZeroConfig(game="backgammon", minutes=60, buffer=500_000)
    assert "--buffer 500000" in _command_line(cfg)
    with pytest.raises(ludoteca.OptionError, match="buffer_size must be >= 1"):
        AlphaZeroConfig(game="damas", buffer=0).validate()
    with pytest.raises(ludoteca.OptionError, match=r"min_buffer \(512\) exceeds the buffer \(100\)"):
        AlphaZeroConfig(game="backgammon", buffer=100).validate()


TINY = dict(games=4, simulations=4, channels=8, blocks=1, hidden=16, min_buffer=16, batch_size=8, eval_games=1,
            eval_simulations=2, opponents=["random"], progress=False, minutes=5.0)  # fmt: skip


def test_chance_values_run_learns_positions_before_rolls_resumes_and_exports_the_option(tmp_path: Path) -> None:
    out = tmp_path / "cv"
    first = alphazero("backgammon", out=out, seed=1, iterations=4, max_turns=3, chance_values=True, **TINY)
    assert first["train_steps"] > 0 and first["selfplay_games"] > 0
    buf = torch.load(out / "checkpoint.pt", weights_only=True)["buffer"]
    value_only = ~buf["has_policy"]
    # Each truncated game of 3 turns passed one roll per turn after the opening: value-only samples
    # with no policy and no legal action, valued like the decisions (0: truncated).
    assert value_only.sum() > 0 and buf["has_policy"].sum() > 0
    assert not buf["policy"][value_only].any() and not buf["mask"][value_only].any()
    assert (buf["value"] == 0).all()
    again = alphazero(resume=out, iterations=6)
    assert again["resumed"] == 1 and again["iteration"] == 6 and again["train_steps"] > first["train_steps"]
    net = NumpyNet(out / "export.npz")
    assert net.evaluate_chance and net.meta["training"]["config"]["chance_values"]
    bot = Baseline("backgammon", simulations=4, path=out / "export.npz")
    assert bot._search_for(ludoteca.Game("backgammon").new_state(0)).evaluate_chance
    rec = play_game("backgammon", [bot, "random"], seed=2)
    assert rec["termination"] == "rules"
    # Without the option nothing changes: no value-only samples, and Baseline searches as before.
    plain = tmp_path / "plain"
    alphazero("backgammon", out=plain, seed=1, iterations=2, max_turns=3, **TINY)
    assert torch.load(plain / "checkpoint.pt", weights_only=True)["buffer"]["has_policy"].all()
    assert not NumpyNet(plain / "export.npz").evaluate_chance
    assert not Baseline("backgammon", simulations=4, path=plain / "export.npz")._search_for(ludoteca.Game("backgammon").new_state(0)).evaluate_chance


def test_self_play_records_the_position_before_each_roll_for_the_player_about_to_roll() -> None:
    from ludoteca.train.alphazero import AlphaZeroConfig, _SelfPlay

    cfg = AlphaZeroConfig(game="backgammon", games=1, chance_values=True)
    game = ludoteca.Game("backgammon", **cfg.game_options())
    sp = _SelfPlay(game, cfg, np.random.default_rng(0))
    s = sp.states[0] = game.new_state(5)
    s.apply_action(s.chance_outcomes()[0][0])
    while not s.is_chance_node():
        s.apply_action(int(s.legal_actions()[0]))
    before, roller = s.observation(), s.chance_player
    sp.pending[0] = []
    sp._settle(0, [])
    assert not sp.states[0].is_chance_node()
    ((obs, mask, pol, player, has_policy),) = sp.pending[0]
    np.testing.assert_array_equal(obs, before)
    assert player == roller and not has_policy and not mask.any() and not pol.any()


def test_checkpoints_written_before_value_only_samples_resume_as_all_decisions(tmp_path: Path) -> None:
    from ludoteca.train import ReplayBuffer

    out = tmp_path / "old"
    alphazero("backgammon", out=out, seed=2, iterations=3, max_turns=3, **TINY)
    ckpt = torch.load(out / "checkpoint.pt", weights_only=True)
    del ckpt["buffer"]["has_policy"]
    del ckpt["config"]["chance_values"]
    torch.save(ckpt, out / "checkpoint.pt")
    g = ludoteca.Game("backgammon")
    buf = ReplayBuffer(1000, g.observation_shape, g.num_actions)
    buf.has_policy[:] = False
    buf.load_state_dict(ckpt["buffer"])
    assert buf.size > 0 and buf.has_policy[: buf.size].all()
    done = alphazero(resume=out, iterations=4)
    assert done["iteration"] == 4 and done["resumed"] == 1


def test_chance_values_is_refused_for_games_without_dice_and_is_a_switch_on_the_command_line() -> None:
    from ludoteca.train.__main__ import main as train_main
    from ludoteca.train.alphazero import AlphaZeroConfig, _command_line

    with pytest.raises(ludoteca.OptionError, match="chance_values: tablut has no chance nodes"):
        AlphaZeroConfig(game="tablut", chance_values=True).validate()
    AlphaZeroConfig(game="backgammon", chance_values=True).validate()
    cfg = AlphaZeroConfig(game="backgammon", minutes=60, chance_values=True)
    assert _command_line(cfg) == "python -m ludoteca.train alphazero backgammon --seed 0 --minutes 60 --chance-values"
    assert train_main(["alphazero", "tablut", "--chance-values", "--out", "/nonexistent/never"]) == 2


class _Payload:
    """What a hostile checkpoint carries: unpickling it would run ``os.system``-like code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path.touch, (self.marker,))


def test_resume_reads_checkpoints_as_data_and_never_runs_their_code(tmp_path: Path) -> None:
    from ludoteca.errors import CheckpointError
    from ludoteca.train import load_checkpoint

    out = tmp_path / "run"
    alphazero("kharbaga", out=out, seed=3, iterations=2, **TINY)
    good = load_checkpoint(out / "checkpoint.pt", "alphazero")
    assert good["counters"]["iteration"] == 2 and isinstance(good["buffer"]["obs"], torch.Tensor)
    # A checkpoint written by someone else, with an object whose unpickling runs code.
    marker = tmp_path / "code ran"
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    torch.save({**good, "counters": _Payload(marker)}, hostile / "checkpoint.pt")
    with pytest.raises(CheckpointError, match="objects other than tensors and plain data"):
        alphazero(resume=hostile, iterations=3)
    assert not marker.exists()
    # Truncated, not a checkpoint at all, or another recipe's: refused the same way.
    (hostile / "checkpoint.pt").write_bytes((out / "checkpoint.pt").read_bytes()[:1000])
    with pytest.raises(CheckpointError, match="not a readable checkpoint"):
        alphazero(resume=hostile, iterations=3)
    torch.save([1, 2, 3], hostile / "checkpoint.pt")
    with pytest.raises(CheckpointError, match="not a ludoteca.train checkpoint"):
        alphazero(resume=hostile, iterations=3)
    torch.save({k: v for k, v in good.items() if k != "buffer"}, hostile / "checkpoint.pt")
    with pytest.raises(CheckpointError, match="not a alphazero checkpoint: it lacks buffer"):
        alphazero(resume=hostile, iterations=3)


def test_checkpoints_written_with_numpy_buffers_still_resume(tmp_path: Path) -> None:
    # Before checkpoints held only tensors, the replay buffer was saved as numpy arrays: plain data,
    # read with numpy's array constructors allowed and nothing else.
    from ludoteca.train import load_checkpoint

    out = tmp_path / "old"
    alphazero("kharbaga", out=out, seed=4, iterations=2, **TINY)
    ckpt = load_checkpoint(out / "checkpoint.pt", "alphazero")
    ckpt["buffer"] = {k: v.numpy() if isinstance(v, torch.Tensor) else v for k, v in ckpt["buffer"].items()}
    torch.save(ckpt, out / "checkpoint.pt")
    done = alphazero(resume=out, iterations=3)
    assert done["iteration"] == 3 and done["resumed"] == 1

