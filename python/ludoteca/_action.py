"""One action passed to a wrapper (gym, PettingZoo), checked as the core checks it."""

from __future__ import annotations

from typing import Any

import numpy as np


def one_action(action: Any) -> Any:
    """``action`` ready for ``Env.step``: a 0-d integer array becomes its
    integer; everything else goes to the core unchanged, which takes Python
    and numpy integers and refuses the rest (floats, bools, strings, arrays)
    with ``IllegalActionError`` rather than truncating ``352.7`` to 352."""
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        return action.item()
    return action
