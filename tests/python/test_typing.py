"""Typing: a user's script under ``mypy --strict``, the package itself under
``mypy --strict``, and the hand-written stubs of the compiled core against the
runtime with ``mypy.stubtest``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

ROOT = Path(__file__).resolve().parents[2]


def _mypy(*args: str) -> None:
    proc = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_usage_file_passes_mypy_strict() -> None:
    _mypy("mypy", "--strict", str(Path("tests/python/typing_check/usage.py")))


def test_package_passes_mypy_strict() -> None:
    _mypy("mypy", "--strict", "-p", "ludoteca")


def test_stubs_match_the_compiled_core() -> None:
    _mypy("mypy.stubtest", "ludoteca._core")
