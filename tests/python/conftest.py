import pytest

import ludoteca

ALL_GAMES = ludoteca.games()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_id" in metafunc.fixturenames:
        metafunc.parametrize("game_id", ALL_GAMES)
