"""Which game a record belongs to, and how each game writes its moves.

The ``GameType`` tag maps to a game id (PDN numbers for the standard
draughts variants, numbers of our own for the Latin American ones, the game
id itself for the other games); a :class:`Notation` knows how that game's
moves are written in a record and how to turn them into the core's
notation (``State.play``). docs/records.md has the tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from .._core import Game, State
from ..errors import RecordError
from .pdn import excerpt

__all__ = ["GameType", "GAME_TYPES", "game_type_for", "game_type_tag", "parse_options", "format_options"]


@dataclass(frozen=True)
class GameType:
    """The record conventions of one game id.

    ``number``: the PDN type number (``None`` for non-draughts games, whose
    ``GameType`` value is the game id); ``size``: board side (draughts);
    ``notation``: ``"N"`` numeric squares, ``"A"`` algebraic (a1..h8),
    ``""`` the game's own notation; ``capture``: capture separator written;
    ``colours``: colour letter of player 0 and player 1 (``"WB"``: player 0
    is White); ``first``: colour letter that starts in the standard
    position (``None``: drawn at random, tablero); ``two_point``: results
    written 2-0/1-1/0-2 (international) instead of 1-0/1/2-1/2/0-1.
    """

    game_id: str
    number: Optional[int]
    size: int = 0
    notation: str = ""
    capture: str = "x"
    colours: str = "WB"
    first: Optional[str] = "W"
    two_point: bool = False

    @property
    def draughts(self) -> bool:
        """Whether moves are written in PDN square notation."""
        return self.number is not None

    def long_form(self, first: Optional[str] = None) -> str:
        """The long ``GameType`` value: ``20,W,10,10,N2,0``.

        The numbering code is where square 1 (or a1) lies seen from the
        starting player: our numbering starts at the top left of player 0,
        so ``N2`` when player 0 starts and ``N1`` (bottom right) when
        player 1 does; algebraic ``A0`` (a1 bottom left of White).
        """
        first = first or self.first or self.colours[0]
        if self.notation == "A":
            code = "A0"
        else:
            code = "N2" if first == self.colours[0] else "N1"
        return f"{self.number},{first},{self.size},{self.size},{code},0"


#: The conventions of every game id (docs/records.md, "GameType").
GAME_TYPES: dict[str, GameType] = {
    g.game_id: g
    for g in [
        GameType("international", 20, 10, "N", "x", "WB", "W", two_point=True),
        GameType("checkers", 21, 8, "N", "x", "WB", "B"),
        GameType("russian", 25, 8, "A", ":", "WB", "W"),
        GameType("brazilian", 26, 8, "A", "x", "WB", "W"),
        # Numbers of our own, far above the PDN table (which reserves 42-49
        # for future draughts and 51.. for other games).
        GameType("tablero", 90, 8, "N", "x", "BW", None),
        GameType("damas", 91, 8, "N", "x", "BW", "B"),
        GameType("damas_10x10", 92, 10, "N", "x", "BW", "B"),
        GameType("tablut", None, colours="SM", first="S"),
        GameType("kharbaga", None, colours="BW", first="B"),
        GameType("zamma", None, colours="BW", first="B"),
        GameType("backgammon", None, colours="01", first=None),
    ]
}
_BY_NUMBER = {g.number: g for g in GAME_TYPES.values() if g.number is not None}
# PDN types we know by name, so an error can say what the file holds.
_OTHER_PDN = {22: "Italian", 23: "American pool", 24: "Spanish", 27: "Canadian", 28: "Portuguese",
              29: "Czech", 30: "Turkish", 31: "Thai", 40: "Frisian", 41: "Spantsiretti"}
# Matched on the stripped value; every `\s*` is followed by a comma, so no two
# of them compete for the same spaces (`\d+\s*(...)?\s*$` was quadratic in a
# run of spaces). Numbers of at most 4 digits: `int` of 5,000 digits raises.
_LONG = re.compile(r"^(\d{1,4})(?:\s*,\s*([WB])\s*,\s*(\d{1,4})\s*,\s*(\d{1,4})\s*,\s*([ANS][0-3])(?:\s*,\s*([01]))?)?$")


def game_type_for(value: Optional[str], default: str = "international") -> GameType:
    """The :class:`GameType` a ``GameType`` tag value names (absent: ``default``).

    Accepts the short (``"20"``) and long (``"20,W,10,10,N2,0"``) PDN forms
    and the game ids of the non-draughts games. A long form whose board does
    not match the type, or an unknown type, raises ``RecordError``.
    """
    if value is None or not value.strip():
        return GAME_TYPES[default]
    v = value.strip()
    if v in GAME_TYPES:
        return GAME_TYPES[v]
    m = _LONG.match(v)
    if not m:
        raise RecordError(f"GameType {excerpt(value)} is neither a PDN type like '20' or '20,W,10,10,N2,0' nor a game id ({', '.join(GAME_TYPES)})", kind="game type")
    number = int(m.group(1))
    gt = _BY_NUMBER.get(number)
    if gt is None:
        name = _OTHER_PDN.get(number)
        known = ", ".join(f"{g.number} ({g.game_id})" for g in _BY_NUMBER.values())
        raise RecordError(
            f"GameType {number}{' (' + name + ' draughts)' if name else ''} has no ludoteca game; known: {known}",
            kind="game type",
        )
    if m.group(3) and (int(m.group(3)), int(m.group(4))) != (gt.size, gt.size):
        raise RecordError(f"GameType {excerpt(value)}: type {number} is played on {gt.size}x{gt.size}", kind="game type")
    return gt


def game_type_tag(gt: GameType, start: State) -> str:
    """The ``GameType`` value ludoteca writes for a game starting at ``start``.

    The PDN types of the standard variants are written short (``"20"``),
    ours long with the colour that starts this game; other games their id.
    """
    if gt.number is None:
        return gt.game_id
    if gt.number < 90:
        return str(gt.number)
    player = start.current_player
    first = gt.colours[player] if player in (0, 1) else gt.first
    return gt.long_form(first)


def parse_options(text: str) -> dict[str, object]:
    """``"removal=deferred match_length=5"`` → ``{"removal": "deferred", "match_length": 5}``."""
    out: dict[str, object] = {}
    for pair in text.replace(",", " ").split():
        if "=" not in pair:
            raise RecordError(f"Options tag expects NAME=VALUE pairs, got {excerpt(pair)}", kind="game type")
        name, value = pair.split("=", 1)
        low = value.lower()
        parsed: object
        if low in ("true", "false"):
            parsed = low == "true"
        elif re.fullmatch(r"-?[0-9]{1,18}", value):
            # Longer numbers stay text, for the game to refuse with its range.
            parsed = int(value)
        else:
            parsed = value
        out[name] = parsed
    return out


def format_options(game: Game) -> str:
    """The options of ``game`` that differ from the defaults, as ``NAME=VALUE`` words.

    ``chance`` is left out: records always hold the dice, and are replayed
    with explicit chance.
    """
    defaults = Game(game.id).options
    words = []
    for name, value in sorted(game.options.items()):
        if name == "chance" or defaults.get(name) == value:
            continue
        words.append(f"{name}={str(value).lower() if isinstance(value, bool) else value}")
    return " ".join(words)
