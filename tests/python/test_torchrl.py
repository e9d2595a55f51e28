"""ludoteca.torchrl: the batched TorchRL env passes TorchRL's spec check for
every game, its masked rollouts only play legal actions and replay on single
game states, and resets follow TorchRL's partial-reset protocol."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torchrl")

import torch  # noqa: E402
from torchrl.envs import TransformedEnv  # noqa: E402
from torchrl.envs.transforms import ActionMask  # noqa: E402
from torchrl.envs.utils import check_env_specs  # noqa: E402

import ludoteca  # noqa: E402
import ludoteca.torchrl  # noqa: E402
from ludoteca.errors import LudotecaError  # noqa: E402


@pytest.mark.parametrize("opponent", ["random", "self"])
def test_check_env_specs_passes(game_id: str, opponent: str) -> None:
    env = ludoteca.torchrl.make(game_id, 3, opponent=opponent, seed=2, max_turns=20)
    assert env.batch_size == torch.Size([3])
    check_env_specs(env, seed=0)
    check_env_specs(TransformedEnv(env, ActionMask()), seed=1)


def test_one_hot_actions_pass_the_spec_check() -> None:
    env = ludoteca.torchrl.LudotecaTorchRLEnv("tablut", 2, categorical_action_encoding=False)
    check_env_specs(env)
    assert env.action_spec.shape == (2, ludoteca.Game("tablut").num_actions)


def test_masked_rollout_plays_legal_actions_and_pays_the_mover(game_id: str) -> None:
    """Self-play: every sampled action is legal in its observation's mask, and
    every step replays on a copy of that env's state: same next state while
    the game runs, the state's return for the mover when it ends."""
    n = 3
    base = ludoteca.torchrl.make(game_id, n, opponent="self", seed=4, max_turns=25)
    env = TransformedEnv(base, ActionMask())
    batch = base._venv._venv
    td = env.reset()
    ended = 0
    for _ in range(60):
        before = [batch.state(i) for i in range(n)]
        td = env.rand_action(td)
        actions = td["action"].numpy()
        assert td["action_mask"][torch.arange(n), td["action"]].all()
        td = env.step(td)
        nxt = td["next"]
        for i in range(n):
            mover = before[i].current_player
            assert int(td["agent_player"][i]) == mover
            before[i].apply_action(int(actions[i]))
            if nxt["terminated"][i]:
                assert before[i].is_terminal()
                assert float(nxt["reward"][i]) == before[i].returns()[mover]
                assert not nxt["action_mask"][i].any()
            elif not nxt["done"][i] and not before[i].is_chance_node():
                assert before[i] == batch.state(i)
        ended += int(nxt["done"].sum())
        td = env.step_mdp(td)
        if td["done"].any():
            td = env.reset(td.set("_reset", td["done"].clone()))
    assert ended >= n  # max_turns=25 ends every game within the 60 steps


def test_reset_after_an_ended_game_starts_the_batch_s_next_game() -> None:
    env = ludoteca.torchrl.make("checkers", 2, opponent="self", seed=0, max_turns=2)
    td = env.reset()
    start = td["observation"].clone()
    td = env.rand_step(env.reset())
    td = env.step_mdp(env.rand_step(td))
    assert td["done"].all()  # max_turns=2: both games are truncated
    td = env.reset(td.set("_reset", td["done"].clone()))
    assert not td["done"].any()
    # Checkers always starts from the same position: the new games look like the first ones.
    assert torch.equal(td["observation"], start)
    assert td["action_mask"].any(-1).all()


def test_partial_reset_of_running_games_is_refused() -> None:
    env = ludoteca.torchrl.make("tablut", 3)
    env.reset()
    td = env.reset()
    with pytest.raises(LudotecaError, match="only the envs whose game just ended"):
        env.reset(td.set("_reset", torch.tensor([[True], [False], [False]])))


def test_set_seed_repeats_a_rollout() -> None:
    env = TransformedEnv(ludoteca.torchrl.make("backgammon", 4, opponent="random"), ActionMask())

    def run() -> np.ndarray:
        env.set_seed(7)
        torch.manual_seed(0)
        return env.rollout(30, break_when_any_done=False)["next", "observation"].numpy()

    assert np.array_equal(run(), run())


def test_collector_gathers_frames() -> None:
    from torchrl import collectors

    # torchrl 0.14 renamed SyncDataCollector to Collector.
    collector_cls = getattr(collectors, "Collector", None) or getattr(collectors, "SyncDataCollector")

    env = TransformedEnv(ludoteca.torchrl.make("damas", 8, opponent="self", max_turns=50), ActionMask())
    collector = collector_cls(env, policy=None, frames_per_batch=160, total_frames=320)
    batches = list(collector)
    assert len(batches) == 2 and batches[0].numel() == 160
    collector.shutdown()
