"""Draughts boards (8x8 and 10x10) from a PDN FEN position string.

``W:B22,25,28:W1,18;h=22;...``: side to move, then the Black and White piece
lists (``K`` before a king's square), then optional ``;``-separated fields. The
picture shows the PDN square numbers, kings with a crown, the huff set ``h=``
ringed in red, and a capture in progress (``p=START x CURRENT``, ``j=`` jumped
pieces crossed out).
"""

from __future__ import annotations

from .common import CAPTION_H, HILITE, caption, piece
from .scene import Circle, Line, Rect, Scene, Text

__all__ = ["draughts_scene", "BOARD_SIZE", "PLAYER0_COLOUR"]

BOARD_SIZE = {"damas_10x10": 10, "international": 10}
"""Board size of each preset (8 when not listed)."""

PLAYER0_COLOUR = {"tablero": "B", "damas": "B", "damas_10x10": "B"}
"""Colour letter of player 0 in each preset (``"W"`` when not listed)."""

_LIGHT_SQ = "#f0d9b5"
_DARK_SQ = "#a97a4f"
_FRAME = "#5b3a1a"
_COLOUR_NAME = {"B": "Black", "W": "White"}


def square_cell(square: int, n: int) -> tuple[int, int]:
    """(row from the top, column from the left) of PDN square ``square`` on an n x n board."""
    half = n // 2
    row, k = divmod(square - 1, half)
    return row, 2 * k + (1 if row % 2 == 0 else 0)


def _squares(text: str) -> list[tuple[int, bool]]:
    """``"K3,5,7-9"`` -> [(3, True), (5, False), (7, False), (8, False), (9, False)]."""
    out: list[tuple[int, bool]] = []
    for tok in filter(None, text.split(",")):
        king = tok.startswith("K")
        tok = tok.lstrip("K")
        if "-" in tok:
            a, b = tok.split("-", 1)
            out.extend((s, king) for s in range(int(a), int(b) + 1))
        elif tok:
            out.append((int(tok), king))
    return out


def parse(position: str) -> tuple[str, dict[str, list[tuple[int, bool]]], dict[str, str]]:
    """Splits a draughts position string: (side to move, pieces by colour, extra fields)."""
    main, *extras = position.split(";")
    parts = main.split(":")
    side = parts[0].strip()
    pieces: dict[str, list[tuple[int, bool]]] = {"B": [], "W": []}
    for part in parts[1:]:
        part = part.strip()
        if part and part[0] in pieces:
            pieces[part[0]] = _squares(part[1:])
    fields = {}
    for e in extras:
        if "=" in e:
            k, v = e.split("=", 1)
            fields[k.strip()] = v.strip()
    return side, pieces, fields


_NUMBER = "#ffd54a"  # amber: readable on the dark squares and on both piece colours


def draughts_scene(game_id: str, position: str) -> Scene:
    """The picture of a draughts position of preset ``game_id``."""
    n = BOARD_SIZE.get(game_id, 8)
    cell = 52 if n == 8 else 44
    margin = 14
    board = n * cell
    scene = Scene(board + 2 * margin, board + 2 * margin + CAPTION_H, title=f"{game_id}: {position}")
    side, pieces, fields = parse(position)
    x0 = y0 = margin
    scene.add(Rect(x0 - 6, y0 - 6, board + 12, board + 12, fill=_FRAME, rx=4))
    num = 0
    labels: list[Text] = []
    for row in range(n):
        for col in range(n):
            dark = (row + col) % 2 == 1
            scene.add(Rect(x0 + col * cell, y0 + row * cell, cell, cell, fill=_DARK_SQ if dark else _LIGHT_SQ))
            if dark:
                num += 1
                # The numbers the notation uses, bold and drawn over the
                # pieces so that every square can be read.
                labels.append(
                    Text(x0 + col * cell + 3, y0 + row * cell + 9, str(num), size=12 if n == 8 else 11, fill=_NUMBER, anchor="start", bold=True)
                )

    def centre(square: int) -> tuple[float, float]:
        row, col = square_cell(square, n)
        return x0 + (col + 0.5) * cell, y0 + (row + 0.5) * cell

    r = cell * 0.39
    for colour, plist in pieces.items():
        for square, king in plist:
            if 1 <= square <= n * n // 2:
                cx, cy = centre(square)
                piece(scene, cx, cy, r, light=colour == "W", king=king)
    for label in labels:
        scene.add(label)
    for square, _ in _squares(fields.get("h", "")):
        cx, cy = centre(square)
        scene.add(Circle(cx, cy, r + 3, stroke=HILITE, stroke_width=3))
    if "p" in fields and "x" in fields["p"]:
        start, current = (int(t) for t in fields["p"].split("x", 1))
        for square, colour in ((start, "#3a86ff"), (current, "#3a86ff")):
            cx, cy = centre(square)
            scene.add(Circle(cx, cy, r + 3, stroke=colour, stroke_width=3))
    for square, _ in _squares(fields.get("j", "")):
        cx, cy = centre(square)
        d = r * 0.6
        scene.add(Line(cx - d, cy - d, cx + d, cy + d, stroke=HILITE, stroke_width=4))
        scene.add(Line(cx - d, cy + d, cx + d, cy - d, stroke=HILITE, stroke_width=4))

    p0 = PLAYER0_COLOUR.get(game_id, "W")
    mover = _COLOUR_NAME.get(side, side)
    player = 0 if side == p0 else 1
    counts = {c: len(pieces[c]) for c in pieces}
    text = f"{mover} (player {player}) to move  ·  Black {counts['B']}, White {counts['W']}"
    if "h" in fields:
        text += f"  ·  may huff {fields['h']}"
    caption(scene, text, board + 2 * margin + CAPTION_H / 2 - 2)
    return scene
