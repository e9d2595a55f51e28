//! Bindings of the search layer (`crate::search`): alpha-beta, expectimax and
//! one-ply turn values from a `State`, with the built-in evaluation or a
//! native value network (`MlpEvaluation`; both searched without the GIL) or
//! a Python callable `evaluate(state, player) -> float` (searched holding
//! it: every leaf is a Python call).

use super::convert::{Flag, Int, Real};
use super::errors::{to_py, LudotecaValueError, OptionError};
use super::interrupt::SignalCheck;
use super::state::PyState;
use crate::core::Player;
use crate::dynamic::{DynEval, DynState, Evaluation, SearchAnswer};
use crate::search::eval::{never, Aborted, Stop};
use crate::search::mlp::Mlp;
use crate::search::{alphabeta, expectimax};
use numpy::{PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

fn option_error(message: String) -> PyErr {
    OptionError::new_err(message)
}

/// A value network (a multilayer perceptron) that the searches evaluate
/// natively, without calling Python at each leaf: ``layers`` is a list of
/// ``(weights, biases)`` of the hidden ReLU layers (weights of shape
/// ``(inputs, outputs)``, as in ``x @ w``), ``value`` the ``(weights,
/// biases)`` of the one-output value layer, and a position is worth
/// ``tanh(v) * value_scale`` for the player to move there, reading the
/// observation in the game's ``obs_format`` as ``State.observation()`` gives
/// it (a packed row's bytes as numbers). Pass it as
/// ``evaluate`` to ``alphabeta_search``, ``turn_values`` and the search
/// agents; calling it, ``net(state, player)``, gives the value a search uses.
/// ``ludoteca.agents.baseline.AfterstateEvaluation.native()`` builds one from
/// a baseline network. ``builtin`` (0 to 1, default 0) blends in the game's
/// built-in evaluation: a leaf is worth ``(1 - builtin) * network + builtin
/// * built-in`` to the player asked about. Games without dice only.
#[pyclass(name = "MlpEvaluation", module = "ludoteca._core", frozen)]
pub struct PyMlp {
    net: Arc<Mlp>,
}

#[pymethods]
impl PyMlp {
    #[new]
    #[pyo3(signature = (layers, value, value_scale=1.0, builtin=Real(0.0)), text_signature = "(layers, value, value_scale=1.0, builtin=0.0)")]
    fn new(
        layers: Vec<(PyReadonlyArray2<'_, f32>, PyReadonlyArray1<'_, f32>)>,
        value: (PyReadonlyArray2<'_, f32>, PyReadonlyArray1<'_, f32>),
        value_scale: f64,
        builtin: Real,
    ) -> PyResult<Self> {
        let dense = |i: usize,
                     (w, b): &(PyReadonlyArray2<'_, f32>, PyReadonlyArray1<'_, f32>)|
         -> PyResult<(Vec<f32>, Vec<f32>)> {
            if w.shape()[1] != b.len() {
                return Err(LudotecaValueError::new_err(format!(
                    "MlpEvaluation: layer {i} has weights of shape {:?} and {} biases: expected (inputs, outputs) weights and one bias per output",
                    w.shape(),
                    b.len()
                )));
            }
            Ok((w.as_array().iter().copied().collect(), b.as_array().iter().copied().collect()))
        };
        let hidden = layers.iter().enumerate().map(|(i, l)| dense(i, l)).collect::<PyResult<Vec<_>>>()?;
        let value = dense(hidden.len(), &value)?;
        if !(0.0..=1.0).contains(&builtin.0) {
            return Err(option_error(format!(
                "MlpEvaluation: builtin is the built-in evaluation's weight, from 0 to 1; got {}",
                builtin.0
            )));
        }
        let net = Mlp::new(hidden, value, value_scale as f32)
            .and_then(|n| n.with_builtin(builtin.0 as f32))
            .map_err(to_py)?;
        Ok(PyMlp { net: Arc::new(net) })
    }

    /// The value of ``state`` for ``player``, as a search's leaf sees it
    /// (``returns()[player]`` once the game is over).
    fn __call__(&self, py: Python<'_>, state: &Bound<'_, PyState>, player: Int) -> PyResult<f32> {
        if !(0..=1).contains(&player.0) {
            return Err(option_error(format!("player must be 0 or 1, got {}", player.0)));
        }
        let (inner, net) = (searched(state), &*self.net);
        py.detach(|| inner.evaluate(Evaluation::Network(net), Player::from_index(player.0 as usize))).map_err(to_py)
    }

    /// The length of the observation the network reads.
    #[getter]
    fn inputs(&self) -> usize {
        self.net.inputs()
    }

    /// The weight of the game's built-in evaluation in the leaf values (0: the network alone).
    #[getter]
    fn builtin(&self) -> f32 {
        self.net.builtin()
    }

    fn __repr__(&self) -> String {
        match self.net.builtin() {
            w if w > 0.0 => format!("MlpEvaluation(inputs={}, builtin={w})", self.net.inputs()),
            _ => format!("MlpEvaluation(inputs={})", self.net.inputs()),
        }
    }
}

/// A copy of `state` to search: no borrow of the Python object is held while
/// the search runs without the GIL, so another thread may play on it meanwhile.
fn searched(state: &Bound<'_, PyState>) -> Box<dyn DynState> {
    state.borrow().inner.clone_box()
}

/// Runs `run` with the caller's evaluation: none (the built-in one) or a
/// native network, without the GIL; a Python callable, holding it. The
/// evaluation's own exception is raised as it is. `run` is also handed a
/// `Stop` hook that answers Ctrl-C (the exception raised is Python's
/// `KeyboardInterrupt`, or whatever the signal's handler raises).
fn with_eval<T: Send>(
    py: Python<'_>,
    evaluate: Option<&Bound<'_, PyAny>>,
    run: impl for<'a, 'b> FnOnce(Evaluation<'a, 'b>, Stop<'_>) -> crate::Result<T> + Send,
) -> PyResult<T> {
    let net = match evaluate {
        None => None,
        Some(callable) => callable.cast::<PyMlp>().ok().map(|n| n.get().net.clone()),
    };
    if evaluate.is_none() || net.is_some() {
        let signals = SignalCheck::new();
        let hook = || signals.stop();
        let result = py.detach(|| match &net {
            None => run(Evaluation::Builtin, &hook),
            Some(net) => run(Evaluation::Network(net), &hook),
        });
        return match signals.take() {
            Some(e) => Err(e),
            None => result.map_err(to_py),
        };
    }
    let callable = evaluate.expect("a callable");
    if !callable.is_callable() {
        return Err(option_error(format!(
            "evaluate must be a callable evaluate(state, player) -> float, got {}",
            callable.get_type().name()?
        )));
    }
    let mut failure: Option<PyErr> = None;
    let result = {
        let mut f = |s: Box<dyn DynState>, p: Player| -> Result<f32, Aborted> {
            let got = Py::new(py, PyState { inner: s })
                .and_then(|state| callable.call1((state, p as i32)))
                .and_then(|v| v.extract::<f64>());
            match got {
                Ok(v) if v.is_finite() => Ok(v as f32),
                Ok(v) => {
                    failure = Some(LudotecaValueError::new_err(format!(
                        "evaluate(state, player) returned {v}: expected a finite float"
                    )));
                    Err(Aborted)
                }
                Err(e) => {
                    failure = Some(e);
                    Err(Aborted)
                }
            }
        };
        let f: &mut DynEval<'_> = &mut f;
        // Python runs its signal handlers at each call of the callable: a Ctrl-C surfaces as its exception.
        run(Evaluation::Caller(f), &never)
    };
    match failure {
        Some(e) => Err(e),
        None => result.map_err(to_py),
    }
}

fn answer_to_dict<'py>(py: Python<'py>, a: &SearchAnswer) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match &a.best {
        Some((actions, notation)) => {
            d.set_item("move", notation)?;
            d.set_item("actions", actions.iter().map(|a| a.0 as i64).collect::<Vec<_>>())?;
        }
        None => {
            d.set_item("move", py.None())?;
            d.set_item("actions", Vec::<i64>::new())?;
        }
    }
    d.set_item("value", a.value)?;
    d.set_item("player", a.player.map(|p| p as i32))?;
    d.set_item("depth", a.depth)?;
    d.set_item("nodes", a.nodes)?;
    d.set_item("seconds", a.seconds)?;
    Ok(d)
}

/// Alpha-beta over complete turns from ``state`` (games without dice; see
/// docs/search.md). Returns ``move`` (notation, None at a terminal state),
/// ``actions``, ``value`` (for ``player``, the player to move), ``player``,
/// ``depth`` (deepest completed iteration), ``nodes`` and ``seconds``.
/// ``evaluate(state, player) -> float`` replaces the built-in evaluation
/// (an ``MlpEvaluation`` is run natively). A position the game has met twice
/// is a draw, worth ``-contempt`` to ``player`` and ``+contempt`` to its
/// opponent (``contempt`` in (-1, 1), default 0: the rules' value).
/// ``threats=True`` adds threat quiescence for the games that tell threats
/// (tablut: the king's routes to a corner; other games: no change). Bad
/// options raise ``OptionError``.
#[pyfunction]
#[pyo3(
    signature = (state, depth=Int(6), time=None, tt_size=Int(262_144), quiescence=Flag(true), evaluate=None, contempt=Real(0.0), threats=Flag(false)),
    text_signature = "(state, depth=6, time=None, tt_size=262144, quiescence=True, evaluate=None, contempt=0.0, threats=False)"
)]
fn alphabeta_search<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyState>,
    depth: Int,
    time: Option<f64>,
    tt_size: Int,
    quiescence: Flag,
    evaluate: Option<Bound<'py, PyAny>>,
    contempt: Real,
    threats: Flag,
) -> PyResult<Bound<'py, PyDict>> {
    let (depth, tt_size, contempt, quiescence, threats) = (depth.0, tt_size.0, contempt.0, quiescence.0, threats.0);
    if !(contempt.is_finite() && contempt.abs() < 1.0) {
        return Err(option_error(format!("contempt must be a number in (-1, 1), got {contempt}")));
    }
    let max = alphabeta::MAX_DEPTH as i64;
    if !(1..=max).contains(&depth) {
        return Err(option_error(format!("depth must be an integer in [1, {max}], got {depth}")));
    }
    if let Some(t) = time {
        if !(t.is_finite() && t > 0.0 && t <= 3600.0) {
            return Err(option_error(format!("time must be a number of seconds in (0, 3600], got {t}")));
        }
    }
    if !(0..=1 << 24).contains(&tt_size) {
        return Err(option_error(format!("tt_size must be an integer in [0, 2**24] (entries), got {tt_size}")));
    }
    let cfg = alphabeta::Config {
        depth: depth as u32,
        time: time.map(std::time::Duration::from_secs_f64),
        tt_entries: tt_size as usize,
        quiescence,
        iterative: true,
        repeated: Vec::new(),
        contempt: contempt as f32,
        threats,
    };
    let inner = searched(state);
    let a = with_eval(py, evaluate.as_ref(), |e, stop| inner.alphabeta(&cfg, e, stop))?;
    answer_to_dict(py, &a)
}

/// n-ply expectimax over complete moves and dice rolls from ``state``
/// (docs/search.md); the same result keys as ``alphabeta_search``, ``value``
/// an equity in points for ``player`` (player 0 at a chance node).
#[pyfunction]
#[pyo3(signature = (state, plies=Int(1), filter=Int(8), evaluate=None), text_signature = "(state, plies=1, filter=8, evaluate=None)")]
fn expectimax_search<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyState>,
    plies: Int,
    filter: Int,
    evaluate: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (plies, filter) = (plies.0, filter.0);
    let max = expectimax::MAX_PLIES as i64;
    if !(0..=max).contains(&plies) {
        return Err(option_error(format!("plies must be an integer in [0, {max}], got {plies}")));
    }
    if !(0..=1000).contains(&filter) {
        return Err(option_error(format!("filter must be an integer in [0, 1000] (0 keeps every move), got {filter}")));
    }
    let cfg = expectimax::Config { plies: plies as u32, filter: filter as usize };
    let inner = searched(state);
    let a = with_eval(py, evaluate.as_ref(), |e, stop| inner.expectimax(&cfg, e, stop))?;
    answer_to_dict(py, &a)
}

/// Every complete move from ``state`` with the value, for the player to
/// move, of the position it leads to (its returns if the game ends there).
/// ``replies=True`` (games without dice) values each position by alpha-beta's
/// capture quiescence instead: the opponent's captures and the recaptures
/// they allow are played out before the evaluation, and a move that wins
/// counts more the sooner the game ends (above 1, as in ``alphabeta_search``).
#[pyfunction]
#[pyo3(signature = (state, evaluate=None, replies=false))]
fn turn_values(
    py: Python<'_>,
    state: &Bound<'_, PyState>,
    evaluate: Option<Bound<'_, PyAny>>,
    replies: bool,
) -> PyResult<Vec<(String, f32)>> {
    let inner = searched(state);
    with_eval(py, evaluate.as_ref(), |e, _| inner.turn_values(e, replies))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(alphabeta_search, m)?)?;
    m.add_function(wrap_pyfunction!(expectimax_search, m)?)?;
    m.add_function(wrap_pyfunction!(turn_values, m)?)?;
    m.add_class::<PyMlp>()?;
    Ok(())
}
