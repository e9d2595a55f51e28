"""The doubling cube option of backgammon from Python: options, spaces, the
cube decisions by notation, and the board decoded from a doubled position."""

import pytest

import ludoteca
from ludoteca.errors import OptionError


def test_cube_option_adds_four_actions_and_nine_observation_entries() -> None:
    plain = ludoteca.Game("backgammon")
    cube = ludoteca.Game("backgammon", cube=True, match_length=5)
    assert (plain.num_actions, tuple(plain.observation_shape)) == (150, (256,))
    assert (cube.num_actions, tuple(cube.observation_shape)) == (154, (265,))


def test_money_play_needs_the_cube_and_jacoby_needs_money_play() -> None:
    with pytest.raises(OptionError, match="needs the doubling cube"):
        ludoteca.Game("backgammon", match_length=0)
    with pytest.raises(OptionError, match="money games only"):
        ludoteca.Game("backgammon", cube=True, match_length=5, jacoby=True)
    ludoteca.Game("backgammon", cube=True, match_length=0, jacoby=True)


def test_double_take_and_drop_by_notation() -> None:
    game = ludoteca.Game("backgammon", cube=True, match_length=0, chance="explicit")
    # gnubg: money game, player 1 owns cube 2 and redoubles; player 0 decides.
    s = game.state_from_string("4HPwAyCwZ/ABMA:UREAAAAAAAAA")
    assert s.current_player == 0
    assert s.legal_moves() == ["take", "drop"]
    dropped = s.clone()
    dropped.play("pass")  # gnubg's word for a drop
    assert dropped.is_terminal() and list(dropped.returns()) == [-2.0, 2.0]
    s.play("take")
    assert s.info()["cube_value"] == 4 and s.info()["cube_owner"] == 0
    with pytest.raises(ValueError, match="chance"):
        s.play("double")


def test_render_decodes_a_doubled_position_from_the_doubler_side() -> None:
    from ludoteca.render.backgammon import decode

    doubled = decode("4HPwAyCwZ/ABMA:UREAAAAAAAAA")
    rolled = decode("4HPwAyCwZ/ABMA:UQkAAAAAAAAA")  # the same, player 1 to roll without a double
    assert doubled.turn == 1
    assert doubled.points == rolled.points
