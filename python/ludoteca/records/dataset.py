"""Supervised-learning arrays from game records (:func:`to_arrays`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Union

import numpy as np
import numpy.typing as npt

from .core import PathLike, ReplayedGame, replay

__all__ = ["Arrays", "to_arrays"]


@dataclass
class Arrays:
    """One row per decision of the replayed games.

    ``observations`` float32 ``(N, *observation_shape)`` (the mover's view,
    as ``State.observation()``); ``actions`` int64 ``(N,)`` the decision
    taken (the policy target); ``players`` int8 ``(N,)`` the mover;
    ``outcomes`` float32 ``(N,)`` the final result from the mover's point of
    view (+1 win, 0 draw, -1 loss; NaN when the record states no result);
    ``game_index`` int32 ``(N,)`` which game the row comes from (0-based,
    over the games that replayed); ``masks`` bool ``(N, num_actions)`` the
    legal actions, when asked for. ``skipped`` lists the errors of the games
    that could not be replayed (left out).
    """

    observations: npt.NDArray[np.float32]
    actions: npt.NDArray[np.int64]
    players: npt.NDArray[np.int8]
    outcomes: npt.NDArray[np.float32]
    game_index: npt.NDArray[np.int32]
    masks: Optional[npt.NDArray[np.bool_]]
    skipped: list[str]

    def __len__(self) -> int:
        return int(self.actions.shape[0])


def _outcome(g: ReplayedGame) -> tuple[float, float]:
    """Per-player outcome: the board's result if the game ended there, else the record's."""
    if g.ended_on_board:
        r = g.final.returns()
        return float(np.sign(r[0])), float(np.sign(r[1]))
    w = g.recorded_winner
    if w is None:
        return float("nan"), float("nan")
    if w == -1:
        return 0.0, 0.0
    return (1.0, -1.0) if w == 0 else (-1.0, 1.0)


def to_arrays(
    files: Union[PathLike, Iterable[PathLike]], game_id: Optional[str] = None, *, masks: bool = False
) -> Arrays:
    """Observations, actions taken, movers and final outcomes of every decision.

    ``files``: one record file or several; ``game_id`` overrides their
    ``GameType`` tags. Multi-decision turns (a capture hop by hop, a
    backgammon roll checker by checker) give one row per decision. Games
    that cannot be replayed are left out and listed in ``skipped``; the rows
    of a game that stopped early would teach moves of a game that did not
    happen. Chance decisions (dice) are applied but are not rows.
    """
    if isinstance(files, (str, bytes)) or hasattr(files, "__fspath__"):
        files = [files]  # type: ignore[list-item]
    obs: list[npt.NDArray[np.float32]] = []
    acts: list[int] = []
    players: list[int] = []
    outcomes: list[float] = []
    index: list[int] = []
    mask_rows: list[npt.NDArray[np.bool_]] = []
    skipped: list[str] = []
    n_games = 0
    shape: tuple[int, ...] = ()
    num_actions = 0
    for f in files:
        for g in replay(f, game_id, errors="keep", actions=True):
            if g.error is not None:
                skipped.append(str(g.error))
                continue
            shape, num_actions = g.game.observation_shape, g.game.num_actions
            per_player = _outcome(g)
            for before, turn in zip(g.states, g.actions):
                st = before.clone()
                for a in turn:
                    if st.is_chance_node():
                        st.apply_action(a)
                        continue
                    p = st.current_player
                    obs.append(st.observation())
                    if masks:
                        mask_rows.append(st.legal_action_mask())
                    acts.append(a)
                    players.append(p)
                    outcomes.append(per_player[p])
                    index.append(n_games)
                    st.apply_action(a)
            n_games += 1
    return Arrays(
        observations=np.stack(obs).astype(np.float32) if obs else np.zeros((0, *shape), np.float32),
        actions=np.asarray(acts, dtype=np.int64),
        players=np.asarray(players, dtype=np.int8),
        outcomes=np.asarray(outcomes, dtype=np.float32),
        game_index=np.asarray(index, dtype=np.int32),
        masks=(np.stack(mask_rows) if mask_rows else np.zeros((0, num_actions), bool)) if masks else None,
        skipped=skipped,
    )
