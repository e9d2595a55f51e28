"""Type stubs of the compiled core ``ludoteca._core`` (see ``ludoteca``)."""

from typing import Any, Callable, Optional, Sequence, Union, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "_masked_categorical_f32",
    "_masked_categorical_f64",
    "_masked_uniform",
    "Env",
    "Game",
    "MCTS",
    "MlpEvaluation",
    "SearchResult",
    "State",
    "VecEnv",
    "__version__",
    "alphabeta_search",
    "expectimax_search",
    "game_info",
    "games",
    "turn_values",
]
__version__: str

_Action = Union[int, np.integer[Any]]
_Options = Union[bool, int, str]

def _masked_categorical_f32(
    logits: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_], seed: int
) -> npt.NDArray[np.int64]:
    """See ``ludoteca.masked_categorical``."""

def _masked_categorical_f64(
    logits: npt.NDArray[np.float64], mask: npt.NDArray[np.bool_], seed: int
) -> npt.NDArray[np.int64]:
    """See ``ludoteca.masked_categorical``."""

def _masked_uniform(mask: npt.NDArray[np.bool_], seed: int) -> npt.NDArray[np.int64]:
    """See ``ludoteca.masked_uniform``."""

def games() -> list[str]:
    """Ids of every registered game, in display order."""

def game_info(game_id: str) -> dict[str, Any]:
    """Registry facts of a game: id, family, version, summary, max_turns,
    offers, and options (a list of ``{"name", "default", "doc"}``)."""

@final
class Game:
    """The rules of one game with its options; a factory of states.

    ``Game("damas", max_turns=150)``. Raises ``UnknownGameError`` for an
    unknown id and ``OptionError`` for an unknown option or a bad value.
    """

    def __new__(cls, game_id: str, **options: _Options) -> Game: ...
    @property
    def id(self) -> str:
        """The game id."""
    @property
    def family(self) -> str:
        """The game family (its docs page: ``docs/games/<family>.md``)."""
    @property
    def version(self) -> int:
        """Rules version, bumped whenever legal moves, encodings or rewards change."""
    @property
    def num_actions(self) -> int:
        """Size of the action space."""
    @property
    def num_players(self) -> int:
        """Always 2."""
    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of one observation in the game's ``obs_format``."""
    @property
    def observation_high(self) -> float:
        """The largest value an observation entry can take (entries are never
        negative): 1.0 except where a game observes raw counts (backgammon);
        255.0 for ``obs_format="packed"`` (bytes)."""
    @property
    def obs_format(self) -> str:
        """The observation format: ``"full"``, ``"compact"`` or ``"packed"``."""
    @property
    def observation_dtype(self) -> str:
        """The dtype of observations: ``"uint8"`` for ``obs_format="packed"``,
        else ``"float32"``."""
    def observation_layout(self) -> dict[str, Any]:
        """How the formats relate (what ``ludoteca.unpack_observation`` reads):
        a dict with ``full_shape``, ``compact_shape``, ``packed_bytes``,
        ``planes`` (one ``(full_plane, bits, scale)`` per compact plane, in
        order; ``bits == 0`` marks a 0/1 plane stored as one bit per entry,
        otherwise the plane is stored as ``bits`` digit planes of
        ``value * scale``, lowest digit first) and ``constant`` (the full
        observation's values on the planes the compact format drops: every
        position has them)."""
    @property
    def info_fields(self) -> list[str]:
        """Names of the per-decision integers in ``State.info()`` and env infos."""
    @property
    def max_turns(self) -> int:
        """Full turns after which environments truncate (0: never)."""
    @property
    def options(self) -> dict[str, _Options]:
        """Every option with its resolved value (defaults included)."""
    def new_state(self, seed: int = 0) -> State:
        """The initial position; ``seed`` decides what is random (who starts, dice)."""
    def _restore_state(self, text: str, extras: Any) -> State: ...
    def state_from_string(self, text: str) -> State:
        """Parses a position string; ``PositionError`` says what is wrong."""

@final
class State:
    """A game in progress. Mutable: ``apply_action`` and ``play`` change it."""

    @property
    def current_player(self) -> int:
        """0 or 1, -1 at a chance node, -2 when terminal."""
    @property
    def chance_player(self) -> Optional[int]:
        """At a chance node, the player (0 or 1) whose side the observation
        takes there (backgammon: the player about to roll), for whom an
        evaluator values the position before the outcome; ``None`` elsewhere
        and in games whose chance nodes name no such player."""
    @property
    def game(self) -> Game:
        """The game this state belongs to."""
    @property
    def turns_played(self) -> int:
        """Complete turns played since this state's game started."""
    def is_terminal(self) -> bool:
        """Whether the game has ended by its rules (or by resignation, agreement, forfeit)."""
    def is_chance_node(self) -> bool:
        """Whether the next decision is a chance event (explicit chance only)."""
    def returns(self) -> npt.NDArray[np.float32]:
        """Per-player returns, shape (2,); zeros until the game ends."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """Boolean mask of shape (num_actions,)."""
    def legal_actions(self) -> npt.NDArray[np.int64]:
        """Sorted legal action indices."""
    def apply_action(self, action: _Action) -> None:
        """Applies one decision; ``IllegalActionError`` (a ValueError) if illegal, state unchanged."""
    def clone(self) -> State:
        """An independent copy (history and random generator included; pickling keeps them too)."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...
    def observation(self) -> npt.NDArray[Any]:
        """The observation of the player to move, shape ``game.observation_shape``
        (float32; uint8 bytes under ``obs_format="packed"``)."""
    def to_string(self) -> str:
        """The position string (round-trips through ``Game.state_from_string``).

        A game ended by resignation, an agreed draw, a forfeit or repetition
        says so after a ``|``: ``|resigned=P``, ``|forfeit=P`` (P the loser),
        ``|draw=agreed``, ``|draw=repetition``; it parses back finished."""
    def legal_moves(self) -> list[str]:
        """Every complete legal turn in notation, one per distinct resulting position."""
    def play(self, move: str) -> None:
        """Applies one complete turn written in notation; ``MoveError`` if not legal."""
    def perft(self, depth: int) -> int:
        """Leaves of the tree of complete turns (distinct positions) to ``depth``."""
    def action_to_string(self, action: _Action) -> str:
        """A short name of one decision."""
    def string_to_action(self, text: str) -> int:
        """The legal action named ``text``."""
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs at a chance node; empty elsewhere."""
    def info(self) -> dict[str, int]:
        """The game's info fields at this decision."""
    def board_view(self) -> Optional[dict[str, Any]]:
        """The board as plain data, for pictures (``ludoteca.render`` draws from
        it), without parsing the position string; ``None`` for a game without one.

        Every view has ``rows`` and ``cols`` (0 for backgammon), ``pieces``: a
        list of ``(row, col, kind, owner)`` (row 0 at the top, col 0 at the left,
        kind ``"man"`` or ``"king"``, owner the player 0 or 1), and ``marks``: a
        dict of named cell lists. Per family, further keys:

        * tablut: ``to_move``; the king and the soldiers are player 0's.
        * kharbaga, zamma: ``to_move``, ``geometry`` (the board's name); marks
          ``points`` (every point, rank 1 up), ``capture`` and, with deferred
          removal, ``jumped`` during a capture sequence.
        * draughts: ``to_move``, ``player0_colour`` (``"B"`` or ``"W"``);
          pieces Black's first; marks ``huff``, ``capture`` (start and current
          square of a capture in progress) and ``jumped``.
        * backgammon: ``points0``/``points1`` (each player's checkers on its own
          points 1..24), ``bar``, ``off``, ``dice`` (``[0, 0]`` before the roll),
          ``played`` (dice already played this turn), ``score``, ``turn`` (the
          player on roll; the loser once over), ``game_state`` (the Match ID
          code: 0 opening roll to come, 1 playing, 2 over), ``match_length``, and
          the cube: ``cube_value``, ``cube_owner`` (-1 centred), ``crawford``
          and ``double_offered`` (0 or 1).
        """
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def _repr_svg_(self) -> str:
        """The position as an SVG picture (Jupyter shows it); ``ludoteca.render.svg(self)``."""

@final
class Env:
    """One game stepped decision by decision (Gymnasium-style, both players).

    ``step`` returns ``(obs, rewards, terminated, truncated, info)`` with
    ``rewards`` of shape (2,). ``info`` holds ``legal_action_mask``,
    ``current_player``, ``turn`` and the game's info fields.

    One call at a time: a call made while another thread is inside a call of
    the same Env raises ``LudotecaValueError`` at once.
    """

    def __new__(cls, game_id: str, seed: int = 0, **options: _Options) -> Env: ...
    def reset(
        self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Starts a new game (the next one of the env's seed, or the first of ``seed``)."""
    def step(
        self, action: _Action
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], bool, bool, dict[str, Any]]:
        """Applies one decision; ``GameOverError`` after the game ended until ``reset()``."""
    @property
    def state(self) -> State:
        """A copy of the current state."""
    @property
    def game(self) -> Game:
        """The game this env plays."""
    @property
    def num_actions(self) -> int:
        """Size of the action space."""
    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of one observation in the game's ``obs_format``."""
    @property
    def current_player(self) -> int:
        """0 or 1, -1 at a chance node, -2 when the game is over."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """Boolean mask of shape (num_actions,) of the current decision."""
    @staticmethod
    def _restore(game: Game, snapshot: Any) -> Env: ...
    def clone(self) -> Env:
        """An independent copy that continues exactly as this env (its game,
        generator, episode count and history included). ``copy.copy``,
        ``copy.deepcopy`` and pickling give the same."""
    def __copy__(self) -> Env: ...
    def __deepcopy__(self, memo: Any) -> Env: ...

@final
class VecEnv:
    """``num_envs`` games stepped by one call in Rust, in parallel, without the GIL.

    Auto-reset is same-step: when a game ends, that step returns its rewards
    and flags, ``info["final_observation"]``/``info["final_returns"]`` hold its
    last observation and returns (rows flagged by ``info["_final_observation"]``),
    and the returned observation and mask already belong to the next game.
    With ``copy=False`` the returned arrays are reused buffers overwritten by
    the next call.

    One call at a time: a call made while another thread is inside a call of
    the same VecEnv raises ``LudotecaValueError`` at once. A VecEnv cannot be
    copied or pickled (``LudotecaValueError``): snapshot games with
    ``state(i)`` or use ``Env``, which copy and pickle exactly.
    """

    def __new__(
        cls,
        game_id: str,
        num_envs: int,
        seed: int = 0,
        num_threads: Optional[int] = None,
        copy: bool = True,
        obs_dtype: Union[str, npt.DTypeLike, None] = None,
        **options: _Options,
    ) -> VecEnv: ...
    def reset(
        self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[npt.NDArray[Any], dict[str, Any]]:
        """Starts every env afresh; ``seed`` re-derives the per-env seeds."""
    def step(
        self, actions: npt.ArrayLike, active: Optional[npt.ArrayLike] = None
    ) -> tuple[
        npt.NDArray[Any], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """Steps every env; ``actions`` is an integer array of shape (num_envs,).

        With ``active`` (a bool array of shape (num_envs,)) only the envs
        where it is true are stepped: the others keep their game (their
        action is ignored) and report it as it stands, with zero rewards and
        no flags. ``ludoteca.gym`` uses it to play the opponent's turns."""
    def send(self, actions: npt.ArrayLike, env_ids: Optional[npt.ArrayLike] = None) -> None:
        """Starts stepping asynchronously and returns at once (EnvPool-style):
        ``actions[j]`` goes to env ``env_ids[j]`` (default: every env,
        ``actions`` of shape (num_envs,)). The step runs on a background
        thread exactly as ``step(actions, active=...)`` would; ``recv()``
        returns it. One send at a time: until ``recv`` has returned every
        sent env, the other methods raise ``LudotecaValueError``."""
    def recv(
        self, batch_size: Optional[int] = None
    ) -> tuple[
        npt.NDArray[Any], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """Returns ``(obs, rewards, terminated, truncated, info)`` for envs of
        the last ``send``, each row as ``step`` returns it, with
        ``info["env_id"]`` (int64) naming each row. Without ``batch_size``:
        waits for every sent env not yet received. With ``batch_size=k``:
        returns as soon as ``k`` more envs have finished stepping (first
        finished, first received; fewer if fewer are left), the others still
        stepping for the next ``recv`` calls. Rows are ordered by env id."""
    def rollout(self, steps: int, policy: str = "random") -> dict[str, int]:
        """Plays ``steps`` random legal decisions per env in Rust (each env its
        decisions back to back, the envs in parallel, observations and masks
        written as by ``step``: the same games as ``steps`` calls of ``step``
        with ``sample_actions()``); returns totals: steps, terminated,
        truncated, wins_p0, wins_p1, draws. The returned arrays of a
        ``copy=False`` env hold the last step's outputs afterwards."""
    def sample_actions(self) -> npt.NDArray[np.int64]:
        """One uniformly random legal action per env (chance nodes: an outcome
        by its probability), from each env's own seeded generator (the one
        ``rollout`` uses); int64, shape (num_envs,)."""
    def memory_bytes(self) -> int:
        """Bytes the batch holds besides its output arrays (envs, legal-mask
        bitsets, repetition tables, buffers; not heap memory inside game states)."""
    def state(self, index: int) -> State:
        """A copy of env ``index``'s state."""
    def env_seeds(self) -> list[int]:
        """The seed of each env (env i's game k uses the k-th seed derived from it)."""
    @property
    def num_envs(self) -> int:
        """Number of games stepped together."""
    @property
    def num_actions(self) -> int:
        """Size of the action space."""
    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of one env's observation."""
    @property
    def num_threads(self) -> int:
        """Threads stepping the envs (settable; results do not depend on it).
        At most as many OS threads as the machine has cores are started
        whatever the number asked; this reports the number asked."""
    @num_threads.setter
    def num_threads(self, threads: int) -> None: ...
    @property
    def copy(self) -> bool:
        """Whether each call returns fresh arrays (``False``: reused buffers)."""
    @property
    def obs_dtype(self) -> str:
        """``"float32"`` or ``"uint8"``: the observations' dtype (``obs_dtype=None``:
        ``"uint8"`` under ``obs_format="packed"``, else ``"float32"``)."""
    @property
    def seed(self) -> int:
        """The seed the per-env seeds derive from."""
    @property
    def game(self) -> Game:
        """The game every env plays."""
    def __copy__(self) -> VecEnv: ...
    def __deepcopy__(self, memo: Any) -> VecEnv: ...

@final
class SearchResult:
    """What one ``MCTS.search`` found: one row per state searched."""

    @property
    def actions(self) -> npt.NDArray[np.int64]:
        """The decision to play per state, shape (B,)."""
    @property
    def visits(self) -> npt.NDArray[np.int32]:
        """Root visit counts per action, shape (B, num_actions); 0 at illegal actions."""
    @property
    def policy(self) -> npt.NDArray[np.float32]:
        """Policy targets for training, shape (B, num_actions): visit
        frequencies (PUCT) or the improved policy softmax(logits + sigma(q)) (Gumbel)."""
    @property
    def values(self) -> npt.NDArray[np.float32]:
        """The root value per state, from the side of the player to decide there, shape (B,)."""
    @property
    def players(self) -> npt.NDArray[np.int32]:
        """The player to decide at each root, shape (B,)."""

@final
class MCTS:
    """Monte-Carlo tree search in Rust over many games at once.

    ``selection="puct"`` (AlphaZero) or ``"gumbel"`` (Gumbel MuZero: Gumbel-top-k
    with sequential halving at the root over ``considered`` actions). Chance
    nodes (dice) are in the tree; ``chance="stratified"`` follows the outcome
    least visited relative to its probability, ``"sample"`` samples one.
    Games with sampled chance are searched through their explicit-chance copy.
    ``evaluate_chance=True`` also evaluates each chance node when first reached
    (its value for ``State.chance_player``, the mask passed all false) before
    later visits descend through its outcomes. Deterministic for ``seed``
    whatever ``num_threads``. See ``docs/search.md``. One search at a time:
    a call made while another thread is inside ``search`` of the same MCTS
    raises ``LudotecaValueError`` at once.
    """

    def __new__(
        cls,
        game: Union[Game, str],
        simulations: int = 800,
        *,
        selection: str = "puct",
        c_puct: float = 1.25,
        dirichlet_alpha: float = 0.3,
        dirichlet_fraction: float = 0.0,
        temperature: float = 0.0,
        considered: int = 16,
        gumbel_scale: float = 1.0,
        c_visit: float = 50.0,
        c_scale: float = 0.1,
        chance: str = "stratified",
        reuse_tree: bool = False,
        evaluate_chance: bool = False,
        num_threads: Optional[int] = None,
        seed: int = 0,
    ) -> MCTS: ...
    def search(
        self,
        states: Union[Sequence[State], VecEnv],
        evaluate: Optional[
            Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], tuple[npt.ArrayLike, npt.ArrayLike]]
        ] = None,
    ) -> SearchResult:
        """Searches every state (one tree each) and returns one row per state.

        ``evaluate=None``: the built-in evaluator (uniform prior, one random
        playout in Rust). Otherwise ``evaluate(obs, mask: bool[B, A]) ->
        (logits: float32[B, A], values: float32[B])`` is called once per
        simulation wave with the leaves of every tree that needs one, ``obs``
        in the game's ``obs_format`` exactly as ``VecEnv`` and
        ``State.observation()`` give it (``B`` rows of ``game.observation_shape``
        and ``game.observation_dtype``: float32, or uint8 bytes when packed), so
        that a network trained on the environments' rows is searched with as
        it is. Proven results are backed up (a solver): a decision with a
        complete turn that wins at once, or a move proven won, is played
        whatever the visits say, and a move proven lost is not tried while
        another is open. Values are for the player to decide at each leaf (at a
        chance node under ``evaluate_chance``: for ``State.chance_player``,
        its mask row all false, its logits ignored). A wrong answer raises
        ``SearchError`` (so does a chance node without a ``chance_player``
        under ``evaluate_chance``); an exception in ``evaluate`` propagates."""
    @property
    def game(self) -> Game:
        """The game searched."""
    @property
    def simulations(self) -> int:
        """Simulations per search (per tree)."""
    @property
    def selection(self) -> str:
        """``"puct"`` or ``"gumbel"``."""
    @property
    def evaluate_chance(self) -> bool:
        """Whether chance nodes are evaluated when first reached."""
    @property
    def num_threads(self) -> int:
        """Threads the trees are searched on."""
    @property
    def seed(self) -> int:
        """The seed every search's randomness derives from."""

@final
class MlpEvaluation:
    """A value network (a multilayer perceptron) that the searches evaluate
    natively, without calling Python at each leaf: ``layers`` is a list of
    ``(weights, biases)`` of the hidden ReLU layers (weights of shape
    ``(inputs, outputs)``, as in ``x @ w``), ``value`` the ``(weights,
    biases)`` of the one-output value layer, and a position is worth
    ``tanh(v) * value_scale`` for the player to move there, reading the
    observation in the game's ``obs_format`` as ``State.observation()`` gives
    it (a packed row's bytes as numbers). Pass it as
    ``evaluate`` to ``alphabeta_search``, ``turn_values`` and the search
    agents; calling it, ``net(state, player)``, gives the value a search uses.
    ``ludoteca.agents.baseline.AfterstateEvaluation.native()`` builds one from
    a baseline network. ``builtin`` (0 to 1, default 0) blends in the game's
    built-in evaluation: a leaf is worth ``(1 - builtin) * network + builtin
    * built-in`` to the player asked about. Games without dice only."""

    def __new__(
        cls,
        layers: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
        value: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]],
        value_scale: float = 1.0,
        builtin: float = 0.0,
    ) -> MlpEvaluation: ...
    def __call__(self, state: State, player: int) -> float:
        """The value of ``state`` for ``player``, as a search's leaf sees it
        (``returns()[player]`` once the game is over)."""
    @property
    def inputs(self) -> int:
        """The length of the observation the network reads."""
    @property
    def builtin(self) -> float:
        """The weight of the game's built-in evaluation in the leaf values (0: the network alone)."""

def alphabeta_search(
    state: State,
    depth: int = 6,
    time: Optional[float] = None,
    tt_size: int = 262144,
    quiescence: bool = True,
    evaluate: Optional[Callable[[State, int], float]] = None,
    contempt: float = 0.0,
    threats: bool = False,
) -> dict[str, Any]:
    """Alpha-beta over complete turns from ``state`` (games without dice; see
    docs/search.md). Returns ``move`` (notation, None at a terminal state),
    ``actions``, ``value`` (for ``player``, the player to move), ``player``,
    ``depth`` (deepest completed iteration), ``nodes`` and ``seconds``.
    ``evaluate(state, player) -> float`` replaces the built-in evaluation
    (an ``MlpEvaluation`` is run natively). A position the game has met twice
    is a draw, worth ``-contempt`` to ``player`` and ``+contempt`` to its
    opponent (``contempt`` in (-1, 1), default 0: the rules' value).
    ``threats=True`` adds threat quiescence for the games that tell threats
    (tablut: the king's routes to a corner; other games: no change). Bad
    options raise ``OptionError``."""

def expectimax_search(
    state: State,
    plies: int = 1,
    filter: int = 8,
    evaluate: Optional[Callable[[State, int], float]] = None,
) -> dict[str, Any]:
    """n-ply expectimax over complete moves and dice rolls from ``state``
    (docs/search.md); the same result keys as ``alphabeta_search``, ``value``
    an equity in points for ``player`` (player 0 at a chance node)."""

def turn_values(
    state: State, evaluate: Optional[Callable[[State, int], float]] = None, replies: bool = False
) -> list[tuple[str, float]]:
    """Every complete move from ``state`` with the value, for the player to
    move, of the position it leads to (its returns if the game ends there).
    ``replies=True`` (games without dice) values each position by alpha-beta's
    capture quiescence instead: the opponent's captures and the recaptures
    they allow are played out before the evaluation, and a move that wins
    counts more the sooner the game ends (above 1, as in ``alphabeta_search``)."""
