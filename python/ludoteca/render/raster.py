"""Rasterises a :class:`~ludoteca.render.scene.Scene` to an RGB array with Pillow.

Pillow is an optional dependency (``pip install ludoteca[render]``), imported
only when a picture is rasterised. Shapes are drawn at ``SUPERSAMPLE`` times
the size and scaled down, which anti-aliases edges.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from .scene import Circle, Line, Polygon, Rect, Scene, Text

__all__ = ["to_image", "to_rgb_array", "SUPERSAMPLE"]

SUPERSAMPLE = 3


def _pil() -> Any:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "rasterising pictures needs Pillow: pip install 'ludoteca[render]' (or pip install pillow)"
        ) from e
    return Image, ImageDraw, ImageFont


@lru_cache(maxsize=64)
def _font(size: int, bold: bool, mono: bool = False) -> Any:
    _, _, ImageFont = _pil()
    names = ("DejaVuSansMono.ttf", "Courier New.ttf") if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", "Arial.ttf")
    for name in names:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def to_image(scene: Scene, scale: float = 1.0) -> Any:
    """The scene as a ``PIL.Image.Image`` (RGB), ``scale`` times its size."""
    Image, ImageDraw, _ = _pil()
    k = SUPERSAMPLE * scale
    w, h = max(1, round(scene.width * scale)), max(1, round(scene.height * scale))
    img = Image.new("RGB", (round(w * SUPERSAMPLE), round(h * SUPERSAMPLE)), scene.background)
    draw = ImageDraw.Draw(img)

    def px(v: float) -> float:
        return v * k

    def width(v: float) -> int:
        return max(1, round(v * k))

    for s in scene.shapes:
        if isinstance(s, Rect):
            box = (px(s.x), px(s.y), px(s.x + s.w), px(s.y + s.h))
            outline = s.stroke
            if s.rx:
                draw.rounded_rectangle(box, radius=px(s.rx), fill=s.fill, outline=outline, width=width(s.stroke_width) if outline else 0)
            else:
                draw.rectangle(box, fill=s.fill, outline=outline, width=width(s.stroke_width) if outline else 0)
        elif isinstance(s, Circle):
            box = (px(s.cx - s.r), px(s.cy - s.r), px(s.cx + s.r), px(s.cy + s.r))
            draw.ellipse(box, fill=s.fill, outline=s.stroke, width=width(s.stroke_width) if s.stroke else 0)
        elif isinstance(s, Line):
            lw = width(s.stroke_width)
            draw.line((px(s.x1), px(s.y1), px(s.x2), px(s.y2)), fill=s.stroke, width=lw)
            # Round caps, as the SVG writer asks for.
            for x, y in ((s.x1, s.y1), (s.x2, s.y2)):
                r = lw / 2
                draw.ellipse((px(x) - r, px(y) - r, px(x) + r, px(y) + r), fill=s.stroke)
        elif isinstance(s, Polygon):
            pts = [(px(x), px(y)) for x, y in s.points]
            draw.polygon(pts, fill=s.fill, outline=s.stroke, width=width(s.stroke_width) if s.stroke else 0)
        elif isinstance(s, Text):
            font = _font(max(1, round(s.size * k)), s.bold, s.mono)
            anchor = "mm" if s.anchor == "middle" else "lm" if s.anchor == "start" else "rm"
            draw.text((px(s.x), px(s.y)), s.text, fill=s.fill, font=font, anchor=anchor)
        else:  # pragma: no cover
            raise TypeError(f"unknown shape {type(s).__name__}")
    return img.resize((w, h), Image.LANCZOS)


def to_rgb_array(scene: Scene, scale: float = 1.0) -> npt.NDArray[np.uint8]:
    """The scene as a ``(height, width, 3)`` uint8 array."""
    return np.asarray(to_image(scene, scale), dtype=np.uint8)
