"""AlphaZero self-play training on a CPU: Rust MCTS, a replay buffer, a torch network, arena ratings.

One process alternates three things until the wall-clock budget is spent:

* **self-play**: ``games`` games at once, searched together by ``ludoteca.MCTS``
  (Gumbel root selection by default) with the network as the batched
  ``evaluate`` callback; each decision stores (observation, legal mask,
  search policy, player) and, when its game ends, the player's return as the
  value target (backgammon: points, gammons 2, backgammons 3). Backgammon is
  played with ``chance="explicit"``: the dice are chance nodes in the tree
  and the self-play loop draws them with its own seeded generator. With
  ``chance_values`` the search also values chance nodes by the network
  (``MCTS(evaluate_chance=True)``), and each position before a roll is stored
  as a value-only sample (no policy target) for the player about to roll.
* **training**: Adam on policy cross-entropy (over the samples that have a
  policy target) plus value mean squared error (over all; values divided by
  the game's largest return), minibatches from a replay buffer of the latest
  ``buffer`` samples.
* **evaluation** every ``eval_minutes``: the network exported to numpy plays
  the built-in agents through the arena (``ludoteca.arena.tournament``, a
  gauntlet, both colours), and its Elo (``random`` = 0, 95 % interval) goes
  to ``eval.csv`` and ``curve.png``: rating over wall-clock time.

A run folder holds ``config.json``, ``train.csv``, ``eval.csv``,
``checkpoint.pt`` (network, optimiser, buffer, counters, generators),
``export.npz`` (the numpy network: ``ludoteca.agents.baseline``) and
``curve.png``. ``alphazero(resume=DIR)`` continues an interrupted run until
its budget is spent (games that were in progress are restarted).
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import os
import pickle
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence, Union

import numpy as np
import torch

import ludoteca

from .._core import MCTS, Game, State
from ..agents.mcts import MCTSAgent
from ..errors import CheckpointError, OptionError
from .nets import export_npz, make_network

__all__ = ["AlphaZeroConfig", "ReplayBuffer", "alphazero", "load_checkpoint", "plot_curve"]

PathLike = Union[str, "os.PathLike[str]"]

TRAIN_FIELDS = [
    "minutes", "iteration", "selfplay_games", "decisions", "buffer", "train_steps",
    "policy_loss", "value_loss", "mean_game_turns",
]  # fmt: skip
EVAL_FIELDS = ["minutes", "iteration", "selfplay_games", "train_steps", "elo", "elo_low", "elo_high", "opponent", "games", "score", "points_per_game"]


@dataclass
class AlphaZeroConfig:
    """Everything a run depends on (saved as ``config.json``; same config and seed, same run up to timing).

    Budget: ``minutes`` of wall clock in all (self-play, training and
    evaluation), or ``iterations`` if given (whichever comes first).
    One iteration = ``selfplay_steps`` searches of all ``games`` games, then
    ``train_steps`` minibatches of ``batch_size`` once the buffer holds
    ``min_buffer`` decisions.

    ``chance_values`` (games with chance nodes only): the searches evaluate
    chance nodes with the network (``MCTS(evaluate_chance=True)``: a move that
    completes the turn is valued before the dice, over all rolls at once),
    and self-play stores each position before a roll as a value-only sample
    for ``State.chance_player``, so that the value head learns those
    positions; the evaluation games and the exported network search the same way.
    """

    game: str
    minutes: float = 10.0
    seed: int = 0
    iterations: Optional[int] = None
    # Self-play.
    games: int = 32
    simulations: int = 32
    selection: str = "gumbel"
    considered: int = 16
    max_turns: Optional[int] = None
    search_threads: int = 1
    chance_values: bool = False
    # Network (ResNet for planes, MLP for flat observations).
    channels: int = 32
    blocks: int = 2
    hidden: int = 128
    torch_threads: int = 1
    # Training.
    buffer: Optional[int] = None
    min_buffer: int = 512
    batch_size: int = 128
    lr: float = 1e-3
    weight_decay: float = 1e-4
    selfplay_steps: int = 4
    train_steps: int = 4
    # Evaluation and bookkeeping.
    eval_minutes: float = 3.0
    eval_games: int = 20
    eval_simulations: int = 16
    eval_openings: Optional[int] = None
    opponents: Sequence[str] = field(default_factory=lambda: ["random", "greedy"])
    checkpoint_minutes: float = 2.0
    log_seconds: float = 10.0
    progress: bool = True

    def validate(self) -> None:
        """Raises ``OptionError`` on a value out of range."""
        if self.game not in ludoteca.games():
            raise OptionError(f"unknown game {self.game!r}; known: {', '.join(ludoteca.games())}")
        for name in ("games", "simulations", "batch_size", "buffer_size", "selfplay_steps", "eval_games", "eval_simulations", "torch_threads", "search_threads", "channels", "hidden"):
            if int(getattr(self, name)) < 1:
                raise OptionError(f"{name} must be >= 1, got {getattr(self, name)!r}")
        if self.minutes <= 0:
            raise OptionError(f"minutes must be > 0, got {self.minutes!r}")
        if self.selection not in ("gumbel", "puct"):
            raise OptionError(f"selection must be 'gumbel' or 'puct', got {self.selection!r}")
        if self.min_buffer > self.buffer_size:
            raise OptionError(f"min_buffer ({self.min_buffer}) exceeds the buffer ({self.buffer_size})")
        if not self.opponents:
            raise OptionError("opponents: at least one agent to evaluate against")
        if self.chance_values and "chance" not in ludoteca.Game(self.game).options:
            raise OptionError(f"chance_values: {self.game} has no chance nodes to value (it applies to games with dice: backgammon)")

    @property
    def buffer_size(self) -> int:
        """Replay buffer capacity in decisions: ``buffer``, or by default
        20,000, and 500,000 for backgammon.

        Backgammon's outcomes are mostly dice: a value head fitted to the last
        20,000 decisions (about 300 games, each seen four times) learns that
        window's luck, and its network lost to ``greedy`` after an hour (0.15
        at 60 minutes); with 500,000 decisions (about 8,000 games) it scored
        0.5 against ``greedy`` after 10 minutes (docs/training.md).
        """
        if self.buffer is not None:
            return int(self.buffer)
        return 500_000 if self.game == "backgammon" else 20_000

    def game_options(self) -> dict[str, Any]:
        """The options self-play games are created with."""
        opts: dict[str, Any] = {}
        if self.game == "backgammon":
            opts["chance"] = "explicit"
        if self.max_turns is not None:
            opts["max_turns"] = self.max_turns
        return opts


def _command_line(cfg: Any, recipe: str = "alphazero", defaults: Any = None) -> str:
    """The ``python -m ludoteca.train RECIPE`` command that gives ``cfg``: every field that differs from
    its value in ``defaults`` (a config of the same game; default: the dataclass defaults)."""
    words = ["python", "-m", "ludoteca.train", recipe, cfg.game, "--seed", str(cfg.seed), "--minutes", f"{cfg.minutes:g}"]
    for f in dataclasses.fields(cfg):
        if f.name in ("game", "seed", "minutes", "progress"):
            continue
        value = getattr(cfg, f.name)
        if defaults is not None:
            default: Any = getattr(defaults, f.name)
        else:
            default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        if value == default or (f.name == "opponents" and list(value) == list(default)):
            continue
        flag = "--" + f.name.replace("_", "-")
        if isinstance(default, bool):
            words.append(flag)  # a switch: given means True
            continue
        words += [flag, *map(str, value)] if f.name == "opponents" else [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    return " ".join(words)


class ReplayBuffer:
    """The latest ``capacity`` samples: observations and policy targets (float16), legal masks (bit-packed), values,
    and whether each has a policy target (a decision) or only a value (a position before a roll, ``chance_values``)."""

    def __init__(self, capacity: int, observation_shape: Sequence[int], num_actions: int) -> None:
        self.capacity, self.num_actions = capacity, num_actions
        # float16 halves the buffer and the checkpoint: exact for the 0/1 planes,
        # within 2e-4 for the fractional inputs of draughts and backgammon.
        self.obs = np.zeros((capacity, *observation_shape), np.float16)
        self.mask = np.zeros((capacity, (num_actions + 7) // 8), np.uint8)
        self.policy = np.zeros((capacity, num_actions), np.float16)
        self.value = np.zeros(capacity, np.float32)
        self.has_policy = np.ones(capacity, bool)
        self.size = 0
        self.next = 0

    def add(self, obs: np.ndarray, mask: np.ndarray, policy: np.ndarray, value: np.ndarray, has_policy: Optional[np.ndarray] = None) -> None:
        """Appends a batch of samples, overwriting the oldest; ``has_policy=None``: all are decisions."""
        for k in range(len(obs)):
            i = self.next
            self.obs[i] = obs[k]
            self.mask[i] = np.packbits(mask[k])
            self.policy[i] = policy[k]
            self.value[i] = value[k]
            self.has_policy[i] = True if has_policy is None else bool(has_policy[k])
            self.next = (i + 1) % self.capacity
            self.size = min(self.size + 1, self.capacity)

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``n`` samples drawn uniformly with replacement: (obs, mask, policy, value, has_policy)."""
        idx = rng.integers(0, self.size, n)
        mask = np.unpackbits(self.mask[idx], axis=1, count=self.num_actions).astype(bool)
        return self.obs[idx].astype(np.float32), mask, self.policy[idx].astype(np.float32), self.value[idx], self.has_policy[idx]

    def state_dict(self) -> dict[str, Any]:
        """The filled part, for a checkpoint."""
        n = self.size
        return {
            "obs": self.obs[:n].copy(), "mask": self.mask[:n].copy(), "policy": self.policy[:n].copy(), "value": self.value[:n].copy(),
            "has_policy": self.has_policy[:n].copy(), "next": self.next,
        }  # fmt: skip

    def load_state_dict(self, d: dict[str, Any]) -> None:
        """Restores what ``state_dict`` saved (a checkpoint written before value-only samples existed: all decisions).

        A buffer of another capacity (a run resumed with another ``buffer``)
        takes the saved samples in the order they were added and keeps the
        latest that fit.
        """
        n, nxt = len(d["value"]), int(d["next"])
        fields: dict[str, np.ndarray] = {"obs": self.obs, "mask": self.mask, "policy": self.policy, "value": self.value, "has_policy": self.has_policy}
        saved = {k: d.get(k, np.ones(n, bool)) if k == "has_policy" else d[k] for k in fields}
        if n <= self.capacity and (n == self.capacity or nxt == n):
            # The same ring (full, or never wrapped): the same slots, so a
            # resumed run draws the same samples it would have drawn.
            for k, arr in fields.items():
                arr[:n] = saved[k]
            self.size, self.next = n, nxt % self.capacity
            return
        # A wrapped ring of another capacity: the oldest sample sits at `nxt`.
        keep = min(n, self.capacity)
        order = (np.arange(n - keep, n) + nxt) % n
        for k, arr in fields.items():
            arr[:keep] = np.asarray(saved[k])[order]
        self.size, self.next = keep, keep % self.capacity


class _SelfPlay:
    """``games`` games in progress, their pending decisions, and the finished games' samples."""

    def __init__(self, game: Game, cfg: AlphaZeroConfig, rng: np.random.Generator) -> None:
        self.game, self.cfg, self.rng = game, cfg, rng
        self.started = 0
        self.states: list[State] = [self._new() for _ in range(cfg.games)]
        # Per game: (observation, legal mask, policy target, player, has a policy target).
        self.pending: list[list[tuple[np.ndarray, np.ndarray, np.ndarray, int, bool]]] = [[] for _ in range(cfg.games)]
        self.no_policy = np.zeros(game.num_actions, np.float32)
        self.no_mask = np.zeros(game.num_actions, bool)
        self.finished_games = 0
        self.finished_turns: list[int] = []

    def _new(self) -> State:
        self.started += 1
        return self.game.new_state(seed=int(self.rng.integers(2**31)))

    def _settle(self, i: int, out: list[tuple[np.ndarray, np.ndarray, np.ndarray, float, bool]]) -> None:
        """Plays chance nodes and replaces finished games until game ``i`` has a player to decide."""
        max_turns = self.game.max_turns
        while True:
            s = self.states[i]
            if s.is_chance_node():
                roller = s.chance_player
                if self.cfg.chance_values and roller is not None:
                    # The position before the roll: a value target only (no one decides here).
                    self.pending[i].append((s.observation(), self.no_mask, self.no_policy, roller, False))
                outcomes = s.chance_outcomes()
                p = np.array([q for _, q in outcomes], np.float64)
                k = int(self.rng.choice(len(outcomes), p=p / p.sum()))
                s.apply_action(outcomes[k][0])
                continue
            truncated = max_turns > 0 and s.turns_played >= max_turns
            if s.is_terminal() or truncated:
                # A truncated game is worth 0, as in the search and the environments.
                r = s.returns() if s.is_terminal() else np.zeros(2, np.float32)
                for obs, mask, pol, player, has_policy in self.pending[i]:
                    out.append((obs, mask, pol, float(r[player]), has_policy))
                self.pending[i] = []
                self.finished_games += 1
                self.finished_turns.append(s.turns_played)
                self.states[i] = self._new()
                continue
            return

    def step(self, evaluate: Any, search_seed: int) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray, float, bool]], int]:
        """One search of every game and one decision played in each; returns the finished games' samples and decisions made."""
        out: list[tuple[np.ndarray, np.ndarray, np.ndarray, float, bool]] = []
        for i in range(len(self.states)):
            self._settle(i, out)
        cfg = self.cfg
        search = MCTS(
            self.game, cfg.simulations, selection=cfg.selection, considered=cfg.considered, num_threads=cfg.search_threads,
            evaluate_chance=cfg.chance_values, seed=search_seed,
        )  # fmt: skip
        result = search.search(self.states, evaluate)
        policy = result.policy
        for i, s in enumerate(self.states):
            self.pending[i].append((s.observation(), s.legal_action_mask(), policy[i], s.current_player, True))
            s.apply_action(int(result.actions[i]))
        return out, len(self.states)


def _evaluator(net: torch.nn.Module) -> Any:
    @torch.no_grad()
    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, values = net(torch.from_numpy(obs))
        return logits.numpy(), values.numpy()

    return evaluate


def _value_scale(game: Game) -> float:
    # Backgammon single games score up to 3 (a backgammon); every other game +-1.
    return 3.0 if game.family == "backgammon" else 1.0


def plot_curve(out: PathLike) -> bool:
    """Draws ``curve.png`` from a run folder's ``eval.csv``: Elo over minutes (95 % intervals), and the score against each opponent.

    Returns False, saying why on stderr, when matplotlib is not installed or
    there is nothing to plot yet.
    """
    out = Path(out)
    rows = _read_csv(out / "eval.csv")
    if not rows:
        return False
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no curve.png (pip install matplotlib); eval.csv has the numbers", file=sys.stderr)
        return False
    seen: dict[float, dict[str, str]] = {}
    scores: dict[str, list[tuple[float, float]]] = {}
    for r in rows:
        seen.setdefault(float(r["minutes"]), r)
        scores.setdefault(r["opponent"], []).append((float(r["minutes"]), float(r["score"])))
    pts = sorted((m, r) for m, r in seen.items() if r["elo"] != "")
    x = [m for m, _ in pts]
    elo = [float(r["elo"]) for _, r in pts]
    err = [[e - float(r["elo_low"]) for e, (_, r) in zip(elo, pts)], [float(r["elo_high"]) - e for e, (_, r) in zip(elo, pts)]]
    cfg = json.loads((out / "config.json").read_text())
    fig, (ax, bx) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    ax.errorbar(x, elo, yerr=err, fmt="o-", capsize=3)
    ax.axhline(0.0, color="grey", lw=0.8)
    anchor = "random" if "random" in scores else rows[0]["opponent"]
    ax.set_ylabel(f"Elo ({anchor} = 0), 95 % interval")
    recipe = {"td": "TD(lambda)"}.get(cfg.get("recipe", ""), "AlphaZero")
    ax.set_title(f"{cfg['game']}: {recipe}, seed {cfg['seed']}, {cfg['eval_games']} games per opponent")
    for name, xs in scores.items():
        bx.plot([m for m, _ in xs], [v for _, v in xs], "o-", label=name)
    bx.set_ylim(-0.03, 1.03)
    bx.set_ylabel("score against")
    bx.set_xlabel("wall-clock minutes (self-play, training and evaluation)")
    bx.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=100)
    plt.close(fig)
    return True


def _read_csv(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _append_csv(path: Path, fields: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
    new = not path.is_file()
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(fields))
        if new:
            w.writeheader()
        for r in rows:
            w.writerow(r)


class _Progress:
    """tqdm over the budget's seconds when installed, else a line on stderr per log row."""

    def __init__(self, total: float, initial: float, desc: str, enabled: bool) -> None:
        self.enabled, self.bar, self.desc = enabled, None, desc
        if enabled:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=round(total), initial=round(initial), desc=desc, unit="s", leave=True)
            except ImportError:
                pass

    def update(self, elapsed: float, text: str) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.n = min(round(elapsed), self.bar.total)
            self.bar.set_postfix_str(text, refresh=False)
            self.bar.refresh()
        else:
            sys.stderr.write(f"{self.desc} {elapsed / 60:.1f} min: {text}\n")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _record_eval(res: dict[str, Any], out_dir: Path, counters: dict[str, Any], elapsed: float) -> dict[str, Any]:
    """Appends an evaluation gauntlet's rows (the agent named ``network``) to ``eval.csv``, redraws the
    curve, marks the counters evaluated at ``elapsed`` seconds; returns the summary's ``last_eval``."""
    r = res["ratings"].get("ratings", {}).get("network")
    minutes = elapsed / 60
    rows = []
    for pair in res["pairs"]:
        rows.append({
            "minutes": round(minutes, 3), "iteration": counters["iteration"], "selfplay_games": counters["selfplay_games"],
            "train_steps": counters["train_steps"],
            "elo": round(r["elo"], 1) if r else "", "elo_low": round(r["low"], 1) if r else "", "elo_high": round(r["high"], 1) if r else "",
            "opponent": pair["b"], "games": pair["games"], "score": round(pair["score"]["mean"], 4), "points_per_game": round(pair["points_per_game"]["mean"], 4),
        })  # fmt: skip
    _append_csv(out_dir / "eval.csv", EVAL_FIELDS, rows)
    counters["last_eval"] = elapsed
    counters["eval_iteration"] = counters["iteration"]
    plot_curve(out_dir)
    return {
        "minutes": round(minutes, 2),
        "elo": {k: round(r[k], 1) for k in ("elo", "low", "high")} if r else None,
        "pairs": [{"opponent": p["b"], **{k: p[k] for k in ("games", "wins", "draws", "losses")}, "score": round(p["score"]["mean"], 3)} for p in res["pairs"]],
    }


#: What each recipe's checkpoint holds (``load_checkpoint`` refuses a file without them).
_CHECKPOINT_KEYS = {
    "alphazero": ("config", "net", "optimizer", "buffer", "counters", "numpy_rng", "torch_rng"),
    "td": ("config", "net", "optimizer", "counters", "rng", "torch_rng", "pending_x", "pending_y"),
}


def _numpy_globals() -> list[Any]:
    """What unpickling a numpy array takes: checkpoints written before they held only tensors stored the
    replay buffer as numpy arrays (plain data: numpy rebuilds an array from its shape, dtype and bytes)."""
    core = getattr(np, "_core", None) or np.core
    # bytes: pickle's protocol 2 writes an empty array's data as bytes().
    names: list[Any] = [core.multiarray._reconstruct, np.ndarray, np.dtype, bytes]
    dtypes = getattr(np, "dtypes", None)
    if dtypes is not None:
        names += [getattr(dtypes, n) for n in dir(dtypes) if n.endswith("DType")]
    return names


def _as_tensors(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` with its numpy arrays as CPU tensors (sharing memory): a checkpoint holds only what
    ``torch.load(weights_only=True)`` reads."""
    return {k: torch.from_numpy(np.ascontiguousarray(v)) if isinstance(v, np.ndarray) else v for k, v in d.items()}


def _as_arrays(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` with its tensors as numpy arrays (the inverse of ``_as_tensors``)."""
    return {k: v.numpy() if isinstance(v, torch.Tensor) else v for k, v in d.items()}


def load_checkpoint(path: PathLike, recipe: str) -> dict[str, Any]:
    """A run's ``checkpoint.pt``, read as data only (tensors, numbers, strings, lists, dicts), or
    ``CheckpointError``: a file holding anything else (any other object, which unpickling would
    construct by running code) is refused, as is one that is truncated or not ``recipe``'s."""
    name = str(path)
    safe = getattr(torch.serialization, "safe_globals", None)
    try:
        if safe is None:  # torch < 2.5: tensors and plain data only
            ckpt = torch.load(path, weights_only=True, map_location="cpu")
        else:
            with safe(_numpy_globals()):
                ckpt = torch.load(path, weights_only=True, map_location="cpu")
    except pickle.UnpicklingError as e:
        # torch's message names the refused object among much advice: keep that name only.
        named = re.search(r"(GLOBAL [\w.]+|got <class '[\w.]+'>)", str(e))
        first = named.group(1) if named else str(e).strip()[:200]
        raise CheckpointError(
            f"{name!r} holds objects other than tensors and plain data, which loading would construct by running "
            f"code: refused (a checkpoint written by ludoteca.train holds none; {first})"
        ) from None
    except (RuntimeError, EOFError, OSError, ValueError, KeyError, AttributeError, ImportError, MemoryError) as e:
        raise CheckpointError(f"{name!r} is not a readable checkpoint ({type(e).__name__}: {str(e)[:200]})") from None
    want = _CHECKPOINT_KEYS[recipe]
    if not isinstance(ckpt, dict) or not isinstance(ckpt.get("config"), dict):
        raise CheckpointError(f"{name!r} is not a ludoteca.train checkpoint (expected a dict with the keys {', '.join(want)})")
    missing = [k for k in want if k not in ckpt]
    if missing:
        raise CheckpointError(f"{name!r} is not a {recipe} checkpoint: it lacks {', '.join(missing)}")
    return ckpt


def _open_run(recipe: str, config_cls: Any, game: Optional[str], out: Optional[PathLike], resume: Optional[PathLike],
              config: Any, options: dict[str, Any]) -> tuple[Any, Path, Optional[dict[str, Any]]]:
    """The config, run folder and checkpoint (None for a new run) of a recipe's call, or ``OptionError``:
    ``resume`` reads the folder's checkpoint and its saved config, ``options`` replacing fields."""
    if resume is not None:
        out_dir = Path(resume)
        ckpt_path = out_dir / "checkpoint.pt"
        if not ckpt_path.is_file():
            raise OptionError(f"nothing to resume: no checkpoint.pt in {str(out_dir)!r}")
        ckpt = load_checkpoint(ckpt_path, recipe)
        saved = dict(ckpt["config"])
        saved.update(options)
        if game is not None and game != saved["game"]:
            raise OptionError(f"{str(out_dir)!r} trains {saved['game']!r}, not {game!r}")
        try:
            return config_cls(**saved), out_dir, ckpt
        except TypeError as e:
            raise OptionError(f"{recipe}: {e}") from None
    if config is None:
        if game is None:
            raise OptionError(f"{recipe} needs a game id")
        try:
            cfg = config_cls(game=game, **options)
        except TypeError as e:
            raise OptionError(f"{recipe}: {e}") from None
    else:
        cfg = dataclasses.replace(config, **options)
    if out is None:
        raise OptionError(f"{recipe} needs an output folder (out=...)")
    out_dir = Path(out)
    if (out_dir / "checkpoint.pt").exists():
        raise OptionError(f"{str(out_dir)!r} already holds a run: resume it (resume=...) or choose another folder")
    return cfg, out_dir, None


def alphazero(
    game: Optional[str] = None,
    out: Optional[PathLike] = None,
    resume: Optional[PathLike] = None,
    config: Optional[AlphaZeroConfig] = None,
    **options: Any,
) -> dict[str, Any]:
    """Trains a network for ``game`` by self-play; returns the run's summary (also ``summary.json``).

    ``alphazero("kharbaga", out="runs/k", minutes=10, seed=0)``: keywords are
    ``AlphaZeroConfig`` fields (or pass ``config``). ``resume=DIR`` continues
    the run in ``DIR`` from its checkpoint until its budget is spent; keywords
    given with it replace the saved ones (e.g. a larger ``minutes``).
    """
    cfg, out_dir, ckpt = _open_run("alphazero", AlphaZeroConfig, game, out, resume, config, options)
    cfg.validate()
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "config.json").write_text(json.dumps(dataclasses.asdict(cfg), indent=1, default=list) + "\n")

    torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    game_obj = Game(cfg.game, **cfg.game_options())
    net = make_network(game_obj.observation_shape, game_obj.num_actions, _value_scale(game_obj), cfg.channels, cfg.blocks, cfg.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    buf = ReplayBuffer(cfg.buffer_size, game_obj.observation_shape, game_obj.num_actions)
    counters: dict[str, Any] = {"iteration": 0, "selfplay_games": 0, "decisions": 0, "train_steps": 0, "elapsed": 0.0, "last_eval": None, "eval_iteration": -1, "last_checkpoint": 0.0, "resumed": 0}
    if ckpt is not None:
        net.load_state_dict(ckpt["net"])
        opt.load_state_dict(ckpt["optimizer"])
        buf.load_state_dict(_as_arrays(ckpt["buffer"]))
        counters.update(ckpt["counters"])
        counters["resumed"] += 1
        rng.bit_generator.state = ckpt["numpy_rng"]
        torch.set_rng_state(ckpt["torch_rng"])
    selfplay = _SelfPlay(game_obj, cfg, rng)
    evaluate = _evaluator(net)
    budget = cfg.minutes * 60.0
    t0: float = time.monotonic() - float(counters["elapsed"])
    bar = _Progress(budget, counters["elapsed"], f"{cfg.game} alphazero", cfg.progress)
    export_path = out_dir / "export.npz"
    losses: list[tuple[float, float]] = []

    def elapsed() -> float:
        return time.monotonic() - t0

    def export() -> None:
        net.eval()
        export_npz(net, export_path, cfg.game, cfg.game_options(), search={"evaluate_chance": cfg.chance_values}, extra={
            "command": _command_line(cfg),
            "minutes": round(elapsed() / 60, 2), "selfplay_games": counters["selfplay_games"],
            "decisions": counters["decisions"], "train_steps": counters["train_steps"],
            "parameters": sum(p.numel() for p in net.parameters()),
            "config": dataclasses.asdict(cfg),
        })

    def save_checkpoint() -> None:
        counters["elapsed"] = elapsed()
        counters["last_checkpoint"] = counters["elapsed"]
        blob = {"config": dataclasses.asdict(cfg), "net": net.state_dict(), "optimizer": opt.state_dict(), "buffer": _as_tensors(buf.state_dict()), "counters": dict(counters), "numpy_rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state()}
        tmp = out_dir / "checkpoint.pt.tmp"
        torch.save(blob, tmp)
        os.replace(tmp, out_dir / "checkpoint.pt")

    def run_eval() -> dict[str, Any]:
        from ..arena import tournament

        export()
        # The torch network, set up as Baseline plays the export: numpy's BLAS, on its
        # default threads, is many times slower than torch on one thread on a busy machine.
        net.eval()
        agent = MCTSAgent(
            cfg.eval_simulations, evaluator=evaluate, seed=cfg.seed, selection="gumbel", gumbel_scale=0.0,
            num_threads=cfg.search_threads, evaluate_chance=cfg.chance_values,
        )  # fmt: skip
        agent.name = "network"
        openings = cfg.eval_openings if cfg.eval_openings is not None else (0 if game_obj.family == "backgammon" else 4)
        # Ratings are relative: random = 0 when it plays, else the first
        # opponent = 0 (anchoring nothing would pin the network itself at 0).
        anchor = "random" if "random" in cfg.opponents else cfg.opponents[0]
        res = tournament(cfg.game, [agent, *cfg.opponents], games=cfg.eval_games, gauntlet=0, openings=openings, seed=cfg.seed, anchor=anchor)
        return _record_eval(res, out_dir, counters, elapsed())

    last_eval: dict[str, Any] = {}
    interrupted = False
    last_log = -math.inf
    try:
        if counters["last_eval"] is None:
            last_eval = run_eval()  # the untrained network: the curve's first point
        while elapsed() < budget and (cfg.iterations is None or counters["iteration"] < cfg.iterations):
            net.eval()
            for _ in range(cfg.selfplay_steps):
                seed = cfg.seed * 1_000_003 + counters["decisions"]
                samples, made = selfplay.step(evaluate, seed)
                counters["decisions"] += made
                if samples:
                    obs, mask, pol, val, has_pol = (np.stack([s[k] for s in samples]) for k in range(5))
                    buf.add(obs, mask, pol, val, has_pol)
            counters["selfplay_games"] += selfplay.finished_games
            selfplay.finished_games = 0
            if buf.size >= cfg.min_buffer:
                net.train()
                for _ in range(cfg.train_steps):
                    obs, mask, pol, val, has_pol = buf.sample(rng, cfg.batch_size)
                    logits, v = net(torch.from_numpy(obs))
                    # A value-only sample's mask is all false: its row is finite (uniform) and its zero policy adds nothing.
                    logp = torch.log_softmax(logits.masked_fill(~torch.from_numpy(mask), -1e9), dim=1)
                    cross = -(torch.from_numpy(pol) * logp).sum(1)
                    if has_pol.all():
                        p_loss = cross.mean()
                    else:
                        p_loss = cross.sum() / max(int(has_pol.sum()), 1)
                    scale = net.value_scale
                    v_loss = torch.mean((v / scale - torch.from_numpy(val) / scale) ** 2)
                    opt.zero_grad()
                    (p_loss + v_loss).backward()  # type: ignore[no-untyped-call]
                    opt.step()
                    counters["train_steps"] += 1
                    losses.append((p_loss.item(), v_loss.item()))
            counters["iteration"] += 1
            if elapsed() - last_log >= cfg.log_seconds or elapsed() >= budget:
                last_log = elapsed()
                turns = selfplay.finished_turns[-100:]
                pl = float(np.mean([a for a, _ in losses[-20:]])) if losses else float("nan")
                vl = float(np.mean([b for _, b in losses[-20:]])) if losses else float("nan")
                _append_csv(out_dir / "train.csv", TRAIN_FIELDS, [{
                    "minutes": round(elapsed() / 60, 3), "iteration": counters["iteration"], "selfplay_games": counters["selfplay_games"],
                    "decisions": counters["decisions"], "buffer": buf.size, "train_steps": counters["train_steps"],
                    "policy_loss": "" if math.isnan(pl) else round(pl, 4), "value_loss": "" if math.isnan(vl) else round(vl, 4),
                    "mean_game_turns": round(float(np.mean(turns)), 1) if turns else "",
                }])  # fmt: skip
                elo = last_eval.get("elo") if last_eval else None
                bar.update(elapsed(), f"games {counters['selfplay_games']} steps {counters['train_steps']} loss {pl:.3f}/{vl:.3f}" + (f" elo {elo['elo']:.0f}" if elo else ""))
            if elapsed() - (counters["last_eval"] or 0.0) >= cfg.eval_minutes * 60:
                last_eval = run_eval()
            if elapsed() - counters["last_checkpoint"] >= cfg.checkpoint_minutes * 60:
                save_checkpoint()
        if counters["eval_iteration"] != counters["iteration"]:
            last_eval = run_eval()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    save_checkpoint()
    export()
    summary = {
        "game": cfg.game, "seed": cfg.seed, "out": str(out_dir), "minutes": round(elapsed() / 60, 2), "interrupted": interrupted,
        **{k: counters[k] for k in ("iteration", "selfplay_games", "decisions", "train_steps", "resumed")},
        "last_eval": last_eval, "parameters": sum(p.numel() for p in net.parameters()),
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    if interrupted:
        print(f"interrupted: resume with python -m ludoteca.train alphazero {cfg.game} --resume {out_dir}", file=sys.stderr)
    return summary

