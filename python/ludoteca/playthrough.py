"""Playthroughs: a seeded random game recorded decision by decision (the
board, the position string, the legal actions with their names, an
observation summary, the action taken, the rewards), as OpenSpiel keeps
them. The test suite replays every file byte for byte; after a deliberate
rules change, regenerate them and review the diff::

    python -m ludoteca.playthrough --regenerate tests/data/playthroughs
"""

from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from ._core import Game, game_info, games

MAX_DECISIONS = 120


def _obs_summary(obs: np.ndarray) -> str:
    flat = obs.astype(np.float32).ravel()
    nz = np.flatnonzero(flat)
    return (
        f"shape={tuple(obs.shape)} nonzero={len(nz)} sum={float(flat.astype(np.float64).sum()):.6f} "
        f"crc32={zlib.crc32(flat.tobytes()):08x}"
    )


def generate(game_id: str, seed: int = 0, **options: Any) -> str:
    """The playthrough text of game ``game_id`` played with random legal actions."""
    game = Game(game_id, **options)
    info = game_info(game_id)
    rng = np.random.default_rng(seed)
    state = game.new_state(seed=seed)
    lines = [
        f"game: {game!r}",
        f"version: {info['version']}",
        f"num_actions: {game.num_actions}",
        f"observation_shape: {tuple(game.observation_shape)}",
        f"options: {dict(sorted(game.options.items()))}",
        f"seed: {seed}",
        "",
    ]
    for k in range(MAX_DECISIONS):
        lines.append(f"# decision {k}")
        lines.extend(str(state).splitlines())
        lines.append(f"position: {state.to_string()}")
        lines.append(f"current_player: {state.current_player}")
        lines.append(f"info: {state.info()}")
        if state.is_terminal():
            lines.append(f"returns: {state.returns().tolist()}")
            break
        lines.append(f"observation: {_obs_summary(state.observation())}")
        legal = state.legal_actions()
        lines.append("legal: " + " ".join(f"{a}={state.action_to_string(int(a))}" for a in legal))
        if state.current_player == -1:
            actions, probs = zip(*state.chance_outcomes())
            a = int(rng.choice(actions, p=np.asarray(probs) / sum(probs)))
        else:
            a = int(rng.choice(legal))
        lines.append(f"action: {a}={state.action_to_string(a)}")
        state.apply_action(a)
        lines.append(f"rewards: {state.returns().tolist() if state.is_terminal() else [0.0, 0.0]}")
        lines.append("")
    else:
        lines.append(f"(stopped after {MAX_DECISIONS} decisions)")
    return "\n".join(lines) + "\n"


def path_for(directory: Path, game_id: str) -> Path:
    """The playthrough file of ``game_id`` in ``directory``."""
    return directory / f"{game_id}.txt"


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m ludoteca.playthrough``."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--regenerate", metavar="DIR", required=True, help="directory to write <game>.txt files to")
    p.add_argument("games", nargs="*", help="game ids (default: all)")
    args = p.parse_args(argv)
    out = Path(args.regenerate)
    out.mkdir(parents=True, exist_ok=True)
    for gid in args.games or games():
        path_for(out, gid).write_text(generate(gid))
        sys.stdout.write(f"wrote {path_for(out, gid)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
