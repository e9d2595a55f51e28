"""The shipped match equity table (Kazaross-XG2) is gnubg's: every entry
of ``gnubg.met()`` up to 25 away agrees with ours to gnubg's float
precision (625 pre-Crawford entries, 24 post-Crawford ones), but one: the
post-Crawford entry for 25 away, which gnubg does not take from the file
(it has 0.0011812 where the file says 0.00123)."""

import pytest

from ludoteca.errors import LudotecaValueError
from ludoteca.met import kazaross_xg2


def test_kazaross_xg2_agrees_with_gnubgs_table_entry_by_entry() -> None:
    gnubg = pytest.importorskip("gnubg")
    pre, post0, post1 = gnubg.met()
    met = kazaross_xg2()
    assert met.length == 25 and len(met.pre) == 25 and all(len(r) == 25 for r in met.pre) and len(met.post) == 25
    for i in range(25):
        for j in range(25):
            assert met.pre[i][j] == pytest.approx(pre[i][j], abs=1e-6), (i, j)
        assert post0[i] == pytest.approx(post1[i], abs=1e-9)
        if i < 24:
            assert met.post[i] == pytest.approx(post0[i], abs=1e-6), i
    assert met.post[24] == 0.00123 and post0[24] == pytest.approx(0.00118125, abs=1e-7)


def test_equity_reads_the_table_by_away_scores_and_the_crawford_state() -> None:
    met = kazaross_xg2()
    assert met.equity(1, 1) == 0.5
    assert met.equity(1, 2) == met.pre[0][1]  # the Crawford game: the leader 1 away
    assert met.equity(2, 1, post_crawford=True) == met.post[1]  # the free drop
    assert met.equity(1, 2, post_crawford=True) == pytest.approx(1 - met.post[1])
    assert met.equity(0, 3) == 1.0 and met.equity(3, 0) == 0.0
    for i in range(1, 26):
        assert met.equity(i, i) == pytest.approx(0.5, abs=1e-9)


def test_equity_beyond_the_table_is_refused_clearly() -> None:
    with pytest.raises(LudotecaValueError, match="up to 25 away"):
        kazaross_xg2().equity(26, 3)
