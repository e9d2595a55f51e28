"""ludoteca.arena: the rating fit against hand-computed and independently solved tables, the
intervals, and a smoke run of games, matches and tournaments with every kind of agent."""

import json
import math
import os

import numpy as np
import pytest

import ludoteca
from ludoteca.agents import AGENTS, FunctionAgent, RandomAgent
from ludoteca.arena import (
    PairCounts,
    RatingError,
    fit_ratings,
    format_record,
    make_openings,
    mean_interval,
    play_game,
    play_match,
    score_interval,
    tournament,
    wilson_interval,
)
from ludoteca.arena.ladder import replace_section, BEGIN, END
from ludoteca.cli import main as cli_main
from ludoteca.errors import OptionError

ELO = 400 / math.log(10)


# --- ratings -----------------------------------------------------------------------------------


def test_two_player_davidson_fit_is_the_closed_form():
    # Two players: the model is saturated, so the fit reproduces the observed frequencies:
    # e^(r_a - r_b) = W / L, nu = D / sqrt(W L), and Var(r_a - r_b) = 1/W + 1/L.
    w, d, lo = 30, 10, 20
    fit = fit_ratings([PairCounts("a", "b", w, d, lo)], anchor="b")
    r = fit["ratings"]["a"]
    assert r["elo"] == pytest.approx(ELO * math.log(w / lo), abs=1e-6)
    assert fit["draw_nu"] == pytest.approx(d / math.sqrt(w * lo), rel=1e-6)
    assert r["se"] == pytest.approx(ELO * math.sqrt(1 / w + 1 / lo), rel=1e-6)
    assert r["low"] == pytest.approx(r["elo"] - 1.959964 * r["se"], rel=1e-6)
    assert fit["ratings"]["b"] == {"elo": 0.0, "se": 0.0, "low": 0.0, "high": 0.0}


def test_two_player_fit_without_draws_is_plain_bradley_terry():
    fit = fit_ratings([PairCounts("x", "y", 76, 0, 24)], anchor="y")
    assert fit["draw_nu"] == 0.0
    assert fit["ratings"]["x"]["elo"] == pytest.approx(ELO * math.log(76 / 24), abs=1e-6)
    # 76 % expected score is about +200 Elo, as in the logistic Elo table.
    assert 195 < fit["ratings"]["x"]["elo"] < 205


TABLE3 = {("a", "b"): (12, 5, 3), ("b", "c"): (9, 6, 5), ("a", "c"): (14, 2, 4)}


def _loglik(r, nu):
    total = 0.0
    for (i, j), (w, d, lo) in TABLE3.items():
        a, b = math.exp(r[i]), math.exp(r[j])
        c = nu * math.sqrt(a * b)
        z = a + b + c
        total += w * math.log(a / z) + d * math.log(c / z) + lo * math.log(b / z)
    return total


def _coordinate_ascent():
    """An independent solver: golden-section search on one parameter at a time (no derivatives)."""
    x = {"a": 0.0, "b": 0.0, "nu": 0.0}  # c fixed at 0; nu as log

    def f(v):
        return _loglik({"a": v["a"], "b": v["b"], "c": 0.0}, math.exp(v["nu"]))

    g = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        for k in x:
            lo, hi = x[k] - 3, x[k] + 3
            for _ in range(50):
                m1, m2 = hi - g * (hi - lo), lo + g * (hi - lo)
                v1, v2 = dict(x, **{k: m1}), dict(x, **{k: m2})
                if f(v1) < f(v2):
                    lo = m1
                else:
                    hi = m2
            x[k] = (lo + hi) / 2
    return x


def test_three_player_fit_matches_derivative_free_maximisation():
    fit = fit_ratings([PairCounts(a, b, *wdl) for (a, b), wdl in TABLE3.items()], anchor="c")
    ref = _coordinate_ascent()
    assert fit["ratings"]["a"]["elo"] == pytest.approx(ELO * ref["a"], abs=1e-3)
    assert fit["ratings"]["b"]["elo"] == pytest.approx(ELO * ref["b"], abs=1e-3)
    assert fit["draw_nu"] == pytest.approx(math.exp(ref["nu"]), rel=1e-5)


def test_three_player_fit_gives_expected_scores_equal_to_actual_scores():
    # Davidson is an exponential family in the scores: at the maximum each player's expected score
    # equals its actual score and the expected draws equal the actual draws (Ordo's property).
    fit = fit_ratings([PairCounts(a, b, *wdl) for (a, b), wdl in TABLE3.items()], anchor="c")
    r = {n: v["elo"] / ELO for n, v in fit["ratings"].items()}
    nu = fit["draw_nu"]
    expected = {n: 0.0 for n in r}
    actual = {n: 0.0 for n in r}
    draws_expected = draws_actual = 0.0
    for (i, j), (w, d, lo) in TABLE3.items():
        a, b = math.exp(r[i]), math.exp(r[j])
        c = nu * math.sqrt(a * b)
        z, n = a + b + c, w + d + lo
        expected[i] += n * (a + c / 2) / z
        expected[j] += n * (b + c / 2) / z
        actual[i] += w + d / 2
        actual[j] += lo + d / 2
        draws_expected += n * c / z
        draws_actual += d
    for name in r:
        assert expected[name] == pytest.approx(actual[name], abs=1e-7)
    assert draws_expected == pytest.approx(draws_actual, abs=1e-7)


def test_three_player_standard_errors_match_a_finite_difference_hessian():
    fit = fit_ratings([PairCounts(a, b, *wdl) for (a, b), wdl in TABLE3.items()], anchor="c")
    theta = np.array([fit["ratings"]["a"]["elo"] / ELO, fit["ratings"]["b"]["elo"] / ELO, math.log(fit["draw_nu"])])

    def f(t):
        return _loglik({"a": t[0], "b": t[1], "c": 0.0}, math.exp(t[2]))

    h = 1e-4
    hess = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            e_i, e_j = np.eye(3)[i] * h, np.eye(3)[j] * h
            hess[i, j] = (f(theta + e_i + e_j) - f(theta + e_i - e_j) - f(theta - e_i + e_j) + f(theta - e_i - e_j)) / (4 * h * h)
    cov = np.linalg.inv(-hess)
    assert fit["ratings"]["a"]["se"] == pytest.approx(ELO * math.sqrt(cov[0, 0]), rel=1e-3)
    assert fit["ratings"]["b"]["se"] == pytest.approx(ELO * math.sqrt(cov[1, 1]), rel=1e-3)
    assert fit["covariance"]["a"]["b"] == pytest.approx(ELO**2 * cov[0, 1], rel=1e-3)


def test_perfect_score_has_no_finite_maximum_likelihood_rating_without_a_prior():
    with pytest.raises(RatingError, match="infinite"):
        fit_ratings([PairCounts("engine", "random", 40, 0, 0)], anchor="random")
    # Also when the winner is a group: a and b beat c in every game.
    with pytest.raises(RatingError, match="infinite"):
        fit_ratings([PairCounts("a", "b", 3, 1, 2), PairCounts("a", "c", 5, 0, 0), PairCounts("b", "c", 4, 0, 0)], anchor="c")
    fit = fit_ratings([PairCounts("engine", "random", 40, 0, 0)], anchor="random", prior=1.0)
    # prior 1 = half a virtual win and half a virtual loss: e^r = 40.5 / 0.5.
    assert fit["ratings"]["engine"]["elo"] == pytest.approx(ELO * math.log(40.5 / 0.5), abs=1e-6)


def test_players_not_connected_to_the_anchor_are_refused():
    with pytest.raises(RatingError, match="not connected|identifiable"):
        fit_ratings([PairCounts("a", "b", 3, 1, 2), PairCounts("c", "d", 2, 1, 3)], anchor="a")


def test_wilson_interval_hand_values():
    # 0 successes in 10: upper end z^2 / (n + z^2) = 3.8415 / 13.8415.
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(3.841459 / 13.841459, rel=1e-6)
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)  # the published 95 % Wilson interval of 5/10


def test_score_and_points_intervals():
    s = score_interval(6, 2, 2)  # scores 1 x6, 0.5 x2, 0 x2: mean 0.7
    assert s["mean"] == pytest.approx(0.7)
    values = [1.0] * 6 + [0.5] * 2 + [0.0] * 2
    half = 1.959964 * np.std(values, ddof=1) / math.sqrt(10)
    assert s["high"] == pytest.approx(0.7 + half, rel=1e-5)
    assert s["elo"] == pytest.approx(-400 * math.log10(1 / 0.7 - 1))
    # Every game lost: the normal interval is a point; the Wilson interval still has width.
    assert score_interval(0, 0, 20)["high"] > 0.1
    m = mean_interval([1, 2, 3, -3, 1, 1])
    assert m["mean"] == pytest.approx(5 / 6) and m["se"] == pytest.approx(np.std([1, 2, 3, -3, 1, 1], ddof=1) / math.sqrt(6))


# --- games and tournaments ------------------------------------------------------------------------


def first_move(state):
    """A deterministic agent as a plain callable: the first complete legal move."""
    return state.legal_moves()[0]


def first_action(state):
    """An agent answering single decisions (action indices), hop by hop."""
    return int(state.legal_actions()[0])


# Every kind of agent: a spec, a callable, an agent object, an action-index agent, and the
# built-in search agents as soon as they are registered (skipped until then).
SEARCH_SPECS = ["greedy", "alphabeta:depth=1", "mcts:simulations=8", "expectimax:plies=1"]


def smoke_agents(game_id):
    agents = ["random", first_move, FunctionAgent(first_action, name="first_action")]
    for spec in SEARCH_SPECS:
        if spec.split(":")[0] in AGENTS:
            try:
                ludoteca.agents.make_agent(spec, game_id=game_id)
            except OptionError:
                continue
            agents.append(spec)
    return agents


@pytest.mark.parametrize("game", ["russian", "backgammon", "tablut"])
def test_tournament_smoke_every_agent_kind(game, tmp_path):
    agents = smoke_agents(game)
    s = tournament(game, agents, games=2, openings=2, seed=5, out=tmp_path, options={"max_turns": 30})
    n = len(agents)
    assert len(s["records"]) == 2 * n * (n - 1) // 2
    assert len(s["pairs"]) == n * (n - 1) // 2
    assert s["agents"][:3] == ["random", "first_move", "first_action"]
    assert "ratings" in s["ratings"] and s["ratings"]["ratings"]["random"]["elo"] == 0.0
    assert not s["errors"]
    for p in s["pairs"]:
        assert p["wins"] + p["draws"] + p["losses"] == 2
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["agents"] == s["agents"] and "records" not in summary
    assert (tmp_path / "games.pdn").read_text().count("[Result ") == len(s["records"])
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == len(s["records"])
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert (tmp_path / "ratings.png").stat().st_size > 1000


def test_both_colours_play_each_opening_with_the_same_dice():
    s = play_match("backgammon", "random", first_move, games=4, openings=1, seed=3)
    recs = s["records"]
    assert recs[0]["players"] == ["random", "first_move"] and recs[1]["players"] == ["first_move", "random"]
    assert recs[0]["start"] == recs[1]["start"] != recs[2]["start"]
    rolls = lambda r: [m for m in r["moves"] if m.startswith(("roll", "opening"))]  # noqa: E731
    k = min(len(rolls(recs[0])), len(rolls(recs[1])))
    assert rolls(recs[0])[:k] == rolls(recs[1])[:k]


def test_record_moves_replay_to_the_final_position():
    g = ludoteca.Game("russian")
    rec = play_game(g, [first_action, "random"], seed=2)
    assert rec["termination"] in ("rules", "max_turns")
    state = g.state_from_string(rec["start"])
    for move in rec["moves"]:
        state.play(move)
    assert state.to_string() == rec["final"]
    text = format_record(rec)
    if rec["termination"] == "rules":
        # A game the rules ended is a PDN game record (GameType 25: Russian).
        assert '[GameType "25"]' in text and text.rstrip().endswith(rec["result"])
    else:
        assert text.startswith('[Game "russian"]') and f'[FEN "{rec["start"]}"]' in text
        assert text.splitlines()[-1] == rec["result"]


def test_tournament_is_reproducible_for_a_seed():
    a = tournament("checkers", ["random", RandomAgent(seed=4)], games=4, seed=9, options={"max_turns": 40})
    b = tournament("checkers", ["random", RandomAgent(seed=4)], games=4, seed=9, options={"max_turns": 40})
    assert [r["moves"] for r in a["records"]] == [r["moves"] for r in b["records"]]


def test_gauntlet_plays_only_the_gauntlet_agent_pairings():
    s = tournament("russian", ["random", first_move, first_action], games=2, gauntlet="first_move", options={"max_turns": 30})
    assert {(p["a"], p["b"]) for p in s["pairs"]} == {("first_move", "random"), ("first_move", "first_action")}


def test_parallel_processes_play_every_game():
    s = tournament("checkers", ["random", "random"], games=6, jobs=2, options={"max_turns": 30})
    assert len(s["records"]) == 6 and not s["errors"] and s["agents"] == ["random", "random#2"]


def test_parallel_threads_play_every_game():
    s = tournament("checkers", ["random", first_move], games=4, jobs=2, executor="thread", options={"max_turns": 30})
    assert len(s["records"]) == 4 and not s["errors"]


def test_slow_agent_forfeits_on_time():
    import time

    def slow(state):
        time.sleep(0.05)
        return state.legal_moves()[0]

    rec = play_game("russian", ["random", slow], time_limit=0.01, seed=1)
    assert rec["termination"] == "forfeit" and rec["reason"] == "time" and rec["returns"] == [1.0, -1.0]


def test_illegal_move_forfeits_and_is_reported_with_the_legal_list():
    rec = play_game("russian", [lambda s: "11-99", "random"], seed=1)
    assert rec["termination"] == "forfeit" and rec["reason"] == "illegal move"
    assert rec["error"]["move"] == "11-99" and rec["error"]["legal"] and rec["error"]["position"] == rec["start"]


def test_openings_from_random_turns_and_from_a_file(tmp_path):
    g = ludoteca.Game("russian")
    ops = make_openings(g, 3, 4, seed=1)
    assert len(set(ops)) == 3 and g.new_state().to_string() not in ops
    path = tmp_path / "openings.txt"
    path.write_text("# two positions\n" + "\n".join(ops[:2]) + "\n")
    s = tournament(g, ["random", first_move], games=4, openings=str(path), options={"max_turns": 20})
    assert [r["start"] for r in s["records"]] == [ops[0], ops[0], ops[1], ops[1]]
    bad = tmp_path / "bad.txt"
    bad.write_text("not a position\n")
    with pytest.raises(OptionError, match="bad.txt:1"):
        tournament(g, ["random", first_move], games=2, openings=str(bad))


def test_bad_arguments_are_option_errors():
    with pytest.raises(OptionError, match="unknown agent"):
        tournament("russian", ["random", "nosuchagent"], games=2)
    with pytest.raises(OptionError, match="at least two"):
        tournament("russian", ["random"], games=2)
    with pytest.raises(OptionError, match="gauntlet"):
        tournament("russian", ["random", first_move], gauntlet="zzz")


def test_cli_arena_prints_tables_and_writes_files(tmp_path, capsys):
    out = tmp_path / "run"
    code = cli_main(["arena", "russian", "--agents", "random", "random", "--games", "2", "--out", str(out), "--quiet", "--option", "max_turns=20"])
    assert code == 0
    text = capsys.readouterr().out
    assert "| `random` v `random#2` | 2 |" in text
    assert (out / "summary.md").exists() and (out / "summary.json").exists()


def test_ladder_section_is_replaced_between_its_markers():
    doc = f"# Arena\n\nintro\n\n{BEGIN}\nold\n{END}\n\nafter\n"
    new = replace_section(doc, f"{BEGIN}\nnew\n{END}\n")
    assert "new" in new and "old" not in new and new.endswith("after\n") and new.startswith("# Arena")


def test_a_rerun_ladder_reuses_the_finished_tournaments_it_finds_and_only_those(tmp_path, monkeypatch):
    from ludoteca.arena import ladder

    monkeypatch.setattr(ladder, "LADDER_SPECS", ["random", "greedy"])
    monkeypatch.setattr(ladder, "ENGINE_SPECS", {})
    first = ladder.run_ladder(2, only=["russian"], data=str(tmp_path), log=None, seed=3)
    summary = tmp_path / "russian" / "ladder" / "summary.json"
    played = json.loads(summary.read_text())
    assert played["games_per_pair"] == 2 and played["seed"] == 3
    # A time only the file carries: the second run must read it, not play.
    played["seconds"] = 12345.0
    summary.write_text(json.dumps(played))
    again = ladder.run_ladder(2, only=["russian"], data=str(tmp_path), log=None, seed=3)
    assert "2 games per pairing, from 4-turn random openings (each on both colours), 12345 s:" in again
    assert again.split("12345 s:")[1] == first.split(" s:", 1)[1]  # the same tables
    # Another seed is another tournament: played anew and its file replaced; reuse=False plays anyway.
    ladder.run_ladder(2, only=["russian"], data=str(tmp_path), log=None, seed=4)
    assert json.loads(summary.read_text())["seed"] == 4
    played = json.loads(summary.read_text())
    played["seconds"] = 12345.0
    summary.write_text(json.dumps(played))
    ladder.run_ladder(2, only=["russian"], data=str(tmp_path), log=None, seed=4, reuse=False)
    assert json.loads(summary.read_text())["seconds"] != 12345.0


def test_docs_arena_python_example_runs():
    import re

    doc = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "arena.md"), encoding="utf-8").read()
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/arena.md", "exec"), {})


@pytest.mark.parametrize("gid", ["checkers", "international", "backgammon", "tablut", "kharbaga", "damas"])
def test_arena_game_files_are_game_records_that_replay_to_the_same_end(gid: str) -> None:
    from ludoteca import records
    from ludoteca.arena import format_record, play_game

    record = play_game(gid, ["random", "random"], seed=3)
    assert record["termination"] == "rules"
    text = format_record(record)
    (replayed,) = [records.replay_record(r) for r in records.loads(text)]
    assert replayed.error is None
    assert replayed.final.to_string() == record["final"]


def test_parallel_workers_each_play_both_colours_of_their_openings() -> None:
    from ludoteca.arena.tournament import _shares, _tasks

    # A gauntlet (one pairing) and round robins of three (an odd game count too), two and three jobs.
    for pairs, games, jobs in [([(0, 1)], 10, 2), ([(0, 1), (0, 2), (1, 2)], 6, 2), ([(0, 1)], 9, 3), ([(0, 1), (0, 2), (1, 2)], 5, 2)]:
        tasks = _tasks(pairs, games)
        shares = _shares(tasks, jobs)
        assert sorted(id(t) for s in shares for t in s) == sorted(id(t) for t in tasks)
        for share in shares:
            # Every opening of a share with both its colours (an odd count leaves the last one single).
            keys = {(t["pair"], t["opening"]) for t in share}
            for p, o in keys:
                both = [t for t in tasks if (t["pair"], t["opening"]) == (p, o)]
                assert all(t in share for t in both)
            first = [t for t in share if t["players"] == pairs[t["pair"]]]
            single = sum(1 for p, o in keys if sum(1 for t in share if (t["pair"], t["opening"]) == (p, o)) == 1)
            assert abs(2 * len(first) - len(share)) <= max(1, single), "a share must hold both colours in equal numbers"
        assert max(map(len, shares)) - min(map(len, shares)) <= 2


# --- the command line and engines that cannot start (issue #37 item 8) ------------------------


def _fake_py_draughts(folder, crash=False):
    """A folder whose `draughts` is not py-draughts (or, with ``crash``, one whose board module
    kills the process while the engine loads): a pydraughts agent pointed at it cannot start."""
    pkg = folder / "draughts"
    (pkg / "engines").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    if crash:
        (pkg / "engines" / "turbo.py").write_text("")
        (pkg / "boards").mkdir()
        (pkg / "boards" / "__init__.py").write_text("")
        (pkg / "boards" / "standard.py").write_text("import os\nos._exit(3)\n")
    return f"pydraughts:path={folder},time=0.05"


class NeverStarts(ludoteca.agents.BaseAgent):
    """An engine agent whose engine cannot start; counts how often it was asked to."""

    name = "never"

    def __init__(self):
        super().__init__(0)
        self.tries = 0

    def act(self, state):
        from ludoteca.errors import EngineStartError

        self.tries += 1
        raise EngineStartError("never could not start: no such engine")


@pytest.mark.parametrize("crash", [False, True])
def test_a_pydraughts_engine_that_cannot_start_voids_its_games(tmp_path, crash):
    spec = _fake_py_draughts(tmp_path, crash=crash)
    rec = play_game("international", ["random", spec], seed=1)
    assert rec["termination"] == "void" and rec["reason"] == "engine did not start"
    assert rec["error"]["player"] == 1 and "could not start" in rec["error"]["message"]
    assert rec["returns"] == [0.0, 0.0] and rec["result"] == "*"


def test_an_engine_that_fails_to_restart_after_moving_forfeits():
    from ludoteca.errors import EngineStartError

    moves = []

    def fails_second_time(state):
        if moves:
            raise EngineStartError("could not start again")
        moves.append(1)
        return state.legal_moves()[0]

    rec = play_game("russian", [fails_second_time, "random"], seed=1)
    assert rec["termination"] == "forfeit" and rec["reason"] == "engine crash" and rec["returns"] == [-1.0, 1.0]


def test_a_pairing_whose_engine_never_started_is_void_and_unrated():
    never = NeverStarts()
    s = tournament("russian", ["random", first_move, never], games=4, options={"max_turns": 20})
    pairs = {(p["a"], p["b"]): p for p in s["pairs"]}
    for key in [("random", "never"), ("first_move", "never")]:
        p = pairs[key]
        assert p["games"] == 0 and p["void"] == 4 and p["void_reasons"] == {"engine did not start": 4}
        assert p["wins"] == p["losses"] == 0 and p["forfeits"] == {}
    assert pairs["random", "first_move"]["games"] == 4
    assert [(v["a"], v["b"], v["agent"]) for v in s["void_pairings"]] == [("random", "never", "never"), ("first_move", "never", "never")]
    assert s["not_started"] == {"never": "never could not start: no such engine"}
    assert s["unrated"] == ["never"] and set(s["ratings"]["ratings"]) == {"random", "first_move"}
    # Tried once: the worker voids its later games without asking again.
    assert never.tries == 1
    table = ludoteca.arena.format_summary(s)
    assert "Not rated (no game counted): `never`" in table
    assert "| `random` v `never` | 0 | void: an engine did not start |" in table


def test_the_anchor_is_an_agent_with_counted_games():
    # `random` is the default anchor, but every game of its only pairing is void.
    s = tournament("russian", ["random", NeverStarts()], games=2)
    assert s["void_pairings"] and s["ratings"] == {"error": "no games"}
    s = tournament("russian", [NeverStarts(), first_move, "greedy"], games=2, options={"max_turns": 20})
    assert s["ratings"]["anchor"] == "first_move" and s["unrated"] == ["never"]


def test_the_table_counts_forfeits_by_side_with_their_reasons():
    s = tournament("russian", ["random", lambda st: "11-99"], games=2)
    (p,) = s["pairs"]
    assert p["forfeited"] == [0, 2] and p["forfeits"] == {"illegal move": 2}
    assert "| 0/2 (illegal move 2) | 0 |" in ludoteca.arena.format_summary(s)


def test_cli_arena_with_an_engine_that_cannot_start_says_so_and_exits_non_zero(tmp_path, capsys):
    spec = _fake_py_draughts(tmp_path)
    code = cli_main(["arena", "international", "--agents", "random", spec, "--games", "2", "--quiet", "--jobs", "2"])
    out = capsys.readouterr().out
    assert code == 1
    assert f"void pairing: `random` v `{spec}`: no game counted, `{spec}`'s engine did not start" in out
    assert f"engine did not start: `{spec}`: pydraughts:" in out and "is not py-draughts" in out
    assert "Not rated (no game counted)" in out and "-280" not in out
    code = cli_main(["arena", "international", "--agents", "random", spec, "--games", "2", "--quiet", "--json"])
    captured = capsys.readouterr()
    assert code == 1 and json.loads(captured.out)["void_pairings"][0]["agent"] == spec
    assert "void pairing" in captured.err


def test_an_output_folder_that_cannot_be_written_is_refused_before_any_game(tmp_path, capsys):
    played = []

    def counting(state):
        played.append(1)
        return state.legal_moves()[0]

    blocker = tmp_path / "a file"
    blocker.write_text("")
    for out in ["/proc/ludoteca-arena-test", str(blocker), str(blocker / "below")]:
        with pytest.raises(OptionError, match="cannot write into the folder"):
            tournament("russian", ["random", counting], games=2, out=out)
        assert played == []
        code = cli_main(["arena", "russian", "--agents", "random", "random", "--games", "2", "--quiet", "--out", out])
        assert code == 2 and "cannot write into the folder" in capsys.readouterr().err
    # A bad argument is refused before the folder is made: no empty folder left behind.
    with pytest.raises(OptionError, match="unknown agent"):
        tournament("russian", ["random", "nosuchagent"], games=2, out=tmp_path / "never")
    assert not (tmp_path / "never").exists()


def test_results_survive_an_output_folder_that_fails_at_the_end(tmp_path, monkeypatch, capsys):
    import ludoteca.arena.report as report

    def full_disk(summary, out):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report, "write_outputs", full_disk)
    s = tournament("russian", ["random", first_move], games=2, out=tmp_path / "run", options={"max_turns": 20})
    assert s["pairs"][0]["games"] == 2 and "No space left" in s["errors"][-1]["output"]
    code = cli_main(["arena", "russian", "--agents", "random", "random", "--games", "2", "--quiet", "--out", str(tmp_path / "run2"), "--option", "max_turns=20"])
    out = capsys.readouterr().out
    assert code == 1 and "| `random` v `random#2` | 2 |" in out and "No space left" in out


@pytest.mark.parametrize(
    "option, value, message",
    [
        ("--openings", "-3", "number of random turns in [0, 10,000]"),
        ("--openings", "no-such-file", "no file 'no-such-file'"),
        ("--games", "0", "integer in [1, 1,000,000]"),
        ("--games", "ten", "expected an integer, got 'ten'"),
        ("--jobs", "0", "integer in [1, 1,024]"),
        ("--jobs", "-2", "integer in [1, 1,024]"),
        ("--seed", "-1", "integer in [0,"),
        ("--time-limit", "0", "finite number > 0"),
        ("--time-limit", "nan", "finite number > 0"),
        ("--time-limit", "-1", "finite number > 0"),
        ("--prior", "-1", "finite number >= 0"),
        ("--prior", "inf", "finite number >= 0"),
    ],
)
def test_cli_arena_numeric_options_are_checked_as_usage_errors(option, value, message, capsys):
    with pytest.raises(SystemExit) as info:
        cli_main(["arena", "russian", "--agents", "random", "random", "--quiet", f"{option}={value}"])
    assert info.value.code == 2 and message in capsys.readouterr().err


def test_tournament_checks_its_numbers_too():
    for kwargs, message in [
        ({"openings": -3}, "random turns >= 0"),
        ({"openings": "-3"}, "random turns >= 0"),
        ({"openings": "no-such-file"}, "cannot read the file 'no-such-file'"),
        ({"games": 2.5}, "games per pairing"),
        ({"jobs": 0}, "jobs must be"),
        ({"seed": -1}, "seed must be"),
        ({"time_limit": float("nan")}, "time_limit"),
        ({"prior": -1.0}, "prior must be"),
    ]:
        with pytest.raises(OptionError, match=message):
            tournament("russian", ["random", first_move], **{"games": 2, **kwargs})


def test_many_jobs_deal_the_games_in_one_pass():
    from ludoteca.arena.tournament import _shares, _tasks

    tasks = _tasks([(0, 1)], 4)
    shares = _shares(tasks, 1024)
    assert [len(s) for s in shares] == [2, 2]
