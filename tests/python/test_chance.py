"""The one chance-sampling helper draws what each caller drew before it was
shared: seeded runs of the wrappers, the arena and the command line are
unchanged."""

from __future__ import annotations

import random

import numpy as np

import ludoteca
from ludoteca._chance import sample_chance


def _chance_state() -> ludoteca.State:
    state = ludoteca.Game("backgammon", chance="explicit").new_state(seed=3)
    assert state.current_player == -1
    return state


def test_random_random_draws_as_choices_by_weight() -> None:
    state = _chance_state()
    outcomes = state.chance_outcomes()
    for seed in range(20):
        a, b = random.Random(seed), random.Random(seed)
        want = b.choices([x for x, _ in outcomes], weights=[p for _, p in outcomes])[0]
        assert sample_chance(state, a) == want
        assert a.random() == b.random()  # the same amount of the stream used


def test_numpy_generator_draws_as_choice_over_the_outcomes() -> None:
    state = _chance_state()
    outcomes = state.chance_outcomes()
    actions = np.array([x for x, _ in outcomes], dtype=np.int64)
    probs = np.array([p for _, p in outcomes], dtype=np.float64)
    for seed in range(20):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        assert sample_chance(state, a) == int(b.choice(actions, p=probs / probs.sum()))
        assert a.random() == b.random()
