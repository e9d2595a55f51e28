#!/usr/bin/env python3
"""Steps per second of ludoteca's environments, with OpenSpiel and Pgx measured
in the same run when they are installed.

For every game in ``ludoteca.games()``:

* ``Env.step``: a Python loop over one ``Env`` (random legal action from the
  returned mask every step);
* ``VecEnv.step``: one call steps N envs; the actions are random legal ones
  chosen in numpy from the returned masks (see ``Sampler``), for
  N in {1, 64, 1024, 4096} and 1 and 2 threads (``copy=False``; one
  ``copy=True`` point at N=1024 for reference);
* ``numpy sampling only``: that numpy action choice alone, at the same N, and
  the textbook ``argmax(random * mask)`` alone for comparison;
* ``VecEnv.step+sample_actions``: the same step with actions drawn in Rust
  (``VecEnv.sample_actions()``), i.e. without the numpy cost;
* ``rollout``: ``VecEnv.rollout(steps)``, random legal actions chosen in Rust,
  observation and mask written for every env at every step (the engine
  ceiling), with float32 observations and, at the larger thread count, uint8.

Anchors, when installed: OpenSpiel (``pip install open-spiel``) ``checkers``
and ``backgammon`` as a Python loop that asks for the legal actions and the
observation tensor at every decision; Pgx (``pip install pgx jax``, CPU)
``backgammon`` with ``jit(vmap(step))`` at the same N, and a jitted
``lax.scan`` of many steps. Pgx and OpenSpiel games are matched to ours by id.

Bytes written per env-step (float32 observation + bool mask) and the machine's
copy bandwidth (a numpy copy of 256 MiB, measured in the same run) give a
memory-bandwidth ceiling: ``bandwidth / bytes per step``.

Usage::

    python benches/vecenv_bench.py              # full run (a few minutes)
    python benches/vecenv_bench.py --games checkers,backgammon --threads 1 --cpu-time   # per-core rates
    python benches/vecenv_bench.py --quick      # smoke run (seconds), no anchors but OpenSpiel
    python benches/vecenv_bench.py --games tablut,checkers --json out.json

Timings are the best of five short wall-clock runs per measurement (on a
shared machine the best run is the least disturbed one); run it twice and
compare.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

import ludoteca

NS = (1, 64, 1024, 4096)
THREADS = (1, 2)

# Our game id -> the anchors' ids for the same game.
OPENSPIEL_IDS = {"checkers": "checkers", "backgammon": "backgammon"}
PGX_IDS = {"backgammon": "backgammon"}


# ---------------------------------------------------------------- timing


@dataclass
class Clock:
    """How long each measurement runs."""

    budget: float  # seconds of timed work per measurement
    repeats: int  # timed runs per measurement; the best is kept
    # time.perf_counter (wall clock), or time.process_time (CPU seconds of every thread of the
    # process: steadier than wall clock while other jobs load the machine; a rate per core).
    timer: Callable[[], float] = time.perf_counter

    def rate(self, run: Callable[[int], int], calibrate: int = 1) -> float:
        """Steps per second of ``run(k)``, which does ``k`` iterations and
        returns the number of steps they made. ``k`` is grown until one run
        takes about ``budget / repeats``; the best of ``repeats`` runs is kept
        (on a shared machine the best run is the one least disturbed)."""
        k = max(1, calibrate)
        run(k)  # warm-up
        target = self.budget / self.repeats
        while True:
            t0 = self.timer()
            steps = run(k)
            dt = self.timer() - t0
            if dt >= target * 0.5 or k >= 1 << 30:
                break
            k = int(k * min(100.0, max(2.0, target / max(dt, 1e-6))))
        rates = [steps / dt]
        for _ in range(self.repeats - 1):
            t0 = self.timer()
            steps = run(k)
            rates.append(steps / (self.timer() - t0))
        return float(max(rates))


def human(x: Optional[float]) -> str:
    if x is None or x != x:
        return "-"
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(x) >= scale:
            return f"{x / scale:.2f}{unit}"
    return f"{x:.0f}"


def ratio(x: Optional[float]) -> str:
    if x is None or x != x:
        return "-"
    return f"{x:.1f}x" if x < 100 else f"{x:.0f}x"


# ---------------------------------------------------------------- machine


def copy_bandwidth(clock: Clock, mib: int) -> float:
    """Bytes per second a numpy copy moves (bytes of the destination)."""
    src = np.ones(mib << 18, dtype=np.float32)  # mib MiB
    dst = np.empty_like(src)

    def run(k: int) -> int:
        for _ in range(k):
            np.copyto(dst, src)
        return k * src.nbytes

    return clock.rate(run)


# ---------------------------------------------------------------- ludoteca


class Sampler:
    """Random legal actions chosen in numpy from a (N, A) mask, uniformly
    among each row's legal actions: the flat indices of every legal action
    (``flatnonzero``), their rows counted (``bincount``), then one random pick
    inside each row's run. The fastest numpy way we found: it reads the mask
    once and draws N random numbers, not N x A."""

    def __init__(self, n: int, a: int, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.n, self.a = n, a
        self.row_start = np.arange(n, dtype=np.int64) * a

    def __call__(self, mask: np.ndarray) -> np.ndarray:
        flat = np.flatnonzero(mask)
        counts = np.bincount(flat // self.a, minlength=self.n)
        first = np.cumsum(counts) - counts
        pick = first + (self.rng.random(self.n) * counts).astype(np.int64)
        return flat[np.minimum(pick, len(flat) - 1)] - self.row_start


class ArgmaxSampler:
    """The textbook numpy way: ``argmax(u * mask)`` with ``u ~ U[0, 1)``
    (float32, preallocated): N x A random numbers per call."""

    def __init__(self, n: int, a: int, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.u = np.empty((n, a), dtype=np.float32)

    def __call__(self, mask: np.ndarray) -> np.ndarray:
        self.rng.random(out=self.u, dtype=np.float32)
        np.multiply(self.u, mask, out=self.u)
        return self.u.argmax(axis=1)


def bench_env_loop(game_id: str, clock: Clock) -> float:
    env = ludoteca.Env(game_id, seed=0)
    rng = np.random.default_rng(0)
    _, info = env.reset()
    state = {"info": info}

    def run(k: int) -> int:
        info = state["info"]
        for _ in range(k):
            legal = np.flatnonzero(info["legal_action_mask"])
            _, _, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
            if term or trunc:
                _, info = env.reset()
        state["info"] = info
        return k

    return clock.rate(run, calibrate=16)


def bench_vec_step(game_id: str, n: int, threads: int, clock: Clock, copy: bool = False, rust_actions: bool = False) -> float:
    venv = ludoteca.VecEnv(game_id, num_envs=n, seed=0, num_threads=threads, copy=copy)
    _, info = venv.reset()
    sample = Sampler(n, venv.num_actions)
    state = {"mask": info["legal_action_mask"]}

    def run(k: int) -> int:
        mask = state["mask"]
        for _ in range(k):
            actions = venv.sample_actions() if rust_actions else sample(mask)
            mask = venv.step(actions)[4]["legal_action_mask"]
        state["mask"] = mask
        return k * n

    return clock.rate(run)


def bench_sampling(game_id: str, n: int, clock: Clock, kind: type = Sampler) -> float:
    venv = ludoteca.VecEnv(game_id, num_envs=n, seed=0, num_threads=1)
    venv.rollout(10)  # masks of a game under way, not only of the start
    _, _, _, _, info = venv.step(venv.sample_actions())
    mask = info["legal_action_mask"].copy()
    sample = kind(n, venv.num_actions)

    def run(k: int) -> int:
        for _ in range(k):
            sample(mask)
        return k * n

    return clock.rate(run)


def bench_rollout(
    game_id: str, n: int, threads: int, clock: Clock, obs_dtype: Optional[str] = None, obs_format: str = "full"
) -> float:
    venv = ludoteca.VecEnv(
        game_id, num_envs=n, seed=0, num_threads=threads, copy=False, obs_dtype=obs_dtype, obs_format=obs_format
    )
    venv.reset()
    return clock.rate(lambda k: venv.rollout(k)["steps"], calibrate=max(1, 256 // n))


def bench_step_categorical(game_id: str, n: int, threads: int, clock: Clock, obs_format: str = "full") -> float:
    """``VecEnv.step`` with actions from ``ludoteca.masked_categorical`` on random logits (one fixed
    (N, A) float32 array standing for a policy's output: drawing N x A fresh numbers per call in
    numpy would be the slowest part of the loop)."""
    venv = ludoteca.VecEnv(game_id, num_envs=n, seed=0, num_threads=threads, copy=False, obs_format=obs_format)
    _, info = venv.reset()
    logits = np.random.default_rng(0).normal(size=(n, venv.num_actions)).astype(np.float32)
    state = {"mask": info["legal_action_mask"], "seed": 0}

    def run(k: int) -> int:
        mask, seed = state["mask"], state["seed"]
        for _ in range(k):
            seed += 1
            mask = venv.step(ludoteca.masked_categorical(logits, mask, seed))[4]["legal_action_mask"]
        state["mask"], state["seed"] = mask, seed
        return k * n

    return clock.rate(run)


def bench_categorical(game_id: str, n: int, clock: Clock) -> float:
    """``masked_categorical`` alone on a mask of a game under way (the GIL released, its own threads)."""
    venv = ludoteca.VecEnv(game_id, num_envs=n, seed=0, num_threads=1)
    venv.rollout(10)
    mask = venv.step(venv.sample_actions())[4]["legal_action_mask"].copy()
    logits = np.random.default_rng(0).normal(size=(n, venv.num_actions)).astype(np.float32)
    return clock.rate(lambda k: sum(len(ludoteca.masked_categorical(logits, mask, i)) for i in range(k)))


_MEMORY_PROBE = """
import json, os, sys
import numpy as np
import ludoteca

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

game_id, n, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ludoteca.Game(game_id)  # load the module and the game's tables first
before = rss()
venv = ludoteca.VecEnv(game_id, num_envs=n, seed=0, copy=False)
obs, info = venv.reset()
venv.rollout(steps)
after = rss()
# The reused output arrays: obs, final_observation (float32), mask, rewards,
# two flags, current player, info fields.
outputs = obs.nbytes + n * 4 * int(np.prod(obs.shape[1:])) + info["legal_action_mask"].nbytes + n * (8 + 2 + 4)
outputs += sum(info[k].nbytes for k in venv.game.info_fields)
print(json.dumps({"accounted": venv.memory_bytes(), "rss_delta": after - before, "outputs": outputs}))
"""


def vecenv_memory(game_id: str, n: int, steps: int) -> dict[str, float]:
    """Memory of a VecEnv of ``n`` envs besides its output arrays, after
    ``steps`` rollout steps (so that histories have grown), measured in a
    fresh process: the Rust accounting (``memory_bytes``) and the growth of
    the process's resident memory minus the output arrays."""
    import subprocess

    r = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, game_id, str(n), str(steps)], capture_output=True, text=True, check=True
    )
    m = json.loads(r.stdout)
    return {
        "accounted_mib": m["accounted"] / 2**20,
        "rss_minus_outputs_mib": max(0, m["rss_delta"] - m["outputs"]) / 2**20,
        "outputs_mib": m["outputs"] / 2**20,
    }


# ---------------------------------------------------------------- anchors


def openspiel_loop(os_id: str, clock: Clock) -> Optional[float]:
    """Decisions per second of an OpenSpiel Python loop: legal actions and the
    observation tensor at every decision of a player, chance outcomes sampled
    by their probabilities (each applied action, chance included, is a step)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(os_id)
    rng = np.random.default_rng(0)
    holder = {"state": game.new_initial_state()}

    def run(k: int) -> int:
        state = holder["state"]
        for _ in range(k):
            if state.is_terminal():
                state = game.new_initial_state()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                x, acc = rng.random(), 0.0
                a = outcomes[-1][0]
                for o, p in outcomes:
                    acc += p
                    if x < acc:
                        a = o
                        break
                state.apply_action(a)
            else:
                legal = state.legal_actions()
                state.observation_tensor()
                state.apply_action(legal[rng.integers(len(legal))])
        holder["state"] = state
        return k

    return clock.rate(run, calibrate=64)


def pgx_rates(pgx_id: str, ns: tuple[int, ...], clock: Clock, scan_steps: int) -> dict[str, Optional[float]]:
    """Pgx steps per second: ``jit(vmap(auto_reset(step)))`` called from
    Python at each N (random legal actions chosen in JAX, inside the same jit),
    and a jitted ``lax.scan`` of ``scan_steps`` such steps."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return {}
    env = pgx.make(pgx_id)
    step_fn = auto_reset(env.step, env.init)

    def one(state: Any, key: Any) -> Any:
        k1, k2 = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k1, logits)
        return step_fn(state, action, k2)

    def batch_step(state: Any, key: Any, n: int) -> Any:
        key, sub = jax.random.split(key)
        return jax.vmap(one)(state, jax.random.split(sub, n)), key

    vinit = jax.jit(jax.vmap(env.init))
    out: dict[str, Optional[float]] = {}
    for n in ns:
        vstep = jax.jit(lambda s, k, n=n: batch_step(s, k, n))
        holder = {"carry": (vinit(jax.random.split(jax.random.PRNGKey(0), n)), jax.random.PRNGKey(1))}

        def run(k: int, n: int = n, vstep: Any = vstep) -> int:
            state, key = holder["carry"]
            for _ in range(k):
                state, key = vstep(state, key)
            jax.block_until_ready(state.observation)
            holder["carry"] = (state, key)
            return k * n

        out[f"step N={n}"] = clock.rate(run)

        def body(carry: Any, _: Any, n: int = n) -> Any:
            return batch_step(carry[0], carry[1], n), None

        scan = jax.jit(lambda s, k, body=body: jax.lax.scan(body, (s, k), None, length=scan_steps)[0])

        def run_scan(k: int, n: int = n, scan: Any = scan) -> int:
            carry = holder["carry"]
            for _ in range(k):
                carry = scan(*carry)
            jax.block_until_ready(carry[0].observation)
            holder["carry"] = carry
            return k * n * scan_steps

        out[f"scan N={n}"] = clock.rate(run_scan)
    return out


# ---------------------------------------------------------------- the run


@dataclass
class GameResult:
    game: str
    num_actions: int
    obs_len: int
    bytes_per_step: int
    rows: dict[str, dict[int, float]] = field(default_factory=dict)
    env_loop: float = 0.0
    step_copy_true: Optional[float] = None
    memory: dict[str, float] = field(default_factory=dict)
    anchors: dict[str, float] = field(default_factory=dict)
    # Bytes written per env-step (observation + mask) in each obs_format.
    format_bytes: dict[str, int] = field(default_factory=dict)


def measure_game(game_id: str, args: argparse.Namespace, clock: Clock) -> GameResult:
    g = ludoteca.Game(game_id)
    obs_len = int(np.prod(g.observation_shape))
    res = GameResult(game_id, g.num_actions, obs_len, obs_len * 4 + g.num_actions)
    res.format_bytes = {
        fmt: int(np.prod(ludoteca.Game(game_id, obs_format=fmt).observation_shape)) * (1 if fmt == "packed" else 4)
        + g.num_actions
        for fmt in ("full", "compact", "packed")
    }
    log = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.verbose else (lambda *a: None)
    res.env_loop = bench_env_loop(game_id, clock)
    log(f"  {game_id}: Env.step {human(res.env_loop)}")
    for t in args.threads:
        res.rows[f"VecEnv.step t={t}"] = {n: bench_vec_step(game_id, n, t, clock) for n in args.ns}
        log(f"  {game_id}: VecEnv.step t={t} {res.rows[f'VecEnv.step t={t}']}")
    t_max = max(args.threads)
    res.rows[f"step+sample_actions t={t_max}"] = {
        n: bench_vec_step(game_id, n, t_max, clock, rust_actions=True) for n in args.ns
    }
    res.rows["numpy sampling only"] = {n: bench_sampling(game_id, n, clock) for n in args.ns}
    res.rows["numpy argmax(u*mask) only"] = {n: bench_sampling(game_id, n, clock, ArgmaxSampler) for n in args.ns}
    for t in args.threads:
        res.rows[f"rollout t={t}"] = {n: bench_rollout(game_id, n, t, clock) for n in args.ns}
        log(f"  {game_id}: rollout t={t} {res.rows[f'rollout t={t}']}")
    res.rows[f"rollout uint8 obs t={t_max}"] = {n: bench_rollout(game_id, n, t_max, clock, "uint8") for n in args.ns}
    for fmt in ("compact", "packed"):
        res.rows[f"rollout {fmt} t={t_max}"] = {n: bench_rollout(game_id, n, t_max, clock, obs_format=fmt) for n in args.ns}
        log(f"  {game_id}: rollout {fmt} t={t_max} {res.rows[f'rollout {fmt} t={t_max}']}")
    res.rows["masked_categorical only"] = {n: bench_categorical(game_id, n, clock) for n in args.ns}
    for fmt in ("full", "packed"):
        res.rows[f"step+masked_categ. {fmt} t={t_max}"] = {
            n: bench_step_categorical(game_id, n, t_max, clock, fmt) for n in args.ns
        }
    if args.copy_point in args.ns:
        res.step_copy_true = bench_vec_step(game_id, args.copy_point, t_max, clock, copy=True)
    if args.memory_envs:
        res.memory = vecenv_memory(game_id, args.memory_envs, args.memory_steps)
    if not args.no_anchors:
        if game_id in OPENSPIEL_IDS:
            r = openspiel_loop(OPENSPIEL_IDS[game_id], clock)
            if r is not None:
                res.anchors["OpenSpiel loop"] = r
        if game_id in PGX_IDS and not args.no_pgx:
            for k, v in pgx_rates(PGX_IDS[game_id], tuple(args.ns), clock, args.pgx_scan).items():
                if v is not None:
                    res.anchors[f"Pgx {k}"] = v
    return res


def print_report(results: list[GameResult], bandwidth: float, args: argparse.Namespace) -> None:
    ns = args.ns
    t_max = max(args.threads)
    print(f"# ludoteca {ludoteca.__version__} VecEnv benchmark")
    print(
        f"# {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}; "
        f"numpy copy bandwidth {bandwidth / 1e9:.2f} GB/s"
    )
    if args.cpu_time:
        print("# rates per CPU second of the process (--cpu-time), not wall clock")
    print("# steps/s = env decisions per second (N envs x calls / s)")
    print()
    head = f"{'game':<14} {'what':<26}" + "".join(f"{'N=' + str(n):>10}" for n in ns)
    for r in results:
        print(head)
        print("-" * len(head))
        print(f"{r.game:<14} {'Env.step (Python loop)':<26}{human(r.env_loop):>10}")
        for what, row in r.rows.items():
            print(f"{'':<14} {what:<26}" + "".join(f"{human(row.get(n)):>10}" for n in ns))
        if r.step_copy_true is not None:
            print(f"{'':<14} {f'VecEnv.step copy=True t={t_max}':<26}" + "".join(
                f"{human(r.step_copy_true) if n == args.copy_point else '':>10}" for n in ns))
        for what, v in r.anchors.items():
            print(f"{'':<14} {what:<26}{human(v):>10}")
        print()

    print("Summary (t = threads; ceiling = copy bandwidth / bytes per env-step; %ceil = rollout at N>=1024 / ceiling;")
    print(f"         step = VecEnv.step with numpy-sampled actions at N={args.key_n}; step/roll = worst rollout/step ratio at N>=1024)")
    cols = (
        f"{'game':<14}{'A':>5}{'obs':>6}{'B/step':>7}{'ceiling':>9}{f'roll t{t_max} best':>14}{'roll N>=1k':>11}{'%ceil':>6}"
        f"{'step':>9}{'step/roll':>10}{'best anchor':>12}{'roll/anc':>9}{'step/anc':>9}"
    )
    print(cols)
    print("-" * len(cols))
    for r in results:
        big = [n for n in ns if n >= 1024] or [max(ns)]
        rolls = r.rows[f"rollout t={t_max}"]
        steps = r.rows[f"VecEnv.step t={t_max}"]
        roll = max(rolls[n] for n in ns)
        roll_big = max(rolls[n] for n in big)
        ceiling = bandwidth / r.bytes_per_step
        step_key = steps.get(args.key_n)
        worst = max(rolls[n] / steps[n] for n in big)
        anchor = max(r.anchors.values()) if r.anchors else None
        print(
            f"{r.game:<14}{r.num_actions:>5}{r.obs_len:>6}{r.bytes_per_step:>7}{human(ceiling):>9}{human(roll):>14}"
            f"{human(roll_big):>11}{100 * roll_big / ceiling:>5.0f}%{human(step_key):>9}{ratio(worst):>10}"
            f"{human(anchor):>12}{ratio(roll / anchor if anchor else None):>9}"
            f"{ratio(step_key / anchor if anchor and step_key else None):>9}"
        )
    print()
    print(f"Observation formats (t={t_max}; B = bytes written per env-step, observation + mask; roll = best rollout at N>=1024;")
    print(f"         step = VecEnv.step at N={args.key_n} with actions from masked_categorical on random logits)")
    cols = (
        f"{'game':<14}{'B full':>7}{'B comp':>7}{'B pack':>7}{'roll full':>10}{'roll comp':>10}{'roll pack':>10}"
        f"{'step full':>10}{'step pack':>10}{'anchor':>9}{'full/anc':>9}{'comp/anc':>9}{'pack/anc':>9}{'step/anc':>9}"
    )
    print(cols)
    print("-" * len(cols))
    for r in results:
        big = [n for n in ns if n >= 1024] or [max(ns)]
        roll = {f: max(r.rows[k][n] for n in big) for f, k in
                (("full", f"rollout t={t_max}"), ("compact", f"rollout compact t={t_max}"), ("packed", f"rollout packed t={t_max}"))}
        step = {f: r.rows[f"step+masked_categ. {f} t={t_max}"].get(args.key_n) for f in ("full", "packed")}
        anchor = max(r.anchors.values()) if r.anchors else None
        best_step = max(v for v in step.values() if v is not None) if any(step.values()) else None
        b = r.format_bytes
        print(
            f"{r.game:<14}{b['full']:>7}{b['compact']:>7}{b['packed']:>7}{human(roll['full']):>10}{human(roll['compact']):>10}"
            f"{human(roll['packed']):>10}{human(step['full']):>10}{human(step['packed']):>10}{human(anchor):>9}"
            + "".join(f"{ratio(roll[f] / anchor if anchor else None):>9}" for f in ("full", "compact", "packed"))
            + f"{ratio(best_step / anchor if anchor and best_step else None):>9}"
        )
    if any(r.memory for r in results):
        print()
        print(f"Memory of a VecEnv of {args.memory_envs} envs besides its output arrays (after {args.memory_steps} steps)")
        print(f"{'game':<14}{'accounted MiB':>15}{'RSS growth - outputs MiB':>26}{'outputs MiB':>13}")
        for r in results:
            if r.memory:
                m = r.memory
                print(f"{r.game:<14}{m['accounted_mib']:>15.1f}{m['rss_minus_outputs_mib']:>26.1f}{m['outputs_mib']:>13.1f}")


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="smoke run: tiny sizes, about a second per game, no Pgx")
    p.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    p.add_argument("--seconds", type=float, default=None, help="timed seconds per measurement (default 0.75)")
    p.add_argument("--ns", default=None, help="comma-separated num_envs (default 1,64,1024,4096)")
    p.add_argument("--threads", default=None, help="comma-separated thread counts (default 1,2)")
    p.add_argument("--no-anchors", action="store_true", help="skip OpenSpiel and Pgx")
    p.add_argument("--no-pgx", action="store_true", help="skip Pgx (its jit compiles take a while)")
    p.add_argument("--pgx-scan", type=int, default=64, help="steps per jitted Pgx scan")
    p.add_argument("--json", default=None, help="also write the results to this JSON file")
    p.add_argument("--cpu-time", action="store_true",
                   help="rates per CPU second of the process (all its threads) instead of wall clock: "
                        "steadier on a loaded machine; use with --threads 1 for per-core rates")
    p.add_argument("-v", "--verbose", action="store_true", help="progress on stderr")
    args = p.parse_args(argv)

    if args.quick:
        clock = Clock(budget=args.seconds or 0.01, repeats=1)
        args.ns = [int(x) for x in (args.ns or "1,8").split(",")]
        args.threads = [int(x) for x in (args.threads or "1,2").split(",")]
        args.no_pgx = True
        args.memory_envs, args.memory_steps = 64, 20
        bw_mib = 8
    else:
        clock = Clock(budget=args.seconds or 0.75, repeats=5)
        args.ns = [int(x) for x in (args.ns or ",".join(map(str, NS))).split(",")]
        args.threads = [int(x) for x in (args.threads or ",".join(map(str, THREADS))).split(",")]
        args.memory_envs, args.memory_steps = 4096, 300
        bw_mib = 256
    if args.cpu_time:
        clock.timer = time.process_time
    args.key_n = 1024 if 1024 in args.ns else max(args.ns)
    args.copy_point = args.key_n
    games = [g for g in args.games.split(",") if g] or ludoteca.games()
    unknown = sorted(set(games) - set(ludoteca.games()))
    if unknown:
        p.error(f"unknown game(s) {unknown}; known: {ludoteca.games()}")

    bandwidth = copy_bandwidth(clock, bw_mib)
    results = []
    for g in games:
        if args.verbose:
            print(f"measuring {g} ...", file=sys.stderr, flush=True)
        results.append(measure_game(g, args, clock))
    print_report(results, bandwidth, args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "bandwidth_bytes_per_s": bandwidth,
                    "ns": args.ns,
                    "threads": args.threads,
                    "machine": {"cores": os.cpu_count(), "platform": platform.platform()},
                    "games": [r.__dict__ for r in results],
                },
                f,
                indent=1,
                default=str,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
