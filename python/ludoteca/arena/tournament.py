"""Matches and tournaments: pairings, colours, openings, parallel games, results and ratings."""

from __future__ import annotations

import math
import multiprocessing
import os
import queue
import re
import sys
import tempfile
import threading
import time
from typing import Any, Callable, Mapping, NamedTuple, Optional, Sequence, Union

from ..agents import make_agent
from ..errors import OptionError
from .play import NOT_STARTED, AgentSpec, GameLike, _agent_name, arena_game, make_openings, play_game, read_openings, unplayed_game
from .ratings import PairCounts, RatingError, fit_ratings, mean_interval, score_interval, wilson_interval

__all__ = ["play_match", "tournament", "summarize"]

Openings = Union[int, str, "os.PathLike[str]", Sequence[str]]


def _unique_names(agents: Sequence[AgentSpec]) -> list[str]:
    names: list[str] = []
    for i, a in enumerate(agents):
        base = _agent_name(a, f"agent{i}")
        name, k = base, 2
        while name in names:
            name, k = f"{base}#{k}", k + 1
        names.append(name)
    return names


def _resolve_openings(game: Any, openings: Openings, count: int, seed: int) -> tuple[list[str], dict[str, Any]]:
    if isinstance(openings, bool) or isinstance(openings, int):
        if isinstance(openings, bool) or openings < 0:
            raise OptionError(f"openings: expected a number of random turns >= 0, a file or a list of positions, got {openings!r}")
        return make_openings(game, count, openings, seed), {"kind": "random", "plies": openings, "count": count}
    if isinstance(openings, (str, os.PathLike)):
        # A number, signed or not, is a count of turns (`-3` is refused as such, not looked for as a file).
        if isinstance(openings, str) and re.fullmatch(r"\s*[-+]?[0-9]+\s*", openings):
            return _resolve_openings(game, int(openings), count, seed)
        positions = read_openings(game, openings)
        return positions, {"kind": "file", "path": str(openings), "count": len(positions)}
    positions = [str(p) for p in openings]
    for p in positions:
        game.state_from_string(p)
    if not positions:
        raise OptionError("openings: an empty list of positions")
    return positions, {"kind": "list", "count": len(positions)}


def _tasks(pairs: Sequence[tuple[int, int]], games: int) -> list[dict[str, Any]]:
    """Game k of a pairing uses opening k // 2; even k: the first agent is player 0, odd k: swapped."""
    out = []
    for p, (i, j) in enumerate(pairs):
        for k in range(games):
            players = (i, j) if k % 2 == 0 else (j, i)
            out.append({"pair": p, "index": k, "opening": k // 2, "players": players})
    return out


def _shares(tasks: Sequence[dict[str, Any]], jobs: int) -> list[list[dict[str, Any]]]:
    """Each worker's games: both colours of an opening together, openings dealt in turn.

    Dealt game by game, with two jobs one worker played every game of one
    colour; where one colour's games are the long ones (tablut's Muscovites
    against a strong agent) it ran alone for most of the match.
    """
    # Grouped by (pairing, opening), not by position in the list: with an odd
    # number of games a pairing's last opening has one game, and the next
    # pairing's colours would otherwise straddle two workers.
    group: dict[tuple[int, int], int] = {}
    for t in tasks:
        group.setdefault((t["pair"], t["opening"]), len(group))
    # One pass over the tasks (not one per worker: `--jobs 1000000` took minutes).
    shares: list[list[dict[str, Any]]] = [[] for _ in range(min(jobs, len(group)))]
    for t in tasks:
        shares[group[t["pair"], t["opening"]] % jobs].append(t)
    return shares


class _Job(NamedTuple):
    """What one worker needs to play its share of the games (pickled for processes)."""

    tasks: Sequence[dict[str, Any]]
    specs: Sequence[AgentSpec]
    names: Sequence[str]
    game: Any
    openings: Sequence[str]
    seed: int
    time_limit: Optional[float]


def _run_tasks(worker: int, job: _Job, emit: Callable[[dict[str, Any]], None]) -> None:
    tasks, specs, names, game, openings, seed, time_limit = job
    g = arena_game(game)
    agents: dict[int, Any] = {}
    # Agents whose engine could not start here, with the error: their later games are
    # voided without another try (each try may cost a process start, or a 120 s timeout).
    dead: dict[int, dict[str, Any]] = {}
    for t in tasks:
        o = t["opening"]
        down = [side for side, i in enumerate(t["players"]) if i in dead]
        if down:
            rec = unplayed_game(g, [names[i] for i in t["players"]], openings[o % len(openings)], down[0], dead[t["players"][down[0]]])
            rec.update(pair=t["pair"], round=t["index"], opening=o)
            emit(rec)
            continue
        for i in t["players"]:
            if i not in agents:
                agents[i] = make_agent(specs[i], game_id=g.id, seed=(seed * 7919 + 1000 * i + worker) % 2**64)  # agents take 64-bit seeds
        rec = play_game(
            g,
            [agents[i] for i in t["players"]],
            start=openings[o % len(openings)],
            seed=seed * 1_000_003 + o,
            names=[names[i] for i in t["players"]],
            time_limit=time_limit,
        )
        rec.update(pair=t["pair"], round=t["index"], opening=o)
        if rec["reason"] == NOT_STARTED:
            dead[t["players"][rec["error"]["player"]]] = rec["error"]
        emit(rec)
    for a in agents.values():
        close = getattr(a, "close", None)
        if callable(close):
            close()


def _process_main(worker: int, job: _Job, out: Any) -> None:
    def emit(rec: dict[str, Any]) -> None:
        out.put(("game", worker, rec))

    try:
        _run_tasks(worker, job, emit)
    except BaseException as e:  # reported to the parent, which records the games left unplayed
        out.put(("error", worker, f"{type(e).__name__}: {e}"))
        return
    out.put(("done", worker, None))


class _Progress:
    """tqdm when installed, else one line rewritten on stderr; shows running scores."""

    def __init__(self, total: int, desc: str, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled
        self.bar: Any = None
        self.last = 0.0
        if enabled:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, desc=desc, unit="game", leave=True)
            except ImportError:
                self.desc = desc

    def update(self, scores: Mapping[str, float], played: Mapping[str, int]) -> None:
        self.done += 1
        if not self.enabled:
            return
        text = " ".join(f"{n} {scores[n]:g}/{played[n]}" for n in scores)
        if self.bar is not None:
            self.bar.set_postfix_str(text, refresh=False)
            self.bar.update(1)
            return
        now = time.monotonic()
        if now - self.last > 1.0 or self.done == self.total:
            self.last = now
            sys.stderr.write(f"\r{self.desc}: {self.done}/{self.total} games  {text}")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def summarize(
    records: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    pairs: Sequence[tuple[int, int]],
    anchor: Optional[str] = None,
    prior: float = 1.0,
) -> dict[str, Any]:
    """Per-pair results with intervals and the ratings, from game records (plain data).

    Void games (no result: a rules disagreement, an engine that did not start)
    count in no score and no rating. A pairing none of whose games counted
    because an engine did not start is void: listed in ``void_pairings``
    (``a``, ``b``, ``agent``, ``message``). ``not_started`` maps each agent
    whose engine failed to start to the first error; ``unrated`` lists the
    agents left without a counted game (absent from the ratings).
    """
    per_pair: list[dict[str, Any]] = []
    not_started: dict[str, str] = {}
    void_pairings: list[dict[str, Any]] = []
    for p, (i, j) in enumerate(pairs):
        a, b = names[i], names[j]
        w = d = lo = void = 0
        points: list[float] = []
        reasons: dict[str, int] = {}
        void_reasons: dict[str, int] = {}
        forfeited = [0, 0]  # games forfeited by a, by b
        first_failure: Optional[dict[str, Any]] = None
        for r in records:
            if r.get("pair") != p:
                continue
            if r["termination"] == "void":
                void += 1
                void_reasons[r["reason"]] = void_reasons.get(r["reason"], 0) + 1
                if r["reason"] == NOT_STARTED:
                    agent = r["players"][r["error"]["player"]]
                    not_started.setdefault(agent, r["error"].get("message", ""))
                    if first_failure is None:
                        first_failure = {"agent": agent, "message": r["error"].get("message", "")}
                continue
            side = 0 if r["players"][0] == a else 1
            mine, theirs = r["returns"][side], r["returns"][1 - side]
            points.append(mine)
            if mine > theirs:
                w += 1
            elif mine < theirs:
                lo += 1
            else:
                d += 1
            if r["termination"] == "forfeit":
                reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
                offender = r["players"][r["error"]["player"]] if r.get("error") else None
                if offender in (a, b):
                    forfeited[0 if offender == a else 1] += 1
        n = w + d + lo
        per_pair.append(
            {
                "a": a,
                "b": b,
                "games": n,
                "wins": w,
                "draws": d,
                "losses": lo,
                "void": void,
                "void_reasons": void_reasons,
                "forfeits": reasons,
                "forfeited": forfeited,
                "win_rate": [w / n if n else 0.0, *wilson_interval(w, n)],
                "draw_rate": [d / n if n else 0.0, *wilson_interval(d, n)],
                "loss_rate": [lo / n if n else 0.0, *wilson_interval(lo, n)],
                "score": score_interval(w, d, lo),
                "points_per_game": mean_interval(points),
            }
        )
        if n == 0 and first_failure is not None:
            void_pairings.append({"a": a, "b": b, "reason": NOT_STARTED, **first_failure})
    counts = [PairCounts(x["a"], x["b"], x["wins"], x["draws"], x["losses"]) for x in per_pair if x["games"]]
    rated = [nm for nm in names if any(nm in (c.a, c.b) for c in counts)]
    if anchor is None:
        # An agent with counted games: one whose pairings were all void cannot be the zero.
        pool = rated or list(names)
        anchor = next((n for n in pool if n.split(":")[0] == "random"), pool[0])
    ratings: dict[str, Any]
    try:
        ratings = fit_ratings(counts, anchor=anchor, prior=prior) if counts else {"error": "no games"}
    except RatingError as e:
        ratings = {"error": str(e)}
    checks: dict[str, dict[str, int]] = {}
    for r in records:
        for name, c in zip(r["players"], r.get("checks", [{}, {}])):
            for k, v in c.items():
                checks.setdefault(name, {}).setdefault(k, 0)
                checks[name][k] += v
    errors = [
        {"pair": r.get("pair"), "round": r.get("round"), "players": r["players"], "termination": r["termination"], "reason": r["reason"], **(r["error"] or {})}
        for r in records
        if r.get("error")
    ]
    return {
        "pairs": per_pair,
        "ratings": ratings,
        "void_pairings": void_pairings,
        "not_started": not_started,
        "unrated": [nm for nm in names if nm not in rated],
        "engine_checks": checks,
        "errors": errors,
    }


def tournament(
    game: GameLike,
    agents: Sequence[AgentSpec],
    games: int = 10,
    openings: Openings = 0,
    gauntlet: Optional[Union[int, str]] = None,
    jobs: int = 1,
    seed: int = 0,
    time_limit: Optional[float] = None,
    options: Optional[Mapping[str, Any]] = None,
    executor: str = "process",
    progress: bool = False,
    anchor: Optional[str] = None,
    prior: float = 1.0,
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> dict[str, Any]:
    """Round robin (or a gauntlet) of ``agents`` in ``game``; returns the summary as plain data.

    * ``games`` per pairing, colours alternated; game ``k`` starts from opening
      ``k // 2``, so both colours play each opening with the same dice.
    * ``openings``: ``K`` (int) = the initial position after K random turns
      (``K = 0``: the initial position of each opening's seed), a path to a file
      of position strings (one per line), or a list of position strings.
    * ``gauntlet``: an agent (index or name) that plays every other agent;
      the others do not play each other.
    * ``jobs`` > 1 plays games in parallel: ``executor="process"`` (agents
      built in each worker from their specs; objects must pickle) or
      ``"thread"`` (for agents that release the GIL). Each worker plays a fixed
      share of the games (both colours of an opening, openings dealt in
      turn), so results are reproducible for a given ``jobs``.
    * ``time_limit``: seconds per move (see ``play_game``).
    * ``anchor``: the agent rated 0 (default: ``random`` if playing, else the
      first); ``prior``: virtual draws per pairing (see ``ratings``).
    * ``out``: a folder for ``summary.json``, ``games.pdn`` (every game, one move
      per line), ``games.jsonl`` and ``ratings.png`` (matplotlib installed);
      created and checked for writing before any game is played (else
      ``OptionError``). If writing fails at the end all the same, the summary is
      still returned, with the failure in ``errors`` (key ``output``).
    * An agent whose engine cannot start (``EngineStartError``: a missing
      package, a process that dies while loading) makes its games void, not
      forfeits: no result, no rating. Its pairings are listed in
      ``void_pairings``; once it failed to start, a worker does not try it again.

    Summary keys: ``game``, ``options``, ``agents``, ``games_per_pair``,
    ``openings``, ``seed``, ``jobs``, ``seconds``, ``pairs`` (W/D/L with 95 %
    intervals, score, points per game, void games and their reasons, forfeits
    per side), ``ratings``, ``void_pairings``, ``not_started``, ``unrated``,
    ``engine_checks``, ``errors``, and ``records`` (every game record).
    """
    g = arena_game(game, options)
    if len(agents) < 2:
        raise OptionError(f"a tournament needs at least two agents, got {len(agents)}")
    if not _is_int(games) or not 1 <= games <= MAX_GAMES:
        raise OptionError(f"games per pairing must be an integer in [1, {MAX_GAMES:,}], got {games!r}")
    if not _is_int(jobs) or not 1 <= jobs <= MAX_JOBS:
        raise OptionError(f"jobs must be an integer in [1, {MAX_JOBS}], got {jobs!r}")
    if not _is_int(seed) or seed < 0:
        raise OptionError(f"seed must be an integer >= 0, got {seed!r}")
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and not isinstance(time_limit, bool) and 0 < time_limit < math.inf):
        raise OptionError(f"time_limit must be a positive number of seconds (or None), got {time_limit!r}")
    if not (isinstance(prior, (int, float)) and not isinstance(prior, bool) and 0 <= prior < math.inf):
        raise OptionError(f"prior must be a number >= 0 (virtual draws per pairing), got {prior!r}")
    if executor not in ("process", "thread"):
        raise OptionError(f"executor must be 'process' or 'thread', got {executor!r}")
    names = _unique_names(agents)
    # Build each agent once here: a wrong spec fails now, not inside a worker.
    for a in agents:
        if isinstance(a, str):
            built = make_agent(a, game_id=g.id, seed=seed % 2**64)
            close = getattr(built, "close", None)
            if callable(close):
                close()
    n = len(agents)
    if gauntlet is not None:
        gi = gauntlet if isinstance(gauntlet, int) else names.index(gauntlet) if gauntlet in names else -1
        if not 0 <= gi < n:
            raise OptionError(f"gauntlet agent {gauntlet!r} is not among the agents: {', '.join(names)}")
        pairs = [(gi, j) for j in range(n) if j != gi]
    else:
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    positions, opening_info = _resolve_openings(g, openings, (games + 1) // 2, seed)
    if out is not None:
        # Before the games, not after: a folder that cannot be written lost every result.
        # (After the other checks, so that a bad argument leaves no empty folder behind.)
        _check_folder(out)
    tasks = _tasks(pairs, games)
    shares = _shares(tasks, jobs)
    shares = [s for s in shares if s]
    specs = list(agents)
    records: list[dict[str, Any]] = []
    scores = {nm: 0.0 for nm in names}
    played = {nm: 0 for nm in names}
    bar = _Progress(len(tasks), g.id, progress)
    failures: list[str] = []
    t0 = time.perf_counter()

    def collect(rec: dict[str, Any]) -> None:
        records.append(rec)
        if rec["termination"] != "void":
            r0, r1 = rec["returns"]
            for side, nm in enumerate(rec["players"]):
                mine, theirs = (r0, r1) if side == 0 else (r1, r0)
                scores[nm] += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                played[nm] += 1
        bar.update(scores, played)


    def job_of(share: Sequence[dict[str, Any]]) -> _Job:
        return _Job(share, specs, names, g, positions, seed, time_limit)

    try:
        if len(shares) == 1:
            _run_tasks(0, job_of(shares[0]), collect)
        elif executor == "thread":
            lock = threading.Lock()
            errs: list[BaseException] = []

            def locked(rec: dict[str, Any]) -> None:
                with lock:
                    collect(rec)

            def run(w: int) -> None:
                try:
                    _run_tasks(w, job_of(shares[w]), locked)
                except BaseException as e:  # re-raised in the caller's thread below
                    errs.append(e)

            threads = [threading.Thread(target=run, args=(w,), daemon=True) for w in range(len(shares))]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            if errs:
                raise errs[0]
        else:
            failures = _run_processes([job_of(sh) for sh in shares], collect)
    finally:
        bar.close()
    seconds = time.perf_counter() - t0
    records.sort(key=lambda r: (r["pair"], r["round"]))
    summary: dict[str, Any] = {
        "game": g.id,
        "options": dict(g.options),
        "agents": names,
        "specs": [a if isinstance(a, str) else repr(a) for a in agents],
        "games_per_pair": games,
        "gauntlet": names[pairs[0][0]] if gauntlet is not None else None,
        "openings": opening_info,
        "seed": seed,
        "jobs": jobs,
        "time_limit": time_limit,
        "seconds": seconds,
    }
    summary.update(summarize(records, names, pairs, anchor=anchor, prior=prior))
    summary["errors"].extend({"worker_failure": f} for f in failures)
    summary["records"] = records
    if out is not None:
        from .report import write_outputs

        try:
            write_outputs(summary, out)
        except OSError as e:
            # The folder was writable at the start (a full disk, a folder removed since): the
            # results are still returned, and the error says what was not written.
            summary["errors"].append({"output": f"could not write the results into {os.fspath(out)!r}: {e}"})
    return summary


#: Most games per pairing, and most parallel jobs, that ``tournament`` accepts.
MAX_GAMES = 1_000_000
MAX_JOBS = 1024


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_folder(out: Union[str, "os.PathLike[str]"]) -> None:
    """Creates ``out`` if needed and checks that a file can be written in it."""
    path = os.fspath(out)
    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        raise OptionError(f"out: cannot write into the folder {path!r} ({e.strerror or e}); nothing was played") from None


_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _run_processes(jobs: Sequence[_Job], collect: Callable[[dict[str, Any]], None]) -> list[str]:
    """Runs each share in its own process; a worker that dies is reported with the games it left."""
    ctx = multiprocessing.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=_process_main, args=(w, job, q), daemon=True) for w, job in enumerate(jobs)]
    # The workers are the parallelism: BLAS threads of each worker's numpy (a Baseline's forward
    # pass) would only contend with them. On a busy 2-core machine a kharbaga forward took 18 ms
    # with two OpenBLAS threads and 0.47 ms with one. Spawned children read the variables at start;
    # a value the user set is kept.
    saved = {k: os.environ.get(k) for k in _BLAS_THREADS}
    try:
        for k in _BLAS_THREADS:
            os.environ.setdefault(k, "1")
        for p in procs:
            p.start()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
    left = {w: len(job.tasks) for w, job in enumerate(jobs)}
    finished: set[int] = set()
    failures: list[str] = []
    try:
        while len(finished) < len(procs):
            try:
                kind, w, payload = q.get(timeout=1.0)
            except queue.Empty:
                for w, p in enumerate(procs):
                    if w not in finished and not p.is_alive() and q.empty():
                        finished.add(w)
                        failures.append(f"worker {w} died (exit code {p.exitcode}) with {left[w]} games unplayed")
                continue
            if kind == "game":
                left[w] -= 1
                collect(payload)
            elif kind == "error":
                finished.add(w)
                failures.append(f"worker {w} stopped with {left[w]} games unplayed: {payload}")
            else:
                finished.add(w)
    finally:
        for p in procs:
            p.join(timeout=5.0)
            if p.is_alive():
                p.kill()
    return failures


def play_match(
    game: GameLike,
    a: AgentSpec,
    b: AgentSpec,
    games: int = 10,
    **kwargs: Any,
) -> dict[str, Any]:
    """``a`` against ``b``: a two-agent ``tournament`` (same keyword arguments, same summary)."""
    return tournament(game, [a, b], games=games, **kwargs)
