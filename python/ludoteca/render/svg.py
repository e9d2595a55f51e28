"""Writes a :class:`~ludoteca.render.scene.Scene` as a standalone SVG document."""

from __future__ import annotations

from typing import Optional
from xml.sax.saxutils import escape, quoteattr

from .scene import Circle, Line, Polygon, Rect, Scene, Shape, Text

__all__ = ["to_svg"]


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _paint(fill: Optional[str], stroke: Optional[str], width: float) -> str:
    out = f' fill="{fill or "none"}"'
    if stroke:
        out += f' stroke="{stroke}" stroke-width="{_num(width)}"'
    return out


def _shape(s: Shape) -> str:
    if isinstance(s, Rect):
        rx = f' rx="{_num(s.rx)}"' if s.rx else ""
        return (
            f'<rect x="{_num(s.x)}" y="{_num(s.y)}" width="{_num(s.w)}" height="{_num(s.h)}"{rx}'
            f"{_paint(s.fill, s.stroke, s.stroke_width)}/>"
        )
    if isinstance(s, Circle):
        return (
            f'<circle cx="{_num(s.cx)}" cy="{_num(s.cy)}" r="{_num(s.r)}"'
            f"{_paint(s.fill, s.stroke, s.stroke_width)}/>"
        )
    if isinstance(s, Line):
        return (
            f'<line x1="{_num(s.x1)}" y1="{_num(s.y1)}" x2="{_num(s.x2)}" y2="{_num(s.y2)}" '
            f'stroke="{s.stroke}" stroke-width="{_num(s.stroke_width)}" stroke-linecap="round"/>'
        )
    if isinstance(s, Polygon):
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in s.points)
        return f'<polygon points="{pts}"{_paint(s.fill, s.stroke, s.stroke_width)} stroke-linejoin="round"/>'
    if isinstance(s, Text):
        weight = ' font-weight="bold"' if s.bold else ""
        if s.mono:
            weight += ' font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" xml:space="preserve"'
        return (
            f'<text x="{_num(s.x)}" y="{_num(s.y)}" font-size="{_num(s.size)}" fill="{s.fill}" '
            f'text-anchor="{s.anchor}" dominant-baseline="central"{weight}>{escape(s.text)}</text>'
        )
    raise TypeError(f"unknown shape {type(s).__name__}")


def to_svg(scene: Scene) -> str:
    """The scene as an SVG document (a string), sized in pixels."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
        f'viewBox="0 0 {scene.width} {scene.height}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">'
    )
    parts = [head]
    if scene.title:
        parts.append(f"<title>{escape(scene.title)}</title>")
    parts.append(f'<rect width="100%" height="100%" fill={quoteattr(scene.background)}/>')
    parts.extend(_shape(s) for s in scene.shapes)
    parts.append("</svg>")
    return "\n".join(parts)
