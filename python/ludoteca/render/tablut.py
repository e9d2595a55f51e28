"""The Tablut board from the core's board view (``State.board_view()``).

The king and the Swedish soldiers are player 0's pieces, the Muscovites
player 1's. The picture marks the throne (e5) and the four corners, labels
files a-i and ranks 1-9, and never rotates the board.
"""

from __future__ import annotations

from typing import Any

from .common import CAPTION_H, INK, caption, crown, piece
from .scene import Line, Rect, Scene, Text

__all__ = ["tablut_scene"]

_BOARD = "#e9d5aa"
_GRID = "#7a5a32"
_SPECIAL = "#c49a5a"
_FRAME = "#5b3a1a"


def tablut_scene(position: str, view: dict[str, Any]) -> Scene:
    """The picture of a Tablut position (``position`` is its title)."""
    n, cell, margin = view["rows"], 46, 26
    board = n * cell
    scene = Scene(board + 2 * margin, board + 2 * margin + CAPTION_H, title=f"tablut: {position}")
    x0 = y0 = margin
    scene.add(Rect(x0 - 5, y0 - 5, board + 10, board + 10, fill=_FRAME, rx=4))
    scene.add(Rect(x0, y0, board, board, fill=_BOARD))
    specials = {(4, 4), (0, 0), (0, 8), (8, 0), (8, 8)}
    for row, col in specials:
        x, y = x0 + col * cell, y0 + row * cell
        scene.add(Rect(x, y, cell, cell, fill=_SPECIAL))
        # A cross through the throne and the corners: only the king may stop there.
        d = cell * 0.22
        cx, cy = x + cell / 2, y + cell / 2
        scene.add(Line(cx - d, cy - d, cx + d, cy + d, stroke="#8a6a3a", stroke_width=2))
        scene.add(Line(cx - d, cy + d, cx + d, cy - d, stroke="#8a6a3a", stroke_width=2))
    for i in range(n + 1):
        scene.add(Line(x0, y0 + i * cell, x0 + board, y0 + i * cell, stroke=_GRID, stroke_width=1.5))
        scene.add(Line(x0 + i * cell, y0, x0 + i * cell, y0 + board, stroke=_GRID, stroke_width=1.5))
    for i in range(n):
        scene.add(Text(x0 + (i + 0.5) * cell, y0 + board + 14, "abcdefghi"[i], size=12, fill=INK))
        scene.add(Text(x0 - 15, y0 + (i + 0.5) * cell, str(n - i), size=12, fill=INK))
    r = cell * 0.36
    kings = 0
    counts = {"S": 0, "M": 0}
    for row, col, kind, owner in view["pieces"]:
        cx, cy = x0 + (col + 0.5) * cell, y0 + (row + 0.5) * cell
        if kind == "king":
            piece(scene, cx, cy, r * 1.12, light=True)
            crown(scene, cx, cy, r * 0.62)
            kings += 1
        elif owner == 1:
            piece(scene, cx, cy, r, light=False)
            counts["M"] += 1
        else:
            piece(scene, cx, cy, r, light=True)
            counts["S"] += 1
    mover = "Swedes (player 0)" if view["to_move"] == 0 else "Muscovites (player 1)"
    text = f"{mover} to move  ·  Swedes {counts['S']} + {'king' if kings else 'no king'}, Muscovites {counts['M']}"
    caption(scene, text, board + 2 * margin + CAPTION_H / 2)
    return scene
