"""The backgammon board from the core's board view (``State.board_view()``).

Player 0's home board is drawn bottom right and player 0 moves
counter-clockwise (24 top right ... 13 top left, 12 bottom left ... 1 bottom
right, then off into the tray on the right); point numbers are player 0's.
Player 0's checkers are light, player 1's dark. The picture shows the bar, the
borne-off checkers in the tray, the dice of the player on roll (dice already
used mid-turn are faded) and a caption with the score.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any, Optional

from ..errors import LudotecaValueError

from .common import CAPTION_H, INK, LIGHT, LIGHT_EDGE, DARK, DARK_EDGE, caption
from .scene import Circle, Polygon, Rect, Scene, Text

__all__ = ["BackgammonPosition", "decode", "from_view", "backgammon_scene"]

_GAME_STATES = {0: "no game started", 1: "playing", 2: "game over", 3: "resigned", 4: "dropped"}


@dataclass(frozen=True)
class BackgammonPosition:
    """A decoded position: ``points[p][i]`` checkers of player p on their own
    point i+1 (i = 0..23), ``bar[p]``, ``off[p]``; the Match ID fields."""

    points: tuple[tuple[int, ...], tuple[int, ...]]
    bar: tuple[int, int]
    off: tuple[int, int]
    turn: int
    dice: tuple[int, int]
    game_state: int
    match_length: int
    score: tuple[int, int]
    played: tuple[int, ...]


def _bits(text: str, nbytes: int, what: str) -> list[int]:
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except ValueError as e:
        raise ValueError(f"bad {what} {text!r}: {e}") from e
    if len(raw) < nbytes:
        raise ValueError(f"bad {what} {text!r}: expected {nbytes} bytes of Base64, got {len(raw)}")
    return [(byte >> i) & 1 for byte in raw[:nbytes] for i in range(8)]


def _field(bits: list[int], start: int, width: int) -> int:
    return sum(bits[start + i] << i for i in range(width))


def from_view(view: Optional[dict[str, Any]]) -> BackgammonPosition:
    """The position of a backgammon ``State.board_view()``; ``LudotecaValueError``
    for the view of another game (or ``None``)."""
    if view is None or "points0" not in view:
        raise LudotecaValueError("expected the board view of a backgammon state (with points0, points1, bar, off...)")
    return BackgammonPosition(
        (tuple(view["points0"]), tuple(view["points1"])),
        (view["bar"][0], view["bar"][1]),
        (view["off"][0], view["off"][1]),
        view["turn"],
        (view["dice"][0], view["dice"][1]),
        view["game_state"],
        view["match_length"],
        (view["score"][0], view["score"][1]),
        tuple(view["played"]),
    )


def decode(position: str) -> BackgammonPosition:
    """Decodes ``PositionID:MatchID`` (plus ludoteca's optional third
    field, the dice already played this turn) without checking it; for a
    ``State``, ``from_view(state.board_view())`` reads the core instead."""
    parts = position.strip().split(":")
    if len(parts) < 2:
        raise ValueError(f"expected 'PositionID:MatchID', got {position!r}")
    mbits = _bits(parts[1], 9, "Match ID")
    # The player on roll (bit 6): the Position ID is written from their side;
    # bit 11 (the player to decide) differs from it while a double is offered.
    turn = _field(mbits, 6, 1)
    dice = (_field(mbits, 15, 3), _field(mbits, 18, 3))
    game_state = _field(mbits, 8, 3)
    match_length = _field(mbits, 21, 15)
    score = (_field(mbits, 36, 15), _field(mbits, 51, 15))
    pbits = _bits(parts[0], 10, "Position ID")
    halves: list[list[int]] = []
    i = 0
    for _ in range(2):
        counts = []
        for _ in range(25):
            c = 0
            while i < 80 and pbits[i]:
                c += 1
                i += 1
            i += 1
            counts.append(c)
        halves.append(counts)
    # The key holds the player not on turn first, then the player on turn.
    own = {1 - turn: halves[0], turn: halves[1]}
    pts = (tuple(own[0][:24]), tuple(own[1][:24]))
    bar = (own[0][24], own[1][24])
    off = (15 - sum(own[0]), 15 - sum(own[1]))
    played = tuple(int(ch) for ch in parts[2]) if len(parts) > 2 and parts[2].isdigit() else ()
    return BackgammonPosition(pts, bar, off, turn, dice, game_state, match_length, score, played)


_BED = "#1f5a3d"
_FRAME = "#5b3a1a"
_POINT_A = "#d8b25a"
_POINT_B = "#9b2d20"
_TRAY = "#3d2712"


def _checker(scene: Scene, cx: float, cy: float, r: float, player: int) -> None:
    fill, edge = (LIGHT, LIGHT_EDGE) if player == 0 else (DARK, DARK_EDGE)
    scene.add(Circle(cx, cy, r, fill=fill, stroke=edge, stroke_width=1.5))
    scene.add(Circle(cx, cy, r * 0.62, stroke="#b9ad98" if player == 0 else "#555555", stroke_width=1))


def _die(scene: Scene, x: float, y: float, s: float, value: int, player: int, used: bool) -> None:
    body, pip = ("#fbf8ef", "#222222") if player == 0 else ("#2a2a2a", "#f5f5f5")
    if used:
        body, pip = "#9a9a90", "#5a5a55"
    scene.add(Rect(x, y, s, s, fill=body, stroke="#111111", stroke_width=1.5, rx=s * 0.15))
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
        6: [(0.27, 0.22), (0.73, 0.22), (0.27, 0.5), (0.73, 0.5), (0.27, 0.78), (0.73, 0.78)],
    }
    for fx, fy in spots.get(value, []):
        scene.add(Circle(x + fx * s, y + fy * s, s * 0.09, fill=pip))


def backgammon_scene(position: str, view: dict[str, Any]) -> Scene:
    """The picture of a backgammon position (``position`` is its title)."""
    pos = from_view(view)
    pw, bar_w, tray_w, m = 38, 42, 50, 16
    half_h, gap = 5 * (pw - 4), 56
    inner_h = 2 * half_h + gap
    width = m + 12 * pw + bar_w + 12 + tray_w + m
    top = m + 18
    height = top + inner_h + 18 + m + CAPTION_H
    scene = Scene(width, height, title=f"backgammon: {position}")
    x0 = m
    bar_x = x0 + 6 * pw
    tray_x = x0 + 12 * pw + bar_w + 12
    bottom = top + inner_h
    scene.add(Rect(x0 - 8, top - 8, 12 * pw + bar_w + 16, inner_h + 16, fill=_FRAME, rx=5))
    scene.add(Rect(x0, top, 12 * pw + bar_w, inner_h, fill=_BED))
    scene.add(Rect(bar_x, top - 8, bar_w, inner_h + 16, fill=_FRAME))
    scene.add(Rect(tray_x - 4, top - 8, tray_w + 8, inner_h + 16, fill=_FRAME, rx=5))
    scene.add(Rect(tray_x, top, tray_w, half_h, fill=_TRAY))
    scene.add(Rect(tray_x, bottom - half_h, tray_w, half_h, fill=_TRAY))

    def col_x(col: int) -> float:
        return x0 + col * pw + (bar_w if col >= 6 else 0)

    # (column 0..11 left to right, at the top?) of player 0's point P.
    def place(p: int) -> tuple[int, bool]:
        return (p - 13, True) if p >= 13 else (12 - p, False)

    r = (pw - 4) / 2
    for p in range(1, 25):
        col, at_top = place(p)
        x = col_x(col)
        colour = _POINT_A if p % 2 else _POINT_B
        if at_top:
            tri = ((x + 1, top), (x + pw - 1, top), (x + pw / 2, top + half_h - 6))
        else:
            tri = ((x + 1, bottom), (x + pw - 1, bottom), (x + pw / 2, bottom - half_h + 6))
        scene.add(Polygon(tri, fill=colour))
        scene.add(Text(x + pw / 2, top - 16 if at_top else bottom + 17, str(p), size=10, fill=INK))
        for player in (0, 1):
            n = pos.points[player][p - 1 if player == 0 else 24 - p]
            for k in range(min(n, 5)):
                cy = top + r + 1 + 2 * r * k if at_top else bottom - r - 1 - 2 * r * k
                _checker(scene, x + pw / 2, cy, r, player)
            if n > 5:
                cy = top + r + 1 + 8 * r if at_top else bottom - r - 1 - 8 * r
                scene.add(Text(x + pw / 2, cy, str(n), size=13, bold=True, fill=INK if player == 0 else "#ffffff"))
    # The bar: player 0's checkers (entering at the top right) in the upper half.
    mid = top + inner_h / 2
    for player, sign in ((0, -1), (1, 1)):
        n = pos.bar[player]
        for k in range(min(n, 4)):
            _checker(scene, bar_x + bar_w / 2, mid + sign * (gap / 2 + r + 2 * r * k), r, player)
        if n > 4:
            scene.add(Text(bar_x + bar_w / 2, mid + sign * (gap / 2 + 7 * r), str(n), size=13, bold=True,
                           fill=INK if player == 0 else "#ffffff"))
    # Borne-off checkers as slabs: player 0 bottom tray, player 1 top tray.
    slab = (half_h - 8) / 15
    for player in (0, 1):
        n = pos.off[player]
        fill, edge = (LIGHT, LIGHT_EDGE) if player == 0 else ("#3a3a3a", DARK_EDGE)
        for k in range(n):
            y = bottom - 4 - (k + 1) * slab if player == 0 else top + 4 + k * slab
            scene.add(Rect(tray_x + 6, y, tray_w - 12, slab - 1, fill=fill, stroke=edge, stroke_width=0.8, rx=1.5))
        if n:
            ty = bottom - half_h - 10 if player == 0 else top + half_h + 10
            scene.add(Text(tray_x + tray_w / 2, ty, f"off {n}", size=10, fill="#f3e3c6"))
    # Dice of the player on roll, in the right half.
    d1, d2 = pos.dice
    if d1 and d2:
        dice = [d1, d2] if d1 != d2 else [d1] * 4
        s = 28
        right_mid = col_x(6) + 3 * pw
        total = len(dice) * s + (len(dice) - 1) * 8
        used = list(pos.played)
        for k, v in enumerate(dice):
            is_used = v in used
            if is_used:
                used.remove(v)
            _die(scene, right_mid - total / 2 + k * (s + 8), mid - s / 2, s, v, pos.turn, is_used)

    state = _GAME_STATES.get(pos.game_state, "?")
    who = f"player {pos.turn} ({'light' if pos.turn == 0 else 'dark'})"
    if pos.game_state == 0:
        text = "opening roll to come"
    elif pos.game_state >= 2:
        winner = 1 - pos.turn
        text = f"{state}: player {winner} wins"
    elif d1 and d2:
        text = f"{who} to play {max(d1, d2)}-{min(d1, d2)}"
    else:
        text = f"{who} to roll"
    if pos.match_length > 1:
        text += f"  ·  score {pos.score[0]}-{pos.score[1]}, match to {pos.match_length}"
    text += f"  ·  pips {_pips(pos, 0)} / {_pips(pos, 1)}"
    caption(scene, text, height - m - CAPTION_H / 2 + 6)
    return scene


def _pips(pos: BackgammonPosition, player: int) -> int:
    return sum((i + 1) * n for i, n in enumerate(pos.points[player])) + 25 * pos.bar[player]
