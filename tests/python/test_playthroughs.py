"""Every registered game has a playthrough, and replaying it gives the same
text byte for byte. Regenerate after a deliberate change with
``python -m ludoteca.playthrough --regenerate tests/data/playthroughs``."""

from pathlib import Path

import ludoteca
from ludoteca import playthrough

DIR = Path(__file__).resolve().parent.parent / "data" / "playthroughs"


def test_playthrough_replays(game_id: str) -> None:
    path = playthrough.path_for(DIR, game_id)
    assert path.exists(), f"{game_id} has no playthrough: run python -m ludoteca.playthrough --regenerate {DIR}"
    assert playthrough.generate(game_id) == path.read_text(), f"{path} differs: review and regenerate"


def test_no_stray_playthroughs() -> None:
    ids = set(ludoteca.games())
    assert {p.stem for p in DIR.glob("*.txt")} <= ids


# Playthroughs of option sets that change the rules (file name: game id, then
# the options), replayed byte for byte like the defaults.
OPTION_DIR = DIR / "options"
OPTION_SETS = {
    "backgammon-cube-match3": ("backgammon", {"cube": True, "match_length": 3}),
    "backgammon-cube-money-jacoby": ("backgammon", {"cube": True, "match_length": 0, "jacoby": True}),
    "backgammon-cube-explicit-match5": ("backgammon", {"cube": True, "match_length": 5, "chance": "explicit"}),
    "backgammon-cube-money-beavers": ("backgammon", {"cube": True, "match_length": 0, "beavers": True, "chance": "explicit"}),
    "backgammon-reglamento": ("backgammon", {"rules": "reglamento"}),
    "backgammon-reglamento-cube-explicit-match3": ("backgammon", {"rules": "reglamento", "cube": True, "match_length": 3, "chance": "explicit"}),
    # Version 1's readings of the reglamento (the same game as the version 1 file of backgammon-reglamento).
    "backgammon-reglamento-v1-readings": ("backgammon", {"rules": "reglamento", "bear_off": "one_point", "open_point": "avoid_closing"}),
    "backgammon-reglamento-literal-entry-no-bar-backgammon": ("backgammon", {"rules": "reglamento", "enter_own_point": False, "bar_backgammon": False, "chance": "explicit"}),
    "backgammon-equity-cube-match5": ("backgammon", {"reward": "equity", "cube": True, "match_length": 5}),
}


def write_option_playthroughs() -> None:
    """Regenerates the option playthroughs (after a deliberate change)."""
    OPTION_DIR.mkdir(exist_ok=True)
    for name, (gid, options) in OPTION_SETS.items():
        (OPTION_DIR / f"{name}.txt").write_text(playthrough.generate(gid, **options))


def test_option_playthroughs_replay() -> None:
    for name, (gid, options) in OPTION_SETS.items():
        path = OPTION_DIR / f"{name}.txt"
        assert path.exists(), f"{path} is missing: run write_option_playthroughs()"
        assert playthrough.generate(gid, **options) == path.read_text(), f"{path} differs: review and regenerate"
