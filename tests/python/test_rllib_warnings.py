"""ludoteca.rllib uses RLlib's current API: importing it, building its
masking module, sampling with both env runners and taking a PPO learner
step log no ``DeprecationWarning`` (RLlib logs those through ``logging``,
once per process, so each check runs in a fresh interpreter)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")

import ludoteca  # noqa: E402
import ludoteca.rllib  # noqa: E402

ROUND = """
import torch
import ludoteca.rllib
torch.manual_seed(0)
spec = ludoteca.rllib.module_spec("checkers", hidden=(8,))
module = spec.build()
assert ludoteca.rllib.LudotecaLeanEnvRunner._samples_legal_only(module)
for lean in (False, True):
    config = ludoteca.rllib.ppo_config("checkers", 0, 4, hidden=(8,), env_config={"max_turns": 10}, lean=lean)
    cls = ludoteca.rllib.LudotecaLeanEnvRunner if lean else ludoteca.rllib.LudotecaEnvRunner
    episodes = cls(config=config).sample(num_timesteps=40)
    assert sum(e.env_steps() for e in episodes) >= 40
print("sampled")
"""


def _run(code: str) -> str:
    env_path = str(Path(ludoteca.__file__).parents[1])
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": env_path})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout + proc.stderr


def test_import_build_and_sample_log_no_deprecation() -> None:
    out = _run(ROUND)
    assert "sampled" in out
    assert "DeprecationWarning" not in out and "has been deprecated" not in out, out[-3000:]


def test_masking_module_refuses_an_observation_space_without_its_mask() -> None:
    import gymnasium as gym
    import numpy as np

    from ludoteca.errors import OptionError

    box = gym.spaces.Box(0, 1, (4,), np.float32)
    with pytest.raises(OptionError, match="'observations' and 'action_mask'"):
        ludoteca.rllib.MaskingTorchRLModule(observation_space=box, action_space=gym.spaces.Discrete(3),
                                            model_config={"fcnet_hiddens": [4]})
    with pytest.raises(OptionError, match="'observations' and 'action_mask'"):
        ludoteca.rllib.MaskingTorchRLModule(observation_space=gym.spaces.Dict({"observations": box}),
                                            action_space=gym.spaces.Discrete(3), model_config={"fcnet_hiddens": [4]})


def test_masking_module_refuses_a_batch_without_its_mask() -> None:
    import torch
    from ray.rllib.core.columns import Columns

    from ludoteca.errors import OptionError

    module = ludoteca.rllib.module_spec("checkers", hidden=(8,)).build()
    n = module.observation_space["observations"].shape[0]
    with pytest.raises(OptionError, match="'observations' and 'action_mask', got \\['observations'\\]"):
        module.forward_inference({Columns.OBS: {"observations": torch.zeros(2, n)}})
