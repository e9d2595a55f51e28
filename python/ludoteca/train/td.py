"""TD(lambda) self-play on afterstates, the TD-Gammon recipe: the baselines of backgammon, damas_10x10 and tablut.

A value network ``V(x)`` rates the position ``x`` after a complete move (for
backgammon: before the dice, the chance node of ``chance="explicit"``), for
the player the observation takes the side of (there the player about to
roll; without dice the player to move). Self-play plays many games at once;
each turn lists the complete moves (``turn_values``), rates every resulting
position with one batched forward pass and plays the move best for the mover
(``epsilon`` of the moves at random; the board games' observation planes are
flattened into the MLP). When a game ends, every position it passed through
gets its lambda-return as the value target, computed backwards from the
final points::

    G_last = points of the final position for its side
    G_t    = s_t * ((1 - lambda) * V(x_{t+1}) + lambda * G_{t+1})

with ``s_t = -1`` when ``x_{t+1}`` takes the other side's view. Each target is
trained on once, in minibatches, in the order the games ended.

Why a second recipe: AlphaZero's search decides backgammon one checker at a
time and, at 16 simulations, never learnt to rate the positions a complete
move can reach (docs/training.md, "Backgammon"); rating exactly those
positions is what TD learning trains (and in damas_10x10 it learnt, within
the hour, what AlphaZero's did not: docs/training.md, "damas_10x10"). The
run folder holds what an AlphaZero run holds: ``config.json``,
``train.csv``, ``eval.csv``, ``curve.png``, ``checkpoint.pt``,
``export.npz`` (``Baseline`` plays it by a search over complete moves,
``play_plies`` deep: expectimax with dice, alpha-beta without) and
``summary.json``. A resumed run starts new games (the games in progress
when it stopped are not saved).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import sys
import time
from typing import Any, Optional, Union

import numpy as np
import torch

from .._core import Game, State
from ..agents.baseline import _BASELINES, _MAX_PLIES, Baseline, NetworkFileError, NumpyNet, shipped_baselines
from ..agents.search import turn_values
from ..errors import OptionError
from .alphazero import _append_csv, _open_run, _Progress, _record_eval, _value_scale, _as_arrays, _as_tensors
from .alphazero import _command_line as _az_command_line
from .nets import MLP, export_npz

__all__ = ["TDConfig", "td"]

PathLike = Union[str, "os.PathLike[str]"]

TRAIN_FIELDS = ["minutes", "iteration", "selfplay_games", "decisions", "train_steps", "value_loss", "mean_game_moves"]


@dataclasses.dataclass
class TDConfig:
    """Every option of a TD(lambda) run (``python -m ludoteca.train td --help`` lists them).

    One iteration makes one move in each of ``games`` games, then trains on
    every ``batch_size`` targets the finished games have produced.
    """

    game: str
    minutes: float = 60.0
    seed: int = 0
    iterations: Optional[int] = None
    games: int = 64
    lam: float = 0.7
    #: None: 0 for a game with dice (the dice explore), 0.1 for one without (greedy self-play would repeat one game).
    epsilon: Optional[float] = None
    hidden: int = 128
    lr: float = 1e-3
    batch_size: int = 256
    torch_threads: int = 1
    eval_minutes: float = 10.0
    eval_games: int = 40
    eval_plies: int = 0
    #: None: 1 for a game with dice, 0 for one without.
    play_plies: Optional[int] = None
    eval_openings: Optional[int] = None
    #: Random complete moves that open each self-play game (not learnt from).
    openings: int = 0
    #: Start from the weights of an exported MLP of the same game and size (an ``export.npz``,
    #: or ``"baseline"`` for the network shipped in the package) instead of random ones.
    init: Optional[str] = None
    opponents: list[str] = dataclasses.field(default_factory=list)
    checkpoint_minutes: float = 5.0
    log_seconds: float = 10.0
    progress: bool = True

    def __post_init__(self) -> None:
        dice = "chance" in Game(self.game).options
        if not self.opponents:
            self.opponents = ["greedy", "expectimax:plies=1"] if dice else ["greedy", "alphabeta:depth=2"]
        if self.epsilon is None:
            self.epsilon = 0.0 if dice else 0.1
        if self.play_plies is None:
            self.play_plies = 1 if dice else 0

    def validate(self) -> None:
        """Raises ``OptionError`` naming the first option out of range."""
        for name in ("games", "hidden", "batch_size", "eval_games", "torch_threads"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise OptionError(f"td: {name} must be an integer >= 1, got {v!r}")
        if isinstance(self.openings, bool) or not isinstance(self.openings, int) or not 0 <= self.openings <= 40:
            raise OptionError(f"td: openings must be an integer in [0, 40], got {self.openings!r}")
        # As deep as a network file may ask Baseline to search (agents.baseline._MAX_PLIES).
        top = _MAX_PLIES["dice" if "chance" in Game(self.game).options else "no dice"]
        for name in ("eval_plies", "play_plies"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= top:
                raise OptionError(f"td: {name} must be an integer in [0, {top}] for {self.game}, got {v!r}")
        assert self.epsilon is not None and self.play_plies is not None  # set by __post_init__
        if not 0.0 <= self.lam <= 1.0:
            raise OptionError(f"td: lam must be in [0, 1], got {self.lam!r}")
        if not 0.0 <= self.epsilon <= 1.0:
            raise OptionError(f"td: epsilon must be in [0, 1], got {self.epsilon!r}")
        if not (self.minutes > 0 and self.lr > 0 and self.eval_minutes > 0 and self.checkpoint_minutes > 0):
            raise OptionError("td: minutes, lr, eval_minutes and checkpoint_minutes must be > 0")
        if self.iterations is not None and self.iterations < 1:
            raise OptionError(f"td: iterations must be >= 1, got {self.iterations!r}")

    def game_options(self) -> dict[str, Any]:
        """Options of the training game: explicit chance nodes where there are dice (the position before the roll)."""
        return {"chance": "explicit"} if "chance" in Game(self.game).options else {}


def _load_init(net: MLP, cfg: TDConfig) -> None:
    """Copies the weights of ``cfg.init`` into ``net``, or ``OptionError`` naming what does not match."""
    assert cfg.init is not None
    path: Any = cfg.init
    if cfg.init == "baseline":
        if cfg.game not in shipped_baselines():
            raise OptionError(f"td: init='baseline': no network of {cfg.game!r} ships in the package (those of {', '.join(shipped_baselines())} do)")
        path = _BASELINES / f"{cfg.game}.npz"
    try:
        src = NumpyNet(path)
    except NetworkFileError as e:
        raise OptionError(f"td: init: {e}") from None
    have = (src.kind, src.game_id, src.meta.get("hidden"), src.observation_shape, src.num_actions, src.value_scale)
    want = ("mlp", cfg.game, cfg.hidden, tuple(net.observation_shape), net.num_actions, net.value_scale)
    if have != want:
        raise OptionError(f"td: init {str(path)!r} holds (kind, game, hidden, observation shape, actions, value scale) = {have}; this run trains {want}")
    net.load_numpy_arrays(src._w)


def _command_line(cfg: TDConfig) -> str:
    """The ``python -m ludoteca.train td`` command that gives ``cfg`` (the options that differ from the game's defaults)."""
    return _az_command_line(cfg, "td", TDConfig(game=cfg.game))


def _side(state: State) -> int:
    """The player whose view the observation of ``state`` takes (a chance node: the player about to roll)."""
    if state.is_chance_node():
        p = state.chance_player
        if p is None:
            raise OptionError(f"td: {state.game.id} does not say whose view its chance nodes take (State.chance_player)")
        return int(p)
    return int(state.current_player)


class _Game:
    """One self-play game: its state at a decision and the afterstates it passed, with their sides."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.obs: list[np.ndarray] = []
        self.sides: list[int] = []
        # Complete moves chosen by self-play (random opening moves not counted).
        self.moves = 0


#: turn_values callback values at or above this mark stand for the index of a listed afterstate.
_MARK = 1 << 20


class _SelfPlay:
    def __init__(self, game: Game, cfg: TDConfig, rng: random.Random) -> None:
        self.game, self.cfg, self.rng = game, cfg, rng
        self.max_turns = game.max_turns
        assert cfg.epsilon is not None  # set by TDConfig.__post_init__
        self.epsilon: float = cfg.epsilon
        self.games = [self._new() for _ in range(cfg.games)]
        self.finished_turns: list[int] = []

    def _roll(self, s: State) -> None:
        # Chance outcomes drawn with the run's generator, so that a run is reproducible.
        while s.is_chance_node():
            outcomes = s.chance_outcomes()
            r, acc = self.rng.random(), 0.0
            for a, p in outcomes:
                acc += p
                if r < acc:
                    break
            s.apply_action(a)

    def _new(self) -> _Game:
        s = self.game.new_state(self.rng.randrange(1 << 31))
        self._roll(s)
        # Random opening turns: without dice, greedy self-play from one position would learn one
        # line and little of the positions the arena's random openings start from.
        for _ in range(self.cfg.openings):
            if s.is_terminal():
                break
            moves = s.legal_moves()
            s.play(moves[self.rng.randrange(len(moves))])
            self._roll(s)
        if s.is_terminal():
            return self._new()
        return _Game(s)

    def step(self, net: MLP) -> tuple[list[tuple[np.ndarray, np.ndarray]], int]:
        """One complete move in every game; returns the finished games' (observations, targets) and the moves made."""
        moves: list[list[tuple[str, float]]] = []
        cands: list[list[State]] = []
        for g in self.games:
            mine: list[State] = []

            def collect(t: State, _p: int, mine: list[State] = mine) -> float:
                # The value handed back marks which listed move this position belongs to
                # (turn_values rates a move that ends the game by its points, without asking).
                mine.append(t.clone())
                return float(_MARK + len(mine) - 1)

            values = turn_values(g.state, collect)
            if not values:
                raise RuntimeError(f"td: no complete move at a decision of {self.game.id}: {g.state.to_string()}")
            moves.append(values)
            cands.append(mine)
        flat = [t for c in cands for t in c]
        obs = np.stack([t.observation() for t in flat]) if flat else np.zeros((0, *self.game.observation_shape), np.float32)
        with torch.no_grad():
            v = net(torch.from_numpy(obs))[1].numpy()
        finished = []
        k = 0
        for i, g in enumerate(self.games):
            mover = g.state.current_player
            g.moves += 1
            # (value for the mover, move, afterstate, its observation); the afterstate is None for a move that ends the game.
            options: list[tuple[float, str, Optional[State], Optional[np.ndarray]]] = []
            for move, value in moves[i]:
                if value >= _MARK:
                    j = k + int(value) - _MARK
                    t = flat[j]
                    options.append((float(v[j]) if _side(t) == mover else -float(v[j]), move, t, obs[j]))
                else:
                    options.append((float(value), move, None, None))
            k += len(cands[i])
            top = max(o[0] for o in options)
            win = next((o for o in options if o[2] is None and o[0] >= 1.0), None)
            if win is not None:
                # A move that wins outright is always played.
                choice = win
            elif self.epsilon > 0 and self.rng.random() < self.epsilon:
                choice = options[self.rng.randrange(len(options))]
            else:
                # Ties (equal afterstates are listed once; equal values are rare) go to the first listed.
                choice = next(o for o in options if o[0] >= top)
            _, move, nxt, x = choice
            if x is not None:
                # A copy: the view would keep the whole step's observations alive for the rest of the game.
                x = x.copy()
            # The game's own state plays the move, so that the draw rules of its history
            # (repetition), which the listed positions do not carry, end the game.
            g.state.play(move)
            if nxt is not None and not g.state.is_terminal():
                assert x is not None
                g.obs.append(x)
                g.sides.append(_side(nxt))
            self._roll(g.state)
            if g.state.is_terminal() or 0 < self.max_turns <= g.moves:
                # A game cut at the game's max_turns is worth 0, as the environments and the arena score it.
                returns = g.state.returns() if g.state.is_terminal() else np.zeros(2, np.float32)
                finished.append((g, np.asarray(returns, dtype=np.float32)))
                self.finished_turns.append(g.moves)
                self.games[i] = self._new()
        return self._targets(net, finished), len(self.games)

    def _targets(self, net: MLP, finished: list[tuple[_Game, np.ndarray]]) -> list[tuple[np.ndarray, np.ndarray]]:
        """The lambda-returns of the finished games' afterstates, as (observations, targets) per game."""
        out = []
        lam = self.cfg.lam
        for g, returns in finished:
            if not g.obs:
                continue
            x = np.stack(g.obs)
            with torch.no_grad():
                v = net(torch.from_numpy(x))[1].numpy()
            n = len(g.obs)
            target = np.empty(n, np.float32)
            target[n - 1] = returns[g.sides[n - 1]]
            for t in range(n - 2, -1, -1):
                sign = 1.0 if g.sides[t + 1] == g.sides[t] else -1.0
                target[t] = sign * ((1.0 - lam) * v[t + 1] + lam * target[t + 1])
            out.append((x, target))
        return out


def td(
    game: Optional[str] = None,
    out: Optional[PathLike] = None,
    resume: Optional[PathLike] = None,
    config: Optional[TDConfig] = None,
    **options: Any,
) -> dict[str, Any]:
    """Trains an afterstate value network for ``game`` by TD(lambda) self-play; returns the run's summary (also ``summary.json``).

    ``td("backgammon", out="runs/bg", minutes=60, seed=0)``: keywords are
    ``TDConfig`` fields (or pass ``config``). ``resume=DIR`` continues the run
    in ``DIR`` from its checkpoint until its budget is spent; keywords given
    with it replace the saved ones (e.g. a larger ``minutes``).
    """
    cfg, out_dir, ckpt = _open_run("td", TDConfig, game, out, resume, config, options)
    cfg.validate()
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "config.json").write_text(json.dumps({"recipe": "td", **dataclasses.asdict(cfg)}, indent=1) + "\n")

    torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    game_obj = Game(cfg.game, **cfg.game_options())
    net = MLP(game_obj.observation_shape, game_obj.num_actions, hidden=cfg.hidden, value_scale=_value_scale(game_obj))
    # No policy is learnt: zero logits are uniform priors should anyone search the export by MCTS.
    torch.nn.init.zeros_(net.policy.weight)
    torch.nn.init.zeros_(net.policy.bias)
    opt = torch.optim.Adam([p for n, p in net.named_parameters() if not n.startswith("policy")], lr=cfg.lr)
    counters: dict[str, Any] = {"iteration": 0, "selfplay_games": 0, "decisions": 0, "train_steps": 0, "elapsed": 0.0, "last_eval": None, "eval_iteration": -1, "last_checkpoint": 0.0, "resumed": 0}
    pending_x: list[np.ndarray] = []
    pending_y: list[np.ndarray] = []
    if ckpt is None and cfg.init is not None:
        _load_init(net, cfg)
    if ckpt is not None:
        net.load_state_dict(ckpt["net"])
        opt.load_state_dict(ckpt["optimizer"])
        counters.update(ckpt["counters"])
        counters["resumed"] += 1
        rng.setstate(ckpt["rng"])
        torch.set_rng_state(ckpt["torch_rng"])
        pending = _as_arrays({"pending_x": ckpt["pending_x"], "pending_y": ckpt["pending_y"]})
        if len(pending["pending_x"]):
            pending_x, pending_y = [pending["pending_x"]], [pending["pending_y"]]
    selfplay = _SelfPlay(game_obj, cfg, rng)
    budget = cfg.minutes * 60.0
    t0: float = time.monotonic() - float(counters["elapsed"])
    bar = _Progress(budget, counters["elapsed"], f"{cfg.game} td", cfg.progress)
    export_path = out_dir / "export.npz"
    losses: list[float] = []

    def elapsed() -> float:
        return time.monotonic() - t0

    def export() -> None:
        export_npz(net, export_path, cfg.game, cfg.game_options(), search={"afterstate_plies": cfg.play_plies}, extra={
            "recipe": "td", "command": _command_line(cfg),
            "minutes": round(elapsed() / 60, 2), "selfplay_games": counters["selfplay_games"],
            "decisions": counters["decisions"], "train_steps": counters["train_steps"],
            "parameters": sum(p.numel() for n, p in net.named_parameters() if not n.startswith("policy")),
            "config": dataclasses.asdict(cfg),
        })  # fmt: skip

    def save_checkpoint() -> None:
        counters["elapsed"] = elapsed()
        counters["last_checkpoint"] = counters["elapsed"]
        px = np.concatenate(pending_x) if pending_x else np.zeros((0, *game_obj.observation_shape), np.float32)
        py = np.concatenate(pending_y) if pending_y else np.zeros(0, np.float32)
        blob = {"config": dataclasses.asdict(cfg), "net": net.state_dict(), "optimizer": opt.state_dict(), "counters": dict(counters), "rng": rng.getstate(), "torch_rng": torch.get_rng_state(), **_as_tensors({"pending_x": px, "pending_y": py})}
        tmp = out_dir / "checkpoint.pt.tmp"
        torch.save(blob, tmp)
        os.replace(tmp, out_dir / "checkpoint.pt")

    def run_eval() -> dict[str, Any]:
        from ..arena import tournament

        export()
        agent = Baseline(cfg.game, path=export_path, plies=cfg.eval_plies, seed=cfg.seed)
        agent.name = "network"
        openings = cfg.eval_openings if cfg.eval_openings is not None else (0 if game_obj.family == "backgammon" else 4)
        anchor = "random" if "random" in cfg.opponents else cfg.opponents[0]
        res = tournament(cfg.game, [agent, *cfg.opponents], games=cfg.eval_games, gauntlet=0, openings=openings, seed=cfg.seed, anchor=anchor)
        return _record_eval(res, out_dir, counters, elapsed())

    last_eval: dict[str, Any] = {}
    interrupted = False
    last_log = -math.inf
    try:
        if counters["last_eval"] is None:
            last_eval = run_eval()
        while elapsed() < budget and (cfg.iterations is None or counters["iteration"] < cfg.iterations):
            net.eval()
            samples, made = selfplay.step(net)
            counters["decisions"] += made
            counters["selfplay_games"] += len(samples)
            for x, y in samples:
                pending_x.append(x)
                pending_y.append(y)
            have = sum(len(y) for y in pending_y)
            if have >= cfg.batch_size:
                xs, ys = np.concatenate(pending_x), np.concatenate(pending_y)
                n = (len(ys) // cfg.batch_size) * cfg.batch_size
                pending_x, pending_y = [xs[n:]], [ys[n:]]
                net.train()
                scale = net.value_scale
                for b in range(0, n, cfg.batch_size):
                    _, v = net(torch.from_numpy(xs[b : b + cfg.batch_size]))
                    loss = torch.mean(((v - torch.from_numpy(ys[b : b + cfg.batch_size])) / scale) ** 2)
                    opt.zero_grad()
                    loss.backward()  # type: ignore[no-untyped-call]
                    opt.step()
                    counters["train_steps"] += 1
                    losses.append(loss.item())
            counters["iteration"] += 1
            if elapsed() - last_log >= cfg.log_seconds or elapsed() >= budget:
                last_log = elapsed()
                turns = selfplay.finished_turns[-200:]
                vl = float(np.mean(losses[-50:])) if losses else float("nan")
                _append_csv(out_dir / "train.csv", TRAIN_FIELDS, [{
                    "minutes": round(elapsed() / 60, 3), "iteration": counters["iteration"], "selfplay_games": counters["selfplay_games"],
                    "decisions": counters["decisions"], "train_steps": counters["train_steps"],
                    "value_loss": "" if math.isnan(vl) else round(vl, 5),
                    "mean_game_moves": round(float(np.mean(turns)), 1) if turns else "",
                }])  # fmt: skip
                elo = last_eval.get("elo") if last_eval else None
                bar.update(elapsed(), f"games {counters['selfplay_games']} steps {counters['train_steps']} loss {vl:.4f}" + (f" elo {elo['elo']:.0f}" if elo else ""))
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
        "game": cfg.game, "recipe": "td", "seed": cfg.seed, "out": str(out_dir), "minutes": round(elapsed() / 60, 2), "interrupted": interrupted,
        **{k: counters[k] for k in ("iteration", "selfplay_games", "decisions", "train_steps", "resumed")},
        "last_eval": last_eval, "parameters": sum(p.numel() for n, p in net.named_parameters() if not n.startswith("policy")),
    }  # fmt: skip
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    if interrupted:
        print(f"interrupted: resume with python -m ludoteca.train td --resume {out_dir}", file=sys.stderr)
    return summary
