"""ludoteca's soplo draughts presets (`tablero`, `damas`, `damas_10x10`) against
the naive independent reference in naive_huff_draughts.py.

(a) The perft tables tests/data/perft/{tablero,damas,damas_10x10}.txt, which
ludoteca computed, are recomputed by the reference from the start positions
to depth 4 (the reference agreed to depth 6 offline, see naive_huff_draughts).
(b) Positions from random ludoteca games (seeded; random play offends often,
so huffs, forces, `m=1`, kings, `a=` bans and counters all occur) are read by
the reference from their position strings; the successor positions of every
legal turn are compared string by string at the position and at each of its
children, and perft is compared one ply deeper. A disagreement names the
position and the turn that only one side has.
"""
import os
import random
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import naive_huff_draughts as naive  # noqa: E402

ludoteca = pytest.importorskip("ludoteca")
GAMES = ["tablero", "damas", "damas_10x10"]


def table(game):
    """{depth: count} from tests/data/perft/<game>.txt (start position)."""
    out = {}
    with open(os.path.join(ROOT, "tests", "data", "perft", game + ".txt")) as f:
        for line in f:
            parts = line.split("#")[0].split()
            if parts and parts[0] == "perft":
                out[int(parts[1])] = int(parts[2])
    return out


def ludoteca_children(state):
    """{successor string: [turn notations]} of a ludoteca state."""
    kids = {}
    for move in state.legal_moves():
        child = state.clone()
        child.play(move)
        kids.setdefault(child.to_string(), []).append(move)
    return kids


def differences(game, text):
    """Disagreements on the successor positions of `text`, as readable lines."""
    state = ludoteca.Game(game).state_from_string(text)
    ours = ludoteca_children(state) if not state.is_terminal() else {}
    ref = {s: names for s, (_, names) in naive.Rules(game).children(naive.parse(game, text)).items()}
    lines = []
    for s in sorted(set(ours) - set(ref)):
        lines.append("%s %s: ludoteca %s -> %s, the reference has no such successor" % (game, text, ours[s], s))
    for s in sorted(set(ref) - set(ours)):
        lines.append("%s %s: reference %s -> %s, ludoteca has no such successor" % (game, text, ref[s], s))
    return lines


def random_positions(game, count, seed, max_plies=160):
    """Non-terminal turn-boundary positions met along random ludoteca games."""
    rng = random.Random(seed)
    out = []
    g = ludoteca.Game(game)
    while len(out) < count:
        state = g.new_state(seed=rng.randrange(1 << 30))
        stop = rng.randrange(4, max_plies)
        for _ in range(stop):
            moves = state.legal_moves()
            if not moves or state.is_terminal():
                break
            state.play(rng.choice(moves))
        if not state.is_terminal():
            out.append(state.to_string())
    return out


def compare_tree(game, text, depth):
    """Successor sets compared at `text` and below it, `depth` plies deep."""
    lines = differences(game, text)
    if lines or depth <= 1:
        return lines
    for s in naive.Rules(game).children(naive.parse(game, text)):
        lines += compare_tree(game, s, depth - 1)
        if lines:
            break
    return lines


@pytest.mark.parametrize("game", GAMES)
def test_start_position_strings_agree(game):
    assert naive.start(game).to_string() == ludoteca.Game(game).new_state(seed=0).to_string()


@pytest.mark.parametrize("game", GAMES)
def test_perft_table_matches_the_reference(game):
    want = table(game)
    rules = naive.Rules(game)
    st = naive.start(game)
    for depth in (1, 2, 3, 4):
        assert rules.perft(st, depth) == want[depth], (game, depth)


@pytest.mark.parametrize("game", GAMES)
def test_random_positions_same_turns_as_the_reference(game):
    for text in random_positions(game, 40, seed=11):
        lines = compare_tree(game, text, 2)
        assert not lines, "\n".join(lines[:10])


@pytest.mark.parametrize("game", GAMES)
def test_random_positions_same_perft_as_the_reference(game):
    g = ludoteca.Game(game)
    rules = naive.Rules(game)
    for text in random_positions(game, 8, seed=12):
        assert g.state_from_string(text).perft(3) == rules.perft(naive.parse(game, text), 3), (game, text)


# Rare rules that random play seldom reaches: the damas 2 kings v 1 king
# counter at its last turn, the anti-shuffle ban, one-against-one draws, the
# tablero equal-kings draw, the damas_10x10 kings-only counter, king priority
# and a king's landing squares after a capture.
CONSTRUCTED = {
    "damas": [
        "W:BK22,K29:WK4;k=4", "B:BK22,K29:WK4;k=4", "B:BK22,K29:WK4;k=0",
        "B:B22,25:W5,9;a=22-18,18-22/", "B:B22:W5,9;a=22-18,18-22/",
        "B:B30,K22:W5,18", "B:B23:W19", "B:B25,K29:W6,7,22",
    ],
    "tablero": ["B:BK22,K29:WK4,K6", "B:B29,K22:WK4,K6", "W:B9:WK5,K18", "B:B21,K29:W10,11,18,25"],
    "damas_10x10": ["W:BK22,K29:WK4;k=9", "B:BK22,K29:WK4;k=9", "B:B41,K46:W13,19,28,37"],
}


@pytest.mark.parametrize("game", GAMES)
def test_constructed_positions_same_turns_as_the_reference(game):
    for text in CONSTRUCTED[game]:
        assert ludoteca.Game(game).state_from_string(text).to_string() == naive.parse(game, text).to_string()
        lines = compare_tree(game, text, 2)
        assert not lines, "\n".join(lines[:10])


if __name__ == "__main__":
    # Offline sweep, many more random positions than the tests, depth 2:
    # python test_huff_draughts_reference.py [COUNT [MAX_PLIES [SEED]]]
    count, max_plies, seed = ([int(x) for x in sys.argv[1:4]] + [300, 160, 99][len(sys.argv[1:4]):])
    for game in GAMES:
        bad = 0
        for text in random_positions(game, count, seed=seed, max_plies=max_plies):
            lines = compare_tree(game, text, 2)
            if lines:
                bad += 1
                print("\n".join(lines[:3]), flush=True)
        print(game, "positions", count, "disagreeing", bad, flush=True)
