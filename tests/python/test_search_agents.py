"""The search agents (greedy, alphabeta, expectimax) and the search functions
of ``ludoteca._core``: legal answers on every game, determinism, options,
Python-callable evaluations and their errors."""

from __future__ import annotations

import math

import pytest

import ludoteca
from ludoteca import _core
from ludoteca.agents import apply_choice, make_agent
from ludoteca.agents.search import AlphaBetaAgent, ExpectimaxAgent, GreedyAgent
from ludoteca.errors import LudotecaValueError, OptionError

DETERMINISTIC = [g for g in ludoteca.games() if g != "backgammon"]


def midgame(game_id: str, plies: int = 6, seed: int = 3) -> ludoteca.State:
    """A position a few random complete moves from the start."""
    state = ludoteca.Game(game_id).new_state(seed)
    agent = make_agent("random", seed=seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        apply_choice(state, agent.act(state))
    return state


@pytest.mark.parametrize("game", DETERMINISTIC)
def test_alphabeta_and_greedy_answer_a_legal_move_in_every_game(game: str) -> None:
    state = midgame(game)
    for spec in ("greedy", "alphabeta:depth=2"):
        move = make_agent(spec, game_id=game).act(state)
        assert move in state.legal_moves(), (spec, move)


@pytest.mark.parametrize("chance", ["sampled", "explicit"])
def test_expectimax_and_greedy_answer_a_legal_backgammon_move(chance: str) -> None:
    state = ludoteca.Game("backgammon", chance=chance).new_state(5)
    if state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for spec in ("greedy", "expectimax:plies=0", "expectimax:plies=1"):
        assert make_agent(spec).act(state) in state.legal_moves(), spec


def test_alphabeta_refuses_backgammon() -> None:
    state = ludoteca.Game("backgammon").new_state(0)
    with pytest.raises(LudotecaValueError, match="expectimax"):
        AlphaBetaAgent(depth=2).act(state)


def test_agents_are_deterministic_for_a_seed() -> None:
    def game(spec: str, seed: int) -> list[str]:
        state = ludoteca.Game("checkers").new_state(0)
        agents = [make_agent(spec, seed=seed), make_agent(spec, seed=seed + 1)]
        moves = []
        for _ in range(12):
            if state.is_terminal():
                break
            move = agents[state.current_player].act(state)
            moves.append(str(move))
            apply_choice(state, move)
        return moves

    for spec in ("greedy", "alphabeta:depth=3"):
        assert game(spec, 7) == game(spec, 7), spec


def test_alphabeta_takes_the_king_to_a_free_corner() -> None:
    # The Swedish king on b1 with a1 free: one move wins; a search of any depth plays it.
    state = ludoteca.Game("tablut").state_from_string("3MMM3/4M4/9/M7M/MMS4MM/M7M/9/4M4/1K1MMM3 s")
    for depth in (1, 3):
        result = _core.alphabeta_search(state, depth=depth)
        assert result["move"] == "b1-a1" and result["value"] > 1.0


@pytest.mark.parametrize(
    "make",
    [
        lambda: AlphaBetaAgent(depth=0),
        lambda: AlphaBetaAgent(depth=65),
        lambda: AlphaBetaAgent(depth="4"),  # type: ignore[arg-type]
        lambda: AlphaBetaAgent(depth=True),  # type: ignore[arg-type]
        lambda: AlphaBetaAgent(time=0),
        lambda: AlphaBetaAgent(time="1s"),  # type: ignore[arg-type]
        lambda: AlphaBetaAgent(tt_size=-1),
        lambda: AlphaBetaAgent(quiescence="yes"),  # type: ignore[arg-type]
        lambda: AlphaBetaAgent(evaluate=3),  # type: ignore[arg-type]
        lambda: ExpectimaxAgent(plies=5),
        lambda: ExpectimaxAgent(filter=-1),
        lambda: GreedyAgent(evaluate="material"),  # type: ignore[arg-type]
        lambda: make_agent("alphabeta:depth=4,colour=red"),
        lambda: make_agent("expectimax:plies=x"),
    ],
)
def test_bad_options_raise_option_error(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(OptionError):
        make()


def test_the_core_functions_check_their_options() -> None:
    state = ludoteca.Game("russian").new_state(0)
    with pytest.raises(OptionError):
        _core.alphabeta_search(state, depth=0)
    with pytest.raises(OptionError):
        _core.alphabeta_search(state, time=math.nan)
    with pytest.raises(OptionError):
        _core.expectimax_search(state, plies=-1)
    with pytest.raises(OptionError):
        _core.turn_values(state, evaluate=42)


def test_a_python_evaluation_is_called_with_states_and_players() -> None:
    state = midgame("damas")
    seen: list[tuple[str, int]] = []

    def evaluate(s: ludoteca.State, player: int) -> float:
        assert isinstance(s, ludoteca.State)
        seen.append((s.to_string(), player))
        return 0.25

    result = _core.alphabeta_search(state, depth=1, quiescence=False, evaluate=evaluate)
    # One turn ahead the opponent is to move: the leaves are valued for it, and negated.
    assert seen and all(p == 1 - state.current_player for _, p in seen)
    assert result["value"] == pytest.approx(-0.25)
    assert result["move"] in state.legal_moves()


def test_a_python_evaluation_steers_the_choice() -> None:
    state = midgame("kharbaga")
    moves = state.legal_moves()
    target = state.clone()
    target.play(moves[-1])
    wanted = target.to_string()

    me = state.current_player

    def evaluate(s: ludoteca.State, player: int) -> float:
        # Zero-sum: good for the player to move here is bad for the other.
        v = 1.0 if s.to_string() == wanted else 0.0
        return v if player == me else -v

    assert GreedyAgent(evaluate=evaluate, replies=False).act(state) == moves[-1]
    assert AlphaBetaAgent(depth=1, quiescence=False, evaluate=evaluate).act(state) == moves[-1]


def test_a_move_that_repeats_a_position_a_third_time_is_a_draw_to_the_searches() -> None:
    # Tablut: a Swede and a Muscovite step out and back twice; the start position has then
    # occurred twice, and the Muscovites' step back (b4-a4) would be its third occurrence.
    state = ludoteca.Game("tablut").new_state(0)
    start = state.to_string()
    for move in ["e7-d7", "a4-b4", "d7-e7", "b4-a4", "e7-d7", "a4-b4", "d7-e7"]:
        state.play(move)
    assert not state.is_terminal()
    after = state.clone()
    after.play("b4-a4")
    assert after.is_terminal() and after.to_string() == start + "|draw=repetition"

    me = state.current_player
    wanted = start

    def evaluate(s: ludoteca.State, player: int) -> float:
        # The evaluation loves the start position for the Muscovites, as a searcher that
        # forgets the game's history would.
        v = 0.9 if s.to_string() == wanted else -0.5
        return v if player == me else -v

    values = dict(_core.turn_values(state, evaluate))
    assert values["b4-a4"] == 0.0 and max(values.values()) == 0.0
    assert GreedyAgent(evaluate=evaluate).act(state) == "b4-a4"  # a draw beats -0.5
    for depth in (1, 2, 3):
        found = AlphaBetaAgent(depth=depth, quiescence=False, evaluate=evaluate).search(state)
        assert found["value"] <= 0.0 + 1e-6, depth
    # Once the start has occurred only once, the step back is valued as the position it reaches.
    fresh = ludoteca.Game("tablut").new_state(0)
    for move in ["e7-d7", "a4-b4", "d7-e7"]:
        fresh.play(move)
    assert dict(_core.turn_values(fresh, evaluate))["b4-a4"] == pytest.approx(0.9)


def test_a_contempt_makes_the_repetition_draw_cost_the_searcher_that_much() -> None:
    # The position above: the Muscovites' step back b4-a4 draws by repetition, every other
    # move reaches a position the evaluation values -0.5 for them.
    state = ludoteca.Game("tablut").new_state(0)
    for move in ["e7-d7", "a4-b4", "d7-e7", "b4-a4", "e7-d7", "a4-b4", "d7-e7"]:
        state.play(move)
    me = state.current_player

    def evaluate(s: ludoteca.State, player: int) -> float:
        return -0.5 if player == me else 0.5

    for contempt, draws in [(0.0, True), (0.4, True), (0.6, False), (-0.6, True)]:
        agent = AlphaBetaAgent(depth=1, quiescence=False, evaluate=evaluate, contempt=contempt)
        found = agent.search(state)
        assert (found["move"] == "b4-a4") is draws, contempt
        assert found["value"] == pytest.approx(-contempt if draws else -0.5), contempt
    # Deeper, the opponent's replies that repeat are worth +contempt to it, -contempt to the searcher.
    deep = AlphaBetaAgent(depth=3, quiescence=False, evaluate=evaluate, contempt=0.6).search(state)
    assert deep["move"] != "b4-a4" and deep["value"] == pytest.approx(-0.5)
    for bad in (1.0, -1.0, float("nan"), True, "0.3"):
        with pytest.raises(OptionError, match="contempt"):
            AlphaBetaAgent(contempt=bad)  # type: ignore[arg-type]
        with pytest.raises(OptionError, match="contempt" if isinstance(bad, float) else "expected a number"):
            _core.alphabeta_search(state, 1, contempt=bad)  # type: ignore[arg-type]


def test_threats_see_the_kings_fork_of_two_corners_one_turn_past_the_horizon() -> None:
    # The king on c2 reaches c1 or a2, an edge line with both of its corners open: the
    # Muscovites can close one route only, so the Swedes win two turns from here.
    state = ludoteca.Game("tablut").state_from_string("4M4/9/9/4M4/9/9/9/2K6/9 s")
    plain = AlphaBetaAgent(depth=1).search(state)
    assert plain["value"] <= 1.0
    found = AlphaBetaAgent(depth=1, threats=True).search(state)
    # Won three turns below the root (the threat, any answer, the escape): 1 + (72 + 1 - 3) / 128.
    assert found["value"] == pytest.approx(1 + 70 / 128)
    assert found["move"] in ("c2-c1", "c2-a2")
    assert make_agent("alphabeta:depth=1,threats=true", "tablut").search(state)["move"] == found["move"]  # type: ignore[attr-defined]
    # A game without threats to tell searches as without.
    board = midgame("russian")
    assert AlphaBetaAgent(depth=2, threats=True).search(board)["value"] == AlphaBetaAgent(depth=2).search(board)["value"]
    for bad in (1, "true", None):
        with pytest.raises(OptionError, match="threats must be true or false"):
            AlphaBetaAgent(threats=bad)  # type: ignore[arg-type]
        with pytest.raises(OptionError, match="expected True or False"):
            _core.alphabeta_search(state, 1, threats=bad)  # type: ignore[arg-type]


def test_exceptions_of_a_python_evaluation_propagate() -> None:
    state = midgame("international")

    def boom(s: ludoteca.State, player: int) -> float:
        raise ZeroDivisionError("from the evaluation")

    for agent in (GreedyAgent(evaluate=boom), AlphaBetaAgent(depth=2, evaluate=boom)):
        with pytest.raises(ZeroDivisionError, match="from the evaluation"):
            agent.act(state)
    bg = ludoteca.Game("backgammon").new_state(1)
    with pytest.raises(ZeroDivisionError):
        ExpectimaxAgent(plies=1, evaluate=boom).act(bg)


def test_a_non_number_or_nan_evaluation_is_an_error() -> None:
    state = midgame("russian")
    with pytest.raises(LudotecaValueError, match="finite"):
        _core.alphabeta_search(state, depth=1, evaluate=lambda s, p: math.nan)
    with pytest.raises(TypeError):
        _core.alphabeta_search(state, depth=1, evaluate=lambda s, p: "good")


def test_a_time_limit_answers_quickly() -> None:
    state = ludoteca.Game("international").new_state(0)
    result = AlphaBetaAgent(time=0.05).search(state)
    assert result["move"] in state.legal_moves()
    assert 1 <= result["depth"] < 64 and result["seconds"] < 2.0


def test_search_leaves_the_state_unchanged() -> None:
    state = midgame("zamma")
    before = state.to_string()
    AlphaBetaAgent(depth=2).act(state)
    GreedyAgent().act(state)
    assert state.to_string() == before


def test_alphabeta_bench_quick_mode_runs() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    if not os.path.isdir(root / ".pydeps" / "py_draughts"):
        pytest.skip("py-draughts not installed in .pydeps/py_draughts")
    r = subprocess.run(
        [sys.executable, str(root / "benches" / "alphabeta_bench.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert "international depth 2" in r.stdout and "russian depth 2" in r.stdout


@pytest.mark.parametrize("gid", ["russian", "tablut", "kharbaga"])
def test_expectimax_on_a_game_without_dice_counts_a_ply_per_turn(gid: str) -> None:
    # Without chance nodes a ply is one complete turn: the search ends and
    # answers a legal move (it once recursed without end).
    from ludoteca.agents import make_agent

    state = ludoteca.Game(gid).new_state(seed=0)
    for plies in (0, 1, 2):
        move = make_agent(f"expectimax:plies={plies}", game_id=gid).act(state)
        assert move in state.legal_moves()


@pytest.mark.parametrize(
    "game, spec",
    [
        ("backgammon", "random"), ("backgammon", "greedy"), ("backgammon", "expectimax:plies=0"),
        ("backgammon", "mcts:simulations=8"), ("backgammon", "baseline"),
        ("kharbaga", "mcts:simulations=8"), ("kharbaga", "baseline:simulations=4"), ("tablut", "alphabeta:depth=1"),
        ("tablut", "baseline:plies=1"),
    ],
)  # fmt: skip
def test_every_built_in_agent_answers_a_complete_move_in_notation(game: str, spec: str) -> None:
    # One convention: MCTS and the MCTS baselines answered an action index (one decision) where the
    # other agents answer a complete move; now each decision of the turn is searched and the move given.
    agent = make_agent(spec, game_id=game, seed=1)
    for seed in range(3):
        state = ludoteca.Game(game).new_state(seed)
        for _ in range(4):  # a few turns in: backgammon rolls of several checker moves, captures
            move = agent.act(state.clone())
            assert isinstance(move, str) and move in state.legal_moves(), (spec, move)
            state.play(move)
            if state.is_terminal():
                break
    batch = [ludoteca.Game(game).new_state(s) for s in range(2)]
    assert all(isinstance(m, str) and m in s.legal_moves() for m, s in zip(agent.act_batch(batch), batch))
