"""Pictures of game states: SVG (no dependencies) and RGB arrays, PNG and GIF (Pillow).

Each game family builds a :class:`~ludoteca.render.scene.Scene` (a flat list
of rectangles, circles, lines, polygons and labels) from the core's board
view (``State.board_view()``: no position string is parsed here); :func:`svg` writes it as SVG and :func:`rgb_array` rasterises
it with Pillow (``pip install 'ludoteca[render]'``). In Jupyter a ``State``
shows itself as its SVG picture (``State._repr_svg_``).

::

    import ludoteca
    from ludoteca import render
    state = ludoteca.Game("tablut").new_state()
    render.save_png(state, "tablut.png")
    frames = []
    for _ in range(20):
        frames.append(state.clone())
        state.apply_action(int(state.legal_actions()[0]))
    render.save_gif(frames, "game.gif")

The same pictures are available without a ``State``:
``render.svg("backgammon", "4HPwATDgc/ABMA:MIElAAAAAAAA")`` (the string is read
by the game's parser with default options: a bad one raises ``PositionError``;
for a game with other options, pass its ``State``).
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional, Union

import numpy as np
import numpy.typing as npt

from .._core import Game, State
from ..errors import LudotecaValueError
from .alquerque import alquerque_scene
from .backgammon import backgammon_scene
from .draughts import draughts_scene
from .scene import Circle, Line, Polygon, Rect, Scene, Shape, Text
from .svg import to_svg
from .tablut import tablut_scene

__all__ = [
    "scene",
    "svg",
    "rgb_array",
    "image",
    "save_png",
    "save_svg",
    "save_gif",
    "Scene",
    "Shape",
    "Rect",
    "Circle",
    "Line",
    "Polygon",
    "Text",
]

StateLike = Union[State, str]
"""A ``State``, or a game id (then pass ``position`` too)."""

def _resolve(state: StateLike, position: Optional[str]) -> tuple[str, str, str, Optional[State]]:
    """(game id, family, position string, state or None). A game id and a
    position string are read with the game's own parser (default options), so
    a bad string raises ``PositionError`` instead of drawing nonsense."""
    if isinstance(state, str):
        if position is None:
            raise LudotecaValueError("pass a State, or a game id and a position string: render.svg('tablut', '... s')")
        parsed = Game(state).state_from_string(position)
        return parsed.game.id, parsed.game.family, parsed.to_string(), parsed
    if position is not None:
        raise LudotecaValueError("position is only for a game id; a State already has its position")
    game = state.game
    return game.id, game.family, state.to_string(), state


def _text_scene(game_id: str, text: str) -> Scene:
    """Fallback for a game without its own picture: the text board."""
    lines = text.splitlines() or [""]
    cw, lh, m = 8.4, 17, 14
    width = int(max(len(line) for line in lines) * cw + 2 * m) + 1
    sc = Scene(max(width, 120), len(lines) * lh + 2 * m, title=game_id)
    for i, line in enumerate(lines):
        sc.add(Text(m, m + (i + 0.5) * lh, line, size=14, anchor="start", mono=True))
    return sc


def scene(state: StateLike, position: Optional[str] = None) -> Scene:
    """The scene (primitives) of a state, or of ``position`` of game ``state``."""
    game_id, family, pos, st = _resolve(state, position)
    view = st.board_view() if st is not None else None
    if view is None:
        return _text_scene(game_id, str(st) if st is not None else pos)
    if family == "draughts":
        return draughts_scene(game_id, pos, view)
    if family == "tablut":
        return tablut_scene(pos, view)
    if family == "alquerque":
        return alquerque_scene(game_id, pos, view)
    if family == "backgammon":
        return backgammon_scene(pos, view)
    return _text_scene(game_id, str(st))


def svg(state: StateLike, position: Optional[str] = None) -> str:
    """The picture as an SVG document (a string). Needs no optional dependency."""
    return to_svg(scene(state, position))


def image(state: StateLike, position: Optional[str] = None, scale: float = 1.0) -> Any:
    """The picture as a ``PIL.Image.Image`` (needs Pillow)."""
    from .raster import to_image

    return to_image(scene(state, position), scale)


def rgb_array(state: StateLike, position: Optional[str] = None, scale: float = 1.0) -> npt.NDArray[np.uint8]:
    """The picture as a ``(height, width, 3)`` uint8 array (needs Pillow)."""
    from .raster import to_rgb_array

    return to_rgb_array(scene(state, position), scale)


def save_png(state: StateLike, path: Union[str, "os.PathLike[str]"], position: Optional[str] = None, scale: float = 1.0) -> None:
    """Writes the picture to a PNG file (needs Pillow)."""
    image(state, position, scale).save(os.fspath(path), format="PNG")


def save_svg(state: StateLike, path: Union[str, "os.PathLike[str]"], position: Optional[str] = None) -> None:
    """Writes the picture to an SVG file."""
    with open(os.fspath(path), "w", encoding="utf-8") as f:
        f.write(svg(state, position))


def save_gif(
    states: Iterable[State],
    path: Union[str, "os.PathLike[str]"],
    duration_ms: int = 600,
    loop: int = 0,
    scale: float = 1.0,
) -> int:
    """Writes an animated GIF with one frame per state (needs Pillow).

    Frames of different sizes (never within one game) are padded to the
    largest. ``duration_ms`` per frame, the last one held three times as long;
    ``loop=0`` repeats forever. Returns the number of frames written.
    """
    from PIL import Image

    frames = [image(s, scale=scale) for s in states]
    if not frames:
        raise ValueError("save_gif needs at least one state")
    w = max(f.width for f in frames)
    h = max(f.height for f in frames)
    same_size = []
    for f in frames:
        if f.size != (w, h):
            canvas = Image.new("RGB", (w, h), "#ffffff")
            canvas.paste(f, (0, 0))
            f = canvas
        same_size.append(f)
    # One palette for every frame (from a strip of up to 8 of them), without
    # dithering: unchanged pixels stay equal, so the GIF stores only changes.
    sample = same_size[:: max(1, len(same_size) // 8)][:8]
    strip = Image.new("RGB", (w * len(sample), h))
    for i, f in enumerate(sample):
        strip.paste(f, (i * w, 0))
    palette = strip.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    padded = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in same_size]
    durations = [duration_ms] * len(padded)
    durations[-1] = duration_ms * 3
    padded[0].save(
        os.fspath(path), format="GIF", save_all=True, append_images=padded[1:], duration=durations, loop=loop, optimize=False
    )
    return len(padded)
