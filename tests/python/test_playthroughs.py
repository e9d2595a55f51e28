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
