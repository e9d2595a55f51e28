"""Trained networks without torch: a numpy forward pass and the ``Baseline`` agent.

A network trained by ``python -m ludoteca.train alphazero GAME`` is exported
to one ``.npz`` file (``export.npz`` in the run folder): the weights as numpy
arrays (batch normalisation folded into the convolutions) and a JSON
``meta`` entry saying which game and architecture it is. ``NumpyNet`` reads
such a file and computes the same policy logits and values as the torch
network (to float32 rounding; tested), with numpy only::

    from ludoteca.agents.baseline import Baseline
    bot = Baseline("kharbaga", simulations=16, path="runs/kharbaga/export.npz")

``Baseline(game_id)`` without ``path`` loads the network shipped in the
package (``ludoteca/baselines/<game>.npz``); ``docs/baselines.md`` lists
which games have one. The arena and the command line name it ``baseline``
(``baseline:simulations=16,path=FILE``).

A network trained by ``python -m ludoteca.train td GAME`` values
*afterstates* (the position after a complete move, before the dice): its file
says so (``meta["search"]["afterstate_plies"]``), and ``Baseline`` plays it by
a search over complete moves with ``AfterstateEvaluation`` as the
evaluation (expectimax with dice, alpha-beta without; ``plies=0``: the
best-valued move), not by MCTS.
"""

from __future__ import annotations

import io
import json
import math
import os
import zipfile
import zlib
from pathlib import Path
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from .._core import Game, MlpEvaluation, SearchResult, State
from .._core import games as ludoteca_games
from ..errors import LudotecaValueError, OptionError
from . import BaseAgent, Choice
from .mcts import MCTSAgent
from .search import AlphaBetaAgent, Evaluate, ExpectimaxAgent, GreedyAgent

__all__ = ["NumpyNet", "Baseline", "AfterstateEvaluation", "PhasedAgent", "NetworkFileError", "NoBaselineError", "shipped_baselines", "FORMAT"]

#: Version of the ``.npz`` layout this module reads and ``ludoteca.train`` writes.
FORMAT = 1

_BASELINES = Path(__file__).resolve().parent.parent / "baselines"

# What a network file may hold and ask for. The shipped networks are a few MB;
# a search deeper than these takes seconds per move (ask for more with the
# agent's own plies= or simulations=, not through a file).
_MAX_BYTES = 256 << 20
_MAX_PLIES = {"dice": 2, "no dice": 4}
_MAX_SIMULATIONS = 1024


class NetworkFileError(LudotecaValueError):
    """A network file that is missing, unreadable, of another format version or for another game."""


class NoBaselineError(OptionError):
    """No trained network ships with ludoteca for this game (yet).

    An ``OptionError``, as agents that do not play a game refuse it: the
    arena's ladder skips such agents for that game.
    """


def shipped_baselines() -> list[str]:
    """The game ids that have a network in the package (``ludoteca/baselines/<game>.npz``)."""
    if not _BASELINES.is_dir():
        return []
    return sorted(p.stem for p in _BASELINES.glob("*.npz"))


def _read_npz(p: Path) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz``, read as data only (no pickles) and within ``_MAX_BYTES``, or ``NetworkFileError``."""
    name = str(p)
    try:
        archive = zipfile.ZipFile(p)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        raise NetworkFileError(f"{name!r} is not a readable .npz network file: {e}") from None
    arrays: dict[str, np.ndarray] = {}
    with archive:
        total = 0
        for info in archive.infolist():
            if not info.filename.endswith(".npy"):
                raise NetworkFileError(f"{name!r} holds {info.filename[:80]!r}: a network file holds only numpy arrays")
            total += info.file_size
            if total > _MAX_BYTES:
                raise NetworkFileError(f"{name!r} holds over {_MAX_BYTES >> 20} MB of arrays: more than any network ludoteca plays")
            try:
                with archive.open(info) as f:
                    data = f.read(_MAX_BYTES + 1)  # the archive checks each entry's CRC as it ends
                if len(data) > _MAX_BYTES:
                    raise ValueError(f"over {_MAX_BYTES >> 20} MB")
                buf = io.BytesIO(data)
                version = np.lib.format.read_magic(buf)
                header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
                shape, _, dtype = header(buf)
                # The header's shape is checked against the bytes present before numpy allocates it.
                if dtype.hasobject or math.prod(shape) * dtype.itemsize != len(data) - buf.tell():
                    raise ValueError(f"its header says {dtype} {shape}, which does not match its {len(data) - buf.tell()} bytes")
                buf.seek(0)
                arrays[info.filename[:-4]] = np.lib.format.read_array(buf, allow_pickle=False)
            except (zipfile.BadZipFile, zlib.error, ValueError, EOFError, OSError, NotImplementedError, SyntaxError) as e:
                raise NetworkFileError(f"{name!r}: entry {info.filename[:80]!r} is not a readable numpy array ({str(e)[:200]})") from None
    return arrays


def _conv3x3(x: npt.NDArray[np.float32], w: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """3x3 convolution, padding 1, on channels-last ``x`` [B, H, W, C]; ``w`` is [C*9, O] (im2col order c, i, j)."""
    bsz, h, wd, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    # [B, H, W, C, 3, 3]: every 3x3 window, flattened in torch's (c, i, j) weight order.
    win = np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(1, 2))
    cols = win.reshape(bsz * h * wd, c * 9)
    return (cols @ w + b).reshape(bsz, h, wd, -1)


class NumpyNet:
    """The forward pass of an exported network, numpy only.

    ``NumpyNet(path)`` reads an ``.npz`` written by ``ludoteca.train``;
    ``net(obs)`` takes ``float32[B, *game.observation_shape]`` and returns
    ``(logits float32[B, num_actions], values float32[B])``, values for the
    player to move in the scale of the game's returns: exactly the
    ``evaluate`` callback ``ludoteca.MCTS`` wants (the mask is not needed).
    ``meta`` holds the file's description (game, options, architecture,
    training summary); ``play_simulations`` is the simulations per move it
    plays at by default: ``meta["play_simulations"]`` where the file was given
    one when it shipped (its model card measured that count), else the count
    its training evaluated it at (64 if the file says neither).
    ``evaluate_chance`` says whether its training searched with chance nodes
    valued by the network (``meta["search"]``; False for files without it).
    ``afterstate_plies`` is None for a network searched by MCTS, and for a
    network of afterstate values (``ludoteca.train.td``) the search depth
    ``Baseline`` plays it at (expectimax plies with dice, alpha-beta turns
    without; 0: one ply, the best-valued move). ``contempt`` is what a draw
    by repetition costs that alpha-beta (``meta["search"]["contempt"]``, 0
    if the file does not say) and ``threats`` whether it searches with
    threat quiescence (``meta["search"]["threats"]``, False if unsaid).
    ``builtin`` is the weight of the game's built-in evaluation blended
    into that alpha-beta's leaf values (``meta["search"]["builtin"]``, 0 if
    unsaid: the network alone; see ``MlpEvaluation``), and
    ``builtin_from`` the turn of the game from which it is blended in
    (``meta["search"]["builtin_from"]``, 0 if unsaid: from the start).

    The file is read as data only (numpy arrays, no pickles, at most 256 MB)
    and checked before use: its ``meta`` must describe a network of a
    ludoteca game (observation shape and actions included), its weights must
    be finite and answer one forward pass, and what it asks of the search is
    bounded: ``play_simulations`` at most 1024 (a count taken from training is
    capped there), ``afterstate_plies`` at most 2 in a
    game with dice and 4 without (deeper searches take seconds per move;
    ``Baseline(plies=...)`` or ``simulations=...`` ask for more). Anything
    else raises ``NetworkFileError``.
    """

    def __init__(self, path: Union[str, "os.PathLike[str]"]) -> None:
        p = Path(path)
        if not p.is_file():
            raise NetworkFileError(f"no network file at {str(p)!r}")
        arrays = _read_npz(p)
        if "meta" not in arrays:
            raise NetworkFileError(f"{str(p)!r} has no 'meta' entry: not a ludoteca network file")
        try:
            meta = json.loads(str(arrays.pop("meta")))
        except (ValueError, RecursionError) as e:
            raise NetworkFileError(f"{str(p)!r}: its 'meta' entry is not JSON ({str(e)[:200]})") from None
        if not isinstance(meta, dict):
            raise NetworkFileError(f"{str(p)!r}: its 'meta' entry is not a JSON object")
        if meta.get("format") != FORMAT:
            raise NetworkFileError(f"{str(p)!r}: network format {meta.get('format')!r}, this ludoteca reads format {FORMAT}")
        self.path = p
        self.meta = meta
        try:
            self._read_meta(meta)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as e:
            if isinstance(e, NetworkFileError):
                raise
            what = f"lacks {e}" if isinstance(e, KeyError) else f"has {type(e).__name__}: {str(e)[:200]}"
            raise NetworkFileError(f"{str(p)!r}: its 'meta' entry {what}") from None
        for k, v in arrays.items():
            if not (np.issubdtype(v.dtype, np.number) and np.isfinite(v).all()):
                raise NetworkFileError(f"{str(p)!r}: weights {k[:80]!r} are not all finite numbers ({v.dtype})")
        self._w = {k: v.astype(np.float32) for k, v in arrays.items()}
        # One forward pass now: missing or misshapen weights are the file's fault, said here rather than mid-game.
        try:
            logits, values = self(np.zeros((1, *self.observation_shape), np.float32))
        except (KeyError, ValueError, IndexError) as e:
            raise NetworkFileError(f"{str(p)!r}: its weights do not make a {self.kind} of its meta ({type(e).__name__}: {str(e)[:200]})") from None
        if logits.shape != (1, self.num_actions) or values.shape != (1,):
            raise NetworkFileError(f"{str(p)!r}: its weights answer logits {logits.shape} and values {values.shape}, not (1, {self.num_actions}) and (1,)")

    def _read_meta(self, meta: dict[str, Any]) -> None:
        """The facts of ``meta``, checked: ``KeyError``/``TypeError``/``ValueError`` (or ``NetworkFileError``) otherwise."""
        p = self.path

        def whole(v: Any, lo: int, hi: int, what: str) -> int:
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise NetworkFileError(f"{str(p)!r}: {what} is {str(v)[:40]}; a network file may say a whole number from {lo} to {hi}")
            return v

        game_id = meta["game"]
        if not isinstance(game_id, str) or game_id not in ludoteca_games():
            raise NetworkFileError(f"{str(p)!r}: a network for {str(game_id)[:40]!r}, which is not a ludoteca game")
        search = meta.get("search", {})
        if not isinstance(search, dict):
            raise TypeError("'search' is not an object")
        # The simulations its model card measured (set when it shipped), else those its evaluations
        # during training used: more is not always stronger (a weak value head weighs more as
        # visits grow: kharbaga's), nor always weaker (damas and tablero gain up to 256), so the
        # count is measured per network and stored with it.
        training_sims = meta.get("training", {}).get("config", {}).get("eval_simulations")
        if meta.get("play_simulations") is not None:
            self.play_simulations: int = whole(meta["play_simulations"], 1, _MAX_SIMULATIONS, "play_simulations")
        else:  # what training used, within what a move may afford
            self.play_simulations = min(whole(training_sims or 64, 1, 1 << 31, "eval_simulations"), _MAX_SIMULATIONS)
        self.evaluate_chance: bool = bool(search.get("evaluate_chance", False))
        dice = "chance" in Game(game_id).options
        plies = search.get("afterstate_plies")
        limit = _MAX_PLIES["dice" if dice else "no dice"]
        self.afterstate_plies: Optional[int] = None if plies is None else whole(plies, 0, limit, "afterstate_plies")
        # What a repetition draw costs the alpha-beta that plays an afterstate network of a game
        # without dice (alphabeta's contempt), as its model card measured it; 0 if unsaid.
        self.contempt = float(search.get("contempt", 0.0))
        if not -1.0 < self.contempt < 1.0:
            raise ValueError(f"contempt {self.contempt} is outside (-1, 1)")
        # ...and whether it follows threats past the horizon (AlphaBetaAgent's threats).
        self.threats = bool(search.get("threats", False))
        # ...and how much of the game's built-in evaluation its leaves blend in (MlpEvaluation's builtin).
        self.builtin = float(search.get("builtin", 0.0))
        if not 0.0 <= self.builtin <= 1.0:
            raise ValueError(f"builtin {self.builtin} is outside [0, 1]")
        # ...from which turn of the game on (before it the network alone: see Baseline).
        self.builtin_from = whole(search.get("builtin_from", 0), 0, 1 << 31, "builtin_from")
        self.kind: str = meta["kind"]
        if self.kind not in ("mlp", "resnet"):
            raise NetworkFileError(f"{str(p)!r}: unknown network kind {str(self.kind)[:40]!r}")
        self.value_scale = float(meta["value_scale"])
        if not (math.isfinite(self.value_scale) and self.value_scale > 0):
            raise ValueError(f"value_scale {self.value_scale} is not a positive number")
        game = Game(game_id, **dict(meta.get("options", {})))
        self.observation_shape = tuple(whole(d, 1, 1 << 20, "an observation dimension") for d in meta["observation_shape"])
        self.num_actions = whole(meta["num_actions"], 1, 1 << 20, "num_actions")
        if self.observation_shape != tuple(game.observation_shape) or self.num_actions != game.num_actions:
            raise NetworkFileError(
                f"{str(p)!r}: observations {self.observation_shape} and {self.num_actions} actions, where {game_id} has "
                f"{tuple(game.observation_shape)} and {game.num_actions}"
            )
        if self.kind == "resnet":
            self.blocks = whole(meta["blocks"], 0, 64, "blocks")

    @property
    def game_id(self) -> str:
        """The game the network was trained for."""
        return str(self.meta["game"])

    def parameters(self) -> int:
        """The number of weights (after batch normalisation is folded)."""
        return int(sum(v.size for v in self._w.values()))

    def __call__(
        self, obs: npt.ArrayLike, mask: Optional[npt.ArrayLike] = None
    ) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``(logits, values)`` for a batch of observations (``mask`` is accepted and ignored)."""
        x = np.asarray(obs, dtype=np.float32)
        if x.shape[1:] != self.observation_shape:
            raise LudotecaValueError(
                f"observations of shape {x.shape[1:]} given; this network takes {self.observation_shape}"
            )
        w = self._w
        bsz = x.shape[0]
        if self.kind == "mlp":
            h = x.reshape(bsz, -1)
            h = np.maximum(h @ w["fc1.w"] + w["fc1.b"], 0)
            h = np.maximum(h @ w["fc2.w"] + w["fc2.b"], 0)
            logits = h @ w["policy.w"] + w["policy.b"]
            v = (h @ w["value.w"] + w["value.b"])[:, 0]
        else:
            h = np.ascontiguousarray(x.transpose(0, 2, 3, 1))  # channels last
            h = np.maximum(_conv3x3(h, w["stem.w"], w["stem.b"]), 0)
            for i in range(self.blocks):
                y = np.maximum(_conv3x3(h, w[f"block{i}.conv1.w"], w[f"block{i}.conv1.b"]), 0)
                y = _conv3x3(y, w[f"block{i}.conv2.w"], w[f"block{i}.conv2.b"])
                h = np.maximum(h + y, 0)
            p = np.maximum(h @ w["policy_conv.w"] + w["policy_conv.b"], 0)
            logits = p.transpose(0, 3, 1, 2).reshape(bsz, -1) @ w["policy.w"] + w["policy.b"]
            v = np.maximum(h @ w["value_conv.w"] + w["value_conv.b"], 0)
            v = np.maximum(v.transpose(0, 3, 1, 2).reshape(bsz, -1) @ w["value1.w"] + w["value1.b"], 0)
            v = (v @ w["value2.w"] + w["value2.b"])[:, 0]
        values = (np.tanh(v) * self.value_scale).astype(np.float32)
        return logits.astype(np.float32), values

    def __repr__(self) -> str:
        return f"NumpyNet({self.game_id!r}, kind={self.kind!r}, parameters={self.parameters()})"


#: Backgammon observation entries of the dice still to play, and the entry that marks a chance node.
_BG_DICE = slice(244, 250)
_BG_CHANCE = 253


class AfterstateEvaluation:
    """``evaluate(state, player) -> float`` from a network of afterstate values,
    for ``GreedyAgent``, ``ExpectimaxAgent`` and ``turn_values``.

    The network values the position after a complete move for the player the
    observation takes the side of: at a chance node the player about to roll
    (``State.chance_player``), elsewhere the player to move; this returns it
    for ``player`` (negated for the other side), and a finished game's
    ``returns()[player]``. With ``chance="sampled"`` (``Game("backgammon")``'s
    default; the arena plays ``"explicit"``) the position after a move
    already holds the opponent's roll: the
    evaluation reads it as the chance node before that roll (the dice entries
    cleared, the chance-node entry set: docs/games/backgammon.md,
    "Observation planes"), the position the network learnt.
    """

    def __init__(self, net: NumpyNet) -> None:
        self.net = net
        self.backgammon = Game(net.game_id).family == "backgammon"

    def observation(self, state: State) -> Tuple[npt.NDArray[np.float32], int]:
        """The observation the network reads for ``state`` and the player it takes the side of."""
        obs = np.asarray(state.observation(), dtype=np.float32)
        if state.is_chance_node():
            roller = state.chance_player
            assert roller is not None
            return obs, int(roller)
        if self.backgammon:
            obs = obs.copy()
            obs[_BG_DICE] = 0.0
            obs[_BG_CHANCE] = 1.0
        return obs, int(state.current_player)

    def native(self, builtin: float = 0.0) -> Optional[MlpEvaluation]:
        """The same evaluation run natively by the searches (``MlpEvaluation``:
        no Python call per leaf, the search without the GIL), for an MLP in a
        game without dice; ``None`` otherwise (a chance node's observation is
        read differently, see above). ``builtin``: the weight of the game's
        built-in evaluation blended into it (``MlpEvaluation``'s)."""
        if self.net.kind != "mlp" or "chance" in Game(self.net.game_id).options:
            return None
        w = self.net._w
        return MlpEvaluation(
            [(w["fc1.w"], w["fc1.b"]), (w["fc2.w"], w["fc2.b"])], (w["value.w"], w["value.b"]), self.net.value_scale, builtin
        )

    def __call__(self, state: State, player: int) -> float:
        """The value of ``state`` for ``player``, in the game's points."""
        if state.is_terminal():
            return float(state.returns()[player])
        obs, side = self.observation(state)
        v = float(self.net(obs[None])[1][0])
        return v if side == player else -v


class PhasedAgent(BaseAgent):
    """Two agents for two phases of a game: ``early`` decides while fewer
    than ``from_turn`` complete turns of the game are played
    (``State.turns_played``: a game set up from a position string counts
    from there), ``late`` from then on.

    ``Baseline`` plays an afterstate network this way when the built-in
    evaluation is blended in from a later turn (``builtin_from``): tablut's
    network alone keeps the corners in the opening, where the blend's
    Muscovites chase the king too early, and the blend judges the long
    middlegames the network alone slides out of (docs/baselines.md, tablut).
    """

    name = "phased"

    def __init__(self, early: BaseAgent, late: BaseAgent, from_turn: int) -> None:
        super().__init__(late.seed)
        if isinstance(from_turn, bool) or not isinstance(from_turn, int) or from_turn < 0:
            raise OptionError(f"phased: from_turn is a whole number of turns from 0, got {from_turn!r}")
        self.early, self.late, self.from_turn = early, late, from_turn
        #: The agent that made the last decision (None before the first).
        self.last_agent: Optional[BaseAgent] = None

    def agent_for(self, state: State) -> BaseAgent:
        """The agent that decides at ``state``."""
        return self.early if state.turns_played < self.from_turn else self.late

    @property
    def last(self) -> Any:
        """The last search of the agent that made the last decision (its ``last``; ``{}`` before any)."""
        return getattr(self.last_agent, "last", {})

    def act(self, state: State) -> Choice:
        """The decision of ``agent_for(state)``."""
        self.last_agent = self.agent_for(state)
        return self.last_agent.act(state)


class Baseline(MCTSAgent):
    """MCTS guided by a trained network, played with numpy only (no torch, no GPU).

    ``Baseline(game_id, simulations=None, path=None)``: ``path`` is an ``.npz``
    written by ``ludoteca.train`` (``export.npz`` in a run folder); without
    it, the network shipped in the package for ``game_id``. A game with no
    shipped network raises ``NoBaselineError`` saying how to train one.
    ``simulations=None`` plays at the network's ``play_simulations``: the
    count its training evaluations and its model card used.
    Every other keyword is an ``MCTS`` option; the default is Gumbel root
    selection with ``gumbel_scale=0`` (no noise: the agent is deterministic)
    and explicit chance nodes for backgammon, as in training; chance nodes are
    valued by the network (``evaluate_chance``) when the file says its
    training searched that way (``NumpyNet.evaluate_chance``). Answers a
    complete move in notation, like every agent (``MCTSAgent``: one search
    per decision of the turn).

    A network of afterstate values (``ludoteca.train.td``; the file says so)
    is played by a search over complete moves instead, ``plies`` deep
    (default: the file's ``afterstate_plies``; 0 = the best-valued move), the
    network as its evaluation: expectimax in a game with dice (``plies``
    rolls, keeping the best ``filter`` moves of the 0-ply values at each
    decision), alpha-beta with capture quiescence in a game without
    (``plies`` complete turns; ``contempt``, default the file's
    ``NumpyNet.contempt``, is what a draw by repetition costs it, and
    ``threats``, default the file's ``NumpyNet.threats``, adds threat
    quiescence, as in ``AlphaBetaAgent``; ``builtin``, default the file's
    ``NumpyNet.builtin``, blends the game's built-in evaluation into the
    network's, see ``MlpEvaluation``, from the turn ``builtin_from`` of the
    game on, default the file's ``NumpyNet.builtin_from``: before it the
    network plays alone; ``afterstate_agent`` is then a ``PhasedAgent``). It then takes no
    ``simulations``. In a game without dice the search runs the
    network natively (``AfterstateEvaluation.native()``, an ``MlpEvaluation``:
    the same values, no Python call per position).

    The network is small, so numpy's BLAS threads only get in the way of a
    forward pass of one position (on a busy 2-core machine: 18 ms with two
    OpenBLAS threads, 0.47 ms with one): set ``OPENBLAS_NUM_THREADS=1``
    before numpy is imported. The arena's worker processes (``jobs`` > 1)
    start with it set.
    """

    name = "baseline"
    needs_game_id = True

    def __init__(
        self,
        game_id: Optional[str] = None,
        simulations: Optional[int] = None,
        path: Union[str, "os.PathLike[str]", None] = None,
        seed: int = 0,
        plies: Optional[int] = None,
        **options: Any,
    ) -> None:
        if path is None:
            if game_id is None:
                raise OptionError("Baseline needs a game id (or a network file: path=...)")
            path = _BASELINES / f"{game_id}.npz"
            if not path.is_file():
                have = shipped_baselines()
                raise NoBaselineError(
                    f"no baseline network ships with ludoteca for {game_id!r} yet"
                    f" (shipped: {', '.join(have) if have else 'none'}). Train one with"
                    f" `python -m ludoteca.train alphazero {game_id} --minutes 60 --out runs/{game_id}`"
                    f" (needs torch: pip install 'ludoteca[train]') and play it with"
                    f" Baseline({game_id!r}, path='runs/{game_id}/export.npz')"
                    f" or the agent spec baseline:path=runs/{game_id}/export.npz"
                )
        self.net = NumpyNet(path)
        if game_id is not None and game_id != self.net.game_id:
            raise NetworkFileError(f"{str(path)!r} is a network for {self.net.game_id!r}, not {game_id!r}")
        self.game_id = self.net.game_id
        #: The search agent (greedy, expectimax or alpha-beta; a PhasedAgent of two when the blend starts later) that plays an afterstate network (None: MCTS plays the network).
        self.afterstate_agent: Optional[BaseAgent] = None
        self.plies: Optional[int] = None
        if self.net.afterstate_plies is not None:
            if simulations is not None:
                raise OptionError(f"{str(path)!r} values afterstates and is played by a search over complete moves: give plies=, not simulations=")
            depth = self.net.afterstate_plies if plies is None else plies
            dice = "chance" in Game(self.game_id).options
            width = options.pop("filter", 8) if dice else 0
            contempt = 0.0 if dice else options.pop("contempt", self.net.contempt)
            threats = False if dice else options.pop("threats", self.net.threats)
            builtin = 0.0 if dice else options.pop("builtin", self.net.builtin)
            if isinstance(builtin, bool) or not isinstance(builtin, (int, float)) or not 0.0 <= builtin <= 1.0:
                raise OptionError(f"baseline: builtin is the built-in evaluation's weight, a number from 0 to 1; got {builtin!r}")
            builtin_from = 0 if dice else options.pop("builtin_from", self.net.builtin_from)
            if isinstance(builtin_from, bool) or not isinstance(builtin_from, int) or builtin_from < 0:
                raise OptionError(f"baseline: builtin_from is the turn of the game the blend starts at, a whole number from 0; got {builtin_from!r}")
            if options:
                takes = "plies and filter" if dice else "plies, contempt, threats, builtin and builtin_from"
                raise OptionError(f"baseline: an afterstate network of {self.game_id} takes {takes}, not {', '.join(sorted(options))}")
            BaseAgent.__init__(self, seed)
            self.simulations, self.evaluator, self.options = 0, None, {}
            self.last_result = None
            python_evaluation = AfterstateEvaluation(self.net)
            # The same values without a Python call per leaf where the network allows (an MLP, no dice).
            native = python_evaluation.native(builtin)
            if builtin and native is None:
                raise OptionError(f"baseline: builtin= blends the built-in evaluation into a native MLP's; {str(path)!r} is a {self.net.kind}")
            evaluation: Evaluate = native or python_evaluation

            def searcher(evaluation: Evaluate) -> BaseAgent:
                if depth == 0:
                    # The network alone judges each move's position, as it was trained to.
                    return GreedyAgent(seed, evaluate=evaluation, replies=False)
                if dice:
                    return ExpectimaxAgent(depth, seed, width, evaluate=evaluation)
                # Without dice a ply is a complete turn: alpha-beta (with capture quiescence) the
                # same depth as the built-in alphabeta agent, the network in place of its evaluation.
                return AlphaBetaAgent(depth=depth, seed=seed, evaluate=evaluation, contempt=contempt, threats=threats)

            self.afterstate_agent = searcher(evaluation)
            if builtin and builtin_from:
                alone = python_evaluation.native(0.0)
                assert alone is not None  # native(builtin) was not None
                self.afterstate_agent = PhasedAgent(searcher(alone), self.afterstate_agent, builtin_from)
            self.plies = depth
            return
        if plies is not None:
            raise OptionError(f"{str(path)!r} is searched by MCTS: give simulations=, not plies=")
        options.setdefault("selection", "gumbel")
        if options["selection"] == "gumbel":
            options.setdefault("gumbel_scale", 0.0)
        if self.net.evaluate_chance:
            options.setdefault("evaluate_chance", True)
        if simulations is None:
            simulations = self.net.play_simulations
        super().__init__(simulations=simulations, evaluator=self.net, seed=seed, **options)

    def search(self, states: Sequence[State]) -> SearchResult:
        """The MCTS result (``MCTSAgent.search``); an afterstate network has none (its ``afterstate_agent``'s ``last`` holds its last search)."""
        if self.afterstate_agent is not None:
            raise OptionError("this baseline plays an afterstate network by a search over complete moves, not MCTS: see Baseline.afterstate_agent.last")
        return super().search(states)

    def act(self, state: State) -> Choice:
        """The complete move for ``state``, in notation (searched by MCTS decision by decision, or over complete moves for an afterstate network)."""
        if self.afterstate_agent is not None:
            return self.afterstate_agent.act(state)
        return super().act(state)

    def act_batch(self, states: Sequence[State]) -> list[Choice]:
        """One complete move per state (MCTS searches the states of each game together)."""
        if self.afterstate_agent is not None:
            return [self.afterstate_agent.act(s) for s in states]
        return super().act_batch(states)

    def __repr__(self) -> str:
        if self.afterstate_agent is not None:
            return f"Baseline({self.game_id!r}, plies={self.plies}, path={str(self.net.path)!r})"
        return f"Baseline({self.game_id!r}, simulations={self.simulations}, path={str(self.net.path)!r})"
