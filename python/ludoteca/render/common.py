"""Helpers shared by the family pictures: palette, pieces, captions."""

from __future__ import annotations

from .scene import Circle, Polygon, Scene, Text

__all__ = ["INK", "LIGHT", "DARK", "GOLD", "HILITE", "piece", "crown", "caption", "CAPTION_H"]

INK = "#2b2118"
LIGHT = "#f7f2e4"
LIGHT_EDGE = "#5d5448"
DARK = "#262626"
DARK_EDGE = "#000000"
GOLD = "#d8a31a"
HILITE = "#d7263d"
SHADOW = "#3b3026"
CAPTION_H = 30


def piece(scene: Scene, cx: float, cy: float, r: float, light: bool, king: bool = False) -> None:
    """A round piece: light or dark, with a crown when ``king``."""
    fill, edge = (LIGHT, LIGHT_EDGE) if light else (DARK, DARK_EDGE)
    scene.add(Circle(cx + r * 0.06, cy + r * 0.1, r, fill=SHADOW))
    scene.add(Circle(cx, cy, r, fill=fill, stroke=edge, stroke_width=max(1.0, r * 0.08)))
    scene.add(Circle(cx, cy, r * 0.68, fill=None, stroke=edge if light else "#5a5a5a", stroke_width=max(0.8, r * 0.05)))
    if king:
        crown(scene, cx, cy, r * 0.55)


def crown(scene: Scene, cx: float, cy: float, s: float) -> None:
    """A small gold crown of half-width ``s`` centred at ``(cx, cy)``."""
    pts = (
        (cx - s, cy + s * 0.55),
        (cx - s, cy - s * 0.45),
        (cx - s * 0.5, cy + s * 0.05),
        (cx, cy - s * 0.7),
        (cx + s * 0.5, cy + s * 0.05),
        (cx + s, cy - s * 0.45),
        (cx + s, cy + s * 0.55),
    )
    scene.add(Polygon(pts, fill=GOLD, stroke="#6b4e00", stroke_width=max(0.8, s * 0.1)))


def caption(scene: Scene, text: str, y: float) -> None:
    """One line of text centred under the board."""
    scene.add(Text(scene.width / 2, y, text, size=14, fill=INK))

