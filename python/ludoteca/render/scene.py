"""A scene: a flat list of drawing primitives in pixel units.

Each game family builds one from the core's board view (``State.board_view()``);
one writer turns it into SVG (``svg.py``) and one rasteriser into an RGB array
(``raster.py``). Coordinates: x to the right, y down, origin top-left, as in
SVG and Pillow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

__all__ = ["Rect", "Circle", "Line", "Polygon", "Text", "Shape", "Scene"]

Color = str
"""``"#rrggbb"``."""


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle (``rx``: corner radius)."""

    x: float
    y: float
    w: float
    h: float
    fill: Optional[Color] = None
    stroke: Optional[Color] = None
    stroke_width: float = 1.0
    rx: float = 0.0


@dataclass(frozen=True)
class Circle:
    """A disc or ring centred at ``(cx, cy)``."""

    cx: float
    cy: float
    r: float
    fill: Optional[Color] = None
    stroke: Optional[Color] = None
    stroke_width: float = 1.0


@dataclass(frozen=True)
class Line:
    """A straight segment."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Color = "#000000"
    stroke_width: float = 1.0


@dataclass(frozen=True)
class Polygon:
    """A closed polygon through ``points``."""

    points: tuple[tuple[float, float], ...]
    fill: Optional[Color] = None
    stroke: Optional[Color] = None
    stroke_width: float = 1.0


@dataclass(frozen=True)
class Text:
    """A one-line label; ``(x, y)`` is the centre of the text (``anchor="middle"``)
    or its left end (``anchor="start"``), vertically centred either way;
    ``mono`` asks for a monospaced font."""

    x: float
    y: float
    text: str
    size: float = 12.0
    fill: Color = "#000000"
    anchor: str = "middle"
    bold: bool = False
    mono: bool = False


Shape = Union[Rect, Circle, Line, Polygon, Text]


@dataclass
class Scene:
    """A picture: its size in pixels, a background and shapes drawn in order."""

    width: int
    height: int
    background: Color = "#ffffff"
    shapes: list[Shape] = field(default_factory=list)
    title: str = ""

    def add(self, *shapes: Shape) -> None:
        """Appends shapes (drawn after, so on top of, the ones already there)."""
        self.shapes.extend(shapes)
