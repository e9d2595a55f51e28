"""The tactics suite (tests/data/tactics, written by tools/gen_tactics.py):
positions of seeded random games where the player to move wins at once or
forces a win in two of its turns. Each line is confirmed again here by brute
force over complete moves, then the built-in agents must solve them:
`alphabeta` at a depth that reaches the win, all of them; `greedy`, every win
at once; `mcts:simulations=400`, every win at once (wins in two: counted and
reported, docs/search.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import ludoteca
from ludoteca.agents import apply_choice, make_agent

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from gen_tactics import after, forces_win_in_two, wins_at_once  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "tactics"


def suite(game_id: str) -> list[tuple[str, str, list[str]]]:
    path = DATA / f"{game_id}.txt"
    out = []
    for line in path.read_text().splitlines():
        text, kind, *moves = line.split("\t")
        out.append((text, kind, moves))
    return out


def play_turn(agent: ludoteca.agents.BaseAgent, state: ludoteca.State) -> ludoteca.State:
    """The mover's whole turn by `agent` (agents that answer decision by decision included)."""
    s = state.clone()
    mover = s.current_player
    while s.current_player == mover and not s.is_terminal():
        apply_choice(s, agent.act(s))
    return s


def won(state: ludoteca.State, mover: int) -> bool:
    return state.is_terminal() and state.returns()[mover] > 0


def test_every_game_has_its_tactics(game_id: str) -> None:
    lines = suite(game_id)
    kinds = [k for _, k, _ in lines]
    assert kinds.count("once") >= 10, game_id
    if game_id != "backgammon":
        assert kinds.count("in2") >= 1, game_id


def test_the_suite_is_confirmed_by_brute_force(game_id: str) -> None:
    game = ludoteca.Game(game_id)
    for text, kind, moves in suite(game_id):
        s = game.state_from_string(text)
        if kind == "once":
            assert sorted(wins_at_once(s)) == sorted(moves), text
        else:
            assert not wins_at_once(s), text
            assert sorted(forces_win_in_two(s)) == sorted(moves), text


def test_alphabeta_greedy_and_mcts_solve_the_wins_at_once(game_id: str) -> None:
    game = ludoteca.Game(game_id)
    specs = ["greedy", "mcts:simulations=400"] + ([] if game_id == "backgammon" else ["alphabeta:depth=1", "alphabeta:depth=4"])
    for text, kind, moves in suite(game_id):
        if kind != "once":
            continue
        s = game.state_from_string(text)
        mover = s.current_player
        for spec in specs:
            agent = make_agent(spec, game_id, seed=1)
            assert won(play_turn(agent, s), mover), f"{spec} misses the win at once in {text} ({moves})"


def test_alphabeta_solves_the_wins_in_two_and_mcts_is_counted(game_id: str) -> None:
    if game_id == "backgammon":
        pytest.skip("dice: wins in two turns are not forced")
    game = ludoteca.Game(game_id)
    solved = total = 0
    for text, kind, moves in suite(game_id):
        if kind != "in2":
            continue
        s = game.state_from_string(text)
        for depth in (3, 4):
            found = make_agent(f"alphabeta:depth={depth}", game_id).search(s)  # type: ignore[attr-defined]
            assert found["move"] in moves and found["value"] > 1.0, (depth, text, found)
        total += 1
        s2 = play_turn(make_agent("mcts:simulations=400", game_id, seed=1), s)
        solved += not s2.is_terminal() and s2.to_string() in {after(s, m).to_string() for m in moves}
    print(f"{game_id}: mcts:simulations=400 plays a forcing move in {solved} of {total} wins in two")


def test_the_larger_tactics_bench_runs_in_its_quick_mode() -> None:
    import subprocess

    script = Path(__file__).resolve().parents[2] / "benches" / "tactics_bench.py"
    out = subprocess.run([sys.executable, str(script), "--quick"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("kharbaga: greedy 2/2"), out.stdout
