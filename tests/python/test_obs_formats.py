"""Observation formats (``obs_format``): every format holds the whole Markov state, and the packed
and compact observations unpack to exactly the full one (docs/model.md "Observation formats")."""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np
import pytest

import ludoteca
from ludoteca.errors import OptionError

FORMATS = ["full", "compact", "packed"]

# Every game with its defaults, plus the options that change the observation or the states reached.
CONFIGS: List[Dict[str, Any]] = [{"game_id": g} for g in ludoteca.games()] + [
    {"game_id": "backgammon", "chance": "explicit"},
    {"game_id": "backgammon", "cube": True, "match_length": 0},
    {"game_id": "backgammon", "cube": True, "match_length": 5, "chance": "explicit"},
    {"game_id": "backgammon", "cube": True, "jacoby": True, "match_length": 0, "chance": "explicit"},
    {"game_id": "backgammon", "match_length": 3},
    {"game_id": "kharbaga", "removal": "deferred"},
    {"game_id": "zamma", "removal": "deferred"},
    {"game_id": "checkers", "resign": True, "draw_offers": True},
]


def _name(c: Dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in c.items())


def _play(config: Dict[str, Any], steps: int, num_envs: int = 16) -> Dict[str, Any]:
    """The same random games in each format (same seed, same actions): observations per step and the
    position strings of the states they observe."""
    options = {k: v for k, v in config.items() if k != "game_id"}
    gid = config["game_id"]
    envs = {f: ludoteca.VecEnv(gid, num_envs, seed=3, num_threads=1, obs_format=f, **options) for f in FORMATS}
    obs = {f: [envs[f].reset()[0]] for f in FORMATS}
    finals: Dict[str, List[Any]] = {f: [] for f in FORMATS}
    positions = [[envs["full"].state(i).to_string() for i in range(num_envs)]]
    rng = np.random.default_rng(0)
    info = envs["full"].reset()[1]
    mask = info["legal_action_mask"]
    players = [info["current_player"]]
    for f in FORMATS[1:]:
        envs[f].reset()
    for _ in range(steps):
        actions = ludoteca.masked_uniform(mask, rng)
        for f in FORMATS:
            o, _, term, trunc, info = envs[f].step(actions)
            obs[f].append(o)
            if "final_observation" in info:
                finals[f].append(info["final_observation"][info["_final_observation"]])
        mask = info["legal_action_mask"]
        players.append(info["current_player"])
        positions.append([envs["full"].state(i).to_string() for i in range(num_envs)])
    game = {f: envs[f].game for f in FORMATS}
    return {"obs": {f: np.concatenate(obs[f]) for f in FORMATS}, "finals": finals, "positions": sum(positions, []),
            "players": players, "game": game}


@pytest.mark.parametrize("config", CONFIGS, ids=_name)
def test_every_format_unpacks_to_the_full_observation(config: Dict[str, Any]) -> None:
    run = _play(config, steps=120)
    full, compact, packed = (run["obs"][f] for f in FORMATS)
    game = run["game"]["packed"]
    assert packed.dtype == np.uint8 and compact.dtype == np.float32
    assert packed.shape[1:] == game.observation_shape
    np.testing.assert_array_equal(ludoteca.unpack_observation(packed, game), full)
    np.testing.assert_array_equal(ludoteca.unpack_observation(packed, game, format="compact"), compact)
    # The compact planes are the full planes they name; the dropped ones never change.
    layout = game.observation_layout()
    kept = [p for p, _, _ in layout["planes"]]
    np.testing.assert_array_equal(full[:, kept], compact)
    dropped = [p for p in range(layout["full_shape"][0]) if p not in kept]
    np.testing.assert_array_equal(full[:, dropped], np.broadcast_to(layout["constant"][dropped], full[:, dropped].shape))
    # Final observations are in the format too.
    for f_full, f_packed in zip(run["finals"]["full"], run["finals"]["packed"]):
        assert f_packed.dtype == np.uint8
        np.testing.assert_array_equal(ludoteca.unpack_observation(f_packed, game), f_full)


@pytest.mark.parametrize("config", CONFIGS, ids=_name)
def test_states_with_different_position_strings_never_share_an_observation(config: Dict[str, Any]) -> None:
    """Observations are from the mover's point of view (docs/model.md): a position and its mirror
    image with the other player to move look the same to the mover, and the env reports who moves
    (``current_player``), so the pair (current player, observation) is compared. The session's
    offer suffix (``|offer``, ``|declined``) is not the game's: the mask shows it, no observation
    does (docs/model.md "Observation formats"). At a chance node of backgammon (``current_player``
    -1) the observation is the roller's and no player is reported: there the two colours' mirror
    images (the same gnubg Position ID, which is relative to the roller) may share one."""
    run = _play(config, steps=150)
    positions = [p.split("|")[0] for p in run["positions"]]
    players = np.concatenate(run["players"])
    assert len(set(positions)) > 100
    for f in FORMATS:
        seen: Dict[bytes, str] = {}
        for o, who, p in zip(run["obs"][f], players, positions):
            other = seen.setdefault(bytes([who + 2]) + o.tobytes(), p)
            mirror = who == -1 and config["game_id"] == "backgammon" and other.split(":")[0] == p.split(":")[0]
            assert other == p or mirror, f"{f}: {other!r} and {p!r} share an observation"


def test_packed_observations_come_in_bytes_and_refuse_float32() -> None:
    venv = ludoteca.VecEnv("checkers", 4, obs_format="packed")
    assert venv.obs_dtype == "uint8" and venv.observation_shape == (56,)
    assert venv.game.observation_dtype == "uint8" and venv.game.observation_high == 255.0
    with pytest.raises(OptionError, match="packed"):
        ludoteca.VecEnv("checkers", 4, obs_format="packed", obs_dtype="float32")
    with pytest.raises(OptionError, match="obs_format"):
        ludoteca.Game("checkers", obs_format="bits")
    env = ludoteca.Env("checkers", obs_format="compact")
    obs, _ = env.reset()
    assert obs.shape == env.observation_shape == (7, 8, 8)
    # uint8 bytes of the compact planes (their values truncated) are allowed.
    venv = ludoteca.VecEnv("checkers", 4, obs_format="compact", obs_dtype="uint8")
    assert venv.reset()[0].dtype == np.uint8


def test_send_recv_and_rollout_write_the_format() -> None:
    outs = []
    for fmt in ["packed", "full"]:
        venv = ludoteca.VecEnv("backgammon", 8, seed=1, obs_format=fmt, copy=False)
        venv.rollout(50)
        venv.send(venv.sample_actions())
        outs.append((venv, venv.recv()[0].copy()))
    (packed_env, packed), (_, full) = outs
    assert packed.dtype == np.uint8 and packed.shape == (8, *packed_env.observation_shape)
    np.testing.assert_array_equal(ludoteca.unpack_observation(packed, packed_env), full)


def test_unpack_refuses_bad_input() -> None:
    game = ludoteca.Game("checkers", obs_format="packed")
    with pytest.raises(OptionError, match="uint8"):
        ludoteca.unpack_observation(np.zeros((2, 55), np.uint8), game)
    with pytest.raises(OptionError, match="uint8"):
        ludoteca.unpack_observation(np.zeros((2, 56), np.float32), game)
    with pytest.raises(OptionError, match="format"):
        ludoteca.unpack_observation(np.zeros((2, 56), np.uint8), game, format="packed")
    with pytest.raises(OptionError, match="Game"):
        ludoteca.unpack_observation(np.zeros((2, 56), np.uint8), "checkers")


@pytest.mark.parametrize("fmt", FORMATS)
def test_adapter_spaces_follow_the_format(fmt: str) -> None:
    pytest.importorskip("gymnasium")
    from ludoteca.gym import LudotecaEnv, LudotecaVectorEnv

    env = LudotecaEnv("backgammon", obs_format=fmt)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs), (obs.dtype, obs.shape)
    for _ in range(30):
        obs, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert env.observation_space.contains(obs)
        if term or trunc:
            obs, info = env.reset()
    venv = LudotecaVectorEnv("checkers", 4, obs_format=fmt)
    obs, info = venv.reset(seed=0)
    assert venv.observation_space.contains(obs)
    for _ in range(60):
        obs, _, _, _, info = venv.step(ludoteca.masked_uniform(info["action_mask"], 0))
        assert venv.observation_space.contains(obs)
        if "final_obs" in info:
            assert info["final_obs"].dtype == venv.single_observation_space.dtype


@pytest.mark.parametrize("fmt", FORMATS)
def test_pettingzoo_torchrl_and_rllib_spaces_follow_the_format(fmt: str) -> None:
    pytest.importorskip("pettingzoo")
    from ludoteca.pettingzoo import LudotecaAECEnv

    aec = LudotecaAECEnv("checkers", obs_format=fmt)
    aec.reset(seed=0)
    agent = aec.agent_selection
    assert aec.observation_space(agent).contains(aec.observe(agent))
    torchrl = pytest.importorskip("ludoteca.torchrl")
    env = torchrl.LudotecaTorchRLEnv("checkers", 4, obs_format=fmt)
    td = env.reset()
    assert env.observation_spec["observation"].is_in(td["observation"])
    rllib = pytest.importorskip("ludoteca.rllib")
    venv = rllib.LudotecaVectorMultiAgentEnv(2, {"game": "checkers", "obs_format": fmt})
    obs, _ = venv.reset(seed=0)
    for o in obs:
        for agent, x in o.items():
            assert venv.single_observation_spaces[agent].contains(x)
