"""Unpacking ``obs_format="packed"`` observations (docs/model.md, "Observation formats")."""

from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np
import numpy.typing as npt

from ._core import Game
from .errors import OptionError

__all__ = ["unpack_observation"]

# (game id, options) -> (gather indices, weights, scales, compact shape, kept planes, constant, bits)
_PLANS: Dict[Tuple[Any, ...], Tuple[Any, ...]] = {}


def _game_of(game: Any) -> Game:
    if isinstance(game, Game):
        return game
    inner = getattr(game, "game", None)
    if isinstance(inner, Game):
        return inner
    raise OptionError(f"game must be a ludoteca Game, Env or VecEnv, got {type(game).__name__}")


def _plan(game: Game) -> Tuple[Any, ...]:
    key = (game.id, tuple(sorted((k, v) for k, v in game.options.items() if k != "obs_format")))
    plan = _PLANS.get(key)
    if plan is not None:
        return plan
    layout = game.observation_layout()
    full_shape = tuple(layout["full_shape"])
    plane_len = int(np.prod(full_shape[1:], dtype=np.int64))
    planes = layout["planes"]
    width = max([max(bits, 1) for _, bits, _ in planes] or [1])
    n = len(planes) * plane_len
    idx = np.zeros((n, width), dtype=np.intp)
    weight = np.zeros((n, width), dtype=np.int32)
    scale = np.ones(n, dtype=np.float32)
    at = 0
    for j, (_, bits, s) in enumerate(planes):
        rows = slice(j * plane_len, (j + 1) * plane_len)
        entries = np.arange(plane_len)
        if bits == 0:
            idx[rows, 0] = at + entries
            weight[rows, 0] = 1
            at += plane_len
        else:
            for b in range(bits):
                idx[rows, b] = at + b * plane_len + entries
                weight[rows, b] = 1 << b
            scale[rows] = s
            at += bits * plane_len
    kept = np.array([p for p, _, _ in planes], dtype=np.intp)
    compact_shape = tuple(layout["compact_shape"])
    plan = (idx, weight, scale, compact_shape, kept, np.asarray(layout["constant"], dtype=np.float32), at, full_shape)
    _PLANS[key] = plan
    return plan


def unpack_observation(packed: npt.ArrayLike, game: Any, format: str = "full") -> npt.NDArray[np.float32]:
    """The float32 observations that packed observations stand for, exactly.

    ``packed``: uint8 array of shape ``(..., game.observation_shape[0])``
    written by a game made with ``obs_format="packed"`` (any batch
    dimensions in front). ``game``: that game (a ``Game``, or an ``Env`` /
    ``VecEnv`` of it; its ``obs_format`` does not matter). ``format``:
    ``"full"`` returns what ``obs_format="full"`` observes, shape
    ``(..., *full_shape)``; ``"compact"`` what ``obs_format="compact"``
    observes. The layout is ``game.observation_layout()``: plane by plane
    in compact order, a 0/1 plane as one bit per entry, a valued plane as its
    binary digits (digit planes, lowest first) of ``value * scale``; bit
    ``i`` is bit ``i % 8`` of byte ``i // 8`` (``numpy.unpackbits(...,
    bitorder="little")``). A port of these few lines unpacks on an
    accelerator.
    """
    g = _game_of(game)
    if format not in ("full", "compact"):
        raise OptionError(f'format must be "full" or "compact", got {format!r}')
    idx, weight, scale, compact_shape, kept, constant, nbits, full_shape = _plan(g)
    data = np.asarray(packed)
    nbytes = (nbits + 7) // 8
    if data.dtype != np.uint8 or data.ndim < 1 or data.shape[-1] != nbytes:
        raise OptionError(f"packed must be a uint8 array of shape (..., {nbytes}), got {data.dtype} {data.shape}")
    batch = data.shape[:-1]
    bits = np.unpackbits(data, axis=-1, count=nbits, bitorder="little")
    values = (bits[..., idx].astype(np.int32) * weight).sum(axis=-1).astype(np.float32) / scale
    compact: npt.NDArray[np.float32] = values.reshape(batch + compact_shape)
    if format == "compact":
        return compact
    plane_len = int(np.prod(full_shape[1:], dtype=np.int64))
    full = np.empty(batch + (full_shape[0], plane_len), dtype=np.float32)
    full[...] = constant.reshape(full_shape[0], plane_len)
    full[..., kept, :] = compact.reshape(batch + (len(kept), plane_len))
    out: npt.NDArray[np.float32] = full.reshape(batch + full_shape)
    return out
