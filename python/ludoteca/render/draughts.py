"""Draughts boards (8x8 and 10x10) from the core's board view (``State.board_view()``).

The picture shows the PDN square numbers, kings with a crown, the pieces that
may be huffed ringed in red, and a capture in progress (its start and current
square ringed in blue, the pieces jumped so far crossed out).
"""

from __future__ import annotations

from typing import Any

from .common import CAPTION_H, HILITE, caption, piece
from .scene import Circle, Line, Rect, Scene, Text

__all__ = ["draughts_scene"]

_LIGHT_SQ = "#f0d9b5"
_DARK_SQ = "#a97a4f"
_FRAME = "#5b3a1a"
_COLOUR_NAME = {"B": "Black", "W": "White"}


_NUMBER = "#ffd54a"  # amber: readable on the dark squares and on both piece colours


def draughts_scene(game_id: str, position: str, view: dict[str, Any]) -> Scene:
    """The picture of a draughts position of preset ``game_id`` (``position`` is its title)."""
    n = view["rows"]
    cell = 52 if n == 8 else 44
    margin = 14
    board = n * cell
    scene = Scene(board + 2 * margin, board + 2 * margin + CAPTION_H, title=f"{game_id}: {position}")
    marks = view["marks"]
    x0 = y0 = margin
    scene.add(Rect(x0 - 6, y0 - 6, board + 12, board + 12, fill=_FRAME, rx=4))
    num = 0
    number: dict[tuple[int, int], int] = {}
    labels: list[Text] = []
    for row in range(n):
        for col in range(n):
            dark = (row + col) % 2 == 1
            scene.add(Rect(x0 + col * cell, y0 + row * cell, cell, cell, fill=_DARK_SQ if dark else _LIGHT_SQ))
            if dark:
                num += 1
                number[(row, col)] = num
                # The numbers the notation uses, bold and drawn over the
                # pieces so that every square can be read.
                labels.append(
                    Text(x0 + col * cell + 3, y0 + row * cell + 9, str(num), size=12 if n == 8 else 11, fill=_NUMBER, anchor="start", bold=True)
                )

    def centre(at: tuple[int, int]) -> tuple[float, float]:
        row, col = at
        return x0 + (col + 0.5) * cell, y0 + (row + 0.5) * cell

    p0 = view["player0_colour"]
    colour_of = (p0, "B" if p0 == "W" else "W")
    r = cell * 0.39
    counts = {"B": 0, "W": 0}
    for row, col, kind, owner in view["pieces"]:
        cx, cy = centre((row, col))
        piece(scene, cx, cy, r, light=colour_of[owner] == "W", king=kind == "king")
        counts[colour_of[owner]] += 1
    for label in labels:
        scene.add(label)
    for at in marks.get("huff", []):
        cx, cy = centre(at)
        scene.add(Circle(cx, cy, r + 3, stroke=HILITE, stroke_width=3))
    for at in marks.get("capture", []):
        cx, cy = centre(at)
        scene.add(Circle(cx, cy, r + 3, stroke="#3a86ff", stroke_width=3))
    for at in marks.get("jumped", []):
        cx, cy = centre(at)
        d = r * 0.6
        scene.add(Line(cx - d, cy - d, cx + d, cy + d, stroke=HILITE, stroke_width=4))
        scene.add(Line(cx - d, cy + d, cx + d, cy - d, stroke=HILITE, stroke_width=4))

    player = view["to_move"]
    mover = _COLOUR_NAME[colour_of[player]]
    text = f"{mover} (player {player}) to move  ·  Black {counts['B']}, White {counts['W']}"
    if "huff" in marks:
        text += f"  ·  may huff {','.join(str(number[at]) for at in marks['huff'])}"
    caption(scene, text, board + 2 * margin + CAPTION_H / 2 - 2)
    return scene
