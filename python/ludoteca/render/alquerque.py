"""Alquerque-family line boards: kharbaga (41 points) and zamma (81 points).

Both live on a 9x9 lattice (files a-i, ranks 1-9). Kharbaga's points are
those whose file index + rank index is even, joined by the orthogonal lines of
ranks/files 1, 3, 5, 7, 9 (a, c, e, g, i) and by every diagonal; zamma uses
all 81 points, orthogonal lines everywhere and the diagonals through the
even points. The pieces, the points and a capture in progress (shown by a blue ring and
red crosses) come from the core's board view (``State.board_view()``).
"""

from __future__ import annotations

from typing import Any

from .common import CAPTION_H, HILITE, caption, piece
from .scene import Circle, Line, Rect, Scene, Text

__all__ = ["alquerque_scene", "lines"]

_BOARD = "#ead7ae"
_LINE = "#6b4a22"
_FRAME = "#5b3a1a"
_N = 9


def lines(geometry: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The lines of board ``geometry`` (the view's name: ``"kharbaga"`` or
    ``"zamma"``) as ((file, rank), (file, rank)) end points, 0-based."""
    out: list[tuple[tuple[int, int], tuple[int, int]]] = []
    ortho = range(_N) if geometry == "zamma" else range(0, _N, 2)
    for i in ortho:
        out.append(((0, i), (_N - 1, i)))
        out.append(((i, 0), (i, _N - 1)))
    last = _N - 1
    for c in range(-last + 2, last - 1, 2):  # file - rank = c
        out.append(((max(0, c), max(0, -c)), (min(last, last + c), min(last, last - c))))
    for c in range(2, 2 * last - 1, 2):  # file + rank = c
        out.append(((max(0, c - last), c - max(0, c - last)), (min(last, c), c - min(last, c))))
    return out


def alquerque_scene(game_id: str, position: str, view: dict[str, Any]) -> Scene:
    """The picture of a kharbaga or zamma position (``position`` is its title)."""
    gap, margin = 46, 44
    board = (_N - 1) * gap
    scene = Scene(board + 2 * margin, board + 2 * margin + CAPTION_H, title=f"{game_id}: {position}")
    marks = view["marks"]
    x0, y0 = margin, margin

    def xy(f: int, r: int) -> tuple[float, float]:
        return x0 + f * gap, y0 + (_N - 1 - r) * gap

    def at(cell: tuple[int, int]) -> tuple[float, float]:
        row, col = cell
        return x0 + col * gap, y0 + row * gap

    scene.add(Rect(x0 - 38, y0 - 38, board + 76, board + 76, fill=_FRAME, rx=6))
    scene.add(Rect(x0 - 18, y0 - 18, board + 36, board + 36, fill=_BOARD, rx=3))
    for (f1, r1), (f2, r2) in lines(view["geometry"]):
        (ax, ay), (bx, by) = xy(f1, r1), xy(f2, r2)
        scene.add(Line(ax, ay, bx, by, stroke=_LINE, stroke_width=2))
    for cell in marks["points"]:
        x, y = at(cell)
        scene.add(Circle(x, y, 3.5, fill=_LINE))
    for i in range(_N):
        x, _ = xy(i, 0)
        scene.add(Text(x, y0 + board + 28, "abcdefghi"[i], size=12, fill="#f3e3c6"))
        _, y = xy(0, i)
        scene.add(Text(x0 - 28, y, str(i + 1), size=12, fill="#f3e3c6"))
    r_piece = gap * 0.34
    counts = [0, 0]
    for row, col, kind, owner in view["pieces"]:
        x, y = at((row, col))
        piece(scene, x, y, r_piece, light=owner == 1, king=kind == "king")
        counts[owner] += 1
    for cell in marks.get("capture", []):
        x, y = at(cell)
        scene.add(Circle(x, y, r_piece + 3, stroke="#3a86ff", stroke_width=3))
    for cell in marks.get("jumped", []):
        x, y = at(cell)
        d = r_piece * 0.6
        scene.add(Line(x - d, y - d, x + d, y + d, stroke=HILITE, stroke_width=4))
        scene.add(Line(x - d, y + d, x + d, y - d, stroke=HILITE, stroke_width=4))
    mover = "Black (player 0)" if view["to_move"] == 0 else "White (player 1)"
    caption(scene, f"{mover} to move  ·  Black {counts[0]}, White {counts[1]}", board + 2 * margin + CAPTION_H / 2)
    return scene
