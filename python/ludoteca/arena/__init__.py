"""Tournaments between agents: games, matches, round robins and gauntlets, ratings with intervals.

    from ludoteca.arena import play_game, play_match, tournament

    rec = play_game("checkers", ["random", my_agent])            # one game record (plain data)
    res = play_match("backgammon", "random", "gnubg:plies=0", games=100)
    res = tournament("russian", ["random", "pydraughts:time=0.1", my_fn], games=20, jobs=2, out="runs/russian")
    print(res["ratings"]["ratings"])                               # Elo, random = 0, 95 % intervals

``python -m ludoteca arena GAME --agents A B C ...`` is the command line;
``python -m ludoteca.arena.ladder`` regenerates ``docs/arena.md``. The
rating model is in ``ludoteca.arena.ratings``.
"""

from .play import arena_game, format_record, make_openings, play_game, read_openings, unplayed_game
from .ratings import PairCounts, RatingError, fit_ratings, mean_interval, score_interval, wilson_interval
from .report import format_summary, plot_ratings, write_outputs
from .tournament import play_match, summarize, tournament

__all__ = [
    "arena_game",
    "format_record",
    "make_openings",
    "play_game",
    "read_openings",
    "unplayed_game",
    "PairCounts",
    "RatingError",
    "fit_ratings",
    "mean_interval",
    "score_interval",
    "wilson_interval",
    "format_summary",
    "plot_ratings",
    "write_outputs",
    "play_match",
    "summarize",
    "tournament",
]
