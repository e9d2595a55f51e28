//! `Env`: one game driven step by step, in the Gymnasium style: a thin
//! wrapper of the core's one-env contract (`session::Env`, through `DynEnv`).

use super::convert::{Seed, Text};
use super::errors::OptionError;
use super::errors::{lock_or_busy, to_py};
use super::state::{action_arg, extras_from_tuple, extras_to_tuple, ExtrasTuple, PyGame, PyState};
use crate::dynamic::{DynEnv, DynGame};
use crate::session::{EnvSnapshot, Ruling};
use numpy::{PyArray1, PyArrayMethods, ToPyArray};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::{Arc, Mutex, MutexGuard};

/// One game stepped decision by decision (Gymnasium-style, both players).
///
/// ``step`` returns ``(obs, rewards, terminated, truncated, info)`` with
/// ``rewards`` of shape (2,). ``info`` holds ``legal_action_mask``,
/// ``current_player``, ``turn`` and the game's info fields.
/// What an env pickles: position, session extras, seed, episode, done, fresh.
type EnvTuple = (String, ExtrasTuple, u64, u64, bool, bool);

/// One game stepped decision by decision (Gymnasium-style, both players).
///
/// ``step`` returns ``(obs, rewards, terminated, truncated, info)`` with
/// ``rewards`` of shape (2,). ``info`` holds ``legal_action_mask``,
/// ``current_player``, ``turn`` and the game's info fields.
///
/// One call at a time: a call made while another thread is inside a call of
/// the same Env raises ``LudotecaValueError`` at once.
#[pyclass(name = "Env", module = "ludoteca._core", frozen)]
pub struct PyEnv {
    game: Arc<dyn DynGame>,
    env: Mutex<Box<dyn DynEnv>>,
}

impl PyEnv {
    fn new_env(game: Arc<dyn DynGame>, env: Box<dyn DynEnv>) -> PyEnv {
        PyEnv { game, env: Mutex::new(env) }
    }

    /// The env, or a library error when another thread is using it.
    fn lock(&self) -> PyResult<MutexGuard<'_, Box<dyn DynEnv>>> {
        lock_or_busy(&self.env, "Env")
    }

    fn observation<'py>(&self, py: Python<'py>, env: &dyn DynEnv) -> Bound<'py, PyAny> {
        super::state::new_observation(py, &*self.game, |out| env.observe(out))
    }

    fn mask<'py>(&self, py: Python<'py>, env: &dyn DynEnv) -> Bound<'py, PyArray1<bool>> {
        let arr = PyArray1::<bool>::zeros(py, self.game.spec().num_actions, false);
        // SAFETY: as above.
        env.legal_mask(unsafe { arr.as_slice_mut().expect("contiguous") });
        arr
    }

    fn info<'py>(&self, py: Python<'py>, env: &dyn DynEnv) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("legal_action_mask", self.mask(py, env))?;
        d.set_item("current_player", env.to_act().code())?;
        d.set_item("turn", env.turns_played())?;
        for (k, v) in env.info() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }
}

#[pymethods]
impl PyEnv {
    #[new]
    #[pyo3(signature = (game_id, seed = Seed(0), **options), text_signature = "(game_id, seed=0, **options)")]
    fn new(game_id: Text, seed: Seed, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let game = PyGame::make(&game_id, options)?;
        let env = game.clone().new_env(seed.0);
        Ok(PyEnv::new_env(game, env))
    }

    /// Starts a new game (the next one of the env's seed, or the first of ``seed``).
    #[pyo3(signature = (seed = None, options = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<Seed>,
        options: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let seed = seed.map(|s| s.0);
        if let Some(o) = options {
            if !o.is_none() {
                return Err(OptionError::new_err("reset(options=...) is not supported: pass game options to Env()"));
            }
        }
        let mut env = self.lock()?;
        env.reset(seed);
        Ok((self.observation(py, &**env), self.info(py, &**env)?))
    }

    /// Applies one decision; ``GameOverError`` after the game ended until ``reset()``.
    fn step<'py>(&self, py: Python<'py>, action: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
        let mut env = self.lock()?;
        if env.is_done() {
            return Err(to_py(crate::error::GameError::EpisodeOver));
        }
        let a = action_arg(action, self.game.spec().num_actions)?;
        let step = env.step(a).map_err(to_py)?;
        let (terminated, truncated, rewards) = (step.terminated, step.truncated, step.rewards);
        let info = self.info(py, &**env)?;
        info.set_item("refused", step.ruling == Ruling::Refused)?;
        info.set_item("illegal_action", step.ruling == Ruling::Forfeited)?;
        PyTuple::new(
            py,
            [
                self.observation(py, &**env),
                rewards.to_pyarray(py).into_any(),
                pyo3::types::PyBool::new(py, terminated).to_owned().into_any(),
                pyo3::types::PyBool::new(py, truncated).to_owned().into_any(),
                info.into_any(),
            ],
        )
    }

    /// A copy of the current state.
    #[getter]
    fn state(&self) -> PyResult<PyState> {
        Ok(PyState { inner: self.lock()?.state() })
    }

    /// The game this env plays.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame { inner: self.game.clone() }
    }

    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.game.spec().num_actions
    }

    /// Shape of one observation in the game's ``obs_format``.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.game.obs_layout().shape())
    }

    /// 0 or 1, -1 at a chance node, -2 when the game is over.
    #[getter]
    fn current_player(&self) -> PyResult<i32> {
        Ok(self.lock()?.to_act().code())
    }

    /// Boolean mask of shape (num_actions,) of the current decision.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        Ok(self.mask(py, &**self.lock()?))
    }

    /// An independent copy that continues exactly as this env (its game,
    /// generator, episode count and history included). ``copy.copy``,
    /// ``copy.deepcopy`` and pickling give the same.
    fn clone(&self) -> PyResult<PyEnv> {
        Ok(PyEnv::new_env(self.game.clone(), self.lock()?.clone_box()))
    }

    fn __copy__(&self) -> PyResult<PyEnv> {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<PyEnv> {
        self.clone()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (PyGame, EnvTuple))> {
        let py = slf.py();
        let make = py.import("ludoteca._pickle")?.getattr("make_env")?;
        let me = slf.get();
        let s = me.lock()?.snapshot();
        Ok((
            make,
            (
                PyGame { inner: me.game.clone() },
                (s.position, extras_to_tuple(s.extras), s.seed, s.episode, s.done, s.fresh),
            ),
        ))
    }

    /// Unpickling: the env of a ``__reduce__`` snapshot.
    #[staticmethod]
    fn _restore(game: PyRef<'_, PyGame>, snapshot: EnvTuple) -> PyResult<PyEnv> {
        let (position, extras, seed, episode, done, fresh) = snapshot;
        let snap = EnvSnapshot { position, extras: extras_from_tuple(extras), seed, episode, done, fresh };
        let env = game.inner.clone().restore_env(&snap).map_err(to_py)?;
        Ok(PyEnv::new_env(game.inner.clone(), env))
    }

    fn __repr__(&self) -> String {
        match self.env.try_lock() {
            Ok(env) => format!("Env('{}', seed={})", self.game.entry().id, env.seed()),
            Err(_) => format!("Env('{}', in use by another thread)", self.game.entry().id),
        }
    }
}
