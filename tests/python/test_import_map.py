"""The layers of src/ stand upright: `tools/import_map.py` finds no circle
and no import from a lower layer to a higher one (docs/architecture.md)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "import_map.py"


def run(src: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), str(src)], capture_output=True, text=True, cwd=ROOT)


def test_src_has_no_circles_and_no_upward_imports():
    out = run(ROOT / "src")
    assert "circles: 0" in out.stdout and "upward imports: 0" in out.stdout, out.stdout + out.stderr
    assert out.returncode == 0


def test_the_check_fails_on_a_circle_and_an_upward_import(tmp_path):
    (tmp_path / "core.rs").write_text("use crate::game::Rules;\n")
    (tmp_path / "game.rs").write_text("use crate::core::Player;\n")
    (tmp_path / "session.rs").write_text("use crate::dynamic::DynGame;\n")
    (tmp_path / "dynamic.rs").write_text("#[cfg(test)]\nmod checks;\n")
    # Test-only modules may import anything.
    (tmp_path / "dynamic").mkdir()
    (tmp_path / "dynamic" / "checks.rs").write_text("use crate::registry::GAMES;\n")
    out = run(tmp_path)
    assert out.returncode == 1
    assert "circles: 1" in out.stdout
    assert "upward imports: 2" in out.stdout  # core -> game, session -> dynamic
