"""Other people's engines as agents: GNU Backgammon (gnubg) and py-draughts (its own engines and
Hub-protocol engines), every engine move checked against ludoteca's rules, crashes and timeouts.

Skipped where the engine cannot be imported: gnubg from PyPI (``pip install gnubg``), py-draughts
from ``.pydeps/py_draughts`` (``pip install --target .pydeps/py_draughts py-draughts``; it installs a
module ``draughts`` like pydraughts does, so it runs in the agent's own process).
"""

import os
import shutil
import signal
import stat
import sys
import time

import pytest

import ludoteca
from ludoteca.agents import make_agent
from ludoteca.arena import play_game, play_match
from ludoteca.errors import EngineCrashError, EngineRulesError, EngineTimeoutError, OptionError

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PY_DRAUGHTS = os.path.join(ROOT, ".pydeps", "py_draughts")

needs_py_draughts = pytest.mark.skipif(
    not os.path.isdir(os.path.join(PY_DRAUGHTS, "draughts")) and not os.environ.get("LUDOTECA_PY_DRAUGHTS"),
    reason="py-draughts not installed in .pydeps/py_draughts (pip install --target .pydeps/py_draughts py-draughts)",
)


@pytest.fixture(autouse=True)
def py_draughts_path(monkeypatch):
    if os.path.isdir(PY_DRAUGHTS) and not os.environ.get("LUDOTECA_PY_DRAUGHTS"):
        monkeypatch.setenv("LUDOTECA_PY_DRAUGHTS", PY_DRAUGHTS)


# --- GNU Backgammon ----------------------------------------------------------------------------


def test_gnubg_two_games_against_random_every_move_checked():
    pytest.importorskip("gnubg")
    s = play_match("backgammon", "random", "gnubg:plies=0", games=2, seed=11)
    assert not s["errors"] and s["pairs"][0]["void"] == 0
    assert s["pairs"][0]["losses"] == 2  # random does not beat gnubg twice in a row here
    turns = sum(1 for r in s["records"] for m, p in zip(r["moves"], r["moves"][1:]) if m.startswith(("roll", "opening")) and "/" in p)
    assert s["engine_checks"]["gnubg:plies=0"]["engine_moves"] >= turns // 2 > 0


def _best_by_evaluation(gnubg, state):
    """gnubg 0-ply's choice computed independently: the legal move after which the opponent's
    cubeless money equity is lowest."""
    ctx = gnubg.eval_context(0, 0, 1, 0, 0.0)
    best, best_eq = None, None
    for m in state.legal_moves():
        child = state.clone()
        child.play(m)
        if child.is_terminal():
            eq = 10.0 + float(child.returns()[state.current_player])
        else:
            eq = -gnubg.evaluate(gnubg.position_from_id(child.to_string().split(":")[0]), gnubg.cube_info(), ctx)[5]
        if best_eq is None or eq > best_eq + 1e-9:
            best, best_eq = m, eq
    return best


@pytest.mark.parametrize(
    "position",
    [
        "4HPwATDgc/ABMA:cAklAAAAAAAA",  # the opening position, 2-1
        "fwECITy+AQAAAA:MIE2AAAAAAAA",  # bear-off with doubles: gnubg's tuple is cut at the first checker off
        "W60EUDDuvQMAAA:MAEvAAAAAAAA",  # bear-off, several legal moves continue the cut tuple
        "3yIGIBx5bwAAAA:cAknAAAAAAAA",
    ],
)
def test_gnubg_move_is_the_move_gnubg_evaluates_best(position):
    gnubg = pytest.importorskip("gnubg")
    g = ludoteca.Game("backgammon", chance="explicit")
    state = g.state_from_string(position)
    agent = make_agent("gnubg:plies=0", game_id="backgammon")
    move = agent.act(state)
    assert move in state.legal_moves()
    assert move == _best_by_evaluation(gnubg, state)


def test_gnubg_illegal_move_is_reported_with_position_and_legal_list(monkeypatch):
    pytest.importorskip("gnubg")
    agent = make_agent("gnubg:plies=0", game_id="backgammon")
    monkeypatch.setattr(agent._gnubg, "find_best_move", lambda *a: (24, 10))
    state = ludoteca.Game("backgammon", chance="explicit").state_from_string("4HPwATDgc/ABMA:MIElAAAAAAAA")  # 3-1
    with pytest.raises(EngineRulesError) as e:
        agent.act(state)
    assert e.value.position == state.to_string() and e.value.move == "24/10" and "8/5 6/5" in e.value.legal
    rec = play_game("backgammon", [agent, "random"], seed=1)
    assert rec["termination"] == "void" and rec["error"]["type"] == "EngineRulesError" and rec["error"]["legal"]


def test_gnubg_cube_decisions_through_its_command_interpreter():
    gnubg = pytest.importorskip("gnubg")
    import numpy as np

    agent = make_agent("gnubg:plies=0", game_id="backgammon")
    game = ludoteca.Game("backgammon", cube=True, match_length=7, chance="explicit")
    rng = np.random.default_rng(4)
    seen: dict[str, int] = {}
    for seed in range(12):
        s = game.new_state(seed)
        while not s.is_terminal():
            if s.current_player == -1:
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
                continue
            legal = s.legal_moves()
            if legal[0] == "roll":
                move = agent.act(s)
                assert move in legal
                seen[move] = seen.get(move, 0) + 1
                if move == "double":
                    # The same analysis from the taker's side answers take or drop.
                    s.play("double")
                    answer = agent.act(s)
                    assert answer in ("take", "drop")
                    seen[answer] = seen.get(answer, 0) + 1
                    s.play(answer)
                else:
                    s.play(move)
                continue
            s.apply_action(int(rng.choice(s.legal_actions())))
    # Random checker play gives gnubg every kind of cube decision.
    assert all(seen.get(k, 0) > 0 for k in ("roll", "double", "take", "drop")), seen
    assert agent.checks["cube_decisions"] == sum(seen.values())


def test_gnubg_refuses_other_games_and_plies():
    pytest.importorskip("gnubg")
    with pytest.raises(OptionError, match="backgammon only"):
        make_agent("gnubg", game_id="russian")
    with pytest.raises(OptionError, match="plies"):
        make_agent("gnubg:plies=3", game_id="backgammon")


# --- py-draughts ---------------------------------------------------------------------------------


@needs_py_draughts
@pytest.mark.parametrize("game", ["russian", "international"])
def test_py_draughts_two_games_against_random_every_move_checked(game):
    agent = make_agent("pydraughts:time=0.02", game_id=game)
    try:
        s = play_match(game, "random", agent, games=2, seed=3)
    finally:
        agent.close()
    assert not s["errors"] and s["pairs"][0]["void"] == 0
    checks = s["engine_checks"][agent.name]
    assert checks["engine_moves"] > 10 and checks["opponent_moves"] >= checks["engine_moves"] - 2


@needs_py_draughts
def test_py_draughts_brazilian_game_from_a_midgame_position():
    g = ludoteca.Game("brazilian")
    agent = make_agent("pydraughts:depth=2", game_id="brazilian")
    try:
        rec = play_game(g, [agent, "random"], start="W:B1,2,3,5,6,9,10,12:W17,21,22,24,26,28,29,30", seed=4)
    finally:
        agent.close()
    assert rec["termination"] in ("rules", "max_turns") and rec["checks"][0]["engine_moves"] > 0


def test_py_draughts_refuses_checkers_with_the_reason():
    with pytest.raises(OptionError, match="american variant is not English checkers"):
        make_agent("pydraughts", game_id="checkers")
    with pytest.raises(OptionError, match="only international"):
        make_agent("pydraughts:engine=turbo", game_id="russian")


@needs_py_draughts
def test_py_draughts_refusal_of_a_ludoteca_move_is_reported(monkeypatch):
    import ludoteca.agents.pydraughts as bridge

    agent = make_agent("pydraughts:depth=1", game_id="russian")
    try:
        state = ludoteca.Game("russian").new_state()
        state.play(agent.act(state))
        opponent = state.legal_moves()[0]
        state.play(opponent)
        # Corrupt the position py-draughts is told the opponent reached: it finds no move to it.
        real = bridge.to_py_draughts_fen
        monkeypatch.setattr(bridge, "to_py_draughts_fen", lambda text: real(text).replace("W:W", "W:W1,", 1))
        with pytest.raises(EngineRulesError, match="py-draughts refuses") as e:
            agent.act(state)
        assert e.value.move == opponent and opponent in e.value.legal
    finally:
        agent.close()


@pytest.fixture
def hub_agent(tmp_path, monkeypatch):
    """``hub_agent(mode, options)``: a PyDraughtsAgent on the tiny Hub engine (an executable run by
    this Python, which can import ludoteca) behaving as ``mode``; closed after the test."""
    src = open(os.path.join(HERE, "tiny_hub_engine.py")).read().split("\n", 1)[1]
    path = tmp_path / "tiny_hub"
    path.write_text(f"#!{sys.executable}\n{src}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    made = []

    def make(mode, options="time=0.1"):
        monkeypatch.setenv("TINY_HUB_MODE", mode)
        made.append(make_agent(f"pydraughts:engine={path},{options}", game_id="international"))
        return made[-1]

    yield make
    for agent in made:
        agent.close()


@needs_py_draughts
def test_hub_engine_path_plays_through_py_draughts(hub_agent):
    rec = play_game("international", ["random", hub_agent("first")], seed=2)
    assert rec["termination"] in ("rules", "max_turns") and rec["error"] is None
    assert rec["checks"][1]["engine_moves"] > 5


@needs_py_draughts
def test_hub_engine_crash_is_reported_and_forfeits(hub_agent):
    agent = hub_agent("crash")
    t0 = time.monotonic()
    with pytest.raises(EngineCrashError, match="exited"):
        agent.act(ludoteca.Game("international").new_state())
    rec = play_game("international", [agent, "random"], seed=2)
    assert rec["termination"] == "forfeit" and rec["reason"] == "engine crash" and rec["returns"] == [-1.0, 1.0]
    assert time.monotonic() - t0 < 60


@needs_py_draughts
def test_hub_engine_that_never_answers_times_out(hub_agent):
    agent = hub_agent("hang", "time=0.1,timeout=2")
    state = ludoteca.Game("international").new_state()
    agent._request({"cmd": "new", "fen": "W:W31:B1"})  # start the worker outside the timed part
    t0 = time.monotonic()
    with pytest.raises(EngineTimeoutError, match="within 2 s"):
        agent.act(state)
    assert time.monotonic() - t0 < 10
    assert not agent._proc.running


@needs_py_draughts
def test_hub_engine_illegal_move_is_a_rules_error(hub_agent):
    state = ludoteca.Game("international").new_state()
    with pytest.raises(EngineRulesError) as e:
        hub_agent("illegal").act(state)
    assert e.value.position == state.to_string() and e.value.legal == state.legal_moves()
    assert "1-2" in str(e.value)


@needs_py_draughts
def test_engine_process_killed_from_outside_is_a_crash_then_restarts():
    agent = make_agent("pydraughts:depth=1", game_id="russian")
    try:
        state = ludoteca.Game("russian").new_state()
        agent.act(state)
        os.killpg(agent._proc.proc.pid, signal.SIGKILL)
        agent._proc.proc.wait()
        with pytest.raises(EngineCrashError, match="died"):
            agent.act(state)
        assert agent.act(state) in state.legal_moves()  # a fresh process
    finally:
        agent.close()
