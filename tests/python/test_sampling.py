"""``masked_categorical`` and ``masked_uniform``: draws follow the softmax over legal actions
(chi-square against the exact probabilities), are reproducible, and refuse bad input."""

from __future__ import annotations

import numpy as np
import pytest

import ludoteca
from ludoteca.errors import SamplingError

# Chi-square critical values at p = 0.001 (scipy.stats.chi2.ppf(0.999, df)).
CHI2_999 = {4: 18.467, 5: 20.515, 7: 24.322, 9: 27.877}


def _chi2(counts: np.ndarray, probs: np.ndarray) -> float:
    expected = probs * counts.sum()
    return float(((counts - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_masked_categorical_draws_from_the_softmax_over_legal_actions(dtype: type) -> None:
    # One row repeated: every row is one independent draw of the same distribution.
    width, rows = 12, 200_000
    logits = np.array([0.3, -1.0, 2.0, 9.0, 0.0, 1.5, -0.5, 7.0, 0.7, -3.0, 1.0, 0.2], dtype=dtype)
    mask = np.array([1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1], dtype=bool)
    legal = np.flatnonzero(mask)
    p = np.exp(logits[legal].astype(np.float64) - logits[legal].max())
    p /= p.sum()
    actions = ludoteca.masked_categorical(np.tile(logits, (rows, 1)), np.tile(mask, (rows, 1)), rng=12345)
    assert actions.dtype == np.int64 and actions.shape == (rows,)
    assert np.isin(actions, legal).all()
    counts = np.array([(actions == a).sum() for a in legal])
    assert _chi2(counts, p) < CHI2_999[len(legal) - 1]
    # The test can fail: the same draws against the uniform distribution are far off.
    assert _chi2(counts, np.full(len(legal), 1 / len(legal))) > 100 * CHI2_999[len(legal) - 1]


def test_masked_uniform_is_uniform_over_legal_actions() -> None:
    width, rows = 937, 100_000
    mask = np.zeros((rows, width), dtype=bool)
    legal = np.array([0, 5, 64, 65, 400, 936])
    mask[:, legal] = True
    actions = ludoteca.masked_uniform(mask, rng=7)
    counts = np.array([(actions == a).sum() for a in legal])
    assert counts.sum() == rows
    assert _chi2(counts, np.full(len(legal), 1 / len(legal))) < CHI2_999[5]


def test_sampling_is_reproducible_and_independent_of_batch_splitting() -> None:
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(3000, 934)).astype(np.float32)
    mask = rng.random((3000, 934)) < 0.01
    mask[:, 7] = True
    a = ludoteca.masked_categorical(logits, mask, rng=99)
    np.testing.assert_array_equal(a, ludoteca.masked_categorical(logits, mask, rng=99))
    # Row i draws from the seed and i alone: the first rows of a smaller batch agree.
    np.testing.assert_array_equal(a[:10], ludoteca.masked_categorical(logits[:10], mask[:10], rng=99))
    assert (a != ludoteca.masked_categorical(logits, mask, rng=100)).any()
    # A Generator gives a seed (advancing the generator), so two calls differ.
    g = np.random.default_rng(5)
    assert (ludoteca.masked_uniform(mask, g) != ludoteca.masked_uniform(mask, g)).any()
    # Non-contiguous inputs are accepted.
    np.testing.assert_array_equal(ludoteca.masked_categorical(np.asfortranarray(logits), mask, rng=99), a)


def test_actions_from_a_vecenv_mask_are_legal() -> None:
    venv = ludoteca.VecEnv("checkers", 64, seed=0)
    _, info = venv.reset()
    logits = np.random.default_rng(1).normal(size=(64, venv.num_actions)).astype(np.float32)
    for _ in range(50):
        actions = ludoteca.masked_categorical(logits, info["legal_action_mask"], rng=3)
        _, _, _, _, info = venv.step(actions)


def test_bad_input_raises_sampling_errors() -> None:
    mask = np.ones((2, 3), dtype=bool)
    logits = np.zeros((2, 3), dtype=np.float32)
    with pytest.raises(SamplingError, match="bool numpy array"):
        ludoteca.masked_categorical(logits, mask.astype(np.uint8))
    with pytest.raises(SamplingError, match="bool numpy array"):
        ludoteca.masked_uniform(mask[0])
    with pytest.raises(SamplingError, match="bool numpy array"):
        ludoteca.masked_uniform([[True]])  # type: ignore[arg-type]
    with pytest.raises(SamplingError, match="float32 or float64"):
        ludoteca.masked_categorical(logits.astype(np.int64), mask)
    with pytest.raises(SamplingError, match="same shape"):
        ludoteca.masked_categorical(logits[:, :2], mask)
    with pytest.raises(SamplingError, match="rng"):
        ludoteca.masked_uniform(mask, rng=-1)
    with pytest.raises(SamplingError, match="rng"):
        ludoteca.masked_uniform(mask, rng="seed")  # type: ignore[arg-type]
    empty = mask.copy()
    empty[1] = False
    with pytest.raises(SamplingError, match="row 1 allows no action"):
        ludoteca.masked_categorical(logits, empty)
    with pytest.raises(SamplingError, match="row 1 allows no action"):
        ludoteca.masked_uniform(empty)
    bad = logits.copy()
    bad[0, 2] = np.nan
    with pytest.raises(SamplingError, match="row 0: the logit of legal action 2 is NaN"):
        ludoteca.masked_categorical(bad, mask)
    bad[0, 2] = np.inf
    with pytest.raises(SamplingError, match="NaN or \\+inf"):
        ludoteca.masked_categorical(bad, mask)
    bad[0] = -np.inf
    with pytest.raises(SamplingError, match="-inf"):
        ludoteca.masked_categorical(bad, mask)
    # SamplingError is a ValueError (and a TypeError) of ludoteca.errors.
    assert issubclass(SamplingError, ValueError) and issubclass(SamplingError, TypeError)
