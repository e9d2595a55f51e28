"""Packaging: the sdist builds, a wheel built from it is abi3, carries the
stubs, the extras, the networks and the licences, has a stripped extension,
and installs, imports and plays in a fresh venv without the test extras,
on this Python and on the oldest the abi3 wheel claims (3.9) when one is
found.

Runs by default (a few minutes: one compile of the extension from the
unpacked sdist, with the ``fast`` profile). ``LUDOTECA_SKIP_WHEEL_TEST=1``
skips it; ``LUDOTECA_WHEEL=path/to/ludoteca-*.whl`` tests that wheel
instead of building one (``.ci/run`` gives it the manylinux wheel of
``tools/build_wheels.sh``). ``LUDOTECA_PYTHON39=/path/to/python3.9`` names
the 3.9 interpreter; otherwise ``python3.9`` on the PATH or a pyenv 3.9 is
used, and the 3.9 test skips (saying so) when there is none.
"""

from __future__ import annotations

import glob
import os
import shutil
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
        for needed in ("Cargo.toml", "Cargo.lock", "pyproject.toml", "README.md", "LICENSE", "THIRD-PARTY-LICENSES.md",
                       "CHANGELOG.md", "python/ludoteca/_core.pyi",
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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("LUDOTECA_WHEEL")
    return Path(given) if given else _build_from_sdist(tmp_path_factory.mktemp("wheel"))


def _install_and_play(python: str, wheel: Path, tmp: Path) -> str:
    venv = tmp / "venv"
    _run([python, "-m", "venv", str(venv)])
    py = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    _run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)])
    out = _run([str(py), "-c", IMPORT_CHECK], cwd=tmp)
    assert out.strip().splitlines()[-1].startswith("ok ")
    if os.name != "nt":
        assert _run([str(venv / "bin" / "ludoteca"), "list"])
    return out


def test_wheel_contents_and_size(wheel: Path) -> None:
    assert "-abi3-" in wheel.name and "-cp39-" in wheel.name, f"expected a cp39 abi3 wheel, got {wheel.name}"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        assert "ludoteca/_core.pyi" in names and "ludoteca/py.typed" in names
        assert "ludoteca/gym.py" in names and "ludoteca/pettingzoo.py" in names
        # The baseline networks are package data (ludoteca.agents.baseline), and the wheel stays small.
        assert "ludoteca/baselines/README.md" in names
        for npz in (ROOT / "python" / "ludoteca" / "baselines").glob("*.npz"):
            assert f"ludoteca/baselines/{npz.name}" in names, f"{npz.name} missing from the wheel"
        (meta_name,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        meta = zf.read(meta_name).decode()
        info = meta_name.rsplit("/", 1)[0]
        for licence in ("LICENSE", "THIRD-PARTY-LICENSES.md"):
            assert f"{info}/licenses/{licence}" in names, f"{licence} missing from the wheel"
            assert zf.read(f"{info}/licenses/{licence}") == (ROOT / licence).read_bytes()
        (core,) = [n for n in names if n.startswith("ludoteca/_core.") and n.endswith((".so", ".pyd"))]
        binary = zf.read(core)
    assert wheel.stat().st_size <= 12 * 10**6, f"wheel is {wheel.stat().st_size / 10**6:.1f} MB, over 12 MB"
    for extra in ("gymnasium", "pettingzoo", "render", "all", "test"):
        assert f"Provides-Extra: {extra}" in meta
    assert "License-Expression: MIT" in meta
    if binary[:4] == b"\x7fELF":
        # A stripped ELF has no symbol table section (.symtab) left.
        assert b".symtab\x00" not in binary, f"{core} is not stripped"


def test_linux_wheel_is_what_auditwheel_says_it_is(wheel: Path) -> None:
    if "linux" not in wheel.name:
        pytest.skip(f"not a Linux wheel: {wheel.name}")
    if shutil.which("auditwheel") is None:
        pytest.skip("auditwheel is not installed")
    platform = wheel.name.rsplit("-", 1)[1].removesuffix(".whl")
    if platform == "linux_x86_64":
        pytest.skip("a plain linux_x86_64 wheel (the sdist build): no policy to check")
    report = " ".join(_run(["auditwheel", "show", str(wheel)]).split())
    # e.g. manylinux2014_x86_64.manylinux_2_17_x86_64: the PEP 600 tag is the policy.
    policy = [p for p in platform.split(".") if p.startswith(("manylinux_", "musllinux_"))][0]
    assert f'"{policy}"' in report, report


def test_wheel_installs_and_imports_in_a_fresh_venv(wheel: Path, tmp_path: Path) -> None:
    _install_and_play(sys.executable, wheel, tmp_path)


def _python39() -> str | None:
    given = os.environ.get("LUDOTECA_PYTHON39")
    found = [given] if given else []
    found += [p for p in [shutil.which("python3.9")] if p]
    found += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.9*/bin/python3.9")), reverse=True)
    for candidate in found:
        proc = subprocess.run([candidate, "-c", "import sys, venv; print(sys.version_info[:2])"], capture_output=True,
                              text=True)
        if proc.returncode == 0 and proc.stdout.strip() == "(3, 9)":
            return candidate
    return None


def test_wheel_installs_and_imports_on_python_3_9(wheel: Path, tmp_path: Path) -> None:
    python = _python39()
    if python is None:
        pytest.skip("no Python 3.9 found (LUDOTECA_PYTHON39, python3.9 on the PATH, ~/.pyenv/versions/3.9*)")
    if sys.platform.startswith("linux") and "linux" not in wheel.name and "any" not in wheel.name:
        pytest.skip(f"{wheel.name} is not for this platform")
    out = _install_and_play(python, wheel, tmp_path)
    assert "ok " in out
