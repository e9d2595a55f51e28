"""Game records: PDN 3.0 for the draughts family, the same form for every game.

* :func:`read` / :func:`loads` parse record files into :class:`Record`
  objects (tag pairs, the main line with comments, NAGs and variations);
* :func:`replay` replays them through the rules, game by game, and says
  exactly where and why a record cannot be replayed;
* :class:`Recorder` / :func:`write_game` write ludoteca's own games so that
  reading them back gives the same game;
* :func:`write_mat` / :func:`write_sgf` / :func:`replay_match` write and
  replay backgammon matches with the doubling cube (Jellyfish ``.mat``,
  gnubg ``.sgf``);
* :func:`to_arrays` turns records into numpy arrays for supervised
  learning.

docs/records.md describes the formats, the ``GameType`` table and the
decisions taken.
"""

from __future__ import annotations

from .core import (
    Recorder,
    ReplayedGame,
    assumed_game,
    dumps,
    game_of,
    loads,
    read,
    replay,
    replay_record,
    result_winner,
    write_game,
)
from .dataset import Arrays, to_arrays
from .gametypes import GAME_TYPES, GameType, game_type_for
from .acf import loads_acf, read_acf
from .jellyfish import loads_match, read_match
from .match import MatchReplay, dumps_mat, dumps_sgf, replay_match, write_mat, write_sgf
from .pdn import Record, Turn, format_record

__all__ = [
    "Arrays",
    "GAME_TYPES",
    "GameType",
    "MatchReplay",
    "Record",
    "Recorder",
    "ReplayedGame",
    "Turn",
    "assumed_game",
    "dumps",
    "dumps_mat",
    "dumps_sgf",
    "format_record",
    "game_of",
    "game_type_for",
    "loads",
    "loads_acf",
    "loads_match",
    "read",
    "read_acf",
    "read_match",
    "replay",
    "replay_match",
    "replay_record",
    "result_winner",
    "to_arrays",
    "write_game",
    "write_mat",
    "write_sgf",
]
