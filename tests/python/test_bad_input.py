"""Spec "Bad input": every mistake gives a clear Python exception, never a
crash, and never changes a state or a batch."""

import numpy as np
import pytest

import ludoteca
from ludoteca import errors


def test_unknown_game() -> None:
    with pytest.raises(ValueError, match=r"unknown game 'tablutt'; known: .*tablut") as e:
        ludoteca.Game("tablutt")
    assert isinstance(e.value, errors.UnknownGameError)
    for ctor in (lambda: ludoteca.Env("nope"), lambda: ludoteca.VecEnv("nope", num_envs=2)):
        with pytest.raises(errors.UnknownGameError):
            ctor()
    with pytest.raises(errors.UnknownGameError):
        ludoteca.game_info("nope")


def test_unknown_option(game_id: str) -> None:
    with pytest.raises(errors.OptionError, match=r"unknown option 'colour' for .*; known: max_turns, illegal_action"):
        ludoteca.Game(game_id, colour="red")


@pytest.mark.parametrize(
    "options, expected",
    [
        ({"max_turns": -1}, r"max_turns.*expected an integer in \[0, 1000000\], got -1"),
        ({"max_turns": "many"}, r"max_turns.*expected an integer"),
        ({"max_turns": 2.5}, r"max_turns.*expected an integer"),
        ({"illegal_action": "ignore"}, r"illegal_action.*expected one of \"raise\", \"lose\", \"rules\""),
        ({"illegal_action": 1}, r"illegal_action.*expected one of"),
    ],
)
def test_bad_option_values(game_id: str, options: dict, expected: str) -> None:
    with pytest.raises(errors.OptionError, match=expected):
        ludoteca.Game(game_id, **options)


def _first_player_state(game_id: str) -> ludoteca.State:
    s = ludoteca.Game(game_id).new_state(seed=0)
    while s.current_player == -1:
        s.apply_action(s.chance_outcomes()[0][0])
    return s


def test_illegal_action_raises_and_leaves_state(game_id: str) -> None:
    s = _first_player_state(game_id)
    mask = s.legal_action_mask()
    illegal = int(np.flatnonzero(~mask)[0])
    before = s.to_string()
    with pytest.raises(ValueError, match=r"illegal action .*legal actions: ") as e:
        s.apply_action(illegal)
    assert isinstance(e.value, errors.IllegalActionError)
    assert s.to_string() == before


@pytest.mark.parametrize("bad", [-1, 10**6, 2**70])
def test_out_of_range_action(game_id: str, bad: int) -> None:
    s = _first_player_state(game_id)
    n = s.game.num_actions
    with pytest.raises(errors.IllegalActionError, match=rf"integer in \[0, {n}\)"):
        s.apply_action(bad)


@pytest.mark.parametrize("bad", [1.0, True, "3", None])
def test_non_integer_action(bad: object) -> None:
    s = ludoteca.Game("tablut").new_state()
    with pytest.raises(errors.IllegalActionError, match="action must be an integer"):
        s.apply_action(bad)  # type: ignore[arg-type]
    env = ludoteca.Env("tablut")
    with pytest.raises(errors.IllegalActionError, match="action must be an integer"):
        env.step(bad)  # type: ignore[arg-type]


def test_numpy_integer_actions_accepted() -> None:
    s = ludoteca.Game("tablut").new_state()
    s.apply_action(np.int32(s.legal_actions()[0]))
    s.apply_action(s.legal_actions()[0])  # np.int64


def test_env_step_after_game_over() -> None:
    env = ludoteca.Env("tablut", max_turns=1)
    obs, info = env.reset()
    _, _, term, trunc, _ = env.step(int(np.flatnonzero(info["legal_action_mask"])[0]))
    assert trunc
    with pytest.raises(errors.GameOverError, match=r"call reset\(\)") as e:
        env.step(0)
    assert isinstance(e.value, ValueError) and isinstance(e.value, RuntimeError)
    env.reset()
    env.step(int(np.flatnonzero(env.legal_action_mask())[0]))


def test_state_apply_after_game_over() -> None:
    s = ludoteca.Game("tablut", resign=True).new_state()
    s.apply_action(s.string_to_action("resign"))
    assert s.is_terminal() and s.current_player == -2
    with pytest.raises(errors.GameOverError, match="the game is over"):
        s.apply_action(0)


@pytest.mark.parametrize(
    "actions, expected",
    [
        (np.zeros(3, dtype=np.float32), r"actions must be an integer array of shape \(4,\), got float32 \(3,\)"),
        (np.zeros((4, 2), dtype=np.int64), r"shape \(4,\), got int64 \(4, 2\)"),
        (np.zeros(5, dtype=np.int64), r"shape \(4,\), got int64 \(5,\)"),
        ([0.5, 1, 2, 3], r"got float64 \(4,\)"),
        ("abcd", r"got <U4 \(\)"),
    ],
)
def test_vecenv_bad_actions_array(actions: object, expected: str) -> None:
    v = ludoteca.VecEnv("tablut", num_envs=4)
    with pytest.raises(errors.ActionsError, match=expected) as e:
        v.step(actions)
    assert isinstance(e.value, TypeError) and isinstance(e.value, ValueError)


def test_vecenv_illegal_action_leaves_whole_batch_unchanged() -> None:
    v = ludoteca.VecEnv("tablut", num_envs=4, seed=1)
    _, info = v.reset()
    mask = info["legal_action_mask"]
    actions = mask.argmax(axis=1)
    before = [v.state(i).to_string() for i in range(4)]
    actions[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(errors.IllegalActionError, match=r"env 2: illegal action"):
        v.step(actions)
    with pytest.raises(errors.IllegalActionError, match=r"actions\[1\] = -3 is out of range"):
        v.step(np.array([0, -3, 0, 0]))
    assert [v.state(i).to_string() for i in range(4)] == before
    actions[2] = mask[2].argmax()
    v.step(actions)


def test_vecenv_lose_policy_ends_only_the_offender() -> None:
    v = ludoteca.VecEnv("tablut", num_envs=3, seed=1, illegal_action="lose")
    _, info = v.reset()
    mask = info["legal_action_mask"]
    actions = mask.argmax(axis=1)
    actions[1] = int(np.flatnonzero(~mask[1])[0])
    _, r, term, trunc, info = v.step(actions)
    assert term.tolist() == [False, True, False]
    mover = 0  # Swedes move first in tablut
    assert r[1, mover] == -1 and r[1, 1 - mover] == 1


def test_env_lose_policy() -> None:
    env = ludoteca.Env("tablut", illegal_action="lose")
    _, info = env.reset()
    bad = int(np.flatnonzero(~info["legal_action_mask"])[0])
    _, r, term, _, info = env.step(bad)
    assert term and r.tolist() == [-1.0, 1.0] and info["illegal_action"]


@pytest.mark.parametrize("text", ["", "garbage", "9/9/9/9/9/9/9/9/9 x", "3MMM3/4M4 s"])
def test_malformed_position_string(text: str) -> None:
    with pytest.raises(errors.PositionError, match=r"bad position string"):
        ludoteca.Game("tablut").state_from_string(text)


def test_malformed_position_string_every_game(game_id: str) -> None:
    with pytest.raises(errors.PositionError, match=r"bad position string 'not a position'"):
        ludoteca.Game(game_id).state_from_string("not a position")


def test_bad_move_notation(game_id: str) -> None:
    s = _first_player_state(game_id)
    before = s.to_string()
    with pytest.raises(errors.MoveError, match=r"bad move 'zz9-zz10'"):
        s.play("zz9-zz10")
    assert s.to_string() == before


def test_bad_action_names() -> None:
    s = ludoteca.Game("tablut").new_state()
    with pytest.raises(errors.MoveError, match="not a legal (action|move) here"):
        s.string_to_action("e5-e9")
    with pytest.raises(errors.IllegalActionError, match=r"\[0, 1300\)"):
        s.action_to_string(5000)


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        ({"num_envs": 0}, r"num_envs must be an integer in \[1,"),
        ({"num_envs": 2, "num_threads": 0}, r"num_threads must be None or an integer in \[1, 1024\], got 0"),
        ({"num_envs": 2, "obs_dtype": "float64"}, r"obs_dtype must be None, \"float32\" or \"uint8\""),
    ],
)
def test_vecenv_bad_construction(kwargs: dict, expected: str) -> None:
    with pytest.raises(errors.OptionError, match=expected):
        ludoteca.VecEnv("tablut", **kwargs)


@pytest.mark.parametrize("copy", [None, "yes", 1])
def test_vecenv_copy_takes_true_or_false_and_nothing_else(copy: object) -> None:
    with pytest.raises(errors.OptionError, match="expected True or False"):
        ludoteca.VecEnv("tablut", num_envs=2, copy=copy)


@pytest.mark.parametrize("dtype, name", [(np.uint8, "uint8"), (np.dtype("uint8"), "uint8"), (np.float32, "float32"), (np.dtype(np.float32), "float32")])
def test_vecenv_obs_dtype_takes_numpy_dtypes_as_well_as_their_names(dtype: object, name: str) -> None:
    by_type = ludoteca.VecEnv("tablut", num_envs=2, obs_dtype=dtype)
    by_name = ludoteca.VecEnv("tablut", num_envs=2, obs_dtype=name)
    assert by_type.obs_dtype == by_name.obs_dtype == name
    np.testing.assert_array_equal(by_type.reset()[0], by_name.reset()[0])
    assert by_type.reset()[0].dtype == np.dtype(name)


@pytest.mark.parametrize("dtype", [np.float64, np.int8, [("a", "u1")], 8, b"uint8"])
def test_vecenv_other_obs_dtypes_are_refused_with_a_library_error(dtype: object) -> None:
    with pytest.raises(errors.OptionError, match=r"obs_dtype must be None, \"float32\" or \"uint8\""):
        ludoteca.VecEnv("tablut", num_envs=2, obs_dtype=dtype)


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        ({"reuse_tree": None}, "expected True or False"),
        ({"evaluate_chance": "yes"}, "expected True or False"),
        ({"selection": 1}, "expected a string"),
        ({"chance": None}, "expected a string"),
        ({"c_puct": "x"}, "expected a number"),
        ({"temperature": None}, "expected a number"),
    ],
)
def test_mcts_options_of_the_wrong_type_raise_option_error(kwargs: dict, expected: str) -> None:
    # pyo3's own answer was a bare TypeError ("'None' is not an instance of 'bool'").
    with pytest.raises(errors.OptionError, match=expected):
        ludoteca.MCTS("tablut", 8, **kwargs)


def test_bad_perft_depth_and_rollout() -> None:
    s = ludoteca.Game("tablut").new_state()
    with pytest.raises(ValueError, match=r"perft depth must be an integer in \[0, 64\]"):
        s.perft(-1)
    v = ludoteca.VecEnv("tablut", num_envs=2)
    with pytest.raises(errors.OptionError, match=r"policy must be \"random\""):
        v.rollout(10, policy="greedy")
    with pytest.raises(ValueError, match=r"env index must be an integer in \[0, 1\]"):
        v.state(2)


def test_reset_options_refused() -> None:
    with pytest.raises(errors.OptionError, match="pass game options to Env"):
        ludoteca.Env("tablut").reset(options={"max_turns": 3})
