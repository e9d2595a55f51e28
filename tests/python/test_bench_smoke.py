"""The benchmark script runs end to end in its quick mode (a smoke test: no
timing assertions)."""

import json
import subprocess
import sys
from pathlib import Path

import ludoteca

SCRIPT = Path(__file__).resolve().parents[2] / "benches" / "vecenv_bench.py"


def test_vecenv_bench_quick_mode_runs(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    assert "Summary" in r.stdout and "bandwidth" in r.stdout
    data = json.loads(out.read_text())
    assert [g["game"] for g in data["games"]] == ludoteca.games()
    for g in data["games"]:
        assert g["env_loop"] > 0
        assert all(v > 0 for row in g["rows"].values() for v in row.values())
        assert g["memory"]["accounted_mib"] >= 0


def test_vecenv_bench_rejects_unknown_games() -> None:
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--games", "nope"], capture_output=True, text=True, timeout=120
    )
    assert r.returncode != 0 and "unknown game" in r.stderr


def test_rllib_runner_profile_quick_mode_runs() -> None:
    import importlib.util

    import pytest

    for module in ("ray", "torch", "shimmy", "pyspiel"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module} (pip install '.[rllib-bench]')")
    script = SCRIPT.parent / "rllib_runner_profile.py"
    r = subprocess.run([sys.executable, str(script), "--quick"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "lean ceiling" in r.stdout and "add_env_step" in r.stdout


def test_vecenv_async_bench_runs() -> None:
    script = SCRIPT.parent / "vecenv_async_bench.py"
    r = subprocess.run(
        [sys.executable, str(script), "--envs", "50", "--repeats", "2"], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert "of a step" in r.stdout


def test_zamma_ab4_moves_bench_runs() -> None:
    script = Path(__file__).resolve().parents[2] / "benches" / "zamma_ab4_moves.py"
    r = subprocess.run(
        [sys.executable, str(script), "--games", "2", "--max-turns", "6"], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr
    assert "2 games" in r.stdout and "slowest ab4 moves" in r.stdout
