"""Tablero rule 18 ("El jugador puede rendirse o negociar tablas durante su
turno") on tablero itself: resign, offer, accept and decline."""

import numpy as np

import ludoteca


def _game(**options: bool) -> ludoteca.Game:
    return ludoteca.Game("tablero", **options)


def test_tablero_offer_actions_are_off_unless_enabled() -> None:
    s = _game().new_state(seed=0)
    n = s.game.num_actions
    assert [s.action_to_string(a) for a in range(n - 4, n)] == ["resign", "offer_draw", "accept_draw", "decline_draw"]
    assert not s.legal_action_mask()[n - 4 :].any()


def test_tablero_resign_loses_for_the_mover_rule_18() -> None:
    for seed in (0, 1, 2, 3):
        s = _game(resign=True).new_state(seed=seed)
        n = s.game.num_actions
        mover = s.current_player
        assert s.legal_action_mask()[n - 4] and not s.legal_action_mask()[n - 3]
        s.apply_action(n - 4)
        assert s.is_terminal()
        want = np.array([-1.0, 1.0]) if mover == 0 else np.array([1.0, -1.0])
        assert np.array_equal(s.returns(), want)


def test_tablero_draw_offer_accepted_ends_drawn_rule_18() -> None:
    s = _game(draw_offers=True).new_state(seed=0)
    n = s.game.num_actions
    mover = s.current_player
    s.apply_action(n - 3)
    # The opponent answers, and may only accept or decline.
    assert s.current_player == 1 - mover
    assert list(s.legal_actions()) == [n - 2, n - 1]
    s.apply_action(n - 2)
    assert s.is_terminal() and np.array_equal(s.returns(), [0.0, 0.0])


def test_tablero_declined_offer_returns_the_turn_without_a_second_offer_rule_18() -> None:
    s = _game(draw_offers=True).new_state(seed=0)
    n = s.game.num_actions
    mover = s.current_player
    s.apply_action(n - 3)
    s.apply_action(n - 1)
    assert s.current_player == mover and not s.is_terminal()
    mask = s.legal_action_mask()
    assert not mask[n - 3] and mask[: n - 4].any()
    s.play(s.legal_moves()[0])
    # The next player may offer in their own turn.
    assert s.current_player == 1 - mover and s.legal_action_mask()[n - 3]
