"""Backgammon options ``reward`` (points, match, equity) and ``rules``
(standard, the seed's reglamento, and the reglamento's readings ``bear_off``,
``open_point``, ``enter_own_point``, ``bar_backgammon``) from Python: option
errors, the equity rewards recomputed from ``ludoteca.met``, and position
strings with the options."""

import base64

import numpy as np
import pytest

import ludoteca
from ludoteca.errors import OptionError
from ludoteca.met import kazaross_xg2


def test_defaults_are_the_standard_rules_paying_points() -> None:
    game = ludoteca.Game("backgammon")
    assert game.options["reward"] == "points" and game.options["rules"] == "standard"
    assert game.version == 2


def test_bad_reward_and_rules_values_are_option_errors() -> None:
    with pytest.raises(OptionError, match="reward"):
        ludoteca.Game("backgammon", reward="mwc")
    with pytest.raises(OptionError, match="rules"):
        ludoteca.Game("backgammon", rules="house")
    with pytest.raises(OptionError, match="money game"):
        ludoteca.Game("backgammon", cube=True, match_length=0, reward="equity")
    with pytest.raises(OptionError, match="money game"):
        ludoteca.Game("backgammon", cube=True, match_length=0, reward="match")
    with pytest.raises(OptionError, match="up to 25 points"):
        ludoteca.Game("backgammon", match_length=30, reward="equity")


def _play_out(state: ludoteca.State, rng: np.random.Generator) -> None:
    while not state.is_terminal():
        if state.current_player == -1:
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("cube", [False, True])
def test_equity_reward_is_the_change_in_match_winning_chance(cube: bool) -> None:
    met = kazaross_xg2()
    n = 5
    game = ludoteca.Game("backgammon", match_length=n, cube=cube, reward="equity", chance="explicit")
    rng = np.random.default_rng(5)
    seen_crawford = 0
    for seed in range(60):
        # Start from the "no game started" position at a random score of the match.
        score = [int(x) for x in rng.integers(0, n, size=2)]
        crawford = cube and (n - 1 in score) and bool(rng.integers(2)) and score != [n - 1, n - 1]
        start = ludoteca.Game("backgammon", match_length=n, cube=cube, chance="explicit").new_state(seed)
        text = start.to_string()
        # Rewrite the Match ID score and Crawford bit through gnubg's own layout (bits 36-50, 51-65, 7).
        pid, mid = text.split(":")
        raw = int.from_bytes(base64.b64decode(mid + "=" * (-len(mid) % 4)), "little")
        raw |= score[0] << 36 | score[1] << 51 | int(crawford) << 7
        mid = base64.b64encode(raw.to_bytes(9, "little")).decode()
        state = game.state_from_string(f"{pid}:{mid}")
        seen_crawford += crawford
        _play_out(state, np.random.default_rng(seed))
        info = state.info()
        after = [info["score_p0"], info["score_p1"]]
        winner, points = info["last_game_winner"], info["last_game_points"]
        assert after[winner] - points == score[winner] and after[1 - winner] == score[1 - winner]
        # Post-Crawford: a player was at n-1 before this game and it was not
        # the Crawford game (the cube only); the next game is the Crawford
        # game when a player first reaches n-1.
        post_before = cube and not crawford and n - 1 in score
        next_crawford = cube and not crawford and not post_before and n - 1 in after
        post_after = cube and n - 1 in after and not next_crawford

        def chance(sc: list[int], post: bool) -> float:
            return met.equity(n - sc[0], n - sc[1], post_crawford=post)

        gain = chance(after, post_after) - chance(score, post_before)
        assert state.returns().tolist() == pytest.approx([gain, -gain], abs=1e-6)
        # The finished game's string reads back to the same rewards.
        back = game.state_from_string(state.to_string())
        assert back.is_terminal() and back.returns().tolist() == state.returns().tolist()
    assert not cube or seen_crawford > 0


def test_equity_env_episode_is_one_game() -> None:
    env = ludoteca.Env("backgammon", seed=3, match_length=7, cube=True, reward="equity")
    env.reset()
    total = np.zeros(2)
    while True:
        mask = env.legal_action_mask()
        obs, rewards, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        total += rewards
        if terminated or truncated:
            break
    # One game: the first legal action never doubles, so the cube stays at 1.
    assert terminated and max(info["score_p0"], info["score_p1"]) in (1, 2, 3)
    assert 0 < abs(total[0]) < 0.5 and total[0] == -total[1]


def test_match_reward_pays_one_for_a_single_game_gammon() -> None:
    game = ludoteca.Game("backgammon", reward="match", chance="explicit")
    for seed in range(30):
        s = game.new_state(seed)
        _play_out(s, np.random.default_rng(seed))
        assert sorted(s.returns().tolist()) == [-1.0, 1.0]


def test_reglamento_strings_and_options_round_trip() -> None:
    for options in ({}, {"cube": True, "match_length": 5}):
        for chance in ("sampled", "explicit"):
            game = ludoteca.Game("backgammon", rules="reglamento", chance=chance, **options)
            assert game.options["rules"] == "reglamento"
            rng = np.random.default_rng(1)
            for seed in range(20):
                s = game.new_state(seed)
                while not s.is_terminal():
                    back = game.state_from_string(s.to_string())
                    assert back.to_string() == s.to_string()
                    assert back.legal_actions().tolist() == s.legal_actions().tolist()
                    if s.current_player == -1:
                        actions, probs = zip(*s.chance_outcomes())
                        s.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
                    else:
                        s.apply_action(int(rng.choice(s.legal_actions())))


def test_reglamento_opening_then_the_starter_rolls_again() -> None:
    game = ludoteca.Game("backgammon", rules="reglamento", chance="explicit")
    s = game.new_state()
    s.apply_action(s.legal_actions()[0])  # opening P0 1 P1 2: player 1 starts
    assert s.current_player == -1 and len(s.chance_outcomes()) == 21
    s.apply_action(35)  # roll 6-6: (6 - 1) * 6 + (6 - 1)
    assert s.current_player == 1 and s.info()["dice_left"] == 4


def test_match_files_refuse_reglamento_games() -> None:
    from ludoteca.errors import RecordError
    from ludoteca.records import dumps_mat

    start = ludoteca.Game("backgammon", rules="reglamento", cube=True, match_length=3, chance="explicit").new_state()
    with pytest.raises(RecordError, match="reglamento"):
        dumps_mat(start, [])


def test_beavers_option_errors_and_a_beaver_by_notation() -> None:
    with pytest.raises(OptionError, match="money games only"):
        ludoteca.Game("backgammon", cube=True, match_length=5, beavers=True)
    with pytest.raises(OptionError, match="money games only"):
        ludoteca.Game("backgammon", match_length=1, beavers=True)
    game = ludoteca.Game("backgammon", cube=True, match_length=0, beavers=True, chance="explicit")
    assert game.num_actions == 155
    # gnubg: money game, player 1 owns cube 2 and redoubles; player 0 decides.
    s = game.state_from_string("4HPwAyCwZ/ABMA:UREAAAAAAAAA")
    assert s.legal_moves() == ["take", "drop", "beaver"]
    s.play("beaver")
    info = s.info()
    assert (info["cube_value"], info["cube_owner"], s.current_player) == (8, 0, -1)
    assert game.state_from_string(s.to_string()).to_string() == s.to_string()


def test_match_files_refuse_beavers() -> None:
    from ludoteca.errors import RecordError
    from ludoteca.records import dumps_mat

    game = ludoteca.Game("backgammon", cube=True, match_length=0, beavers=True, chance="explicit")
    start = game.state_from_string("4HPwAyCwZ/ABMA:UQkAAAAAAAAA")  # player 1 to roll, may redouble
    with pytest.raises(RecordError, match="beaver"):
        dumps_mat(start, ["double", "beaver"])


READINGS = {"bear_off": ("at_least", "one_point"), "open_point": ("next_turn", "avoid_closing"), "enter_own_point": (True, False), "bar_backgammon": (True, False)}


def test_reglamento_readings_default_to_the_natural_ones_and_are_listed() -> None:
    game = ludoteca.Game("backgammon", rules="reglamento")
    assert {k: game.options[k] for k in READINGS} == {k: v[0] for k, v in READINGS.items()}
    listed = {o["name"]: o for o in ludoteca.game_info("backgammon")["options"]}
    for name, values in READINGS.items():
        assert listed[name]["default"] == values[0] and "reglamento" in listed[name]["doc"]
        other = ludoteca.Game("backgammon", rules="reglamento", **{name: values[1]})
        assert other.options[name] == values[1]


@pytest.mark.parametrize("name", sorted(READINGS))
def test_reglamento_readings_are_refused_with_the_standard_rules(name: str) -> None:
    with pytest.raises(OptionError, match=f"{name}.*needs rules='reglamento'") as err:
        ludoteca.Game("backgammon", **{name: READINGS[name][1]})
    for value in READINGS[name]:
        assert repr(value) in str(err.value) or str(value) in str(err.value)
    # The defaults are accepted (and have no effect) with the standard rules.
    assert ludoteca.Game("backgammon", **{name: READINGS[name][0]}).options["rules"] == "standard"
    if isinstance(READINGS[name][0], str):
        with pytest.raises(OptionError, match=name):
            ludoteca.Game("backgammon", rules="reglamento", **{name: "exact"})


def test_bear_off_reading_changes_the_legal_moves() -> None:
    # Bear-off against bear-off, player 0 to play 4-2 (tests/data/perft/backgammon.reglamento.txt).
    text = "mRsAAOZsAAAAAA:MAEqAAAAAAAA"
    counts = {}
    for reading in ("at_least", "one_point"):
        s = ludoteca.Game("backgammon", rules="reglamento", bear_off=reading).state_from_string(text)
        counts[reading] = len(s.legal_moves())
    assert counts == {"at_least": 16, "one_point": 13}
    assert len(ludoteca.Game("backgammon").state_from_string(text).legal_moves()) < 16


def test_open_point_next_turn_marks_a_mid_turn_string() -> None:
    # Player 1 on the bar against player 0's closed board; 6-5: after 13/7 only 6/1 is legal.
    text = "g3PwANC2LYMBAA:MAE3AAAAAAAA"
    for reading, mark in (("next_turn", True), ("avoid_closing", False)):
        game = ludoteca.Game("backgammon", rules="reglamento", open_point=reading)
        s = game.state_from_string(text)
        assert sorted(s.legal_moves()) == ["13/7 6/1", "8/2 6/1"]
        s.apply_action(13 * 6 + 6 - 1)  # 13/7: source * 6 + die - 1
        assert s.to_string().endswith("+open") == mark
        back = game.state_from_string(s.to_string())
        assert back.legal_moves() == s.legal_moves() == ["6/1"]
    with pytest.raises(ludoteca.errors.PositionError, match="open_point='next_turn'"):
        ludoteca.Game("backgammon").state_from_string(text + ":6+open")


def test_arena_and_search_agents_play_the_chosen_readings() -> None:
    from ludoteca.arena import play_game

    options = {"rules": "reglamento", "bear_off": "one_point", "enter_own_point": False, "bar_backgammon": False}
    record = play_game("backgammon", ["expectimax:plies=0", "random"], seed=3, options=options)
    assert record["termination"] == "rules" and record["result"] in ("1-0", "0-1")
    assert all(record["options"][k] == v for k, v in options.items())
    # The record replays under the same options.
    game = ludoteca.Game("backgammon", **record["options"])
    assert game.state_from_string(record["final"]).is_terminal()
