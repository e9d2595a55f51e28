"""``Baseline`` without torch: a game with no shipped network is refused with a
library error that says how to train one, from Python, the arena and the CLI;
every shipped network plays, and its model card states what its file says."""

from __future__ import annotations

import random
from typing import Any
import subprocess
import sys
import re
from pathlib import Path

import numpy as np
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


NUMPY_ONLY = """
import json, sys
import numpy as np
sys.modules["torch"] = None  # any import of torch now fails
import ludoteca
from ludoteca.agents.baseline import FORMAT, Baseline
from ludoteca.arena import play_match

g = ludoteca.Game("backgammon")
rng = np.random.default_rng(0)
n, h = int(np.prod(g.observation_shape)), 16
meta = {"format": FORMAT, "game": "backgammon", "options": {}, "observation_shape": list(g.observation_shape),
        "num_actions": g.num_actions, "value_scale": 3.0, "kind": "mlp", "hidden": h, "training": {}}
arrays = {"fc1.w": rng.normal(size=(n, h)) * 0.1, "fc1.b": np.zeros(h), "fc2.w": rng.normal(size=(h, h)) * 0.1,
          "fc2.b": np.zeros(h), "policy.w": rng.normal(size=(h, g.num_actions)) * 0.1, "policy.b": np.zeros(g.num_actions),
          "value.w": rng.normal(size=(h, 1)), "value.b": np.zeros(1)}
np.savez(sys.argv[1], meta=np.array(json.dumps(meta)), **{k: v.astype(np.float32) for k, v in arrays.items()})
logits, values = Baseline("backgammon", path=sys.argv[1]).net(np.stack([g.new_state(1).observation()]))
assert logits.shape == (1, g.num_actions) and abs(float(values[0])) <= 3.0
res = play_match("backgammon", f"baseline:simulations=4,path={sys.argv[1]}", "random", games=2, options={"max_turns": 40})
assert not res["errors"] and sum(p["games"] for p in res["pairs"]) == 2, res["errors"]
print("ok")
"""


def test_a_network_file_plays_with_numpy_only_without_torch(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", NUMPY_ONLY, str(tmp_path / "bg.npz")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr


def _tiny_network(path: Path, **meta_extra: object) -> Path:
    import json

    import numpy as np
    from ludoteca.agents.baseline import FORMAT

    g = ludoteca.Game("backgammon")
    n, h = int(np.prod(g.observation_shape)), 4
    meta = {"format": FORMAT, "game": "backgammon", "options": {}, "observation_shape": list(g.observation_shape),
            "num_actions": g.num_actions, "value_scale": 3.0, "kind": "mlp", "hidden": h, **meta_extra}
    shapes = {"fc1.w": (n, h), "fc1.b": (h,), "fc2.w": (h, h), "fc2.b": (h,), "policy.w": (h, g.num_actions),
              "policy.b": (g.num_actions,), "value.w": (h, 1), "value.b": (1,)}
    np.savez(path, meta=np.array(json.dumps(meta)), **{k: np.zeros(v, np.float32) for k, v in shapes.items()})
    return path


def test_a_network_plays_at_the_simulations_its_card_measured_else_at_those_of_its_training(tmp_path: Path) -> None:
    trained = {"training": {"config": {"eval_simulations": 16}}}
    assert Baseline("backgammon", path=_tiny_network(tmp_path / "a.npz", **trained)).simulations == 16
    shipped = _tiny_network(tmp_path / "b.npz", play_simulations=256, **trained)
    assert Baseline("backgammon", path=shipped).simulations == 256
    assert Baseline("backgammon", path=shipped, simulations=8).simulations == 8
    assert Baseline("backgammon", path=_tiny_network(tmp_path / "c.npz", training={})).simulations == 64


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", shipped_baselines())
def test_every_shipped_network_plays_and_its_model_card_states_its_file(game: str) -> None:
    bot = Baseline(game)
    if bot.net.afterstate_plies is None:
        assert bot.simulations == bot.net.play_simulations
    else:  # a network of afterstate values (the TD recipe): a search over complete moves
        assert bot.plies == bot.net.afterstate_plies and bot.afterstate_agent is not None
    res = play_match(game, bot, "random", games=2, options={"max_turns": 60})
    assert not res["errors"] and sum(p["games"] for p in res["pairs"]) == 2
    card = (ROOT / "docs" / "baselines.md").read_text(encoding="utf-8").split(f"\n## {game}\n")
    assert len(card) == 2, f"docs/baselines.md has no model card '## {game}'"
    card_text = card[1].split("\n## ")[0]
    t = bot.net.meta["training"]
    assert t["command"] in card_text
    for fact in ("selfplay_games", "decisions", "train_steps", "parameters"):
        assert f"{t[fact]:,}" in card_text, f"the {game} card does not state {fact} = {t[fact]:,}"
    if bot.net.afterstate_plies is None:
        assert re.search(rf"\b{bot.net.play_simulations} simulations\b", card_text)
    else:
        assert f"plies={bot.net.afterstate_plies}" in card_text
        for option in ("contempt", "builtin", "builtin_from"):
            if getattr(bot.net, option):
                assert f"{option}={getattr(bot.net, option)}" in card_text, f"the {game} card does not state {option}"


def _searches(agent: object) -> list[object]:
    """The alpha-beta agents that play a baseline's afterstate network: one, or a ``PhasedAgent``'s two."""
    from ludoteca.agents.baseline import PhasedAgent

    inner = agent.afterstate_agent  # type: ignore[attr-defined]
    return [inner.early, inner.late] if isinstance(inner, PhasedAgent) else [inner]


def _positions(game_id: str, count: int, seed: int) -> list[ludoteca.State]:
    """Positions a random number of random moves from the start."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = ludoteca.Game(game_id).new_state(len(out))
        for _ in range(rng.randrange(0, 40)):
            if s.is_terminal():
                break
            s.play(rng.choice(s.legal_moves()))
        out.append(s)
    return out


@pytest.mark.parametrize("game", ["tablut", "damas_10x10"])
def test_the_native_network_evaluation_gives_the_numpy_values_and_the_same_searches(game: str) -> None:
    from ludoteca.agents.baseline import AfterstateEvaluation, NumpyNet
    from ludoteca.agents.search import AlphaBetaAgent, MlpEvaluation, turn_values

    python = AfterstateEvaluation(NumpyNet(Path(ludoteca.__file__).parent / "baselines" / f"{game}.npz"))
    native = python.native()
    assert isinstance(native, MlpEvaluation) and native.inputs == int(np.prod(python.net.observation_shape))
    for k, s in enumerate(_positions(game, 24, 5)):
        for p in (0, 1):
            assert native(s, p) == pytest.approx(python(s, p), abs=1e-5)
        if k < 6 and not s.is_terminal():
            a, b = dict(turn_values(s, python)), dict(turn_values(s, native))
            assert a.keys() == b.keys() and all(b[m] == pytest.approx(v, abs=1e-5) for m, v in a.items())
            x = AlphaBetaAgent(depth=2, evaluate=python).search(s)
            y = AlphaBetaAgent(depth=2, evaluate=native).search(s)
            assert (x["move"], x["nodes"]) == (y["move"], y["nodes"]) and y["value"] == pytest.approx(x["value"], abs=1e-5)
    # A finished game is worth its returns, as to a search.
    s = _positions(game, 1, 9)[0]
    while not s.is_terminal():
        s.play(s.legal_moves()[0])
    assert [native(s, p) for p in (0, 1)] == list(s.returns())
    # Baseline plays its afterstate networks through it.
    agent = Baseline(game, plies=1)
    assert all(isinstance(search.evaluate, MlpEvaluation) for search in _searches(agent))  # type: ignore[attr-defined]


def test_the_native_network_evaluation_refuses_what_it_cannot_read() -> None:
    from ludoteca.agents.baseline import AfterstateEvaluation, NumpyNet
    from ludoteca.agents.search import MlpEvaluation, alphabeta_search, turn_values
    from ludoteca.errors import LudotecaValueError

    base = Path(ludoteca.__file__).parent / "baselines"
    assert AfterstateEvaluation(NumpyNet(base / "backgammon.npz")).native() is None  # dice
    tablut = AfterstateEvaluation(NumpyNet(base / "tablut.npz")).native()
    assert tablut is not None
    with pytest.raises(LudotecaValueError, match="observations of 648 entries, this game's have 2600"):
        turn_values(ludoteca.Game("damas_10x10").new_state(0), tablut)
    with pytest.raises(LudotecaValueError, match="observations of 648 entries"):
        alphabeta_search(ludoteca.Game("damas").new_state(0), depth=1, evaluate=tablut)
    w = np.zeros((4, 3), np.float32)
    with pytest.raises(LudotecaValueError, match="layer 0 has weights of shape"):
        MlpEvaluation([(w, np.zeros(2, np.float32))], (np.zeros((3, 1), np.float32), np.zeros(1, np.float32)))
    with pytest.raises(LudotecaValueError, match="value layer must map"):
        MlpEvaluation([(w, np.zeros(3, np.float32))], (np.zeros((2, 1), np.float32), np.zeros(1, np.float32)))


def test_an_afterstate_network_without_dice_plays_at_its_files_contempt_or_the_one_given(tmp_path: Path) -> None:
    import json

    from ludoteca.agents.search import AlphaBetaAgent
    from ludoteca.errors import OptionError

    src = Path(ludoteca.__file__).parent / "baselines" / "tablut.npz"
    with np.load(src, allow_pickle=False) as data:
        arrays = {k: np.asarray(data[k]) for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    shipped = float(meta["search"].get("contempt", 0.0))
    assert Baseline("tablut").net.contempt == shipped
    meta["search"]["contempt"] = 0.25
    arrays["meta"] = np.array(json.dumps(meta))
    path = tmp_path / "tablut-contempt.npz"
    np.savez(path, **arrays)  # type: ignore[arg-type]
    for agent, want in [(Baseline(path=path), 0.25), (Baseline(path=path, contempt=-0.1), -0.1), (make_agent(f"baseline:path={path},contempt=0.5", game_id="tablut"), 0.5)]:
        for inner in _searches(agent):
            assert isinstance(inner, AlphaBetaAgent) and inner.contempt == want
    with pytest.raises(OptionError, match="contempt"):
        Baseline(path=path, contempt=1.5)
    with pytest.raises(OptionError, match="plies and filter, not contempt"):
        Baseline("backgammon", contempt=0.2)


def test_an_afterstate_network_without_dice_searches_with_its_files_threats_or_the_ones_given(tmp_path: Path) -> None:
    import json

    from ludoteca.agents.search import AlphaBetaAgent
    from ludoteca.errors import OptionError

    src = Path(ludoteca.__file__).parent / "baselines" / "tablut.npz"
    with np.load(src, allow_pickle=False) as data:
        arrays = {k: np.asarray(data[k]) for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    assert Baseline("tablut").net.threats == bool(meta["search"].get("threats", False))
    for stored in (True, False):
        meta["search"]["threats"] = stored
        arrays["meta"] = np.array(json.dumps(meta))
        path = tmp_path / f"tablut-threats-{stored}.npz"
        np.savez(path, **arrays)  # type: ignore[arg-type]
        given = not stored
        for agent, want in [(Baseline(path=path), stored), (Baseline(path=path, threats=given), given), (make_agent(f"baseline:path={path},threats={given}", game_id="tablut"), given)]:
            for inner in _searches(agent):
                assert isinstance(inner, AlphaBetaAgent) and inner.threats is want
    with pytest.raises(OptionError, match="threats must be true or false"):
        Baseline(path=path, threats="yes")
    with pytest.raises(OptionError, match="plies and filter, not threats"):
        Baseline("backgammon", threats=True)


def test_an_afterstate_network_without_dice_blends_in_its_files_builtin_weight_or_the_one_given(tmp_path: Path) -> None:
    import json

    from ludoteca.agents.baseline import AfterstateEvaluation, NumpyNet
    from ludoteca.agents.search import MlpEvaluation, turn_values
    from ludoteca.errors import OptionError

    src = Path(ludoteca.__file__).parent / "baselines" / "tablut.npz"
    with np.load(src, allow_pickle=False) as data:
        arrays = {k: np.asarray(data[k]) for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    assert Baseline("tablut").net.builtin == float(meta["search"].get("builtin", 0.0))
    meta["search"].update(builtin=0.25, builtin_from=0)
    arrays["meta"] = np.array(json.dumps(meta))
    path = tmp_path / "tablut-builtin.npz"
    np.savez(path, **arrays)  # type: ignore[arg-type]
    for agent, want in [(Baseline(path=path), 0.25), (Baseline(path=path, builtin=0.5), 0.5), (make_agent(f"baseline:path={path},builtin=0", game_id="tablut"), 0.0)]:
        inner = _searches(agent)[-1].evaluate  # type: ignore[attr-defined]
        assert isinstance(inner, MlpEvaluation) and inner.builtin == pytest.approx(want)
    # The leaf values: weight 0 is the network, 1 the built-in evaluation, 0.25 a quarter of the way between.
    python = AfterstateEvaluation(NumpyNet(src))
    net, half, full = python.native(), python.native(0.25), python.native(1.0)
    assert net is not None and half is not None and full is not None
    for s in _positions("tablut", 6, 3):
        if s.is_terminal():
            continue
        a, b, c, d = (dict(turn_values(s, e)) for e in (net, half, full, None))
        assert c.keys() == d.keys() and all(c[m] == pytest.approx(d[m], abs=1e-6) for m in d)
        assert all(b[m] == pytest.approx(0.75 * a[m] + 0.25 * d[m], abs=1e-5) for m in d)
        assert any(abs(a[m] - d[m]) > 1e-3 for m in d)
    for bad in (1.5, -0.1, "yes", True):
        with pytest.raises(OptionError, match="builtin"):
            Baseline(path=path, builtin=bad)
    with pytest.raises(OptionError, match="builtin"):
        python.native(2.0)
    with pytest.raises(OptionError, match="plies and filter, not builtin"):
        Baseline("backgammon", builtin=0.2)


def test_a_blend_from_a_later_turn_plays_the_network_alone_before_it_and_the_blend_from_it(tmp_path: Path) -> None:
    import json

    from ludoteca.agents.baseline import PhasedAgent
    from ludoteca.agents.search import AlphaBetaAgent
    from ludoteca.errors import OptionError

    src = Path(ludoteca.__file__).parent / "baselines" / "tablut.npz"
    alone, blend = Baseline("tablut", plies=1, builtin=0.0), Baseline("tablut", plies=1, builtin=1.0)
    # Positions of one random game where the two searches choose differently, so that the phase shows.
    rng, s = random.Random(4), ludoteca.Game("tablut").new_state(4)
    told: list[ludoteca.State] = []
    while not s.is_terminal() and len(told) < 3:
        if s.turns_played > 0 and alone.act(s) != blend.act(s):
            told.append(s.clone())
        s.play(rng.choice(s.legal_moves()))
    assert len(told) == 3
    for s in told:
        k = s.turns_played
        at = Baseline("tablut", plies=1, builtin=1.0, builtin_from=k)
        after = Baseline("tablut", plies=1, builtin=1.0, builtin_from=k + 1)
        assert isinstance(at.afterstate_agent, PhasedAgent) and at.afterstate_agent.from_turn == k
        assert at.act(s) == blend.act(s) and at.afterstate_agent.last_agent is at.afterstate_agent.late
        assert after.act(s) == alone.act(s) and after.afterstate_agent.last_agent is after.afterstate_agent.early  # type: ignore[union-attr]
        assert after.afterstate_agent.last["depth"] == 1  # type: ignore[union-attr]
    # From the file, and the keyword over it; without a blend there is no phase.
    with np.load(src, allow_pickle=False) as data:
        arrays = {k: np.asarray(data[k]) for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta["search"].update(builtin=0.3, builtin_from=7)
    arrays["meta"] = np.array(json.dumps(meta))
    path = tmp_path / "tablut-phased.npz"
    np.savez(path, **arrays)  # type: ignore[arg-type]
    assert Baseline(path=path).net.builtin_from == 7
    phased = make_agent(f"baseline:path={path}", game_id="tablut").afterstate_agent  # type: ignore[attr-defined]
    assert isinstance(phased, PhasedAgent) and phased.from_turn == 7
    assert Baseline(path=path, builtin_from=2).afterstate_agent.from_turn == 2  # type: ignore[union-attr]
    assert isinstance(Baseline(path=path, builtin=0).afterstate_agent, AlphaBetaAgent)
    assert isinstance(Baseline(path=path, builtin_from=0).afterstate_agent, AlphaBetaAgent)
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(OptionError, match="builtin_from"):
            Baseline(path=path, builtin_from=bad)
    with pytest.raises(OptionError, match="plies and filter, not builtin_from"):
        Baseline("backgammon", builtin_from=3)


def _rewrite(src: Path, dst: Path, meta_edit: Any = None, **arrays: Any) -> Path:
    """A copy of the network file ``src`` with its meta edited and arrays replaced (None: removed)."""
    import json

    with np.load(src) as d:
        data = {k: d[k] for k in d.files}
    meta = json.loads(str(data["meta"]))
    if meta_edit is not None:
        meta_edit(meta)
    data["meta"] = np.array(json.dumps(meta))
    for k, v in arrays.items():
        if v is None:
            data.pop(k)
        else:
            data[k] = v
    np.savez(dst, **data)
    return dst


def _corruptions(tmp: Path) -> dict[str, Path]:
    shipped = Path(ludoteca.__file__).parent / "baselines"
    mlp, resnet = shipped / "tablut.npz", shipped / "kharbaga.npz"
    raw = mlp.read_bytes()
    out: dict[str, Path] = {}

    def put(name: str, data: bytes) -> None:
        out[name] = tmp / f"{name}.npz"
        out[name].write_bytes(data)

    put("truncated", raw[: len(raw) // 2])
    flipped = bytearray(raw)
    flipped[len(raw) // 3] ^= 0xFF
    put("flipped byte", bytes(flipped))
    np.savez(tmp / "meta not json.npz", meta=np.array("{not json"))
    out["meta not json"] = tmp / "meta not json.npz"
    np.savez(tmp / "deep json.npz", meta=np.array("[" * 100_000 + "]" * 100_000))
    out["deep json"] = tmp / "deep json.npz"
    np.savez(tmp / "meta a list.npz", meta=np.array("[1, 2]"))
    out["meta a list"] = tmp / "meta a list.npz"
    out["no kind"] = _rewrite(mlp, tmp / "no kind.npz", lambda m: m.pop("kind"))
    out["unknown game"] = _rewrite(mlp, tmp / "unknown game.npz", lambda m: m.update(game="chess"))
    out["other shape"] = _rewrite(mlp, tmp / "other shape.npz", lambda m: m.update(observation_shape=[3, 3]))
    out["shape a string"] = _rewrite(mlp, tmp / "shape a string.npz", lambda m: m.update(observation_shape="8x9x9"))
    out["plies 50"] = _rewrite(mlp, tmp / "plies 50.npz", lambda m: m["search"].update(afterstate_plies=50))
    out["simulations 10**9"] = _rewrite(resnet, tmp / "sims.npz", lambda m: m.update(play_simulations=10**9))
    out["missing weights"] = _rewrite(mlp, tmp / "missing weights.npz", **{"fc2.w": None})
    out["misshapen weights"] = _rewrite(mlp, tmp / "misshapen.npz", **{"fc2.w": np.zeros((3, 3), np.float32)})
    out["nan weights"] = _rewrite(mlp, tmp / "nan.npz", **{"fc1.b": np.full(128, np.nan, np.float32)})
    out["pickled weights"] = _rewrite(mlp, tmp / "pickled.npz", **{"fc1.b": np.array([object()], dtype=object)})
    # A header that declares a huge array over a few bytes: numpy would allocate it before reading.
    import zipfile

    header = np.lib.format.header_data_from_array_1_0(np.zeros(1, np.float32))
    header["shape"] = (1 << 40,)
    buf = __import__("io").BytesIO()
    np.lib.format.write_array_header_1_0(buf, header)
    with zipfile.ZipFile(tmp / "huge header.npz", "w") as z:
        z.writestr("meta.npy", buf.getvalue() + b"\0" * 16)
    out["huge header"] = tmp / "huge header.npz"
    return out


def test_every_unusable_network_file_is_refused_with_network_file_error(tmp_path: Path) -> None:
    # Corrupt files raised BadZipFile, JSONDecodeError, KeyError or MemoryError; a file asking for
    # afterstate_plies 50 made a move take over a minute.
    from ludoteca.agents.baseline import NetworkFileError

    for what, path in _corruptions(tmp_path).items():
        with pytest.raises(NetworkFileError) as e:
            Baseline("tablut" if "simulations" not in what else "kharbaga", path=path)
        assert str(path) in str(e.value) and len(str(e.value)) < 1000, (what, str(e.value))


def test_the_search_a_network_file_asks_for_is_bounded(tmp_path: Path) -> None:
    from ludoteca.agents.baseline import NetworkFileError

    shipped = Path(ludoteca.__file__).parent / "baselines"
    with pytest.raises(NetworkFileError, match="afterstate_plies is 3; a network file may say a whole number from 0 to 2"):
        Baseline("backgammon", path=_rewrite(shipped / "backgammon.npz", tmp_path / "b.npz", lambda m: m["search"].update(afterstate_plies=3)))
    with pytest.raises(NetworkFileError, match="afterstate_plies is 5; a network file may say a whole number from 0 to 4"):
        Baseline("tablut", path=_rewrite(shipped / "tablut.npz", tmp_path / "t.npz", lambda m: m["search"].update(afterstate_plies=5)))
    # The bound is the file's: the caller may still ask for a deeper search.
    assert Baseline("tablut", plies=1, path=shipped / "tablut.npz").plies == 1
