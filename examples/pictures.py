"""Writes the pictures in docs/images/ (and a short GIF with --gif): seeded
random games of damas, tablut and backgammon, stopped at a telling moment.

    python examples/pictures.py [--out docs/images] [--gif]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

import numpy as np

import ludoteca
from ludoteca import render
from ludoteca.render.backgammon import from_view


def random_game(game_id: str, seed: int, stop: Callable[[ludoteca.State], bool], max_decisions: int = 2000) -> ludoteca.State:
    """Plays random legal decisions (chance by its probabilities) until ``stop(state)``."""
    rng = np.random.default_rng(seed)
    state = ludoteca.Game(game_id).new_state(seed=seed)
    for _ in range(max_decisions):
        if state.is_terminal() or stop(state):
            break
        if state.current_player == -1:
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="docs/images")
    ap.add_argument("--gif", action="store_true", help="also write tablut.gif (the first 40 decisions)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    def damas_stop(s: ludoteca.State) -> bool:  # a king on the board and a huff available
        text = s.to_string()
        return "K" in text.split(";")[0] and ";h=" in text

    def bg_stop(s: ludoteca.State) -> bool:  # dice to play, a checker on the bar, some borne off
        p = from_view(s.board_view())
        return all(p.dice) and max(p.bar) > 0 and max(p.off) > 0

    pictures = {
        "damas.png": random_game("damas", 11, damas_stop),
        "tablut.png": random_game("tablut", 5, lambda s: s.turns_played >= 24),
        "backgammon.png": random_game("backgammon", 2, bg_stop),
    }
    for name, state in pictures.items():
        render.save_png(state, out / name)
        print(f"{out / name}: {state.game.id} {state.to_string()}")
    if args.gif:
        rng = np.random.default_rng(0)
        state = ludoteca.Game("tablut").new_state(seed=0)
        frames = [state.clone()]
        for _ in range(40):
            state.apply_action(int(rng.choice(state.legal_actions())))
            frames.append(state.clone())
        render.save_gif(frames, out / "tablut.gif", duration_ms=400)
        print(f"{out / 'tablut.gif'}: {len(frames)} frames")


if __name__ == "__main__":
    main()
