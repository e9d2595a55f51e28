"""VecEnv.send / VecEnv.recv: asynchronous stepping returns exactly what
step returns for the same actions (auto-reset and final observations
included), hands rows out batch_size at a time with their env ids, and
guards the batch while a send is in flight."""

from __future__ import annotations

import numpy as np
import pytest

import ludoteca
from ludoteca.errors import ActionsError, IllegalActionError, LudotecaValueError, OptionError


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1).astype(np.int64)


def _assert_rows_equal(step_out: tuple, recv_out: tuple, rows: np.ndarray) -> None:
    for a, b in zip(step_out[:4], recv_out[:4]):
        assert np.array_equal(np.asarray(a)[rows], b)
    step_info, recv_info = step_out[4], recv_out[4]
    assert np.array_equal(recv_info["env_id"], rows)
    for key in ("legal_action_mask", "current_player"):
        assert np.array_equal(step_info[key][rows], recv_info[key])
    if "final_observation" in step_info and (step_out[2] | step_out[3])[rows].any():
        for key in ("final_observation", "_final_observation", "final_returns"):
            assert np.array_equal(step_info[key][rows], recv_info[key])


@pytest.mark.parametrize("copy", [True, False])
def test_send_recv_equals_step_for_the_same_actions(game_id: str, copy: bool) -> None:
    n = 6
    stepped = ludoteca.VecEnv(game_id, n, seed=11, max_turns=15, copy=copy)
    sent = ludoteca.VecEnv(game_id, n, seed=11, max_turns=15, copy=copy)
    _, info = stepped.reset()
    sent.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(40):
        actions = _random_legal(info["legal_action_mask"], rng)
        sent.send(actions)
        got = sent.recv()
        want = stepped.step(actions)
        _assert_rows_equal(want, got, np.arange(n))
        ended += int((want[2] | want[3]).sum())
        info = want[4]
    assert ended > 0  # max_turns=15: auto-resets happened along the way
    for i in range(n):
        assert stepped.state(i) == sent.state(i)


def test_env_ids_step_only_those_envs_like_step_with_active() -> None:
    n = 5
    stepped = ludoteca.VecEnv("checkers", n, seed=3, max_turns=12)
    sent = ludoteca.VecEnv("checkers", n, seed=3, max_turns=12)
    _, info = stepped.reset()
    sent.reset()
    rng = np.random.default_rng(1)
    for k in range(30):
        ids = np.sort(rng.choice(n, size=1 + k % n, replace=False))
        actions = _random_legal(info["legal_action_mask"], rng)
        active = np.zeros(n, dtype=bool)
        active[ids] = True
        sent.send(actions[ids][::-1], env_ids=ids[::-1])  # any order of ids
        got = sent.recv()
        want = stepped.step(actions, active=active)
        _assert_rows_equal(want, got, ids)
        info = want[4]
    assert all(stepped.state(i) == sent.state(i) for i in range(n))


def test_recv_batch_size_hands_out_every_sent_env_once() -> None:
    venv = ludoteca.VecEnv("tablut", 7, seed=0)
    _, info = venv.reset()
    reference = ludoteca.VecEnv("tablut", 7, seed=0)
    reference.reset()
    actions = _random_legal(info["legal_action_mask"], np.random.default_rng(2))
    want = reference.step(actions)
    venv.send(actions)
    parts = [venv.recv(batch_size=3), venv.recv(batch_size=3), venv.recv(batch_size=3)]
    assert [len(p[0]) for p in parts] == [3, 3, 1]
    for p in parts:
        assert np.all(np.diff(p[4]["env_id"]) > 0)  # rows by env id within a call
        assert np.array_equal(p[0], want[0][p[4]["env_id"]])
    ids = np.concatenate([p[4]["env_id"] for p in parts])
    assert np.array_equal(np.sort(ids), np.arange(7))
    with pytest.raises(LudotecaValueError, match="needs a send"):
        venv.recv()


@pytest.mark.parametrize("obs_dtype", ["float32", "uint8"])
def test_recv_batches_from_many_threads_equal_step_rows(obs_dtype: str) -> None:
    """Envs finish in any order across the worker threads; every batch holds
    exactly step's rows for its ids, final observations of the games that
    ended in it included."""
    n, k = 301, 37
    stepped = ludoteca.VecEnv("checkers", n, seed=5, max_turns=6, num_threads=2, obs_dtype=obs_dtype)
    sent = ludoteca.VecEnv("checkers", n, seed=5, max_turns=6, num_threads=2, obs_dtype=obs_dtype)
    _, info = stepped.reset()
    sent.reset()
    rng = np.random.default_rng(3)
    ended_chunks = 0
    for _ in range(14):
        actions = _random_legal(info["legal_action_mask"], rng)
        want = stepped.step(actions)
        sent.send(actions)
        seen = []
        while len(seen) < n:
            got = sent.recv(batch_size=k)
            rows = got[4]["env_id"]
            assert len(rows) == min(k, n - len(seen))
            _assert_rows_equal(want, got, rows)
            ended = (want[2] | want[3])[rows]
            assert ("final_observation" in got[4]) == bool(ended.any())
            ended_chunks += bool(ended.any())
            seen.extend(rows.tolist())
        assert sorted(seen) == list(range(n))
        info = want[4]
    assert ended_chunks > 0
    assert all(stepped.state(i) == sent.state(i) for i in (0, 150, 300))


def test_recv_batch_size_returns_the_envs_in_the_order_they_finish() -> None:
    """One worker thread walks the envs in order, so the first to finish is
    env 0 and each later chunk continues from where the last stopped. (How
    much sooner the first chunk comes than a whole step is a speed claim:
    benches/vecenv_async_bench.py measures it.)"""
    n = 400
    venv = ludoteca.VecEnv("zamma", n, seed=0, num_threads=1)
    venv.reset()
    for _ in range(3):
        venv.send(venv.sample_actions())
        got = venv.recv(batch_size=1)
        assert got[4]["env_id"].tolist() == [0]
        rest = venv.recv()
        assert rest[4]["env_id"].tolist() == list(range(1, n))


def test_batch_is_guarded_while_a_send_is_in_flight() -> None:
    venv = ludoteca.VecEnv("damas", 4, seed=0)
    _, info = venv.reset()
    venv.send(_random_legal(info["legal_action_mask"], np.random.default_rng(0)))
    assert venv.num_envs == 4 and venv.num_actions == ludoteca.Game("damas").num_actions
    for call in (lambda: venv.step(np.zeros(4, np.int64)), venv.reset, venv.sample_actions, lambda: venv.state(0),
                 lambda: venv.send(np.zeros(4, np.int64)), lambda: venv.rollout(1)):
        with pytest.raises(LudotecaValueError, match="call recv"):
            call()
    venv.recv(batch_size=2)
    with pytest.raises(LudotecaValueError, match="call recv"):
        venv.step(np.zeros(4, np.int64))
    venv.recv()
    venv.step(venv.sample_actions())


def test_bad_sends_raise_before_anything_is_stepped() -> None:
    venv = ludoteca.VecEnv("tablut", 3, seed=0, illegal_action="raise")
    venv.reset()
    before = [venv.state(i) for i in range(3)]
    with pytest.raises(ActionsError, match="distinct integers"):
        venv.send(np.zeros(2, np.int64), env_ids=[0, 0])
    with pytest.raises(ActionsError, match="distinct integers"):
        venv.send(np.zeros(1, np.int64), env_ids=[3])
    with pytest.raises(ActionsError, match="one entry per env id"):
        venv.send(np.zeros(3, np.int64), env_ids=[0, 1])
    with pytest.raises(ActionsError):
        venv.send(np.zeros(2, np.int64))
    illegal = np.array([int(np.flatnonzero(~venv.state(0).legal_action_mask())[0])] * 3)
    with pytest.raises(IllegalActionError):
        venv.send(illegal)
    with pytest.raises(OptionError, match="batch_size"):
        venv.recv(batch_size=0)
    assert [venv.state(i) for i in range(3)] == before


def test_dropping_a_vec_env_with_a_send_in_flight_waits_for_it() -> None:
    venv = ludoteca.VecEnv("international", 64, seed=0)
    venv.send(venv.sample_actions())
    del venv  # must neither crash nor leak a thread writing freed memory
