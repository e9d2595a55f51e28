"""Match files with the doubling cube against GNU Backgammon.

Random cube matches played in ludoteca are written as Jellyfish ``.mat``
files and imported by gnubg's own command interpreter (``import mat``):
every game's moves, dice, cube actions, score and result in
``gnubg.match()`` must be ludoteca's. Our ``.sgf`` text must equal, node for
node, the one gnubg saves (``save match``) for the same imported match
(gnubg's ``load match`` crashes the embedded interpreter in the ``gnubg``
package, even on files gnubg saved itself, so the comparison goes through
gnubg's writer). The other way, matches played in gnubg's interpreter
(mirrored from ludoteca's random play) are exported by gnubg
(``export match mat``) and replayed by :func:`replay_match` with the same
moves, dice, cube actions, scores and final state.

Skipped when ``gnubg`` or ``ludoteca`` is not importable.
"""

import os
import random
import re
import sys

import pytest

gnubg = pytest.importorskip("gnubg")
ludoteca = pytest.importorskip("ludoteca")

from ludoteca.errors import RecordError  # noqa: E402
from ludoteca.records.match import _games, dumps_mat, dumps_sgf, replay_match, write_mat, write_sgf  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from test_backgammon_cube_gnubg import gnubg_humans, play_mirrored, quiet  # noqa: E402,F401

LENGTHS = (0, 1, 3, 5, 7, 11)


def random_match(length: int, seed: int):
    """A random cube match: (start, steps, final state)."""
    rng = random.Random(seed)
    game = ludoteca.Game("backgammon", chance="explicit", cube=True, match_length=length)
    start = game.new_state(seed=seed)
    st = start.clone()
    steps = []
    while not st.is_terminal():
        if st.is_chance_node():
            a = rng.choice(st.legal_actions())
            st.apply_action(a)
        else:
            m = st.legal_moves()
            if m[0] in ("roll", "take"):
                a = m[0] if rng.random() < (0.8 if m[0] == "roll" else 0.6) else m[1]
            else:
                a = rng.choice(m)
            st.play(a)
        steps.append(a)
    return start, steps, st


def ours(start, steps) -> list:
    """The match as comparable rows: per game the score, winner, points and every action."""
    games, _ = _games(start, steps)
    out = []
    for g in games:
        acts = []
        for player, kind, data in g.events:
            if kind == "move":
                hi, lo, move = data
                hops = tuple(sorted(tuple(25 if x == "bar" else 0 if x == "off" else int(x) for x in t.split("/")) for t in move.split()))
                acts.append((player, "move", (hi, lo), hops))
            else:
                acts.append((player, kind, None, ()))
        out.append((g.score, g.winner, g.points, acts))
    return out


def theirs() -> list:
    """gnubg's current match in the same rows (X = player 0)."""
    out = []
    for g in gnubg.match()["games"]:
        info = g["info"]
        acts = []
        for e in g["game"]:
            p = 0 if e["player"] == "X" else 1
            if e["action"] == "move":
                d = tuple(sorted(e["dice"], reverse=True))
                acts.append((p, "move", d, tuple(sorted(tuple(h) for h in e["move"]))))
            elif e["action"] in ("double", "take", "drop"):
                acts.append((p, e["action"], None, ()))
            else:
                acts.append((p, e["action"], None, ()))
        winner = {"X": 0, "O": 1}.get(info["winner"], -1)
        out.append(((info["score-X"], info["score-O"]), winner, info["points-won"] if winner >= 0 else 0, acts))
    return out


def sgf_nodes(text: str) -> list[list[str]]:
    """Per game tree: the match info and every move node."""
    trees = []
    for tree in re.split(r"\)\s*\(", text):
        mi = re.search(r"MI(\[[^\]]*\])+", tree)
        nodes = re.findall(r";([WB]\[[^\]]*\])", tree)
        trees.append([mi.group(0) if mi else ""] + nodes)
    return trees


@pytest.mark.parametrize("length,seed", [(n, s) for n in LENGTHS for s in range(4)])
def test_gnubg_imports_every_mat_file_we_write_with_the_same_match(gnubg_humans, tmp_path, length: int, seed: int) -> None:
    start, steps, _ = random_match(length, seed)
    mat = tmp_path / "ours.mat"
    write_mat(mat, start, steps, ("alice", "bob"))
    quiet(f"import mat {mat}")
    assert theirs() == ours(start, steps)
    # gnubg's own SGF of the imported match is ours, node for node.
    quiet(f"save match {tmp_path / 'theirs.sgf'}")
    write_sgf(tmp_path / "ours.sgf", start, steps, ("alice", "bob"))
    assert sgf_nodes((tmp_path / "ours.sgf").read_text()) == sgf_nodes((tmp_path / "theirs.sgf").read_text())


@pytest.mark.parametrize("length,seed", [(n, s) for n in LENGTHS for s in range(4)])
def test_match_files_we_write_replay_to_the_same_steps(length: int, seed: int) -> None:
    start, steps, end = random_match(length, seed)
    r = replay_match("ours.mat", text=dumps_mat(start, steps))
    assert r.steps == steps
    assert r.final.to_string() == end.to_string() and r.final.is_terminal()


@pytest.mark.parametrize("length,seed", [(n, s) for n in (2, 3, 5, 7) for s in range(100, 104)])
def test_we_replay_mat_files_gnubg_writes_with_the_same_match(gnubg_humans, tmp_path, length: int, seed: int) -> None:
    play_mirrored(length, seed)
    mat = tmp_path / "theirs.mat"
    quiet(f"export match mat {mat}")
    expected = theirs()
    r = replay_match(mat)
    assert ours(r.states[0], r.steps) == expected
    assert r.final.is_terminal()
    assert [s for s, *_ in expected] == r.scores


def test_an_illegal_move_in_a_mat_file_names_the_game_the_move_number_and_the_legal_moves() -> None:
    start, steps, _ = random_match(3, 0)
    text = dumps_mat(start, steps)
    first = re.search(r"^\s+1\) (\d\d): (.*?)\s{2,}", text, re.M)
    bad = text.replace(first.group(0), first.group(0).replace(first.group(2), "24/1"), 1)
    with pytest.raises(RecordError) as e:
        replay_match("bad.mat", text=bad)
    assert e.value.kind == "illegal move" and e.value.number == "1" and e.value.legal_moves
    assert "game 1, move 1" in str(e.value) and "legal moves:" in str(e.value)


def test_a_written_score_that_differs_from_the_replay_is_refused() -> None:
    start, steps, _ = random_match(5, 1)
    text = dumps_mat(start, steps)
    headers = list(re.finditer(r"^ White : (\d+)", text, re.M))
    assert len(headers) > 1, "the seed gives a match of one game"
    h = headers[1]
    bad = text[: h.start(1)] + str(int(h.group(1)) + 1) + text[h.end(1) :]
    with pytest.raises(RecordError, match="game 2.*score written"):
        replay_match("bad.mat", text=bad)


@pytest.mark.parametrize("seed", range(200, 204))
def test_we_replay_money_sessions_gnubg_writes_game_by_game(gnubg_humans, tmp_path, seed: int) -> None:
    """A money session (``0 point match``, Jacoby off as the mirrored test
    sets it): each game is replayed on a new money state with the points
    gnubg wrote; gnubg's file ends with the opening roll of the next game,
    which gnubg rolled at once (a game the file stops in)."""
    play_mirrored(0, seed)
    mat = tmp_path / "session.mat"
    quiet(f"export match mat {mat}")
    expected = theirs()
    r = replay_match(mat)
    assert len(r.starts) == len(expected) >= 1
    bounds = r.starts + [(len(r.states), len(r.steps))]
    assert expected[-1][1] == -1 and r.final.current_player >= 0  # the game gnubg started, stopped after its roll
    for k, (score, winner, points, acts) in enumerate(expected[:-1]):
        (at, first), (_, last) = bounds[k], bounds[k + 1]
        (_, w, p, mine), = ours(r.states[at], r.steps[first:last])
        assert (w, p, mine) == (winner, points, acts)
