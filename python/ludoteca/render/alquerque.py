"""Alquerque-family line boards: kharbaga (41 points) and zamma (81 points).

Both live on a 9x9 lattice (files a-i, ranks 1-9). Kharbaga's points are
those whose file index + rank index is even, joined by the orthogonal lines of
ranks/files 1, 3, 5, 7, 9 (a, c, e, g, i) and by every diagonal; zamma uses
all 81 points, orthogonal lines everywhere and the diagonals through the
even points. The position string lists each rank's points only
(``wwwww/wwww/...  b``); a capture in progress (``capture=e5 jumped=d4``)
is shown by a blue ring and red crosses.
"""

from __future__ import annotations

from .common import CAPTION_H, HILITE, caption, expand_digits, piece
from .scene import Circle, Line, Rect, Scene, Text

__all__ = ["alquerque_scene", "points", "lines"]

_BOARD = "#ead7ae"
_LINE = "#6b4a22"
_FRAME = "#5b3a1a"
_N = 9


def points(game_id: str, rank: int) -> list[int]:
    """0-based files of the points on 0-based ``rank``, left to right."""
    if game_id == "zamma":
        return list(range(_N))
    return [f for f in range(_N) if (f + rank) % 2 == 0]


def lines(game_id: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The board's lines as ((file, rank), (file, rank)) end points, 0-based."""
    out: list[tuple[tuple[int, int], tuple[int, int]]] = []
    ortho = range(_N) if game_id == "zamma" else range(0, _N, 2)
    for i in ortho:
        out.append(((0, i), (_N - 1, i)))
        out.append(((i, 0), (i, _N - 1)))
    last = _N - 1
    for c in range(-last + 2, last - 1, 2):  # file - rank = c
        out.append(((max(0, c), max(0, -c)), (min(last, last + c), min(last, last - c))))
    for c in range(2, 2 * last - 1, 2):  # file + rank = c
        out.append(((max(0, c - last), c - max(0, c - last)), (min(last, c), c - min(last, c))))
    return out


def _point(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def alquerque_scene(game_id: str, position: str) -> Scene:
    """The picture of a kharbaga or zamma position."""
    gap, margin = 46, 44
    board = (_N - 1) * gap
    scene = Scene(board + 2 * margin, board + 2 * margin + CAPTION_H, title=f"{game_id}: {position}")
    fields = position.split()
    placement, side = fields[0], (fields[1] if len(fields) > 1 else "b")
    extra = dict(f.split("=", 1) for f in fields[2:] if "=" in f)
    x0, y0 = margin, margin

    def xy(f: int, r: int) -> tuple[float, float]:
        return x0 + f * gap, y0 + (_N - 1 - r) * gap

    scene.add(Rect(x0 - 38, y0 - 38, board + 76, board + 76, fill=_FRAME, rx=6))
    scene.add(Rect(x0 - 18, y0 - 18, board + 36, board + 36, fill=_BOARD, rx=3))
    for (f1, r1), (f2, r2) in lines(game_id):
        (ax, ay), (bx, by) = xy(f1, r1), xy(f2, r2)
        scene.add(Line(ax, ay, bx, by, stroke=_LINE, stroke_width=2))
    for r in range(_N):
        for f in points(game_id, r):
            x, y = xy(f, r)
            scene.add(Circle(x, y, 3.5, fill=_LINE))
    for i in range(_N):
        x, _ = xy(i, 0)
        scene.add(Text(x, y0 + board + 28, "abcdefghi"[i], size=12, fill="#f3e3c6"))
        _, y = xy(0, i)
        scene.add(Text(x0 - 28, y, str(i + 1), size=12, fill="#f3e3c6"))
    r_piece = gap * 0.34
    counts = {"b": 0, "w": 0}
    for row, text in enumerate(placement.split("/")[:_N]):
        rank = _N - 1 - row
        files = points(game_id, rank)
        for f, ch in zip(files, expand_digits(text)):
            if ch.lower() in counts:
                x, y = xy(f, rank)
                piece(scene, x, y, r_piece, light=ch.lower() == "w", king=ch.isupper())
                counts[ch.lower()] += 1
    if "capture" in extra:
        x, y = xy(*_point(extra["capture"]))
        scene.add(Circle(x, y, r_piece + 3, stroke="#3a86ff", stroke_width=3))
    for name in filter(None, extra.get("jumped", "").split(",")):
        x, y = xy(*_point(name))
        d = r_piece * 0.6
        scene.add(Line(x - d, y - d, x + d, y + d, stroke=HILITE, stroke_width=4))
        scene.add(Line(x - d, y + d, x + d, y - d, stroke=HILITE, stroke_width=4))
    mover = "Black (player 0)" if side == "b" else "White (player 1)"
    caption(scene, f"{mover} to move  ·  Black {counts['b']}, White {counts['w']}", board + 2 * margin + CAPTION_H / 2)
    return scene
