"""The one chance-sampling helper of the Python side: an outcome of a chance
node drawn by its probability, for the wrappers, the arena, the command line
and the test helpers alike."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Union

import numpy as np

if TYPE_CHECKING:
    from ._core import State


def sample_chance(state: State, rng: Union[random.Random, np.random.Generator]) -> int:
    """A chance outcome of ``state`` (an action id) drawn by its probability.

    ``rng`` is a ``random.Random`` (drawn with ``rng.choices``) or a numpy
    ``Generator`` (drawn with ``rng.choice`` over the outcomes' indices,
    probabilities normalised to sum to 1): each caller keeps the stream it
    always drew from, so seeded runs are unchanged.
    """
    outcomes = state.chance_outcomes()
    if isinstance(rng, random.Random):
        return int(rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])
    probs = np.array([p for _, p in outcomes], dtype=np.float64)
    return int(outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0])
