"""Writes the tactics suite, tests/data/tactics/<game>.txt: positions of
seeded random games where the player to move wins at once with a complete
move (`once`), or forces a win in two of its turns (`in2`: a move after which
every reply allows a win at once), each confirmed by brute force over
complete moves. Backgammon: positions after the roll where a move bears off
the last checker.

    python tools/gen_tactics.py [--once 12] [--in2 4] [--seed 1]

Each line, tab separated: the position string, the kind, and the winning
first moves. tests/python/test_tactics.py re-confirms every
line by brute force and checks that the built-in agents solve them.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import ludoteca
from ludoteca.agents.search import alphabeta_search

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "tactics"


def after(state: ludoteca.State, move: str) -> ludoteca.State:
    s = state.clone()
    s.play(move)
    return s


def wins_at_once(state: ludoteca.State) -> list[str]:
    """The complete moves that end the game won for the mover."""
    me = state.current_player
    out = []
    for m in state.legal_moves():
        s = after(state, m)
        if s.is_terminal() and s.returns()[me] > 0:
            out.append(m)
    return out


def forces_win_in_two(state: ludoteca.State) -> list[str]:
    """The moves after which every reply leaves the mover a win at once (and
    that do not end the game themselves)."""
    me = state.current_player
    out = []
    for m in state.legal_moves():
        s = after(state, m)
        if s.is_terminal() or s.current_player == me:
            continue
        if all(wins_at_once(after(s, r)) and after(s, r).current_player == me for r in s.legal_moves()):
            out.append(m)
    return out


def positions(game_id: str, rng: random.Random, games: int):  # type: ignore[no-untyped-def]
    """Positions of random games (chance outcomes sampled), the player to move deciding."""
    game = ludoteca.Game(game_id)
    for k in range(games):
        s = game.new_state(seed=rng.randrange(2**32))
        for _ in range(400):
            if s.is_terminal():
                break
            if s.current_player == -1:
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            yield s
            s.play(rng.choice(s.legal_moves()))


def generate(game_id: str, once: int, in2: int, seed: int) -> list[str]:
    rng = random.Random(f"{game_id}-{seed}")
    lines: list[str] = []
    n_once = n_in2 = 0
    seen: set[str] = set()
    dice = game_id == "backgammon"
    for s in positions(game_id, rng, 4000):
        text = s.to_string()
        if text in seen or "|" in text:
            continue
        seen.add(text)
        won = wins_at_once(s)
        if won and n_once < once:
            lines.append("\t".join([text, "once", *won]))
            n_once += 1
        elif not won and not dice and n_in2 < in2 and rng.random() < 0.25:
            # Alpha-beta finds the candidates; brute force decides.
            if alphabeta_search(s, 3, quiescence=False)["value"] > 1.0:
                forced = forces_win_in_two(s)
                if forced:
                    lines.append("\t".join([text, "in2", *forced]))
                    n_in2 += 1
        if n_once >= once and (dice or n_in2 >= in2):
            break
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--once", type=int, default=12)
    ap.add_argument("--in2", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", nargs="*", default=ludoteca.games())
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for g in args.games:
        lines = generate(g, args.once, args.in2, args.seed)
        (OUT / f"{g}.txt").write_text("".join(line + "\n" for line in lines))
        kinds = [line.split("\t")[1] for line in lines]
        print(g, kinds.count("once"), "once,", kinds.count("in2"), "in2", flush=True)


if __name__ == "__main__":
    main()
