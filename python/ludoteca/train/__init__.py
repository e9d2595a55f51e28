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

try:
    import torch  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("ludoteca.train needs torch: pip install 'ludoteca[train]'") from e

from .alphazero import AlphaZeroConfig, ReplayBuffer, alphazero, plot_curve
from .nets import MLP, ResNet, export_npz, make_network
from .td import TDConfig, td

__all__ = ["AlphaZeroConfig", "ReplayBuffer", "alphazero", "plot_curve", "MLP", "ResNet", "export_npz", "make_network", "TDConfig", "td"]
