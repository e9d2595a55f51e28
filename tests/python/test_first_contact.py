"""First contact without the optional extras: each integration module, imported without its
dependency, says which package is missing and which pip extra installs it; ``python -m
ludoteca.train`` without torch prints one line, not a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# module -> (the dependency hidden, the extra named)
EXTRAS = {
    "ludoteca.gym": ("gymnasium", "gymnasium"),
    "ludoteca.pettingzoo": ("pettingzoo", "pettingzoo"),
    "ludoteca.sb3": ("stable_baselines3", "sb3"),
    "ludoteca.torchrl": ("torchrl", "torchrl"),
    "ludoteca.rllib": ("ray", "rllib"),
    "ludoteca.train": ("torch", "train"),
}

HIDE = r"""
import importlib, json, sys
module, hidden = sys.argv[1], sys.argv[2]
sys.modules[hidden] = None  # as if not installed: importing it raises ModuleNotFoundError
try:
    importlib.import_module(module)
    print(json.dumps({"imported": True}))
except ImportError as e:
    print(json.dumps({"type": type(e).__name__, "message": str(e), "name": e.name}))
"""


@pytest.mark.parametrize("module", sorted(EXTRAS))
def test_an_integration_module_without_its_extra_names_the_package_and_the_extra(module: str) -> None:
    hidden, extra = EXTRAS[module]
    out = subprocess.run([sys.executable, "-c", HIDE, module, hidden], capture_output=True, text=True, timeout=120)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    # On main: a bare "No module named 'gymnasium'" (or "import of torch halted; None in sys.modules").
    assert got.get("type") == "ModuleNotFoundError" and got["name"] == hidden, got
    assert module in got["message"] and hidden in got["message"] and f"pip install 'ludoteca[{extra}]'" in got["message"], got


def test_the_training_command_without_torch_prints_one_line(tmp_path: Path) -> None:
    # A torch that cannot be imported, ahead of the real one on the path.
    (tmp_path / "torch.py").write_text("raise ImportError(\"No module named 'torch'\")\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "ludoteca.train", "alphazero", "kharbaga"], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.strip().splitlines() == [
        "python -m ludoteca.train: ludoteca.train needs torch, which is not installed: pip install 'ludoteca[train]' "
        "(from a clone of ludoteca: pip install '.[train]')"
    ]
