"""ludoteca.render: pictures of every game (SVG, RGB arrays, GIF), and of the
position strings of the spec for every family even before its game is registered."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import ludoteca
from ludoteca import render
from ludoteca.render.backgammon import decode

# Start positions from the spec (/work/shared/spec) and a few later ones, per game id.
SPEC_POSITIONS = {
    "tablero": ["B:B21-32:W1-12", "W:B15,K30:W2,11,18;h=15", "B:B15,30:W2,11,18;p=22x15;j=18;c=22"],
    "damas_10x10": ["B:B36-50:W1-15", "W:BK46,30:WK5,12"],
    "international": ["W:W31-50:B1-20", "B:W28,K45:B3,12"],
    "tablut": ["3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3 s", "K2M5/9/9/9/9/9/9/9/9 m"],
    "kharbaga": ["wwwww/wwww/wwwww/wwww/ww1bb/bbbb/bbbbb/bbbb/bbbbb b", "5/4/2w2/4/2W2/1w2/2b2/4/B4 w"],
    "zamma": [
        "wwwwwwwww/wwwwwwwww/wwwwwwwww/wwwwwwwww/wwww1bbbb/bbbbbbbbb/bbbbbbbbb/bbbbbbbbb/bbbbbbbbb b",
        "9/4W4/9/2w6/9/5b3/9/9/B8 b",
    ],
    "backgammon": ["4HPwATDgc/ABMA:MIElAAAAAAAA", "4HPwATDgc/ABMA:cIkqAAAAAAAA"],
}


def _check_picture(svg: str, img: np.ndarray) -> None:
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    w, h = int(root.get("width", 0)), int(root.get("height", 0))
    assert img.shape == (h, w, 3) and img.dtype == np.uint8
    assert 300 <= w <= 800 and 300 <= h <= 800, (w, h)
    assert img.std() > 20, "not a blank picture"


@pytest.mark.parametrize("gid,position", [(g, p) for g, ps in SPEC_POSITIONS.items() for p in ps])
def test_spec_positions_render(gid: str, position: str) -> None:
    pytest.importorskip("PIL")
    _check_picture(render.svg(gid, position), render.rgb_array(gid, position))


@pytest.mark.parametrize("gid", sorted(SPEC_POSITIONS))
def test_different_positions_give_different_pictures(gid: str) -> None:
    pytest.importorskip("PIL")
    positions = SPEC_POSITIONS[gid]
    a, b = (render.rgb_array(gid, p) for p in positions[:2])
    assert a.shape != b.shape or np.abs(a.astype(int) - b).sum() > 1000


def test_every_game_state_renders(game_id: str, tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    state = ludoteca.Game(game_id).new_state(seed=0)
    first_svg, first = state._repr_svg_(), render.rgb_array(state)
    _check_picture(first_svg, first)
    assert first_svg == render.svg(state)
    rng = np.random.default_rng(0)
    frames = [state.clone()]
    for _ in range(12):
        if state.is_terminal():
            break
        if state.current_player == -1:
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        frames.append(state.clone())
    later = render.rgb_array(state)
    assert later.shape == first.shape and np.abs(later.astype(int) - first).sum() > 1000
    path = tmp_path / "game.gif"
    assert render.save_gif(frames, path, duration_ms=100) == len(frames)
    from PIL import Image

    with Image.open(path) as gif:
        assert gif.n_frames == len(frames) and gif.size == (first.shape[1], first.shape[0])
    render.save_png(state, tmp_path / "x.png")
    render.save_svg(state, tmp_path / "x.svg")
    assert (tmp_path / "x.png").stat().st_size > 1000


def test_backgammon_decoding() -> None:
    start = decode("4HPwATDgc/ABMA:MIElAAAAAAAA")
    for p in (0, 1):
        assert start.points[p][23] == 2 and start.points[p][12] == 5
        assert start.points[p][7] == 3 and start.points[p][5] == 5
        assert start.bar[p] == 0 and start.off[p] == 0
    assert decode("4HPwATDgc/ABMA:cIkqAAAAAAAA:3").played == (3,)
    with pytest.raises(ValueError, match="Position ID"):
        decode("4HPw!TDgc/ABMA:cAkAAAAAAAAA")


def test_bad_render_arguments() -> None:
    with pytest.raises(ValueError, match="position"):
        render.svg("tablut")
    state = ludoteca.Game(ludoteca.games()[0]).new_state()
    with pytest.raises(ValueError, match="position"):
        render.svg(state, "x")
    with pytest.raises(ValueError, match="at least one"):
        render.save_gif([], "never.gif")


def test_import_ludoteca_imports_no_optional_dependency() -> None:
    code = (
        "import sys, ludoteca; s = ludoteca.Game(ludoteca.games()[0]).new_state(); s._repr_svg_(); "
        "bad = [m for m in ('gymnasium', 'pettingzoo', 'PIL', 'torch') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_position_string_is_read_by_the_games_parser_and_bad_ones_raise() -> None:
    import ludoteca
    from ludoteca import render

    for game_id in ludoteca.games():
        start = ludoteca.Game(game_id).new_state(seed=0).to_string()
        assert render.svg(game_id, start) == render.svg(ludoteca.Game(game_id).state_from_string(start))
        with pytest.raises(ludoteca.PositionError):
            render.svg(game_id, "garbage")
    with pytest.raises(ludoteca.UnknownGameError):
        render.svg("tablutt", "garbage")


def test_draughts_square_numbers_are_bold_readable_and_drawn_over_the_pieces() -> None:
    import ludoteca
    from ludoteca import render
    from ludoteca.render.scene import Text

    for game_id, squares in (("checkers", 32), ("international", 50)):
        shapes = render.scene(ludoteca.Game(game_id).new_state(seed=0)).shapes
        numbers = [(i, s) for i, s in enumerate(shapes) if isinstance(s, Text) and s.text.isdigit()]
        assert [s.text for _, s in numbers][:squares] == [str(k) for k in range(1, squares + 1)]
        assert all(s.size >= 11 and s.bold for _, s in numbers)
        last_piece = max(i for i, s in enumerate(shapes) if not isinstance(s, Text) and type(s).__name__ == "Circle")
        assert numbers[0][0] > last_piece, "square numbers must be drawn after (over) the pieces"
