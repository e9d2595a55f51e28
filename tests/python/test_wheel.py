"""Packaging: the sdist builds, a wheel built from it is abi3, carries the
stubs and the extras, and installs and imports in a fresh venv.

Runs by default (a few minutes: one compile of the extension from the
unpacked sdist, with the ``fast`` profile). ``LUDOTECA_SKIP_WHEEL_TEST=1``
skips it; ``LUDOTECA_WHEEL=path/to/ludoteca-*.whl`` tests that wheel
instead of building one (e.g. the ``maturin build --release`` wheel).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    os.environ.get("LUDOTECA_SKIP_WHEEL_TEST", "") not in ("", "0"), reason="LUDOTECA_SKIP_WHEEL_TEST is set"
)

ROOT = Path(__file__).resolve().parents[2]

IMPORT_CHECK = """
import sys, ludoteca
from ludoteca import render
games = ludoteca.games()
assert games, "no game registered"
state = ludoteca.Game(games[0]).new_state(seed=0)
assert state.legal_actions().size > 0
assert render.svg(state).startswith("<svg")
venv = ludoteca.VecEnv(games[0], num_envs=4, seed=0)
print(venv.rollout(10)["steps"])
try:
    import ludoteca.gym
except ImportError as e:
    assert "gymnasium" in str(e), e
else:
    raise AssertionError("gymnasium should not be installed in the fresh venv")
print("ok", ludoteca.__version__, len(games))
"""


def _run(cmd: list[str], **kw: object) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)  # type: ignore[call-overload]
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))}\n{proc.stdout}\n{proc.stderr}"
    return str(proc.stdout)


def _build_from_sdist(tmp: Path) -> Path:
    pytest.importorskip("maturin")
    dist = tmp / "dist"
    _run([sys.executable, "-m", "maturin", "sdist", "--out", str(dist)], cwd=ROOT)
    (sdist,) = dist.glob("ludoteca-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
        for needed in ("Cargo.toml", "Cargo.lock", "pyproject.toml", "README.md", "python/ludoteca/_core.pyi",
                       "python/ludoteca/py.typed", "python/ludoteca/render/__init__.py", "src/lib.rs"):
            assert any(n.endswith("/" + needed) for n in names), f"{needed} missing from the sdist"
        if sys.version_info >= (3, 12):
            tar.extractall(tmp / "src", filter="data")
        else:
            tar.extractall(tmp / "src")
    (src,) = (tmp / "src").iterdir()
    # A target dir under the repo keeps dependency builds between runs; the
    # crate itself is compiled from the unpacked sdist.
    env = dict(os.environ, CARGO_TARGET_DIR=str(ROOT / "target" / "wheel-test"))
    _run([sys.executable, "-m", "maturin", "build", "--profile", "fast", "--out", str(dist)], cwd=src, env=env)
    (wheel,) = dist.glob("ludoteca-*.whl")
    return wheel


def test_wheel_installs_and_imports_in_a_fresh_venv(tmp_path: Path) -> None:
    given = os.environ.get("LUDOTECA_WHEEL")
    wheel = Path(given) if given else _build_from_sdist(tmp_path)
    assert "-abi3-" in wheel.name, f"expected an abi3 wheel, got {wheel.name}"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        assert "ludoteca/_core.pyi" in names and "ludoteca/py.typed" in names
        assert "ludoteca/gym.py" in names and "ludoteca/pettingzoo.py" in names
        # The baseline networks are package data (ludoteca.agents.baseline), and the wheel stays small.
        assert "ludoteca/baselines/README.md" in names
        for npz in (ROOT / "python" / "ludoteca" / "baselines").glob("*.npz"):
            assert f"ludoteca/baselines/{npz.name}" in names, f"{npz.name} missing from the wheel"
    assert wheel.stat().st_size < 15 * 2**20, f"wheel is {wheel.stat().st_size / 2**20:.1f} MB, over 15 MB"
    with zipfile.ZipFile(wheel) as zf:
        (meta_name,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        meta = zf.read(meta_name).decode()
    for extra in ("gymnasium", "pettingzoo", "render", "all", "test"):
        assert f"Provides-Extra: {extra}" in meta
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    py = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    _run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)])
    out = _run([str(py), "-c", IMPORT_CHECK], cwd=tmp_path)
    assert out.strip().splitlines()[-1].startswith("ok ")
    cli = _run([str(venv / "bin" / "ludoteca"), "list"]) if os.name != "nt" else "skipped"
    assert cli
