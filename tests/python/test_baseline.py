"""``Baseline`` without torch: a game with no shipped network is refused with a
library error that says how to train one, from Python, the arena and the CLI;
every shipped network plays, and its model card states what its file says."""

from __future__ import annotations

import subprocess
import sys
import re
from pathlib import Path

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
