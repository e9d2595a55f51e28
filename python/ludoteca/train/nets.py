"""CPU-sized networks for self-play training, and their export to numpy arrays.

* ``ResNet``: a small residual convolutional network for the board games; its
  input is the game's observation planes ``[C, H, W]`` (``docs/games/``).
* ``MLP``: two hidden layers for flat observations (backgammon's 256 inputs).

Both return ``(logits [B, num_actions], values [B])``; values are
``value_scale * tanh(x)``, for the player to move, in the scale of the game's
returns (backgammon: points, 3 for a backgammon). ``export_npz`` writes the
numpy form ``ludoteca.agents.baseline.NumpyNet`` reads (batch normalisation
folded into the convolutions).
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Tuple, Union

import numpy as np
import torch
from torch import nn

from ..agents.baseline import FORMAT

__all__ = ["ResNet", "MLP", "make_network", "export_npz"]


class _ConvBN(nn.Module):
    """Convolution (no bias) followed by batch normalisation."""

    def __init__(self, cin: int, cout: int, k: int) -> None:
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """conv then batch norm."""
        return self.bn(self.conv(x))  # type: ignore[no-any-return]

    def folded(self) -> Tuple[np.ndarray, np.ndarray]:
        """The convolution with the batch norm (eval mode) folded in: weight [O, C, k, k], bias [O]."""
        bn = self.bn
        assert bn.running_var is not None and bn.running_mean is not None
        scale = (bn.weight / torch.sqrt(bn.running_var + bn.eps)).detach()
        w = self.conv.weight.detach() * scale[:, None, None, None]
        b = bn.bias.detach() - bn.running_mean * scale
        return w.numpy().astype(np.float32), b.numpy().astype(np.float32)


class _Block(nn.Module):
    """Residual block: two 3x3 conv-BN layers and the skip connection."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = _ConvBN(channels, channels, 3)
        self.conv2 = _ConvBN(channels, channels, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """relu(x + conv2(relu(conv1(x))))."""
        return torch.relu(x + self.conv2(torch.relu(self.conv1(x))))


class ResNet(nn.Module):
    """Residual conv net: a 3x3 stem, ``blocks`` residual blocks of ``channels``, policy and value heads."""

    kind = "resnet"

    def __init__(self, observation_shape: Tuple[int, ...], num_actions: int, channels: int = 32, blocks: int = 2, value_hidden: int = 64, value_scale: float = 1.0) -> None:
        super().__init__()
        c, h, w = observation_shape
        self.observation_shape = tuple(observation_shape)
        self.num_actions = num_actions
        self.channels, self.blocks, self.value_hidden, self.value_scale = channels, blocks, value_hidden, value_scale
        self.stem = _ConvBN(c, channels, 3)
        self.body = nn.ModuleList(_Block(channels) for _ in range(blocks))
        self.policy_conv = _ConvBN(channels, 2, 1)
        self.policy = nn.Linear(2 * h * w, num_actions)
        self.value_conv = _ConvBN(channels, 1, 1)
        self.value1 = nn.Linear(h * w, value_hidden)
        self.value2 = nn.Linear(value_hidden, 1)

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """``(logits [B, A], values [B])``."""
        h = torch.relu(self.stem(x))
        for block in self.body:
            h = block(h)
        p = torch.relu(self.policy_conv(h)).flatten(1)
        v = torch.relu(self.value_conv(h)).flatten(1)
        v = self.value2(torch.relu(self.value1(v)))[:, 0]
        return self.policy(p), torch.tanh(v) * self.value_scale

    def numpy_arrays(self) -> dict[str, np.ndarray]:
        """The weights in ``NumpyNet``'s layout (channels-last im2col convolutions, [in, out] matrices)."""
        out: dict[str, np.ndarray] = {}

        def conv3(name: str, m: _ConvBN) -> None:
            w, b = m.folded()
            out[f"{name}.w"] = w.reshape(w.shape[0], -1).T.copy()
            out[f"{name}.b"] = b

        def conv1(name: str, m: _ConvBN) -> None:
            w, b = m.folded()
            out[f"{name}.w"] = w[:, :, 0, 0].T.copy()
            out[f"{name}.b"] = b

        conv3("stem", self.stem)
        for i, block in enumerate(self.body):
            assert isinstance(block, _Block)
            conv3(f"block{i}.conv1", block.conv1)
            conv3(f"block{i}.conv2", block.conv2)
        conv1("policy_conv", self.policy_conv)
        conv1("value_conv", self.value_conv)
        for name in ("policy", "value1", "value2"):
            lin = getattr(self, name)
            out[f"{name}.w"] = lin.weight.detach().numpy().T.copy()
            out[f"{name}.b"] = lin.bias.detach().numpy().copy()
        return out

    def describe(self) -> dict[str, Any]:
        """Architecture fields for the export's ``meta``."""
        return {"kind": "resnet", "channels": self.channels, "blocks": self.blocks, "value_hidden": self.value_hidden}


class MLP(nn.Module):
    """Two hidden ReLU layers of ``hidden`` units on the flattened observation, policy and value heads."""

    kind = "mlp"

    def __init__(self, observation_shape: Tuple[int, ...], num_actions: int, hidden: int = 128, value_scale: float = 1.0) -> None:
        super().__init__()
        self.observation_shape = tuple(observation_shape)
        self.num_actions = num_actions
        self.hidden, self.value_scale = hidden, value_scale
        n = int(np.prod(observation_shape))
        self.fc1 = nn.Linear(n, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.policy = nn.Linear(hidden, num_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """``(logits [B, A], values [B])``."""
        h = torch.relu(self.fc2(torch.relu(self.fc1(x.flatten(1)))))
        return self.policy(h), torch.tanh(self.value(h)[:, 0]) * self.value_scale

    def numpy_arrays(self) -> dict[str, np.ndarray]:
        """The weights in ``NumpyNet``'s layout ([in, out] matrices)."""
        out: dict[str, np.ndarray] = {}
        for name in ("fc1", "fc2", "policy", "value"):
            lin = getattr(self, name)
            out[f"{name}.w"] = lin.weight.detach().numpy().T.copy()
            out[f"{name}.b"] = lin.bias.detach().numpy().copy()
        return out

    def load_numpy_arrays(self, arrays: Mapping[str, np.ndarray]) -> None:
        """The weights from ``numpy_arrays``' layout (an exported network's arrays), in place."""
        with torch.no_grad():
            for name in ("fc1", "fc2", "policy", "value"):
                lin = getattr(self, name)
                lin.weight.copy_(torch.from_numpy(np.ascontiguousarray(arrays[f"{name}.w"].T)))
                lin.bias.copy_(torch.from_numpy(np.asarray(arrays[f"{name}.b"])))

    def describe(self) -> dict[str, Any]:
        """Architecture fields for the export's ``meta``."""
        return {"kind": "mlp", "hidden": self.hidden}


def make_network(observation_shape: Tuple[int, ...], num_actions: int, value_scale: float = 1.0, channels: int = 32, blocks: int = 2, hidden: int = 128) -> Union[ResNet, MLP]:
    """``ResNet`` for plane observations ``[C, H, W]``, ``MLP`` for flat ones."""
    if len(observation_shape) == 3:
        return ResNet(observation_shape, num_actions, channels=channels, blocks=blocks, value_scale=value_scale)
    return MLP(observation_shape, num_actions, hidden=hidden, value_scale=value_scale)


def export_npz(
    net: Union[ResNet, MLP],
    path: Union[str, "os.PathLike[str]"],
    game: str,
    options: Mapping[str, Any],
    extra: Mapping[str, Any] | None = None,
    search: Mapping[str, Any] | None = None,
) -> None:
    """Writes ``net`` as numpy arrays plus a JSON ``meta`` entry (``NumpyNet`` reads it).

    ``extra`` goes into ``meta["training"]`` (command, minutes, games: the model card's facts);
    ``search`` into ``meta["search"]``: ``MCTS`` options the network was trained to be searched
    with (``evaluate_chance``), which ``Baseline`` uses by default.
    """
    meta = {
        "format": FORMAT,
        "game": game,
        "options": dict(options),
        "observation_shape": list(net.observation_shape),
        "num_actions": net.num_actions,
        "value_scale": net.value_scale,
        **net.describe(),
        "training": dict(extra or {}),
    }
    if search:
        meta["search"] = dict(search)
    arrays = net.numpy_arrays()
    tmp = f"{os.fspath(path)}.tmp.npz"
    np.savez_compressed(tmp, meta=np.array(json.dumps(meta)), **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)
