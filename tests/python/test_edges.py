"""One error family at every edge: integers out of range, wrong types,
wrapper actions, threads sharing a VecEnv, long inputs in messages, and
thread counts beyond the machine's."""

import collections
import os
import threading
from typing import Callable

import numpy as np
import pytest

import ludoteca
from ludoteca import errors


@pytest.mark.parametrize("bad", [2**64, 2**100, -1, 1.5, "7", True])
def test_seeds_outside_u64_or_not_integers_raise_option_error_naming_the_range(bad: object) -> None:
    makers = [
        lambda: ludoteca.Env("damas", seed=bad),
        lambda: ludoteca.Env("damas").reset(seed=bad),
        lambda: ludoteca.Game("damas").new_state(seed=bad),
        lambda: ludoteca.VecEnv("damas", num_envs=2, seed=bad),
        lambda: ludoteca.VecEnv("damas", num_envs=2).reset(seed=bad),
    ]
    for make in makers:
        with pytest.raises(errors.OptionError, match=r"seed must be an integer in \[0, 2\*\*64 - 1\]"):
            make()


def test_largest_seed_is_accepted() -> None:
    ludoteca.Env("damas", seed=2**64 - 1).reset(seed=2**64 - 1)


@pytest.mark.parametrize("bad", [2**64, -(2**70), 1.0, "2"])
def test_sizes_and_counts_outside_their_range_raise_library_errors(bad: object) -> None:
    with pytest.raises(errors.OptionError, match=r"num_envs must be an integer in \[1, 16777216\]"):
        ludoteca.VecEnv("damas", num_envs=bad)
    with pytest.raises(errors.OptionError, match=r"num_threads must be None or an integer in \[1, 1024\]"):
        ludoteca.VecEnv("damas", num_envs=2, num_threads=bad)
    venv = ludoteca.VecEnv("damas", num_envs=2)
    with pytest.raises(errors.OptionError, match=r"env index must be an integer in \[0, 1\]"):
        venv.state(bad)
    with pytest.raises(errors.LudotecaValueError, match=r"perft depth must be an integer in \[0, 64\]"):
        ludoteca.Game("damas").new_state().perft(bad)


def test_action_beyond_int64_names_the_range_not_its_type() -> None:
    s = ludoteca.Game("damas").new_state()
    n = s.game.num_actions
    for bad in (2**63, 2**80, -(2**70)):
        with pytest.raises(errors.IllegalActionError, match=rf"action must be an integer in \[0, {n}\), got -?\d+") as e:
            s.apply_action(bad)
        assert "got int" not in str(e.value)


BAD_WRAPPER_ACTIONS = [352.7, np.float64(3.0), np.float32(3.0), "3", True, np.array([3])]


@pytest.mark.parametrize("bad", BAD_WRAPPER_ACTIONS, ids=repr)
def test_gym_refuses_non_integer_actions(bad: object) -> None:
    gym = pytest.importorskip("ludoteca.gym")
    env = gym.make("damas")
    env.reset(seed=0)
    before = env.unwrapped._env.state.to_string() if hasattr(env, "unwrapped") else None
    with pytest.raises(errors.IllegalActionError, match="action must be an integer"):
        env.step(bad)
    if before is not None:
        assert env.unwrapped._env.state.to_string() == before


def test_gym_takes_numpy_and_zero_dimensional_integer_actions() -> None:
    gym = pytest.importorskip("ludoteca.gym")
    env = gym.make("damas")
    _, info = env.reset(seed=0)
    a = int(np.flatnonzero(info["action_mask"])[0])
    env.step(np.array(a))
    _, _, _, _, info = env.step(np.int64(np.flatnonzero(env.action_masks())[0]))


@pytest.mark.parametrize("bad", BAD_WRAPPER_ACTIONS, ids=repr)
@pytest.mark.parametrize("maker", ["env", "raw_env"])
def test_pettingzoo_refuses_non_integer_actions_with_a_library_error(maker: str, bad: object) -> None:
    pz = pytest.importorskip("ludoteca.pettingzoo")
    env = getattr(pz, maker)("damas")
    env.reset(seed=0)
    with pytest.raises(errors.IllegalActionError, match="action must be an integer"):
        env.step(bad)


def test_pettingzoo_refuses_out_of_range_actions_with_a_library_error() -> None:
    pz = pytest.importorskip("ludoteca.pettingzoo")
    env = pz.env("damas")
    env.reset(seed=0)
    with pytest.raises(errors.IllegalActionError, match="out of range"):
        env.step(10**6)


def test_a_vecenv_used_from_two_threads_says_it_is_in_use() -> None:
    venv = ludoteca.VecEnv("damas", num_envs=512, seed=1, num_threads=1)
    seen: list[BaseException] = []
    started = threading.Event()

    def busy() -> None:
        started.set()
        for _ in range(4):
            try:
                venv.rollout(200)
            except errors.LudotecaValueError:
                pass  # the main thread held it for a moment: both sides see the same error

    worker = threading.Thread(target=busy)
    worker.start()
    started.wait()
    while worker.is_alive():
        try:
            venv.num_envs
        except errors.LudotecaValueError as e:
            assert "in use by another thread" in str(e)
            seen.append(e)
            break
    worker.join()
    assert seen, "the second thread never met the first one inside a call"
    assert not isinstance(seen[0], RuntimeError)
    venv.rollout(1)  # still usable afterwards


def _hammer(work: Callable[[int], None], threads: int = 4) -> "collections.Counter[str]":
    """Runs ``work(thread index)`` 300 times on each of ``threads`` threads at once; counts the errors
    other than "in use by another thread"."""
    other: collections.Counter[str] = collections.Counter()

    def run(i: int) -> None:
        try:
            work(i)
        except errors.LudotecaValueError as e:
            if "in use by another thread" not in str(e):
                other[f"{type(e).__name__}: {e}"] += 1
        except Exception as e:  # noqa: BLE001 - the point is to see any other kind
            other[f"{type(e).__name__}: {e}"] += 1

    def loop(i: int) -> None:
        for _ in range(300):
            run(i)

    pool = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return other


def test_an_env_used_from_several_threads_raises_only_the_library_error() -> None:
    # pyo3's own answer was RuntimeError("Already borrowed"), thousands of times in this test.
    env = ludoteca.Env("tablut", seed=0)
    env.reset()

    def work(_: int) -> None:
        mask = env.legal_action_mask()
        _, _, term, trunc, _ = env.step(int(np.flatnonzero(mask)[0]))
        if term or trunc:
            env.reset()
        env.state, env.current_player, repr(env)

    other = _hammer(work)
    # Two threads may both pass the mask check before either steps: an illegal action then is a fair answer.
    assert not [k for k in other if not k.startswith("IllegalActionError")], other
    env.reset()
    env.step(int(np.flatnonzero(env.legal_action_mask())[0]))  # still usable


def test_an_mcts_used_from_several_threads_raises_only_the_library_error() -> None:
    search = ludoteca.MCTS("tablut", 16, num_threads=1, seed=0)
    root = ludoteca.Game("tablut").new_state(0)

    def work(_: int) -> None:
        assert search.search([root]).actions.shape == (1,)
        assert search.simulations == 16 and "MCTS" in repr(search)

    assert not _hammer(work)
    assert search.search([root]).actions.shape == (1,)


def test_a_state_searched_in_one_thread_can_be_played_in_another() -> None:
    from ludoteca._core import alphabeta_search

    state = ludoteca.Game("tablut").new_state(0)

    def work(i: int) -> None:
        if i == 0:
            alphabeta_search(state, depth=1)
            state.perft(1)
        elif not state.is_terminal():
            state.play(state.legal_moves()[0])  # a move, never a draw offer (the search would refuse it)

    other = _hammer(work)
    # Two players may pick the same move at once: the second then plays an illegal move (or after the end).
    assert not [k for k in other if not k.startswith(("MoveError", "GameOverError"))], other


def test_error_messages_quote_only_a_short_prefix_of_long_input() -> None:
    game = ludoteca.Game("damas")
    huge = "B:" + "1," * 50_000
    with pytest.raises(errors.PositionError) as e:
        game.state_from_string(huge)
    assert len(str(e.value)) < 1200 and "more characters" in str(e.value)
    with pytest.raises(errors.MoveError) as m:
        game.new_state().play("22-18" * 20_000)
    assert len(str(m.value)) < 1200 and "more characters" in str(m.value)


def _os_threads() -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("Threads:"))


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux /proc")
def test_num_threads_beyond_the_cores_starts_no_more_threads_than_cores() -> None:
    before = _os_threads()
    venv = ludoteca.VecEnv("damas", num_envs=64, seed=4, num_threads=1000)
    assert venv.num_threads == 1000
    # A few threads per core at most (the batch's default pool may still be
    # winding down when the asked-for one starts), never hundreds.
    assert _os_threads() - before <= 4 * (os.cpu_count() or 1) + 4
    one = ludoteca.VecEnv("damas", num_envs=64, seed=4, num_threads=1)
    assert venv.rollout(50) == one.rollout(50)


@pytest.mark.parametrize("bad", [123, None, b"damas", ["damas"]], ids=repr)
def test_wrongly_typed_strings_raise_option_error(bad: object) -> None:
    game = ludoteca.Game("damas")
    makers = [
        lambda: ludoteca.Game(bad),
        lambda: ludoteca.Env(bad),
        lambda: ludoteca.VecEnv(bad, num_envs=2),
        lambda: ludoteca.game_info(bad),
        lambda: game.state_from_string(bad),
        lambda: game.new_state().play(bad),
        lambda: game.new_state().string_to_action(bad),
    ]
    for make in makers:
        with pytest.raises(errors.OptionError, match="expected a string"):
            make()
