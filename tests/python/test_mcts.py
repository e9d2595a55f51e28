"""MCTS from Python: winning moves found, the evaluate() callback contract,
batching, determinism, the agent and the command line."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import ludoteca
from ludoteca import MCTS, Game, SearchError
from ludoteca.agents import apply_choice, make_agent
from ludoteca.agents.mcts import MCTSAgent


def play_turn(agent: MCTSAgent, state: ludoteca.State) -> str:
    """The mover's whole turn (one search per decision inside ``act``), played on ``state``."""
    move = agent.act(state)
    apply_choice(state, move)
    return move


@pytest.mark.parametrize("selection", ["puct", "gumbel"])
def test_checkers_double_capture_that_wins(selection: str) -> None:
    state = Game("checkers").state_from_string("B:B1,9:W6,14")
    agent = MCTSAgent(simulations=200, selection=selection, considered=64, gumbel_scale=0.0)
    assert play_turn(agent, state) == "1x10x17"  # both hops: 1x10, then 10x17
    assert state.is_terminal()


@pytest.mark.parametrize("chance", ["sampled", "explicit"])
def test_backgammon_bear_off_that_wins_over_two_checker_moves(chance: str) -> None:
    state = Game("backgammon", chance=chance).state_from_string("AACAQAEAAAAAAA:MAE3AAAAAAAA")
    play_turn(MCTSAgent(simulations=200), state)
    assert state.is_terminal() and state.returns()[0] > 0


def test_tablut_king_escape_and_tablero_huff() -> None:
    s = Game("tablut").state_from_string("3MMM3/4M4/4S4/M3S3M/MMSS1SSMM/M3S3M/4S4/4M4/2KMMM3 s")
    assert MCTSAgent(simulations=400).act(s) == "c1-a1"
    s = Game("tablero").state_from_string("W:B22,25,28:W1,18;h=22")
    assert MCTSAgent(simulations=2000).act(s) == "s22"


def uniform(calls: list[tuple[Any, Any]], num_actions: int):  # type: ignore[no-untyped-def]
    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        calls.append((obs.copy(), mask.copy()))
        return np.zeros((len(obs), num_actions), np.float32), np.zeros(len(obs), np.float32)

    return evaluate


def test_callback_gets_one_batch_per_wave_with_the_documented_shapes() -> None:
    game = Game("backgammon")
    states = [game.new_state(seed=i) for i in range(5)]
    calls: list[tuple[Any, Any]] = []
    res = MCTS(game, 16).search(states, uniform(calls, game.num_actions))
    assert len(calls) == 17  # the roots' evaluation, then one wave per simulation
    for obs, mask in calls:
        assert obs.dtype == np.float32 and obs.shape[1:] == game.observation_shape
        assert mask.dtype == np.bool_ and mask.shape == (len(obs), game.num_actions)
        assert 1 <= len(obs) <= 5 and mask.any(axis=1).all()
    np.testing.assert_array_equal(calls[0][1], np.stack([s.legal_action_mask() for s in states]))
    assert res.actions.dtype == np.int64 and res.actions.shape == (5,)
    assert res.visits.shape == res.policy.shape == (5, game.num_actions)
    assert (res.visits.sum(axis=1) == 16).all()
    np.testing.assert_allclose(res.policy.sum(axis=1), 1.0, rtol=1e-5)
    for s, a, m in zip(states, res.actions, res.visits):
        assert s.legal_action_mask()[a] and (m[~s.legal_action_mask()] == 0).all()


def test_network_prior_steers_the_search() -> None:
    game = Game("checkers")
    state = game.new_state()
    favourite = int(np.flatnonzero(state.legal_action_mask())[-1])

    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits = np.zeros(mask.shape, np.float32)
        logits[:, favourite] = 10.0
        return logits, np.zeros(len(obs), np.float32)

    res = MCTS(game, 50).search([state], evaluate)
    assert res.actions[0] == favourite and res.visits[0, favourite] >= 45


@pytest.mark.parametrize(
    "answer, message",
    [
        (lambda n, a: np.zeros((n, a), np.float32), "must return"),
        (lambda n, a: (np.zeros((n, a + 1)), np.zeros(n)), "logits has shape"),
        (lambda n, a: (np.zeros((n, a)), np.zeros((n, 1))), "values has shape"),
        (lambda n, a: (np.zeros((n, a)), np.full(n, np.nan)), "non-finite value"),
        (lambda n, a: (np.full((n, a), np.inf), np.zeros(n)), "non-finite logit"),
        (lambda n, a: (np.full((n, a), "x"), np.zeros(n)), "not a numeric array"),
    ],
)
def test_bad_callback_output_is_a_search_error(answer: Any, message: str) -> None:
    game = Game("checkers")
    with pytest.raises(SearchError, match=message):
        MCTS(game, 4).search([game.new_state()], lambda obs, mask: answer(len(obs), game.num_actions))


def test_float64_and_lists_are_accepted_as_answers() -> None:
    game = Game("checkers")
    res = MCTS(game, 4).search(
        [game.new_state()], lambda obs, mask: (np.zeros(mask.shape).tolist(), [0.0] * len(obs))
    )
    assert res.visits.sum() == 4


def test_exceptions_in_the_callback_propagate_and_the_search_can_run_again() -> None:
    class Boom(Exception):
        pass

    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        raise Boom("network exploded")

    game = Game("checkers")
    search = MCTS(game, 8)
    with pytest.raises(Boom, match="network exploded"):
        search.search([game.new_state()], evaluate)
    assert search.search([game.new_state()]).visits.sum() == 8


def test_bad_arguments_raise_library_errors() -> None:
    game = Game("backgammon", chance="explicit")
    with pytest.raises(ludoteca.OptionError, match="simulations"):
        MCTS(game, 0)
    with pytest.raises(ludoteca.OptionError, match="selection"):
        MCTS(game, 10, selection="ucb")
    with pytest.raises(ludoteca.errors.LudotecaValueError, match="chance node"):
        MCTS(game, 10).search([game.new_state()])
    with pytest.raises(ludoteca.errors.LudotecaValueError, match="not of the searched game"):
        MCTS(game, 10).search([Game("checkers").new_state()])
    with pytest.raises(ludoteca.errors.LudotecaValueError, match="callable"):
        MCTS("checkers", 10).search([Game("checkers").new_state()], evaluate=3)  # type: ignore[arg-type]
    with pytest.raises(ludoteca.errors.LudotecaValueError, match="at least one"):
        MCTS("checkers", 10).search([])


def test_same_seed_same_search_for_any_thread_count() -> None:
    env = ludoteca.VecEnv("checkers", 6, seed=3)
    env.reset()
    env.step(env.sample_actions())
    runs = [
        MCTS("checkers", 64, seed=9, num_threads=t, dirichlet_fraction=0.25, temperature=1.0).search(env)
        for t in (1, 2, 4)
    ]
    for r in runs[1:]:
        np.testing.assert_array_equal(r.visits, runs[0].visits)
        np.testing.assert_array_equal(r.actions, runs[0].actions)


def test_agent_by_name_and_batched() -> None:
    agent = make_agent("mcts:simulations=40,selection=gumbel", game_id="backgammon", seed=2)
    assert isinstance(agent, MCTSAgent)
    states = [Game("backgammon").new_state(seed=i) for i in range(4)] + [Game("checkers").new_state()]
    moves = agent.act_batch(states)
    assert all(m in s.legal_moves() for s, m in zip(states, moves))
    with pytest.raises(ludoteca.OptionError):
        make_agent("mcts:simulations=0")


def test_command_line_plays_mcts_against_random() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ludoteca", "play", "checkers", "--p0", "mcts:simulations=50", "--p1", "random",
         "--option", "max_turns=30"],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "turn 1: player 0 plays" in out.stdout or "player 0 plays" in out.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "ludoteca", "play", "checkers", "--p0", "nobody"], capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2 and "unknown agent" in bad.stderr


def test_mcts_bench_quick_mode_runs(tmp_path: Any) -> None:
    """A smoke run of benches/mcts_bench.py (no timing assertions)."""
    import json
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benches" / "mcts_bench.py"
    out = tmp_path / "bench.json"
    r = subprocess.run([sys.executable, str(script), "--quick", "--json", str(out)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "Summary" in r.stdout
    rows = json.loads(out.read_text())["rows"]
    assert [row["row"].split()[0] for row in rows] == ["rollout", "rollout", "mlp"]
    assert all(row["ours_batch"] > 0 for row in rows)


def test_docs_search_page_code_runs() -> None:
    """Every python block of docs/search.md runs as written."""
    import re
    from pathlib import Path

    pytest.importorskip("torch")
    text = (Path(__file__).resolve().parents[2] / "docs" / "search.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "docs/search.md", "exec"), {})


def test_evaluate_chance_keyword_round_trips_and_passes_through_the_agent() -> None:
    g = Game("backgammon")
    assert MCTS(g, 8).evaluate_chance is False
    assert MCTS(g, 8, evaluate_chance=True).evaluate_chance is True
    agent = MCTSAgent(simulations=8, evaluate_chance=True, selection="gumbel")
    s = g.new_state(2)
    agent.act(s)
    assert agent._search_for(s).evaluate_chance is True


def test_state_chance_player_is_the_player_about_to_roll() -> None:
    g = Game("backgammon", chance="explicit")
    s = g.new_state(1)
    assert s.is_chance_node() and s.chance_player in (0, 1)
    s.apply_action(s.chance_outcomes()[0][0])
    mover = s.current_player
    assert s.chance_player is None
    while not s.is_chance_node():
        s.apply_action(int(s.legal_actions()[0]))
    assert s.chance_player == 1 - mover
    # Sampled dice are rolled inside apply: no state waits at a chance node.
    assert Game("backgammon").new_state(1).chance_player is None
    assert Game("checkers").new_state(0).chance_player is None


def test_evaluate_chance_asks_the_evaluator_for_chance_nodes_with_all_false_masks() -> None:
    g = Game("backgammon", chance="explicit")
    s = g.new_state(1)
    s.apply_action(s.chance_outcomes()[0][0])
    seen: list[np.ndarray] = []

    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        seen.append(mask.copy())
        logits = np.where(mask, 0.0, np.nan).astype(np.float32)  # never read where nothing is legal
        return logits, np.full(len(obs), 0.25, np.float32)

    plain = MCTS(g, 32, selection="gumbel", seed=1).search([s], evaluate)
    plain_rows = sum(len(m) for m in seen)
    assert all(m.any(axis=1).all() for m in seen), "without the option every row has a legal action"
    seen.clear()
    valued = MCTS(g, 32, selection="gumbel", evaluate_chance=True, seed=1).search([s], evaluate)
    chance_rows = sum(int((~m.any(axis=1)).sum()) for m in seen)
    assert chance_rows > 0 and sum(len(m) for m in seen) == plain_rows
    assert plain.actions.shape == valued.actions.shape == (1,)
    # The built-in playouts value chance nodes too.
    assert MCTS(g, 32, evaluate_chance=True, seed=1).search([s]).actions.shape == (1,)


FORMAT_GAMES = ["checkers", "tablut", "kharbaga", "backgammon"]


@pytest.mark.parametrize("obs_format", ["full", "compact", "packed"])
@pytest.mark.parametrize("gid", FORMAT_GAMES)
def test_callback_gets_the_observations_of_the_games_obs_format(gid: str, obs_format: str) -> None:
    """evaluate() reads the rows VecEnv and State.observation() give, in the
    configured format (shape and dtype), not the full float rows."""
    game = Game(gid, obs_format=obs_format)
    states = [game.new_state(seed=i) for i in range(3)]
    for s in states:
        while s.current_player == -1:
            s.apply_action(s.chance_outcomes()[0][0])
    calls: list[tuple[Any, Any]] = []
    MCTS(game, 4).search(states, uniform(calls, game.num_actions))
    want_dtype = np.uint8 if obs_format == "packed" else np.float32
    assert game.observation_dtype == np.dtype(want_dtype).name
    for obs, _ in calls:
        assert obs.dtype == want_dtype and obs.shape[1:] == game.observation_shape
    # The first wave is the roots' evaluation: exactly their observations.
    np.testing.assert_array_equal(calls[0][0], np.stack([s.observation() for s in states]))
    venv = ludoteca.VecEnv(gid, num_envs=2, seed=0, obs_format=obs_format)
    first, _ = venv.reset()
    assert first.dtype == calls[0][0].dtype and first.shape[1:] == calls[0][0].shape[1:]


@pytest.mark.parametrize("obs_format", ["full", "compact", "packed"])
@pytest.mark.parametrize("gid", ["checkers", "tablut", "kharbaga"])
def test_a_native_network_reads_the_games_obs_format(gid: str, obs_format: str) -> None:
    """MlpEvaluation's value of a position is the same network run in numpy
    on State.observation() of the configured format."""
    from ludoteca.agents.search import MlpEvaluation, turn_values

    game = Game(gid, obs_format=obs_format)
    n = int(np.prod(game.observation_shape))
    rng = np.random.default_rng(0)
    w1 = (rng.normal(size=(n, 8)) / np.sqrt(n)).astype(np.float32)
    b1 = rng.normal(size=8).astype(np.float32)
    w2 = rng.normal(size=(8, 1)).astype(np.float32)
    b2 = np.zeros(1, np.float32)
    net = MlpEvaluation([(w1, b1)], (w2, b2))
    assert net.inputs == n
    state = game.new_state(seed=3)
    for move, value in turn_values(state, net):
        after = state.clone()
        after.play(move)
        if after.is_terminal():
            continue
        x = after.observation().astype(np.float32).reshape(-1)
        v = float(np.tanh(np.maximum(x @ w1 + b1, 0) @ w2 + b2)[0])
        if after.current_player != state.current_player:
            v = -v
        assert value == pytest.approx(v, abs=1e-5), move
    other = Game(gid, obs_format="compact" if obs_format != "compact" else "full")
    if int(np.prod(other.observation_shape)) != n:
        with pytest.raises(ludoteca.LudotecaError, match="obs_format"):
            turn_values(other.new_state(seed=3), net)
