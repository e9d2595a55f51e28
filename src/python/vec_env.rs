//! `VecEnv`: N games stepped by one call, in Rust, in parallel, without the GIL.

use super::convert::{int_arg, int_in, seed_arg, Flag, Seed, Text};
use super::errors::to_py;
use super::errors::{ActionsError, IllegalActionError, LudotecaValueError, OptionError};
use super::state::{type_name, PyGame, PyState};
use super::vec_env_async::{busy, take_rows, InFlight, RawOut};
use crate::batch::{default_threads, BatchOut, ObsOut, RolloutStats};
use crate::dynamic::{DynBatch, DynGame};
use crate::game::ObsFormat;
use numpy::{PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::Arc;
use std::sync::{Mutex, MutexGuard, TryLockError};

/// Decisions (over all envs) between two looks at Python's signal handlers
/// in `rollout`: about 50 ms in the slowest game. Each env plays at least
/// `ROLLOUT_MIN_STEPS` of them in a row, as each piece ends by writing every
/// env's observation (pieces of 16 steps cost 13 % of the CPU time on 4096
/// checkers envs, of 64 steps 6 %); a Ctrl-C then waits at most about
/// 0.2 s per 1024 envs.
const ROLLOUT_CHUNK: usize = 1 << 18;
const ROLLOUT_MIN_STEPS: usize = 256;

#[derive(Clone, Copy, PartialEq, Eq)]
enum ObsDtype {
    F32,
    U8,
}

/// One set of output arrays (fresh per call, or the reused ones).
struct Arrays {
    obs: Py<PyAny>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    to_act: Py<PyArray1<i32>>,
    info: Py<PyArray2<i32>>,
}

/// The state behind a [`PyVecEnv`] (which holds it behind a lock).
pub struct VecEnvInner {
    game: Arc<dyn DynGame>,
    batch: Box<dyn DynBatch>,
    copy: bool,
    dtype: ObsDtype,
    /// The arrays every call returns when `copy=False` (and `rollout` writes);
    /// made on first use.
    reused: Option<Arrays>,
    /// Engine output for final observations when `copy=True` (only the rows
    /// of ended games are written; they are copied into a fresh array).
    final_obs: Vec<f32>,
    /// The same under `obs_format="packed"` (bytes; `final_obs` is then empty).
    final_packed: Vec<u8>,
    /// Whether the game's `obs_format` is `"packed"`.
    packed: bool,
    /// With `copy=False`: the reused `final_observation` array (float32, or
    /// uint8 when packed), and the rows written into it last step (zeroed
    /// again before the next step).
    final_arr: Option<Py<PyAny>>,
    final_rows: Vec<usize>,
    /// Actions of the current step, converted once and reused.
    actions: Vec<i64>,
    seed: u64,
    /// A `send` being stepped on its thread (or not yet handed out in
    /// full by `recv`), with the arrays it writes.
    inflight: Option<(InFlight, Arrays)>,
}

impl Drop for VecEnvInner {
    fn drop(&mut self) {
        // The stepping thread uses the batch: it must finish first.
        if let Some((f, _)) = &mut self.inflight {
            f.join_quietly();
        }
    }
}

impl VecEnvInner {
    /// Refuses while a `send` is in flight or not fully received.
    fn idle(&self) -> PyResult<()> {
        if self.inflight.is_some() {
            return Err(busy());
        }
        Ok(())
    }

    fn obs_dims(&self) -> Vec<usize> {
        let mut dims = vec![self.batch.num_envs()];
        dims.extend(self.game.obs_layout().shape());
        dims
    }

    /// A zeroed final-observation array of `n` rows of this env's format.
    fn zeros_final(py: Python<'_>, dims: Vec<usize>, packed: bool) -> Py<PyAny> {
        if packed {
            PyArrayDyn::<u8>::zeros(py, dims, false).into_any().unbind()
        } else {
            PyArrayDyn::<f32>::zeros(py, dims, false).into_any().unbind()
        }
    }

    /// The engine's final-observation buffer: the reused array, or our own.
    ///
    /// SAFETY: the GIL is held and nothing else touches the reused array
    /// while the returned slice lives.
    unsafe fn final_out<'a>(
        py: Python<'a>,
        arr: &'a Option<Py<PyAny>>,
        own: &'a mut [f32],
        own_packed: &'a mut [u8],
        packed: bool,
    ) -> ObsOut<'a> {
        match (arr, packed) {
            (Some(a), false) => ObsOut::F32(a.bind(py).cast::<PyArrayDyn<f32>>().unwrap().as_slice_mut().unwrap()),
            (Some(a), true) => ObsOut::U8(a.bind(py).cast::<PyArrayDyn<u8>>().unwrap().as_slice_mut().unwrap()),
            (None, false) => ObsOut::F32(own),
            (None, true) => ObsOut::U8(own_packed),
        }
    }

    fn new_arrays(py: Python<'_>, n: usize, dims: Vec<usize>, a: usize, f: usize, dtype: ObsDtype) -> Arrays {
        // SAFETY: every element is written by the batch engine before the
        // arrays are returned (reset and step write every row in full).
        unsafe {
            Arrays {
                obs: match dtype {
                    ObsDtype::F32 => PyArrayDyn::<f32>::new(py, dims, false).into_any().unbind(),
                    ObsDtype::U8 => PyArrayDyn::<u8>::new(py, dims, false).into_any().unbind(),
                },
                mask: PyArray2::<bool>::new(py, [n, a], false).unbind(),
                rewards: PyArray2::<f32>::new(py, [n, 2], false).unbind(),
                terminated: PyArray1::<bool>::new(py, n, false).unbind(),
                truncated: PyArray1::<bool>::new(py, n, false).unbind(),
                to_act: PyArray1::<i32>::new(py, n, false).unbind(),
                info: PyArray2::<i32>::new(py, [n, f], false).unbind(),
            }
        }
    }

    fn fresh_arrays(&self, py: Python<'_>) -> Arrays {
        let b = &self.batch;
        Self::new_arrays(py, b.num_envs(), self.obs_dims(), b.num_actions(), b.num_info(), self.dtype)
    }

    fn reused_arrays(&mut self, py: Python<'_>) -> Arrays {
        if self.reused.is_none() {
            self.reused = Some(self.fresh_arrays(py));
        }
        let r = self.reused.as_ref().expect("made above");
        Arrays {
            obs: r.obs.clone_ref(py),
            mask: r.mask.clone_ref(py),
            rewards: r.rewards.clone_ref(py),
            terminated: r.terminated.clone_ref(py),
            truncated: r.truncated.clone_ref(py),
            to_act: r.to_act.clone_ref(py),
            info: r.info.clone_ref(py),
        }
    }

    fn arrays_for_call(&mut self, py: Python<'_>) -> Arrays {
        if self.copy {
            self.fresh_arrays(py)
        } else {
            self.reused_arrays(py)
        }
    }

    /// Runs `f` on the batch with `arrays` as outputs, the GIL released.
    fn run<R: Send>(
        &mut self,
        py: Python<'_>,
        arrays: &Arrays,
        f: impl FnOnce(&mut dyn DynBatch, &mut BatchOut<'_>) -> R + Send,
    ) -> R {
        // SAFETY: the arrays are C-contiguous numpy arrays this object created;
        // nothing else writes them while the batch runs (the GIL is only
        // released inside this call, and Python code cannot run on this
        // object meanwhile because `self` is mutably borrowed).
        unsafe {
            let final_obs =
                Self::final_out(py, &self.final_arr, &mut self.final_obs, &mut self.final_packed, self.packed);
            let obs = match self.dtype {
                ObsDtype::F32 => {
                    ObsOut::F32(arrays.obs.bind(py).cast::<PyArrayDyn<f32>>().unwrap().as_slice_mut().unwrap())
                }
                ObsDtype::U8 => {
                    ObsOut::U8(arrays.obs.bind(py).cast::<PyArrayDyn<u8>>().unwrap().as_slice_mut().unwrap())
                }
            };
            let mut out = BatchOut {
                obs,
                mask: arrays.mask.bind(py).as_slice_mut().unwrap(),
                rewards: arrays.rewards.bind(py).as_slice_mut().unwrap(),
                terminated: arrays.terminated.bind(py).as_slice_mut().unwrap(),
                truncated: arrays.truncated.bind(py).as_slice_mut().unwrap(),
                to_act: arrays.to_act.bind(py).as_slice_mut().unwrap(),
                info: arrays.info.bind(py).as_slice_mut().unwrap(),
                final_obs,
            };
            let batch = &mut *self.batch;
            py.detach(move || f(batch, &mut out))
        }
    }

    fn info<'py>(&self, py: Python<'py>, arrays: &Arrays) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("legal_action_mask", arrays.mask.bind(py))?;
        d.set_item("current_player", arrays.to_act.bind(py))?;
        let info = arrays.info.bind(py);
        for (k, name) in self.game.spec().info_fields.iter().enumerate() {
            d.set_item(*name, info.get_item((pyo3::types::PySlice::full(py), k))?)?;
        }
        Ok(d)
    }

    /// Converts `actions` into `self.actions` (int64, the batch's length),
    /// without allocating for int64 and int32 arrays.
    fn read_actions(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.batch.num_envs();
        self.actions.resize(n, 0);
        if let Ok(arr) = actions.cast::<PyArray1<i64>>() {
            if arr.len() == n {
                if let Ok(ro) = arr.try_readonly() {
                    if let Ok(s) = ro.as_slice() {
                        self.actions.copy_from_slice(s);
                        return Ok(());
                    }
                }
            }
        }
        if let Ok(arr) = actions.cast::<PyArray1<i32>>() {
            if arr.len() == n {
                if let Ok(ro) = arr.try_readonly() {
                    if let Ok(s) = ro.as_slice() {
                        for (d, &a) in self.actions.iter_mut().zip(s) {
                            *d = a as i64;
                        }
                        return Ok(());
                    }
                }
            }
        }
        let np = py.import("numpy")?;
        let arr = np.call_method1("asarray", (actions,)).map_err(|_| {
            ActionsError::new_err(format!(
                "actions must be an integer array of shape ({n},), got {}",
                type_name(actions)
            ))
        })?;
        let dtype = arr.getattr("dtype")?;
        let kind: String = dtype.getattr("kind")?.extract()?;
        let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
        if !(kind == "i" || kind == "u") || shape != [n] {
            let shape_s = format!("({})", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "));
            let shape_s = if shape.len() == 1 { shape_s.replace(')', ",)") } else { shape_s };
            return Err(ActionsError::new_err(format!(
                "actions must be an integer array of shape ({n},), got {} {shape_s}",
                dtype.str()?
            )));
        }
        let arr = arr.call_method1("astype", ("int64",))?;
        let arr = arr.cast::<PyArray1<i64>>()?;
        for (d, a) in self.actions.iter_mut().zip(arr.readonly().as_array().iter()) {
            *d = *a;
        }
        Ok(())
    }

    /// Reads `env_ids` for `send`: distinct integers in [0, num_envs).
    fn read_env_ids(&self, py: Python<'_>, ids: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
        let n = self.batch.num_envs();
        let bad =
            || ActionsError::new_err(format!("env_ids must be distinct integers in [0, {n}), got {}", type_name(ids)));
        let arr = py.import("numpy")?.call_method1("asarray", (ids,)).map_err(|_| bad())?;
        let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
        if !(kind == "i" || kind == "u") || arr.getattr("ndim")?.extract::<usize>()? != 1 {
            return Err(bad());
        }
        let ids: Vec<i64> = arr.call_method1("astype", ("int64",))?.call_method0("tolist")?.extract()?;
        let mut seen = vec![false; n];
        for &i in &ids {
            if !(0..n as i64).contains(&i) || std::mem::replace(&mut seen[i as usize], true) {
                return Err(ActionsError::new_err(format!(
                    "env_ids must be distinct integers in [0, {n}), got {ids:?}"
                )));
            }
        }
        Ok(ids)
    }

    /// Converts `active` to a bool vector of the batch's length.
    fn read_active(&self, py: Python<'_>, active: &Bound<'_, PyAny>) -> PyResult<Vec<bool>> {
        let n = self.batch.num_envs();
        let arr = py.import("numpy")?.call_method1("asarray", (active,)).map_err(|_| {
            ActionsError::new_err(format!("active must be a bool array of shape ({n},), got {}", type_name(active)))
        })?;
        let dtype = arr.getattr("dtype")?;
        let kind: String = dtype.getattr("kind")?.extract()?;
        let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
        if kind != "b" || shape != [n] {
            let dims = shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
            let comma = if shape.len() == 1 { "," } else { "" };
            return Err(ActionsError::new_err(format!(
                "active must be a bool array of shape ({n},), got {} ({dims}{comma})",
                dtype.str()?
            )));
        }
        let arr = arr.cast::<PyArray1<bool>>()?;
        Ok(arr.readonly().as_array().to_vec())
    }

    /// With `copy=False`: zeroes the rows of the reused final-observation
    /// array that the last step wrote, so that only this step's are set.
    fn clear_final_rows(&mut self, py: Python<'_>) {
        if self.final_arr.is_some() {
            let l = self.batch.obs_len();
            // SAFETY: our own contiguous array; the GIL is held.
            let mut f = unsafe {
                Self::final_out(py, &self.final_arr, &mut self.final_obs, &mut self.final_packed, self.packed)
            };
            for &i in &self.final_rows {
                match &mut f {
                    ObsOut::F32(f) => f[i * l..(i + 1) * l].fill(0.0),
                    ObsOut::U8(f) => f[i * l..(i + 1) * l].fill(0),
                }
            }
            self.final_rows.clear();
        }
    }

    fn finish_step<'py>(&mut self, py: Python<'py>, arrays: Arrays, ended: usize) -> PyResult<Bound<'py, PyTuple>> {
        let info = self.info(py, &arrays)?;
        let term = arrays.terminated.bind(py);
        let trunc = arrays.truncated.bind(py);
        if ended > 0 {
            let n = self.batch.num_envs();
            let l = self.batch.obs_len();
            let done = PyArray1::<bool>::zeros(py, n, false);
            let returns = PyArray2::<f32>::zeros(py, [n, 2], false);
            let fin = match &self.final_arr {
                Some(arr) => arr.bind(py).clone(),
                None => Self::zeros_final(py, self.obs_dims(), self.packed).into_bound(py),
            };
            {
                // SAFETY: `done` and `returns` are fresh; `fin` is fresh or our
                // own reused array; the step's arrays are ours and not written
                // while the GIL is held.
                let (d, r) = unsafe { (done.as_slice_mut()?, returns.as_slice_mut()?) };
                let (t, u, rewards) =
                    unsafe { (term.as_slice()?, trunc.as_slice()?, arrays.rewards.bind(py).as_slice()?) };
                let copy_rows = self.final_arr.is_none();
                for i in 0..n {
                    if t[i] || u[i] {
                        d[i] = true;
                        r[i * 2..i * 2 + 2].copy_from_slice(&rewards[i * 2..i * 2 + 2]);
                        if copy_rows {
                            if self.packed {
                                let f = unsafe { fin.cast::<PyArrayDyn<u8>>()?.as_slice_mut()? };
                                f[i * l..(i + 1) * l].copy_from_slice(&self.final_packed[i * l..(i + 1) * l]);
                            } else {
                                let f = unsafe { fin.cast::<PyArrayDyn<f32>>()?.as_slice_mut()? };
                                f[i * l..(i + 1) * l].copy_from_slice(&self.final_obs[i * l..(i + 1) * l]);
                            }
                        } else {
                            self.final_rows.push(i);
                        }
                    }
                }
            }
            info.set_item("final_observation", fin)?;
            info.set_item("_final_observation", done)?;
            info.set_item("final_returns", returns)?;
        }
        PyTuple::new(
            py,
            [
                arrays.obs.bind(py).clone(),
                arrays.rewards.bind(py).clone().into_any(),
                term.clone().into_any(),
                trunc.clone().into_any(),
                info.into_any(),
            ],
        )
    }
}

/// ``obs_dtype`` as a dtype name: ``None``, a string, or anything numpy
/// reads as a dtype (``numpy.uint8``, ``numpy.dtype("float32")``).
fn obs_dtype_arg(py: Python<'_>, obs_dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    let Some(d) = obs_dtype.filter(|d| !d.is_none()) else { return Ok(None) };
    if let Ok(text) = d.extract::<String>() {
        return Ok(Some(text));
    }
    let bad = || {
        OptionError::new_err(format!(
            "obs_dtype must be None, \"float32\" or \"uint8\" (or numpy.float32, numpy.uint8), got {} {}",
            type_name(d),
            d.repr().map(|r| r.to_string().chars().take(80).collect::<String>()).unwrap_or_default()
        ))
    };
    // Only types and dtypes: numpy.dtype() would also read a list or a dict as a structured dtype.
    if !(d.is_instance_of::<pyo3::types::PyType>() || d.hasattr("itemsize").unwrap_or(false)) {
        return Err(bad());
    }
    let name = py.import("numpy")?.getattr("dtype")?.call1((d,)).and_then(|t| t.getattr("name")).map_err(|_| bad())?;
    Ok(Some(name.extract::<String>().map_err(|_| bad())?))
}

impl VecEnvInner {
    fn new(
        py: Python<'_>,
        game_id: &str,
        num_envs: i64,
        seed: u64,
        num_threads: Option<i64>,
        copy: bool,
        obs_dtype: Option<&str>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let game = PyGame::make(game_id, options)?;
        if !(1..=1 << 24).contains(&num_envs) {
            return Err(OptionError::new_err(format!("num_envs must be an integer in [1, 16777216], got {num_envs}")));
        }
        let packed = game.obs_layout().format == ObsFormat::Packed;
        let dtype = match (obs_dtype, packed) {
            (None, false) | (Some("float32"), false) => ObsDtype::F32,
            (None, true) | (Some("uint8"), _) => ObsDtype::U8,
            (Some("float32"), true) => {
                return Err(OptionError::new_err(
                    "obs_dtype=\"float32\" does not go with obs_format=\"packed\" (bytes): leave obs_dtype out, or unpack with ludoteca.unpack_observation",
                ))
            }
            (Some(other), _) => {
                return Err(OptionError::new_err(format!("obs_dtype must be None, \"float32\" or \"uint8\", got {other:?}")))
            }
        };
        let n = num_envs as usize;
        let mut batch = game.clone().new_batch(n, seed);
        let threads = match num_threads {
            None => default_threads(),
            Some(t) if (1..=1024).contains(&t) => t as usize,
            Some(t) => {
                return Err(OptionError::new_err(format!(
                    "num_threads must be None or an integer in [1, 1024], got {t}"
                )))
            }
        };
        batch.set_threads(threads).map_err(to_py)?;
        let mut dims = vec![n];
        dims.extend(game.obs_layout().shape());
        let len = n * batch.obs_len();
        let (final_obs, final_packed, final_arr) = match (copy, packed) {
            (true, false) => (vec![0.0; len], Vec::new(), None),
            (true, true) => (Vec::new(), vec![0; len], None),
            (false, _) => (Vec::new(), Vec::new(), Some(Self::zeros_final(py, dims, packed))),
        };
        let mut me = VecEnvInner {
            game,
            batch,
            copy,
            dtype,
            reused: None,
            final_obs,
            final_packed,
            packed,
            final_arr,
            final_rows: Vec::new(),
            actions: Vec::with_capacity(n),
            seed,
            inflight: None,
        };
        let arrays = me.arrays_for_call(py);
        me.run(py, &arrays, |b, out| b.reset(None, out));
        Ok(me)
    }

    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
        options: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        self.idle()?;
        if options.is_some_and(|o| !o.is_none()) {
            return Err(OptionError::new_err("reset(options=...) is not supported: pass game options to VecEnv()"));
        }
        if let Some(s) = seed {
            self.seed = s;
        }
        self.clear_final_rows(py);
        let arrays = self.arrays_for_call(py);
        self.run(py, &arrays, |b, out| b.reset(seed, out));
        let info = self.info(py, &arrays)?;
        Ok((arrays.obs.bind(py).clone(), info))
    }

    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        active: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        self.idle()?;
        self.read_actions(py, actions)?;
        let active = match active {
            Some(a) if !a.is_none() => Some(self.read_active(py, a)?),
            _ => None,
        };
        self.batch
            .validate_active(&self.actions, active.as_deref())
            .map_err(|e| IllegalActionError::new_err(e.to_string()))?;
        self.clear_final_rows(py);
        let arrays = self.arrays_for_call(py);
        let actions = std::mem::take(&mut self.actions);
        let ended = match &active {
            Some(active) => self.run(py, &arrays, |b, out| b.step_active(&actions, active, out)),
            None => self.run(py, &arrays, |b, out| b.step(&actions, out)),
        };
        self.actions = actions;
        self.finish_step(py, arrays, ended)
    }

    fn rollout<'py>(&mut self, py: Python<'py>, steps: i64, policy: &str) -> PyResult<Bound<'py, PyDict>> {
        self.idle()?;
        if policy != "random" {
            return Err(OptionError::new_err(format!("policy must be \"random\", got {policy:?}")));
        }
        if steps < 0 {
            return Err(LudotecaValueError::new_err(format!("steps must be a non-negative integer, got {steps}")));
        }
        self.clear_final_rows(py);
        let arrays = self.reused_arrays(py);
        // In chunks of about ROLLOUT_CHUNK decisions, Python's signal handlers
        // run between them (Ctrl-C): each env plays its decisions back to back
        // from its own generator, so the chunks play the same games as one call.
        let per_chunk = (ROLLOUT_CHUNK / self.batch.num_envs().max(1)).max(ROLLOUT_MIN_STEPS);
        let mut left = steps as usize;
        let mut stats = RolloutStats::default();
        let mut interrupted = Ok(());
        loop {
            let n = left.min(per_chunk);
            let s = self.run(py, &arrays, |b, out| b.rollout(n, out));
            stats.add(&s);
            left -= n;
            if left == 0 {
                break;
            }
            if let Err(e) = py.check_signals() {
                interrupted = Err(e);
                break;
            }
        }
        if self.final_arr.is_some() {
            // SAFETY: our own contiguous array; the GIL is held. Rollouts do
            // not report final observations: leave none behind.
            match unsafe {
                Self::final_out(py, &self.final_arr, &mut self.final_obs, &mut self.final_packed, self.packed)
            } {
                ObsOut::F32(f) => f.fill(0.0),
                ObsOut::U8(f) => f.fill(0),
            }
        }
        interrupted?;
        let d = PyDict::new(py);
        d.set_item("steps", stats.steps)?;
        d.set_item("terminated", stats.terminated)?;
        d.set_item("truncated", stats.truncated)?;
        d.set_item("wins_p0", stats.wins[0])?;
        d.set_item("wins_p1", stats.wins[1])?;
        d.set_item("draws", stats.draws)?;
        Ok(d)
    }

    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.idle()?;
        let arr = PyArray1::<i64>::zeros(py, self.batch.num_envs(), false);
        // SAFETY: fresh contiguous array, not shared yet.
        self.batch.sample_actions(unsafe { arr.as_slice_mut().expect("contiguous") });
        Ok(arr)
    }

    fn memory_bytes(&self) -> PyResult<usize> {
        self.idle()?;
        Ok(self.batch.memory_bytes()
            + self.final_obs.capacity() * 4
            + self.final_packed.capacity()
            + self.actions.capacity() * 8)
    }

    fn state(&self, index: i64) -> PyResult<PyState> {
        self.idle()?;
        let n = self.batch.num_envs() as i64;
        if !(0..n).contains(&index) {
            return Err(LudotecaValueError::new_err(format!("env index must be in [0, {n}), got {index}")));
        }
        Ok(PyState { inner: self.batch.state(index as usize) })
    }

    fn env_seeds(&self) -> PyResult<Vec<u64>> {
        self.idle()?;
        Ok((0..self.batch.num_envs()).map(|i| self.batch.env_seed(i)).collect())
    }

    fn num_envs(&self) -> usize {
        match &self.inflight {
            Some((f, _)) => f.num_envs,
            None => self.batch.num_envs(),
        }
    }
    fn num_actions(&self) -> usize {
        self.game.spec().num_actions
    }
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.game.obs_layout().shape())
    }
    fn num_threads(&self) -> PyResult<usize> {
        self.idle()?;
        Ok(self.batch.threads())
    }
    fn set_num_threads(&mut self, threads: i64) -> PyResult<()> {
        self.idle()?;
        if !(1..=1024).contains(&threads) {
            return Err(OptionError::new_err(format!("num_threads must be an integer in [1, 1024], got {threads}")));
        }
        self.batch.set_threads(threads as usize).map_err(to_py)
    }
    fn copy(&self) -> bool {
        self.copy
    }
    fn obs_dtype(&self) -> &'static str {
        match self.dtype {
            ObsDtype::F32 => "float32",
            ObsDtype::U8 => "uint8",
        }
    }
    fn seed(&self) -> u64 {
        self.seed
    }
    fn game(&self) -> PyGame {
        PyGame { inner: self.game.clone() }
    }

    fn __repr__(&self) -> String {
        if self.inflight.is_some() {
            return format!("VecEnv('{}', num_envs={}, stepping a send)", self.game.entry().id, self.num_envs());
        }
        format!(
            "VecEnv('{}', num_envs={}, num_threads={})",
            self.game.entry().id,
            self.batch.num_envs(),
            self.batch.threads()
        )
    }

    fn send(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>, env_ids: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        self.idle()?;
        let n = self.batch.num_envs();
        let (actions, active) = match env_ids {
            Some(ids) if !ids.is_none() => {
                let ids = self.read_env_ids(py, ids)?;
                let np = py.import("numpy")?;
                let given = np.call_method1("asarray", (actions,))?;
                let shape: Vec<usize> = given.getattr("shape")?.extract()?;
                if shape != [ids.len()] {
                    return Err(ActionsError::new_err(format!(
                        "actions must have one entry per env id: shape ({},), got {shape:?}",
                        ids.len()
                    )));
                }
                let full = np.call_method1("zeros", (n, given.getattr("dtype")?))?;
                full.set_item(PyArray1::from_slice(py, &ids), &given)?;
                let mut active = vec![false; n];
                for &i in &ids {
                    active[i as usize] = true;
                }
                (full, active)
            }
            _ => (actions.clone(), vec![true; n]),
        };
        self.read_actions(py, &actions)?;
        self.batch
            .validate_active(&self.actions, Some(&active))
            .map_err(|e| IllegalActionError::new_err(e.to_string()))?;
        let arrays = self.fresh_arrays(py);
        // SAFETY: fresh C-contiguous arrays, kept alive in `self.inflight`
        // and not handed to Python before `recv` joins the thread.
        let raw = unsafe {
            let obs = match self.dtype {
                ObsDtype::F32 => {
                    ObsOut::F32(arrays.obs.bind(py).cast::<PyArrayDyn<f32>>().unwrap().as_slice_mut().unwrap())
                }
                ObsDtype::U8 => {
                    ObsOut::U8(arrays.obs.bind(py).cast::<PyArrayDyn<u8>>().unwrap().as_slice_mut().unwrap())
                }
            };
            RawOut::new(BatchOut {
                obs,
                mask: arrays.mask.bind(py).as_slice_mut().unwrap(),
                rewards: arrays.rewards.bind(py).as_slice_mut().unwrap(),
                terminated: arrays.terminated.bind(py).as_slice_mut().unwrap(),
                truncated: arrays.truncated.bind(py).as_slice_mut().unwrap(),
                to_act: arrays.to_act.bind(py).as_slice_mut().unwrap(),
                info: arrays.info.bind(py).as_slice_mut().unwrap(),
                final_obs: ObsOut::F32(&mut []),
            })
        };
        // SAFETY: the batch is boxed (it does not move) and every method that
        // touches it refuses until `recv` joins the thread; `Drop` joins it too.
        let flight = unsafe { InFlight::start(&mut *self.batch, raw, self.actions.clone(), active, self.packed) };
        self.inflight = Some((flight, arrays));
        Ok(())
    }

    fn recv<'py>(&mut self, py: Python<'py>, batch_size: Option<i64>) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(b) = batch_size {
            if b < 1 {
                return Err(OptionError::new_err(format!("batch_size must be None or a positive integer, got {b}")));
            }
        }
        let Some((_, arrays)) = &self.inflight else {
            return Err(LudotecaValueError::new_err("recv() needs a send() first"));
        };
        // Views of the whole arrays (nothing is read until rows are taken).
        let full = PyTuple::new(
            py,
            [
                arrays.obs.bind(py).clone(),
                arrays.rewards.bind(py).clone().into_any(),
                arrays.terminated.bind(py).clone().into_any(),
                arrays.truncated.bind(py).clone().into_any(),
                self.info(py, arrays)?.into_any(),
            ],
        )?;
        let obs_shape = self.game.obs_layout().shape();
        let (flight, _) = self.inflight.as_mut().expect("checked above");
        let ids = match flight.next_finished(py, batch_size.map(|b| b as usize)) {
            Ok(ids) => ids,
            Err(e) => {
                // The thread panicked and is joined: the batch is free again.
                self.inflight = None;
                return Err(e);
            }
        };
        if flight.all_handed() {
            // Nothing is left to step; the thread only returns.
            py.detach(|| flight.join_quietly());
        }
        let out = take_rows(py, flight, &full, ids, &obs_shape)?;
        if flight.all_handed() {
            self.inflight = None;
        }
        Ok(out)
    }
}

/// ``num_envs`` games stepped by one call in Rust, in parallel, without the GIL.
///
/// Auto-reset is same-step: when a game ends, that step returns its rewards
/// and flags, ``info["final_observation"]``/``info["final_returns"]`` hold its
/// last observation and returns (rows flagged by ``info["_final_observation"]``),
/// and the returned observation and mask already belong to the next game.
/// With ``copy=False`` the returned arrays are reused buffers overwritten by
/// the next call.
///
/// One call at a time: a call made while another thread is inside a call of
/// the same VecEnv raises ``LudotecaValueError`` at once. A VecEnv cannot be
/// copied or pickled (``LudotecaValueError``): snapshot games with
/// ``state(i)`` or use ``Env``, which copy and pickle exactly.
#[pyclass(name = "VecEnv", module = "ludoteca._core", frozen)]
pub struct PyVecEnv {
    inner: Mutex<VecEnvInner>,
}

impl PyVecEnv {
    /// The batch, or a library error when another thread is using it.
    fn lock(&self) -> PyResult<MutexGuard<'_, VecEnvInner>> {
        match self.inner.try_lock() {
            Ok(guard) => Ok(guard),
            Err(TryLockError::WouldBlock) => Err(LudotecaValueError::new_err(
                "this VecEnv is in use by another thread: a VecEnv serves one call at a time \
                 (give each thread its own VecEnv, or guard a shared one with a lock)",
            )),
            Err(TryLockError::Poisoned(_)) => Err(LudotecaValueError::new_err(
                "this VecEnv is unusable: an earlier call on it failed inside the engine",
            )),
        }
    }
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(
        signature = (game_id, num_envs, seed = Seed(0), num_threads = None, copy = Flag(true), obs_dtype = None, **options),
        text_signature = "(game_id, num_envs, seed=0, num_threads=None, copy=True, obs_dtype=None, **options)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game_id: Text,
        num_envs: &Bound<'_, PyAny>,
        seed: Seed,
        num_threads: Option<&Bound<'_, PyAny>>,
        copy: Flag,
        obs_dtype: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let num_envs = int_arg(num_envs, "num_envs", 1, 1 << 24)?;
        let obs_dtype = obs_dtype_arg(py, obs_dtype)?;
        let seed = seed.0;
        let num_threads = match num_threads {
            Some(t) if !t.is_none() => {
                Some(int_in(t, 1, 1024, OptionError::new_err, "num_threads must be None or an integer in [1, 1024]")?
                    as i64)
            }
            _ => None,
        };
        let inner = VecEnvInner::new(py, &game_id, num_envs, seed, num_threads, copy.0, obs_dtype.as_deref(), options)?;
        Ok(PyVecEnv { inner: Mutex::new(inner) })
    }

    /// Starts every env afresh; ``seed`` re-derives the per-env seeds.
    #[pyo3(signature = (seed = None, options = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        options: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let seed = match seed {
            Some(s) if !s.is_none() => Some(seed_arg(s)?),
            _ => None,
        };
        self.lock()?.reset(py, seed, options)
    }

    /// Steps every env; ``actions`` is an integer array of shape (num_envs,).
    ///
    /// With ``active`` (a bool array of shape (num_envs,)) only the envs
    /// where it is true are stepped: the others keep their game (their
    /// action is ignored) and report it as it stands, with zero rewards and
    /// no flags. ``ludoteca.gym`` uses it to play the opponent's turns.
    #[pyo3(signature = (actions, active = None))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        active: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        self.lock()?.step(py, actions, active)
    }

    /// Plays ``steps`` random legal decisions per env in Rust (each env its
    /// decisions back to back, the envs in parallel, observations and masks
    /// written as by ``step``: the same games as ``steps`` calls of ``step``
    /// with ``sample_actions()``); returns totals: steps, terminated,
    /// truncated, wins_p0, wins_p1, draws. The returned arrays of a
    /// ``copy=False`` env hold the last step's outputs afterwards.
    #[pyo3(signature = (steps, policy = "random"))]
    fn rollout<'py>(&self, py: Python<'py>, steps: &Bound<'py, PyAny>, policy: &str) -> PyResult<Bound<'py, PyDict>> {
        let steps = int_arg(steps, "steps", 0, i64::MAX)?;
        self.lock()?.rollout(py, steps, policy)
    }

    /// One uniformly random legal action per env (chance nodes: an outcome
    /// by its probability), from each env's own seeded generator (the one
    /// ``rollout`` uses); int64, shape (num_envs,).
    fn sample_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.lock()?.sample_actions(py)
    }

    /// Bytes the batch holds besides its output arrays (envs, legal-mask
    /// bitsets, repetition tables, buffers; not heap memory inside game states).
    fn memory_bytes(&self) -> PyResult<usize> {
        self.lock()?.memory_bytes()
    }

    /// A copy of env ``index``'s state.
    fn state(&self, index: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let me = self.lock()?;
        let index = int_arg(index, "env index", 0, me.batch.num_envs() as i64 - 1)?;
        me.state(index)
    }

    /// The seed of each env (env i's game k uses the k-th seed derived from it).
    fn env_seeds(&self) -> PyResult<Vec<u64>> {
        self.lock()?.env_seeds()
    }

    /// Number of games stepped together.
    #[getter]
    fn num_envs(&self) -> PyResult<usize> {
        Ok(self.lock()?.num_envs())
    }
    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> PyResult<usize> {
        Ok(self.lock()?.num_actions())
    }
    /// Shape of one env's observation.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.lock()?.observation_shape(py)
    }
    /// Threads stepping the envs (settable; results do not depend on it).
    /// At most as many OS threads as the machine has cores are started
    /// whatever the number asked; this reports the number asked.
    #[getter]
    fn num_threads(&self) -> PyResult<usize> {
        self.lock()?.num_threads()
    }
    #[setter]
    fn set_num_threads(&self, threads: &Bound<'_, PyAny>) -> PyResult<()> {
        let threads = int_arg(threads, "num_threads", 1, 1024)?;
        self.lock()?.set_num_threads(threads)
    }
    /// Whether each call returns fresh arrays (``False``: reused buffers).
    #[getter]
    fn copy(&self) -> PyResult<bool> {
        Ok(self.lock()?.copy())
    }
    /// ``"float32"`` or ``"uint8"``: the observations' dtype (``obs_dtype=None``:
    /// ``"uint8"`` under ``obs_format="packed"``, else ``"float32"``).
    #[getter]
    fn obs_dtype(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.obs_dtype())
    }
    /// The seed the per-env seeds derive from.
    #[getter]
    fn seed(&self) -> PyResult<u64> {
        Ok(self.lock()?.seed())
    }
    /// The game every env plays.
    #[getter]
    fn game(&self) -> PyResult<PyGame> {
        Ok(self.lock()?.game())
    }

    fn __repr__(&self) -> String {
        match self.lock() {
            Ok(me) => me.__repr__(),
            Err(_) => "VecEnv(in use by another thread)".into(),
        }
    }

    /// Starts stepping asynchronously and returns at once (EnvPool-style):
    /// ``actions[j]`` goes to env ``env_ids[j]`` (default: every env,
    /// ``actions`` of shape (num_envs,)). The step runs on a background
    /// thread exactly as ``step(actions, active=...)`` would; ``recv()``
    /// returns it. One send at a time: until ``recv`` has returned every
    /// sent env, the other methods raise ``LudotecaValueError``.
    #[pyo3(signature = (actions, env_ids = None))]
    fn send(&self, py: Python<'_>, actions: &Bound<'_, PyAny>, env_ids: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        self.lock()?.send(py, actions, env_ids)
    }

    /// Returns ``(obs, rewards, terminated, truncated, info)`` for envs of
    /// the last ``send``, each row as ``step`` returns it, with
    /// ``info["env_id"]`` (int64) naming each row. Without ``batch_size``:
    /// waits for every sent env not yet received. With ``batch_size=k``:
    /// returns as soon as ``k`` more envs have finished stepping (first
    /// finished, first received; fewer if fewer are left), the others still
    /// stepping for the next ``recv`` calls. Rows are ordered by env id.
    #[pyo3(signature = (batch_size = None))]
    fn recv<'py>(&self, py: Python<'py>, batch_size: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyTuple>> {
        let batch_size = match batch_size {
            Some(b) if !b.is_none() => Some(int_arg(b, "batch_size", 1, i64::MAX)?),
            _ => None,
        };
        self.lock()?.recv(py, batch_size)
    }

    fn __copy__(&self) -> PyResult<PyVecEnv> {
        Err(not_copyable())
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<PyVecEnv> {
        Err(not_copyable())
    }

    fn __reduce__(&self) -> PyResult<()> {
        Err(not_copyable())
    }
}

/// VecEnvs are not copied nor pickled: a copy of N games, their buffers and
/// thread pool is rarely what a training loop means; `Env` and `State` are.
fn not_copyable() -> PyErr {
    LudotecaValueError::new_err(
        "a VecEnv cannot be copied or pickled: snapshot its games with venv.state(i) (a State, which copies \
         and pickles exactly), or use ludoteca.Env, which does; rebuild a VecEnv from its game id, options and seed",
    )
}
