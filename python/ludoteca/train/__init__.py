"""Training recipes (torch: ``pip install 'ludoteca[train]'``).

``alphazero(game, out=DIR, minutes=M, seed=S)`` trains a network by
self-play with the Rust MCTS and rates it in the arena as it goes;
``python -m ludoteca.train alphazero GAME --minutes M --out DIR`` is the
command line. ``td(game, out=DIR, ...)`` (``python -m ludoteca.train td
GAME``) trains a value network of afterstates by TD(lambda) self-play, the
recipe of backgammon's baseline. The trained network is exported to numpy (``export.npz``),
which ``ludoteca.agents.baseline.Baseline`` plays without torch. See
``docs/training.md``.
"""

from __future__ import annotations

import sys

try:
    import torch  # noqa: F401
except ImportError as e:
    _NEEDS_TORCH = "ludoteca.train needs torch, which is not installed: pip install 'ludoteca[train]' (from a clone of ludoteca: pip install '.[train]')"
    # `python -m ludoteca.train` imports this package before its __main__: a command deserves one line, not a traceback.
    _argv = list(getattr(sys, "orig_argv", []))
    if "-m" in _argv and _argv[_argv.index("-m") + 1 :][:1] == ["ludoteca.train"]:
        sys.stderr.write(f"python -m ludoteca.train: {_NEEDS_TORCH}\n")
        raise SystemExit(2) from None
    raise ModuleNotFoundError(_NEEDS_TORCH, name="torch") from e

from .alphazero import AlphaZeroConfig, ReplayBuffer, alphazero, load_checkpoint, plot_curve
from .nets import MLP, ResNet, export_npz, make_network
from .td import TDConfig, td

__all__ = ["AlphaZeroConfig", "ReplayBuffer", "alphazero", "load_checkpoint", "plot_curve", "MLP", "ResNet", "export_npz", "make_network", "TDConfig", "td"]
