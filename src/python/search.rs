//! `MCTS` and `SearchResult`: tree search over a batch of states, leaves
//! evaluated by a Python callable once per wave (numpy in and out) or by
//! the built-in random-rollout evaluator. Tree work runs without the GIL.

use super::convert::{Flag, Int, Real, Seed, Text};
use super::errors::{lock_or_busy, to_py, LudotecaValueError, OptionError, SearchError};
use super::interrupt::INTERVAL;
use super::state::{type_name, PyGame, PyState};
use crate::batch::default_threads;
use crate::dynamic::DynMcts;
use crate::dynamic::{DynGame, DynState};
use crate::game::{ObsBuf, ObsFormat};
use crate::search::mcts::{ChanceSelection, MctsConfig, RootSelection, SearchResult};
use numpy::{PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What one ``MCTS.search`` found: one row per state searched.
#[pyclass(name = "SearchResult", module = "ludoteca._core", frozen)]
pub struct PySearchResult {
    /// The decision to play per state, shape (B,).
    #[pyo3(get)]
    actions: Py<PyArray1<i64>>,
    /// Root visit counts per action, shape (B, num_actions); 0 at illegal actions.
    #[pyo3(get)]
    visits: Py<PyArray2<i32>>,
    /// Policy targets for training, shape (B, num_actions): visit
    /// frequencies (PUCT) or the improved policy softmax(logits + sigma(q)) (Gumbel).
    #[pyo3(get)]
    policy: Py<PyArray2<f32>>,
    /// The root value per state, from the side of the player to decide there, shape (B,).
    #[pyo3(get)]
    values: Py<PyArray1<f32>>,
    /// The player to decide at each root, shape (B,).
    #[pyo3(get)]
    players: Py<PyArray1<i32>>,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!("SearchResult(actions={})", self.actions.bind(py).repr().map(|r| r.to_string()).unwrap_or_default())
    }
}

/// Monte-Carlo tree search in Rust over many games at once.
///
/// ``selection="puct"`` (AlphaZero) or ``"gumbel"`` (Gumbel MuZero: Gumbel-top-k
/// with sequential halving at the root over ``considered`` actions). Chance
/// nodes (dice) are in the tree; ``chance="stratified"`` follows the outcome
/// least visited relative to its probability, ``"sample"`` samples one.
/// Games with sampled chance are searched through their explicit-chance copy.
/// ``evaluate_chance=True`` also evaluates each chance node when first reached
/// (its value for ``State.chance_player``, the mask passed all false) before
/// later visits descend through its outcomes. Deterministic for ``seed``
/// whatever ``num_threads``. See ``docs/search.md``. One search at a time:
/// a call made while another thread is inside ``search`` of the same MCTS
/// raises ``LudotecaValueError`` at once.
#[pyclass(name = "MCTS", module = "ludoteca._core", frozen)]
pub struct PyMcts {
    game: Arc<dyn DynGame>,
    inner: Mutex<Box<dyn DynMcts>>,
    /// The search's configuration (a copy, read without waiting for a search).
    config: MctsConfig,
    threads: usize,
    seed: u64,
}

fn parse_root(text: &str) -> PyResult<RootSelection> {
    match text {
        "puct" => Ok(RootSelection::Puct),
        "gumbel" => Ok(RootSelection::Gumbel),
        other => Err(OptionError::new_err(format!("selection must be 'puct' or 'gumbel', got {other:?}"))),
    }
}

fn parse_chance(text: &str) -> PyResult<ChanceSelection> {
    match text {
        "stratified" => Ok(ChanceSelection::Stratified),
        "sample" => Ok(ChanceSelection::Sample),
        other => Err(OptionError::new_err(format!("chance must be 'stratified' or 'sample', got {other:?}"))),
    }
}

fn game_arg(game: &Bound<'_, PyAny>) -> PyResult<Arc<dyn DynGame>> {
    if let Ok(g) = game.cast::<PyGame>() {
        return Ok(g.get().inner.clone());
    }
    if let Ok(id) = game.extract::<String>() {
        return PyGame::make(&id, None);
    }
    Err(LudotecaValueError::new_err(format!("game must be a Game or a game id, got {}", type_name(game))))
}

impl PyMcts {
    /// The states of `states`: a sequence of `State`, or a `VecEnv` (its envs' states).
    fn collect_states(states: &Bound<'_, PyAny>) -> PyResult<Vec<Py<PyState>>> {
        if states.hasattr("num_envs")? && states.hasattr("state")? {
            let n: usize = states.getattr("num_envs")?.extract()?;
            return (0..n).map(|i| Ok(states.call_method1("state", (i,))?.extract::<Py<PyState>>()?)).collect();
        }
        let seq = states.try_iter().map_err(|_| {
            LudotecaValueError::new_err(format!(
                "states must be a sequence of State or a VecEnv, got {}",
                type_name(states)
            ))
        })?;
        seq.map(|item| {
            let item = item?;
            item.extract::<Py<PyState>>().map_err(|_| {
                LudotecaValueError::new_err(format!("states must contain State objects, got {}", type_name(&item)))
            })
        })
        .collect()
    }

    fn result_arrays(&self, py: Python<'_>, results: &[SearchResult]) -> PySearchResult {
        let (b, a) = (results.len(), self.game.spec().num_actions);
        let mut visits = vec![0i32; b * a];
        let mut policy = vec![0f32; b * a];
        for (row, r) in results.iter().enumerate() {
            for &(action, v, w) in &r.children {
                visits[row * a + action.index()] = v as i32;
                policy[row * a + action.index()] = w;
            }
        }
        let visits = numpy::ndarray::Array2::from_shape_vec((b, a), visits).expect("b * a entries");
        let policy = numpy::ndarray::Array2::from_shape_vec((b, a), policy).expect("b * a entries");
        PySearchResult {
            actions: PyArray1::from_iter(py, results.iter().map(|r| r.action.0 as i64)).unbind(),
            visits: PyArray2::from_owned_array(py, visits).unbind(),
            policy: PyArray2::from_owned_array(py, policy).unbind(),
            values: PyArray1::from_iter(py, results.iter().map(|r| r.value)).unbind(),
            players: PyArray1::from_iter(py, results.iter().map(|r| r.player as i32)).unbind(),
        }
    }

    /// Calls `evaluate(obs, mask)` and reads its answer as float32 arrays of
    /// the expected shapes; anything else is a `SearchError`.
    fn call_evaluate(
        &self,
        py: Python<'_>,
        evaluate: &Bound<'_, PyAny>,
        n: usize,
        obs: Bound<'_, PyAny>,
        mask: Bound<'_, PyArray2<bool>>,
    ) -> PyResult<(Vec<f32>, Vec<f32>)> {
        let a = self.game.spec().num_actions;
        let out = evaluate.call1((obs, mask))?;
        let bad = |what: String| {
            SearchError::new_err(format!(
                "evaluate(obs, mask) must return (logits: float32[{n}, {a}], values: float32[{n}]); {what}"
            ))
        };
        let pair = out.cast::<PyTuple>().map_err(|_| bad(format!("got {}", type_name(&out))))?;
        if pair.len() != 2 {
            return Err(bad(format!("got a tuple of {} items", pair.len())));
        }
        let np = py.import("numpy")?;
        let mut arrays = Vec::with_capacity(2);
        for (k, (name, shape)) in [("logits", vec![n, a]), ("values", vec![n])].into_iter().enumerate() {
            let item = pair.get_item(k)?;
            let arr = np
                .call_method1("ascontiguousarray", (&item, "float32"))
                .map_err(|e| bad(format!("{name} is not a numeric array ({e})")))?;
            let arr = arr.cast_into::<PyArrayDyn<f32>>().map_err(|_| bad(format!("{name} is not a numeric array")))?;
            if arr.shape() != shape.as_slice() {
                return Err(bad(format!("{name} has shape {:?}", arr.shape())));
            }
            arrays.push(arr.to_vec().map_err(|e| bad(format!("{name}: {e}")))?);
        }
        let values = arrays.pop().expect("two arrays");
        let logits = arrays.pop().expect("two arrays");
        Ok((logits, values))
    }
}

#[pymethods]
impl PyMcts {
    #[new]
    #[pyo3(signature = (
        game, simulations = Int(800), *, selection = Text("puct".into()), c_puct = Real(1.25), dirichlet_alpha = Real(0.3),
        dirichlet_fraction = Real(0.0), temperature = Real(0.0), considered = Int(16), gumbel_scale = Real(1.0),
        c_visit = Real(50.0), c_scale = Real(0.1), chance = Text("stratified".into()), reuse_tree = Flag(false),
        evaluate_chance = Flag(false), num_threads = None, seed = Seed(0)
    ), text_signature = "(game, simulations=800, *, selection='puct', c_puct=1.25, dirichlet_alpha=0.3, \
dirichlet_fraction=0.0, temperature=0.0, considered=16, gumbel_scale=1.0, c_visit=50.0, c_scale=0.1, \
chance='stratified', reuse_tree=False, evaluate_chance=False, num_threads=None, seed=0)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &Bound<'_, PyAny>,
        simulations: Int,
        selection: Text,
        c_puct: Real,
        dirichlet_alpha: Real,
        dirichlet_fraction: Real,
        temperature: Real,
        considered: Int,
        gumbel_scale: Real,
        c_visit: Real,
        c_scale: Real,
        chance: Text,
        reuse_tree: Flag,
        evaluate_chance: Flag,
        num_threads: Option<Int>,
        seed: Seed,
    ) -> PyResult<Self> {
        let (simulations, considered, num_threads, seed) =
            (simulations.0, considered.0, num_threads.map(|t| t.0), seed.0);
        // Checked wrappers above (OptionError naming what was expected, not pyo3's bare TypeError).
        let (c_puct, dirichlet_alpha, dirichlet_fraction, temperature) =
            (c_puct.0 as f32, dirichlet_alpha.0 as f32, dirichlet_fraction.0 as f32, temperature.0 as f32);
        let (gumbel_scale, c_visit, c_scale, reuse_tree, evaluate_chance) =
            (gumbel_scale.0 as f32, c_visit.0 as f32, c_scale.0 as f32, reuse_tree.0, evaluate_chance.0);
        let game = game_arg(game)?;
        let count = |name: &str, v: i64| -> PyResult<u32> {
            u32::try_from(v)
                .ok()
                .filter(|&x| x >= 1)
                .ok_or_else(|| OptionError::new_err(format!("search option {name}: expected an integer >= 1, got {v}")))
        };
        let config = MctsConfig {
            simulations: count("simulations", simulations)?,
            root: parse_root(&selection)?,
            c_puct,
            dirichlet_alpha,
            dirichlet_fraction,
            temperature,
            considered: count("considered", considered)?,
            gumbel_scale,
            c_visit,
            c_scale,
            chance: parse_chance(&chance)?,
            reuse_tree,
            max_turns: 0,
            evaluate_chance,
        };
        let threads = match num_threads {
            None => default_threads(),
            Some(t) if (1..=1024).contains(&t) => t as usize,
            Some(t) => return Err(OptionError::new_err(format!("num_threads must be in [1, 1024], got {t}"))),
        };
        let inner = game.clone().new_mcts(config, threads, seed).map_err(|e| match e {
            crate::error::GameError::Invalid(m) => OptionError::new_err(m),
            e => to_py(e),
        })?;
        let config = inner.config().clone();
        Ok(PyMcts { game, inner: Mutex::new(inner), config, threads, seed })
    }

    /// Searches every state (one tree each) and returns one row per state.
    ///
    /// ``evaluate=None``: the built-in evaluator (uniform prior, one random
    /// playout in Rust). Otherwise ``evaluate(obs, mask: bool[B, A]) ->
    /// (logits: float32[B, A], values: float32[B])`` is called once per
    /// simulation wave with the leaves of every tree that needs one, ``obs``
    /// in the game's ``obs_format`` exactly as ``VecEnv`` and
    /// ``State.observation()`` give it (``B`` rows of ``game.observation_shape``
    /// and ``game.observation_dtype``: float32, or uint8 bytes when packed), so
    /// that a network trained on the environments' rows is searched with as
    /// it is. Proven results are backed up (a solver): a decision with a
    /// complete turn that wins at once, or a move proven won, is played
    /// whatever the visits say, and a move proven lost is not tried while
    /// another is open. Values are for the player to decide at each leaf (at a
    /// chance node under ``evaluate_chance``: for ``State.chance_player``,
    /// its mask row all false, its logits ignored). A wrong answer raises
    /// ``SearchError`` (so does a chance node without a ``chance_player``
    /// under ``evaluate_chance``); an exception in ``evaluate`` propagates.
    #[pyo3(signature = (states, evaluate = None))]
    fn search(
        &self,
        py: Python<'_>,
        states: &Bound<'_, PyAny>,
        evaluate: Option<Bound<'_, PyAny>>,
    ) -> PyResult<PySearchResult> {
        let handles = Self::collect_states(states)?;
        if handles.is_empty() {
            return Err(LudotecaValueError::new_err("states must hold at least one State"));
        }
        let borrowed: Vec<PyRef<'_, PyState>> = handles.iter().map(|h| h.borrow(py)).collect();
        let refs: Vec<&dyn DynState> = borrowed.iter().map(|s| s.inner.as_ref()).collect();
        let mut guard = lock_or_busy(&self.inner, "MCTS")?;
        guard.set_roots(&refs).map_err(to_py)?;
        drop(refs);
        drop(borrowed);
        let inner = &mut **guard;
        match evaluate {
            None => loop {
                // Slices of search, Python's signal handlers run between them (Ctrl-C): the
                // trees stop between two simulations and the next slice goes on from there.
                let done = py
                    .detach(|| {
                        let end = Instant::now() + INTERVAL;
                        inner.search_rollouts_until(&|| Instant::now() >= end)
                    })
                    .map_err(|e| SearchError::new_err(e.to_string()))?;
                if done {
                    break;
                }
                py.check_signals()?;
            },
            Some(evaluate) => {
                if !evaluate.is_callable() {
                    return Err(LudotecaValueError::new_err(format!(
                        "evaluate must be callable, got {}",
                        type_name(&evaluate)
                    )));
                }
                let spec = inner.spec().clone();
                // The rows the game's environments give (`obs_format`): a
                // network trained on them is searched with as it is.
                let layout = self.game.obs_layout().clone();
                loop {
                    py.check_signals()?;
                    let n = py.detach(|| inner.select()).map_err(|e| SearchError::new_err(e.to_string()))?;
                    if n == 0 {
                        break;
                    }
                    let mut dims = vec![n];
                    dims.extend(layout.shape());
                    // Zeroed: some observers write only the entries that are set.
                    let mask = PyArray2::<bool>::zeros(py, [n, spec.num_actions], false);
                    let obs = if layout.format == ObsFormat::Packed {
                        let obs = PyArrayDyn::<u8>::zeros(py, dims, false);
                        // SAFETY: fresh C-contiguous arrays owned here; nothing else holds them.
                        let (o, m) = unsafe {
                            (obs.as_slice_mut().expect("contiguous"), mask.as_slice_mut().expect("contiguous"))
                        };
                        let inner = &*inner;
                        py.detach(|| inner.write_leaves(ObsBuf::U8(o), m));
                        obs.into_any()
                    } else {
                        let obs = PyArrayDyn::<f32>::zeros(py, dims, false);
                        // SAFETY: as above.
                        let (o, m) = unsafe {
                            (obs.as_slice_mut().expect("contiguous"), mask.as_slice_mut().expect("contiguous"))
                        };
                        let inner = &*inner;
                        py.detach(|| inner.write_leaves(ObsBuf::F32(o), m));
                        obs.into_any()
                    };
                    let (logits, values) = self.call_evaluate(py, &evaluate, n, obs, mask)?;
                    py.detach(|| inner.expand(&logits, &values)).map_err(|e| SearchError::new_err(e.to_string()))?;
                }
            }
        }
        let results = inner.results();
        Ok(self.result_arrays(py, &results))
    }

    /// The game searched.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame { inner: self.game.clone() }
    }
    /// Simulations per search (per tree).
    #[getter]
    fn simulations(&self) -> u32 {
        self.config.simulations
    }
    /// Whether chance nodes are evaluated when first reached.
    #[getter]
    fn evaluate_chance(&self) -> bool {
        self.config.evaluate_chance
    }
    /// ``"puct"`` or ``"gumbel"``.
    #[getter]
    fn selection(&self) -> &'static str {
        match self.config.root {
            RootSelection::Puct => "puct",
            RootSelection::Gumbel => "gumbel",
        }
    }
    /// Threads the trees are searched on.
    #[getter]
    fn num_threads(&self) -> usize {
        self.threads
    }
    /// The seed every search's randomness derives from.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    fn __repr__(&self) -> String {
        let c = &self.config;
        format!(
            "MCTS({:?}, simulations={}, selection={:?}, num_threads={})",
            self.game.entry().id,
            c.simulations,
            self.selection(),
            self.threads
        )
    }
}

/// Registers the search classes on the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMcts>()?;
    m.add_class::<PySearchResult>()?;
    Ok(())
}
