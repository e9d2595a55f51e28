//! `Game` and `State`.

use super::convert::{int_in, opt_to_py, options_from_kwargs, Seed, Text};
use super::errors::{to_py, IllegalActionError, LudotecaValueError};
use crate::dynamic::{DynGame, DynState};
use crate::game::{ObsBuf, ObsFormat, PlaneCode};
use crate::registry;
use crate::session::SessionExtras;
use numpy::{PyArray1, PyArrayMethods, ToPyArray};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::Arc;

/// Extracts an action: any Python or numpy integer (not bool, not float) in
/// `[0, num_actions)`; `IllegalActionError` naming the range otherwise.
pub(crate) fn action_arg(a: &Bound<'_, PyAny>, num_actions: usize) -> PyResult<i64> {
    // Integers within 64 bits go on to the core, whose out-of-range error
    // (or illegal-action policy) applies; beyond, and for non-integers, the
    // message names the range here.
    let what = format!("action must be an integer in [0, {num_actions})");
    int_in(a, i64::MIN as i128, i64::MAX as i128, IllegalActionError::new_err, &what).map(|i| i as i64)
}

/// [`SessionExtras`] as the plain tuple pickles carry:
/// ``(rng_state, turns, (strikes0, strikes1), [(key, count), ...])``.
pub(crate) type ExtrasTuple = (u128, u32, (u32, u32), Vec<(u64, u8)>);

pub(crate) fn extras_to_tuple(e: SessionExtras) -> ExtrasTuple {
    (e.rng, e.turns, (e.strikes[0], e.strikes[1]), e.history)
}

pub(crate) fn extras_from_tuple(t: ExtrasTuple) -> SessionExtras {
    SessionExtras { rng: t.0, turns: t.1, strikes: [t.2 .0, t.2 .1], history: t.3 }
}

pub(crate) fn type_name(a: &Bound<'_, PyAny>) -> String {
    a.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// The rules of one game with its options; a factory of states.
///
/// ``Game("damas", max_turns=150)``. Raises ``UnknownGameError`` for an
/// unknown id and ``OptionError`` for an unknown option or a bad value.
#[pyclass(name = "Game", module = "ludoteca._core", frozen)]
pub struct PyGame {
    pub(crate) inner: Arc<dyn DynGame>,
}

impl PyGame {
    pub(crate) fn make(game_id: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Arc<dyn DynGame>> {
        let given = options_from_kwargs(kwargs)?;
        registry::make(game_id, &given).map_err(to_py)
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (game_id, **options))]
    fn new(game_id: Text, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(PyGame { inner: Self::make(&game_id, options)? })
    }

    /// The game id.
    #[getter]
    fn id(&self) -> &'static str {
        self.inner.entry().id
    }
    /// The game family (its docs page: ``docs/games/<family>.md``).
    #[getter]
    fn family(&self) -> &'static str {
        self.inner.entry().family
    }
    /// Rules version, bumped whenever legal moves, encodings or rewards change.
    #[getter]
    fn version(&self) -> u32 {
        self.inner.entry().version
    }
    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.spec().num_actions
    }
    /// Always 2.
    #[getter]
    fn num_players(&self) -> usize {
        2
    }
    /// Shape of one observation in the game's ``obs_format``.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.obs_layout().shape())
    }
    /// The largest value an observation entry can take (entries are never
    /// negative): 1.0 except where a game observes raw counts (backgammon);
    /// 255.0 for ``obs_format="packed"`` (bytes).
    #[getter]
    fn observation_high(&self) -> f32 {
        match self.inner.obs_layout().format {
            ObsFormat::Packed => 255.0,
            _ => self.inner.spec().observation_high,
        }
    }
    /// The observation format: ``"full"``, ``"compact"`` or ``"packed"``.
    #[getter]
    fn obs_format(&self) -> &'static str {
        self.inner.obs_layout().format.name()
    }
    /// The dtype of observations: ``"uint8"`` for ``obs_format="packed"``,
    /// else ``"float32"``.
    #[getter]
    fn observation_dtype(&self) -> &'static str {
        obs_dtype_name(self.inner.obs_layout().format)
    }
    /// How the formats relate (what ``ludoteca.unpack_observation`` reads):
    /// a dict with ``full_shape``, ``compact_shape``, ``packed_bytes``,
    /// ``planes`` (one ``(full_plane, bits, scale)`` per compact plane, in
    /// order; ``bits == 0`` marks a 0/1 plane stored as one bit per entry,
    /// otherwise the plane is stored as ``bits`` digit planes of
    /// ``value * scale``, lowest digit first) and ``constant`` (the full
    /// observation's values on the planes the compact format drops: every
    /// position has them).
    fn observation_layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let l = self.inner.obs_layout();
        let d = PyDict::new(py);
        d.set_item("full_shape", PyTuple::new(py, l.full_shape.iter().copied())?)?;
        let mut compact = l.full_shape.clone();
        compact[0] = l.kept.len();
        d.set_item("compact_shape", PyTuple::new(py, compact)?)?;
        d.set_item("packed_bytes", l.packed_bits().div_ceil(8))?;
        let planes: Vec<(usize, usize, f32)> = l
            .kept
            .iter()
            .map(|&(p, c)| match c {
                PlaneCode::Bit => (p, 0, 1.0),
                PlaneCode::Int { bits, scale } => (p, bits as usize, scale),
            })
            .collect();
        d.set_item("planes", planes)?;
        let constant = numpy::PyArray1::from_slice(py, &l.constant).reshape(l.full_shape.clone())?;
        d.set_item("constant", constant)?;
        Ok(d)
    }
    /// Names of the per-decision integers in ``State.info()`` and env infos.
    #[getter]
    fn info_fields(&self) -> Vec<&'static str> {
        self.inner.spec().info_fields.to_vec()
    }
    /// Full turns after which environments truncate (0: never).
    #[getter]
    fn max_turns(&self) -> u32 {
        self.inner.common().max_turns
    }
    /// Every option with its resolved value (defaults included).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.inner.options().iter() {
            d.set_item(k, opt_to_py(py, v)?)?;
        }
        Ok(d)
    }

    /// The initial position; ``seed`` decides what is random (who starts, dice).
    #[pyo3(signature = (seed = Seed(0)), text_signature = "($self, /, seed=0)")]
    fn new_state(&self, seed: Seed) -> PyState {
        PyState { inner: self.inner.clone().new_state(seed.0) }
    }

    /// Parses a position string; ``PositionError`` says what is wrong.
    fn state_from_string(&self, text: Text) -> PyResult<PyState> {
        Ok(PyState { inner: self.inner.clone().state_from_string(&text).map_err(to_py)? })
    }

    /// Unpickling: the state of ``text`` with the saved generator, counts and history.
    fn _restore_state(&self, text: &str, extras: ExtrasTuple) -> PyResult<PyState> {
        let inner = self.inner.clone().restore_state(text, &extras_from_tuple(extras)).map_err(to_py)?;
        Ok(PyState { inner })
    }

    fn __repr__(&self) -> String {
        let opts: Vec<String> = self
            .inner
            .options()
            .iter()
            .filter(|(k, v)| {
                let spec = self.inner.entry().option_specs().into_iter().find(|s| s.name == *k);
                spec.is_some_and(|s| &s.default_value() != *v)
            })
            .map(|(k, v)| format!(", {k}={v}"))
            .collect();
        format!("Game('{}'{})", self.inner.entry().id, opts.join(""))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, Bound<'py, PyDict>))> {
        let py = slf.py();
        let make = py.import("ludoteca._pickle")?.getattr("make_game")?;
        let me = slf.get();
        Ok((make, (me.inner.entry().id.to_string(), me.options(py)?)))
    }
}

/// A game in progress. Mutable: ``apply_action`` and ``play`` change it.
#[pyclass(name = "State", module = "ludoteca._core")]
pub struct PyState {
    pub(crate) inner: Box<dyn DynState>,
}

#[pymethods]
impl PyState {
    /// 0 or 1, -1 at a chance node, -2 when terminal.
    #[getter]
    fn current_player(&self) -> i32 {
        self.inner.to_act().code()
    }

    /// At a chance node, the player (0 or 1) whose side the observation
    /// takes there (backgammon: the player about to roll), for whom an
    /// evaluator values the position before the outcome; ``None`` elsewhere
    /// and in games whose chance nodes name no such player.
    #[getter]
    fn chance_player(&self) -> Option<i32> {
        self.inner.chance_player().map(|p| p as i32)
    }

    /// The game this state belongs to.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame { inner: self.inner.game() }
    }

    /// Complete turns played since this state's game started.
    #[getter]
    fn turns_played(&self) -> u32 {
        self.inner.turns_played()
    }

    /// Whether the game has ended by its rules (or by resignation, agreement, forfeit).
    fn is_terminal(&self) -> bool {
        self.inner.to_act() == crate::core::ToAct::Terminal
    }

    /// Whether the next decision is a chance event (explicit chance only).
    fn is_chance_node(&self) -> bool {
        self.inner.to_act() == crate::core::ToAct::Chance
    }

    /// Per-player returns, shape (2,); zeros until the game ends.
    fn returns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        self.inner.returns().to_pyarray(py)
    }

    /// Boolean mask of shape (num_actions,).
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let n = self.inner.game().spec().num_actions;
        let arr = PyArray1::<bool>::zeros(py, n, false);
        // SAFETY: freshly created, contiguous, not shared.
        self.inner.legal_mask(unsafe { arr.as_slice_mut().expect("contiguous") });
        arr
    }

    /// Sorted legal action indices.
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let n = self.inner.game().spec().num_actions;
        let mut mask = vec![false; n];
        self.inner.legal_mask(&mut mask);
        let v: Vec<i64> = (0..n as i64).filter(|&i| mask[i as usize]).collect();
        v.to_pyarray(py)
    }

    /// Applies one decision; ``IllegalActionError`` (a ValueError) if illegal, state unchanged.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.apply(action_arg(action, self.inner.game().spec().num_actions)?).map(|_| ()).map_err(to_py)
    }

    /// An independent copy (history and random generator included; pickling keeps them too).
    fn clone(&self) -> PyState {
        PyState { inner: self.inner.clone_box() }
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    /// The observation of the player to move, shape ``game.observation_shape``
    /// (float32; uint8 bytes under ``obs_format="packed"``).
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        new_observation(py, &*self.inner.game(), |out| self.inner.observe(out))
    }

    /// The position string (round-trips through ``Game.state_from_string``).
    ///
    /// A game ended by resignation, an agreed draw, a forfeit or repetition
    /// says so after a ``|``: ``|resigned=P``, ``|forfeit=P`` (P the loser),
    /// ``|draw=agreed``, ``|draw=repetition``; it parses back finished.
    #[allow(clippy::inherent_to_string)] // Python's State.to_string()
    fn to_string(&self) -> String {
        self.inner.to_string()
    }

    /// The board as plain data, for pictures (``ludoteca.render`` draws from
    /// it), without parsing the position string; ``None`` for a game without one.
    ///
    /// Every view has ``rows`` and ``cols`` (0 for backgammon), ``pieces``: a
    /// list of ``(row, col, kind, owner)`` (row 0 at the top, col 0 at the left,
    /// kind ``"man"`` or ``"king"``, owner the player 0 or 1), and ``marks``: a
    /// dict of named cell lists. Per family, further keys:
    ///
    /// * tablut: ``to_move``; the king and the soldiers are player 0's.
    /// * kharbaga, zamma: ``to_move``, ``geometry`` (the board's name); marks
    ///   ``points`` (every point, rank 1 up), ``capture`` and, with deferred
    ///   removal, ``jumped`` during a capture sequence.
    /// * draughts: ``to_move``, ``player0_colour`` (``"B"`` or ``"W"``);
    ///   pieces Black's first; marks ``huff``, ``capture`` (start and current
    ///   square of a capture in progress) and ``jumped``.
    /// * backgammon: ``points0``/``points1`` (each player's checkers on its own
    ///   points 1..24), ``bar``, ``off``, ``dice`` (``[0, 0]`` before the roll),
    ///   ``played`` (dice already played this turn), ``score``, ``turn`` (the
    ///   player on roll; the loser once over), ``game_state`` (the Match ID
    ///   code: 0 opening roll to come, 1 playing, 2 over), ``match_length``, and
    ///   the cube: ``cube_value``, ``cube_owner`` (-1 centred), ``crawford``
    ///   and ``double_offered`` (0 or 1).
    fn board_view<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(v) = self.inner.board_view() else { return Ok(None) };
        let d = PyDict::new(py);
        d.set_item("rows", v.rows)?;
        d.set_item("cols", v.cols)?;
        d.set_item("pieces", v.pieces)?;
        let marks = PyDict::new(py);
        for (k, cells) in v.marks {
            marks.set_item(k, cells)?;
        }
        d.set_item("marks", marks)?;
        for (k, n) in v.ints {
            d.set_item(k, n)?;
        }
        for (k, l) in v.lists {
            d.set_item(k, l)?;
        }
        for (k, w) in v.words {
            d.set_item(k, w)?;
        }
        Ok(Some(d))
    }

    /// The board as text.
    fn __str__(&self) -> String {
        self.inner.board_text()
    }

    fn __repr__(&self) -> String {
        format!("State('{}', '{}')", self.inner.game().entry().id, self.inner.to_string())
    }

    /// The position as an SVG picture (Jupyter shows it); ``ludoteca.render.svg(self)``.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("ludoteca.render")?.getattr("svg")?.call1((slf,))?.extract()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyState>() {
            Ok(o) => {
                let o = o.borrow();
                Arc::ptr_eq(&self.inner.game(), &o.inner.game()) && self.inner.to_string() == o.inner.to_string()
                    || (self.inner.game().entry().id == o.inner.game().entry().id
                        && self.inner.game().options() == o.inner.game().options()
                        && self.inner.to_string() == o.inner.to_string())
            }
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.game().entry().id.hash(&mut h);
        self.inner.to_string().hash(&mut h);
        h.finish()
    }

    /// Every complete legal turn in notation, one per distinct resulting position.
    fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_moves()
    }

    /// Applies one complete turn written in notation; ``MoveError`` if not legal.
    fn play(&mut self, r#move: Text) -> PyResult<()> {
        self.inner.play(&r#move).map_err(to_py)
    }

    /// Leaves of the tree of complete turns (distinct positions) to ``depth``.
    fn perft(slf: &Bound<'_, Self>, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = int_in(depth, 0, 64, LudotecaValueError::new_err, "perft depth must be an integer in [0, 64]")?;
        // A copy, the object's borrow released: another thread may play on it meanwhile.
        let state = slf.borrow().inner.clone_box();
        py.detach(move || state.perft(depth as u32)).map_err(to_py)
    }

    /// A short name of one decision.
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        self.inner.action_to_string(action_arg(action, self.inner.game().spec().num_actions)?).map_err(to_py)
    }

    /// The legal action named ``text``.
    fn string_to_action(&self, text: Text) -> PyResult<i64> {
        self.inner.string_to_action(&text).map(|a| a.0 as i64).map_err(to_py)
    }

    /// ``(action, probability)`` pairs at a chance node; empty elsewhere.
    fn chance_outcomes(&self) -> Vec<(i64, f64)> {
        self.inner.chance_outcomes().into_iter().map(|(a, p)| (a.0 as i64, p)).collect()
    }

    /// The game's info fields at this decision.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.inner.info() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (PyGame, String, ExtrasTuple))> {
        let py = slf.py();
        let make = py.import("ludoteca._pickle")?.getattr("make_state")?;
        let me = slf.borrow();
        Ok((make, (PyGame { inner: me.inner.game() }, me.inner.to_string(), extras_to_tuple(me.inner.extras()))))
    }
}

/// The name of the dtype observations of `format` have.
pub fn obs_dtype_name(format: ObsFormat) -> &'static str {
    match format {
        ObsFormat::Packed => "uint8",
        _ => "float32",
    }
}

/// A fresh observation array of `game`'s format, written by `write`.
pub fn new_observation<'py>(py: Python<'py>, game: &dyn DynGame, write: impl FnOnce(ObsBuf<'_>)) -> Bound<'py, PyAny> {
    let layout = game.obs_layout();
    // SAFETY: freshly created, contiguous, not shared.
    unsafe {
        if layout.format == ObsFormat::Packed {
            let arr = numpy::PyArrayDyn::<u8>::zeros(py, layout.shape(), false);
            write(ObsBuf::U8(arr.as_slice_mut().expect("contiguous")));
            arr.into_any()
        } else {
            let arr = numpy::PyArrayDyn::<f32>::zeros(py, layout.shape(), false);
            write(ObsBuf::F32(arr.as_slice_mut().expect("contiguous")));
            arr.into_any()
        }
    }
}
