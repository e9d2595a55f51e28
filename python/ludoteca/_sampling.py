"""Sampling legal actions from a caller's arrays, in Rust (``masked_categorical``, ``masked_uniform``)."""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from . import _core
from .errors import SamplingError

__all__ = ["masked_categorical", "masked_uniform"]

Rng = Union[None, int, np.integer, np.random.Generator]


def _seed(rng: Rng) -> int:
    if rng is None:
        return int(np.random.default_rng().integers(0, 2**64, dtype=np.uint64))
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, 2**64, dtype=np.uint64))
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, (bool, np.bool_)):
        if 0 <= int(rng) < 2**64:
            return int(rng)
    raise SamplingError(
        f"rng must be None, an integer seed in [0, 2**64) or a numpy.random.Generator, got {type(rng).__name__} {rng!r}"
    )


def _mask(mask: Any) -> npt.NDArray[np.bool_]:
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.ndim != 2:
        shown = f"{mask.dtype} array of shape {mask.shape}" if isinstance(mask, np.ndarray) else type(mask).__name__
        raise SamplingError(f"mask must be a bool numpy array of shape (rows, num_actions), got {shown}")
    if mask.shape[1] == 0:
        raise SamplingError(f"mask must have at least one column, got shape {mask.shape}")
    return np.ascontiguousarray(mask)


def masked_categorical(logits: npt.NDArray[Any], mask: npt.NDArray[np.bool_], rng: Rng = None) -> npt.NDArray[np.int64]:
    """One action per row, drawn from the softmax of ``logits`` over the row's legal actions.

    ``logits``: float32 or float64 array of shape ``(rows, num_actions)``;
    ``mask``: bool array of the same shape (e.g. ``info["legal_action_mask"]``).
    Returns int64 actions of shape ``(rows,)``: action ``a`` of row ``i`` with
    probability ``exp(logits[i, a]) / sum(exp(logits[i, b]) for legal b)``.
    Illegal entries of ``logits`` are never read; a legal logit may be
    ``-inf`` (probability 0). Runs in Rust with the GIL released, over
    several threads for large batches. ``rng``: an integer seed (same seed,
    same actions, whatever the thread count: row ``i`` uses one uniform
    number derived from the seed and ``i``), a ``numpy.random.Generator``
    (one 64-bit seed is drawn from it), or ``None`` (fresh entropy).
    ``SamplingError`` for arrays of the wrong type, dtype or shape, a row
    with no legal action or only ``-inf`` logits, or a NaN or +inf legal logit.
    """
    m = _mask(mask)
    if not isinstance(logits, np.ndarray) or logits.dtype not in (np.float32, np.float64):
        shown = f"{logits.dtype} array" if isinstance(logits, np.ndarray) else type(logits).__name__
        raise SamplingError(f"logits must be a float32 or float64 numpy array, got {shown}")
    if logits.shape != m.shape:
        raise SamplingError(f"logits and mask must have the same shape, got {logits.shape} and {m.shape}")
    seed = _seed(rng)
    lg = np.ascontiguousarray(logits)
    if lg.dtype == np.float32:
        return _core._masked_categorical_f32(lg, m, seed)
    return _core._masked_categorical_f64(lg, m, seed)


def masked_uniform(mask: npt.NDArray[np.bool_], rng: Rng = None) -> npt.NDArray[np.int64]:
    """One action per row of ``mask``, uniformly among the row's legal actions.

    ``mask``: bool array of shape ``(rows, num_actions)``. Same ``rng``,
    threads and errors as ``masked_categorical``. (``VecEnv.sample_actions``
    does the same for a ``VecEnv``'s own envs, from their last masks.)
    """
    m = _mask(mask)
    return _core._masked_uniform(m, _seed(rng))
