"""Round trips that lose nothing: position strings of games ended by a
verdict, pickles that keep the random generator, copies and pickles of Env,
and VecEnv's clear refusal to be copied."""

import copy
import pickle

import numpy as np
import pytest

import ludoteca
from ludoteca import errors


def _offers_game(game_id: str = "damas") -> ludoteca.Game:
    return ludoteca.Game(game_id, resign=True, draw_offers=True)


def test_a_resigned_game_says_so_in_its_position_string() -> None:
    game = _offers_game()
    s = game.new_state()
    n = game.num_actions
    live = s.to_string()
    s.apply_action(n - 4)  # resign
    assert s.is_terminal() and s.to_string() == live + "|resigned=0"
    back = game.state_from_string(s.to_string())
    assert back.is_terminal() and list(back.returns()) == [-1.0, 1.0]
    assert back == s and back != game.state_from_string(live)
    unpickled = pickle.loads(pickle.dumps(s))
    assert unpickled.is_terminal() and unpickled == s


def test_an_agreed_draw_says_so_in_its_position_string() -> None:
    game = _offers_game("tablero")
    s = game.new_state(seed=1)
    n = game.num_actions
    s.apply_action(n - 3)  # offer_draw
    assert s.to_string().endswith("|offer")
    s.apply_action(n - 2)  # accept_draw
    assert s.to_string().endswith("|draw=agreed")
    back = game.state_from_string(s.to_string())
    assert back.is_terminal() and list(back.returns()) == [0.0, 0.0] and back == s
    assert not game.state_from_string(s.to_string().split("|")[0]).is_terminal()


def test_a_forfeited_game_says_so_in_its_position_string() -> None:
    env = ludoteca.Env("damas", illegal_action="lose")
    env.reset()
    mask = env.legal_action_mask()
    env.step(int(np.flatnonzero(~mask)[0]))
    s = env.state
    assert s.is_terminal() and s.to_string().endswith("|forfeit=0")
    back = s.game.state_from_string(s.to_string())
    assert back.is_terminal() and list(back.returns()) == [-1.0, 1.0]


@pytest.mark.parametrize(
    "suffix, message",
    [
        ("|resigned=1", "player 1 resigned but player 0 is to move"),
        ("|resigned=x", "must be 0 or 1"),
        ("|draw=maybe", "unknown field"),
        ("|won", "unknown field"),
    ],
)
def test_bad_verdict_fields_are_refused(suffix: str, message: str) -> None:
    game = _offers_game()
    start = game.new_state().to_string()
    with pytest.raises(errors.PositionError, match=message):
        game.state_from_string(start + suffix)


def test_verdict_fields_need_the_game_to_have_them() -> None:
    bg = ludoteca.Game("backgammon")
    start = bg.new_state(seed=0).to_string()
    with pytest.raises(errors.PositionError, match="no resignation"):
        bg.state_from_string(start + "|resigned=0")
    tablut = ludoteca.Game("tablut")
    # tablut has repetition draws; damas does not.
    assert tablut.state_from_string(tablut.new_state().to_string() + "|draw=repetition").is_terminal()
    with pytest.raises(errors.PositionError, match="unknown field"):
        ludoteca.Game("damas").state_from_string(ludoteca.Game("damas").new_state().to_string() + "|draw=repetition")


def _play_first_legal(s: ludoteca.State, steps: int) -> None:
    for _ in range(steps):
        if s.is_terminal():
            return
        s.apply_action(int(s.legal_actions()[0]))


def test_pickled_backgammon_with_sampled_dice_rolls_the_same_dice() -> None:
    game = ludoteca.Game("backgammon", chance="sampled")
    s = game.new_state(seed=5)
    _play_first_legal(s, 3)
    twin = pickle.loads(pickle.dumps(s))
    strings = []
    for t in (s, twin):
        _play_first_legal(t, 200)
        strings.append(t.to_string())
    assert strings[0] == strings[1]
    # A plain parse starts a fresh generator: the dice differ somewhere.
    fresh = game.state_from_string(pickle.loads(pickle.dumps(twin)).to_string())
    assert fresh.turns_played == 0 and twin.turns_played > 0


def test_pickled_state_keeps_turns_and_repetition_history() -> None:
    game = ludoteca.Game("tablut")
    s = game.new_state()
    _play_first_legal(s, 6)
    twin = pickle.loads(pickle.dumps(s))
    assert twin.turns_played == s.turns_played == 6
    for t in (s, twin):
        _play_first_legal(t, 400)
    assert s.to_string() == twin.to_string() and s.is_terminal() == twin.is_terminal()


def _roll(env: ludoteca.Env, steps: int) -> list[tuple[bytes, bytes, bool, bool]]:
    out = []
    for _ in range(steps):
        a = int(np.flatnonzero(env.legal_action_mask())[0])
        obs, r, term, trunc, _ = env.step(a)
        out.append((np.asarray(obs).tobytes(), np.asarray(r).tobytes(), term, trunc))
        if term or trunc:
            env.reset()
    return out


@pytest.mark.parametrize("how", ["clone", "copy", "deepcopy", "pickle"])
@pytest.mark.parametrize("gid", ["backgammon", "tablero", "zamma"])
def test_env_copies_continue_identically(gid: str, how: str) -> None:
    env = ludoteca.Env(gid, seed=3, max_turns=40)
    env.reset()
    _roll(env, 7)
    make = {
        "clone": lambda e: e.clone(),
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
        "pickle": lambda e: pickle.loads(pickle.dumps(e)),
    }[how]
    twin = make(env)
    assert twin is not env and repr(twin) == repr(env)
    assert _roll(env, 300) == _roll(twin, 300)


def test_env_pickle_keeps_a_finished_episode_finished() -> None:
    env = ludoteca.Env("damas", resign=True)
    env.reset()
    env.step(env.num_actions - 4)
    twin = pickle.loads(pickle.dumps(env))
    with pytest.raises(errors.GameOverError):
        twin.step(0)


def test_vecenv_refuses_copy_and_pickle_with_a_library_error() -> None:
    venv = ludoteca.VecEnv("damas", num_envs=2)
    for make in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(errors.LudotecaValueError, match="a VecEnv cannot be copied or pickled"):
            make(venv)
