"""Ratings and intervals from game results.

Model: Bradley–Terry with draws in **Davidson's** form (Davidson 1970). Each
agent i has a strength ``r_i`` (natural-log scale) and one draw parameter
``nu`` is shared by all games::

    P(i beats j) = e^{r_i} / Z,   P(j beats i) = e^{r_j} / Z,
    P(draw)      = nu * e^{(r_i + r_j) / 2} / Z,   Z = the sum of the three.

Why Davidson rather than the thresholded logistic of BayesElo (Rao–Kupper
like): it is an exponential family whose sufficient statistics are each
agent's score (wins + draws / 2) and the number of draws, so the likelihood
is concave (Newton's method with step halving always converges) and the
maximum-likelihood ratings are exactly those whose expected scores equal the
actual scores (Ordo's property). Ratings are reported in Elo points,
``400 / ln 10 * r``: without draws, a 200-point difference is the usual
76 % expected score. The anchor agent (``random`` when present) is fixed at 0.

Intervals: 95 % Wald intervals from the inverse of the observed information
(the negative Hessian of the log-likelihood at the maximum), i.e. each
rating's standard error relative to the anchor.

An agent that wins (or loses) every game has an infinite maximum-likelihood
rating. ``prior`` adds ``prior / 2`` virtual wins and as many virtual losses
to every pair that played: the score of ``prior`` virtual draws, which is
BayesElo's ``prior``, but as wins and losses because under Davidson's model
extra draws alone do not keep a rating finite. ``prior=0`` is the pure
maximum-likelihood fit (and raises ``RatingError`` when it does not exist). numpy only: there
is no maintained rating library on PyPI that fits draws by maximum
likelihood with intervals (``choix`` has no draws and no intervals,
``trueskill``/``openskill`` are Bayesian online updates, not a fit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from ..errors import LudotecaValueError

__all__ = [
    "ELO_PER_NAT",
    "Z95",
    "PairCounts",
    "RatingError",
    "fit_ratings",
    "score_interval",
    "wilson_interval",
    "mean_interval",
    "pair_counts_from_table",
]

ELO_PER_NAT = 400.0 / math.log(10.0)
Z95 = 1.959963984540054


class RatingError(LudotecaValueError):
    """Results from which ratings cannot be fitted (no games, a player not connected to the anchor,
    or an infinite maximum-likelihood rating with ``prior=0``)."""


@dataclass(frozen=True)
class PairCounts:
    """Games between ``a`` and ``b`` from ``a``'s side: wins, draws, losses."""

    a: str
    b: str
    wins: int
    draws: int
    losses: int


def _free_names(names: Sequence[str], anchor: str) -> list[str]:
    return [n for n in names if n != anchor]


def _check_finite(rows: Sequence[tuple[int, int, float, float, float]], free: Sequence[str], anchor: str) -> None:
    """Raises unless the maximum exists: every player connected to the anchor, and the graph
    "scored at least a draw against" strongly connected (Hunter 2004, with draws both ways)."""
    n = len(free) + 1  # node n - 1 is the anchor (index -1 in rows)

    def node(i: int) -> int:
        return i if i >= 0 else n - 1

    scored: list[set[int]] = [set() for _ in range(n)]
    for i, j, w, d, lo in rows:
        a, b = node(i), node(j)
        if w > 0 or d > 0:
            scored[a].add(b)
        if lo > 0 or d > 0:
            scored[b].add(a)

    def reach(start: int, edges: Sequence[set[int]]) -> set[int]:
        seen, todo = {start}, [start]
        while todo:
            for m in edges[todo.pop()]:
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return seen

    undirected: list[set[int]] = [set() for _ in range(n)]
    for i, j, *_ in rows:
        undirected[node(i)].add(node(j))
        undirected[node(j)].add(node(i))
    names = list(free) + [anchor]
    lost = sorted(names[k] for k in set(range(n)) - reach(n - 1, undirected))
    if lost:
        raise RatingError(f"ratings are not identifiable: {', '.join(lost)} not connected to the anchor {anchor!r} by games")
    reverse: list[set[int]] = [set() for _ in range(n)]
    for a in range(n):
        for b in scored[a]:
            reverse[b].add(a)
    if len(reach(n - 1, scored)) < n or len(reach(n - 1, reverse)) < n:
        raise RatingError(
            "the maximum-likelihood ratings are infinite (some agents won or lost every game against the rest): pass prior > 0"
        )
    if all(w == 0 and lo == 0 for _, _, w, _, lo in rows):
        raise RatingError("the maximum-likelihood draw rate is 1 (every game drawn): pass prior > 0")


def fit_ratings(
    pairs: Sequence[PairCounts],
    anchor: str | None = None,
    prior: float = 0.0,
    max_iter: int = 200,
) -> dict[str, object]:
    """Maximum-likelihood Davidson ratings of every agent in ``pairs``, in Elo, ``anchor`` at 0.

    Returns ``{"model", "anchor", "prior", "draw_nu", "ratings": {name: {"elo", "se", "low", "high"}},
    "covariance": {name: {name: elo^2}}, "log_likelihood", "iterations"}``.
    """
    names: list[str] = []
    for p in pairs:
        for n in (p.a, p.b):
            if n not in names:
                names.append(n)
    if not names:
        raise RatingError("no games to rate")
    if anchor is None:
        anchor = names[0]
    if anchor not in names:
        raise RatingError(f"anchor {anchor!r} played no game; players: {', '.join(names)}")
    free = _free_names(names, anchor)
    index = {n: i for i, n in enumerate(free)}
    rows: list[tuple[int, int, float, float, float]] = []
    for p in pairs:
        if p.a == p.b:
            raise RatingError(f"{p.a!r} cannot play itself in the rating table")
        if p.wins + p.draws + p.losses == 0:
            continue
        rows.append((index.get(p.a, -1), index.get(p.b, -1), p.wins + prior / 2.0, p.draws, p.losses + prior / 2.0))
    if not rows:
        raise RatingError("no games to rate")
    _check_finite(rows, free, anchor)
    total_draws = sum(r[3] for r in rows)
    with_draws = total_draws > 0
    k = len(free) + (1 if with_draws else 0)
    theta = np.zeros(k)

    def evaluate(th: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        ll = 0.0
        grad = np.zeros(k)
        hess = np.zeros((k, k))
        eta = th[-1] if with_draws else -math.inf
        for i, j, w, d, lo in rows:
            ri = th[i] if i >= 0 else 0.0
            rj = th[j] if j >= 0 else 0.0
            # log of the three unnormalised probabilities, shifted for stability.
            logs = np.array([ri, eta + (ri + rj) / 2.0 if with_draws else -math.inf, rj])
            m = logs.max()
            e = np.exp(logs - m)
            z = e.sum()
            pw, pd, pl = e / z
            n = w + d + lo
            ll += w * logs[0] + lo * logs[2] - n * (m + math.log(z))
            if d:
                ll += d * logs[1]
            # Sufficient statistics T(outcome) over (r_i, r_j, eta): win (1,0,0), draw (1/2,1/2,1), loss (0,1,0).
            t = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 1.0], [0.0, 1.0, 0.0]])
            probs = np.array([pw, pd, pl])
            mean = probs @ t
            cov = (t * probs[:, None]).T @ t - np.outer(mean, mean)
            g_local = np.array([w + d / 2.0, lo + d / 2.0, d]) - n * mean
            idx = [i, j, k - 1 if with_draws else -1]
            for a_pos, a in enumerate(idx):
                if a < 0:
                    continue
                grad[a] += g_local[a_pos]
                for b_pos, b in enumerate(idx):
                    if b >= 0:
                        hess[a, b] -= n * cov[a_pos, b_pos]
        return ll, grad, hess

    ll, grad, hess = evaluate(theta)
    iterations = 0
    for iterations in range(1, max_iter + 1):
        try:
            step = np.linalg.solve(hess, -grad)
        except np.linalg.LinAlgError:
            raise RatingError(
                "ratings are not identifiable: some player is not connected to the anchor by games"
            ) from None
        t = 1.0
        while True:
            cand = theta + t * step
            ll_c, g_c, h_c = evaluate(cand)
            if ll_c >= ll - 1e-12 or t < 1e-8:
                break
            t /= 2.0
        theta, ll, grad, hess = cand, ll_c, g_c, h_c
        if np.max(np.abs(t * step)) < 1e-10 or np.max(np.abs(theta)) > 50.0:
            break
    if not np.all(np.isfinite(theta)) or np.max(np.abs(theta[: len(free)]), initial=0.0) > 30.0:
        raise RatingError(
            "the maximum-likelihood ratings are infinite (an agent won or lost every game): pass prior > 0"
        )
    try:
        cov_theta = np.linalg.inv(-hess)
    except np.linalg.LinAlgError:
        raise RatingError("ratings are not identifiable: the information matrix is singular") from None
    ratings: dict[str, dict[str, float]] = {anchor: {"elo": 0.0, "se": 0.0, "low": 0.0, "high": 0.0}}
    for n, i in index.items():
        elo = float(theta[i]) * ELO_PER_NAT
        se = math.sqrt(max(float(cov_theta[i, i]), 0.0)) * ELO_PER_NAT
        ratings[n] = {"elo": elo, "se": se, "low": elo - Z95 * se, "high": elo + Z95 * se}
    covariance = {
        a: {b: (float(cov_theta[index[a], index[b]]) * ELO_PER_NAT**2 if a in index and b in index else 0.0) for b in names}
        for a in names
    }
    return {
        "model": "Davidson (Bradley-Terry with draws), maximum likelihood",
        "anchor": anchor,
        "prior": prior,
        "draw_nu": float(math.exp(theta[-1])) if with_draws else 0.0,
        "ratings": {n: ratings[n] for n in names},
        "covariance": covariance,
        "log_likelihood": float(ll),
        "iterations": iterations,
    }


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95 % by default); ``(0, 1)`` when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    den = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> dict[str, float]:
    """Mean of ``values`` with its normal 95 % interval (sample standard deviation / sqrt n)."""
    n = len(values)
    if n == 0:
        return {"mean": 0.0, "se": 0.0, "low": 0.0, "high": 0.0, "n": 0}
    arr = np.asarray(values, dtype=float)
    mean = float(arr.mean())
    se = float(arr.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
    return {"mean": mean, "se": se, "low": mean - z * se, "high": mean + z * se, "n": n}


def score_interval(wins: int, draws: int, losses: int, z: float = Z95) -> dict[str, float]:
    """Score (wins + draws / 2 per game) with its normal 95 % interval over the games' outcomes,
    and the Elo difference that score means (with the interval's ends mapped the same way)."""
    n = wins + draws + losses
    values = [1.0] * wins + [0.5] * draws + [0.0] * losses
    out = mean_interval(values, z)
    # The normal interval collapses to a point when every game ends alike (0-0-100):
    # never report less than the Wilson interval of the score as a proportion.
    w_low, w_high = wilson_interval(wins + draws / 2.0, n, z)
    out["low"] = max(0.0, min(out["low"], w_low))
    out["high"] = min(1.0, max(out["high"], w_high))

    def elo(s: float) -> float:
        if s <= 0.0:
            return -math.inf
        if s >= 1.0:
            return math.inf
        return -400.0 * math.log10(1.0 / s - 1.0)

    out.update({"elo": elo(out["mean"]) if n else 0.0, "elo_low": elo(out["low"]), "elo_high": elo(out["high"])})
    return out


def pair_counts_from_table(table: Mapping[tuple[str, str], tuple[int, int, int]]) -> list[PairCounts]:
    """``{(a, b): (wins, draws, losses)}`` as a list of ``PairCounts``."""
    return [PairCounts(a, b, *wdl) for (a, b), wdl in table.items()]
