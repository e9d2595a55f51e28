//! `VecEnv.send` / `VecEnv.recv`: EnvPool-style asynchronous stepping.
//!
//! `send` validates the actions, then steps the batch on a background thread
//! (which fans out over the batch's own worker threads, exactly as `step`
//! does) writing into fresh output arrays, and returns at once. Each env
//! reports itself finished as soon as its rows are written (a list of
//! finished ids behind a mutex, with a condition variable), so `recv(k)`
//! returns the first `k` envs to finish while the others still step; `recv()`
//! waits for all of them. While a send is in flight the batch belongs to that
//! thread: every other method that touches it refuses with an error until
//! `recv` has handed out every sent env (the [`InFlight`] guard), and
//! dropping the `VecEnv` waits for the thread.

use super::errors::LudotecaValueError;
use crate::batch::{BatchOut, ObsOut};
use crate::dynamic::DynBatch;
use numpy::{PyArray1, PyArray2, PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// A raw view of one output buffer, moved to the stepping thread.
struct RawSlice<T> {
    ptr: *mut T,
    len: usize,
}

impl<T> RawSlice<T> {
    fn new(s: &mut [T]) -> Self {
        RawSlice { ptr: s.as_mut_ptr(), len: s.len() }
    }
    /// SAFETY: the memory must stay alive and unaliased while the slice is used.
    unsafe fn get<'a>(&self) -> &'a mut [T] {
        std::slice::from_raw_parts_mut(self.ptr, self.len)
    }
}

enum RawObs {
    F32(RawSlice<f32>),
    U8(RawSlice<u8>),
}

/// Everything the stepping thread writes, as raw pointers.
pub(super) struct RawOut {
    obs: RawObs,
    mask: RawSlice<bool>,
    rewards: RawSlice<f32>,
    terminated: RawSlice<bool>,
    truncated: RawSlice<bool>,
    to_act: RawSlice<i32>,
    info: RawSlice<i32>,
}

impl RawOut {
    /// Takes raw views of `out`'s buffers (its `final_obs` is replaced by the
    /// thread's own buffer).
    pub(super) fn new(out: BatchOut<'_>) -> Self {
        RawOut {
            obs: match out.obs {
                ObsOut::F32(s) => RawObs::F32(RawSlice::new(s)),
                ObsOut::U8(s) => RawObs::U8(RawSlice::new(s)),
            },
            mask: RawSlice::new(out.mask),
            rewards: RawSlice::new(out.rewards),
            terminated: RawSlice::new(out.terminated),
            truncated: RawSlice::new(out.truncated),
            to_act: RawSlice::new(out.to_act),
            info: RawSlice::new(out.info),
        }
    }
}

struct BatchPtr(*mut dyn DynBatch);

// SAFETY: the batch is `Send + Sync`; the pointers reach memory that the
// owning `VecEnv` keeps alive (its boxed batch, the fresh numpy arrays held
// by `InFlight`) and does not touch until the thread is joined.
unsafe impl Send for BatchPtr {}
unsafe impl Send for RawOut {}
// SAFETY: the final-observation buffer `InFlight` owns, written by the
// stepping thread only (readers copy rows of finished envs).
unsafe impl Send for RawSlice<f32> {}
// SAFETY: as above (the packed format's bytes).
unsafe impl Send for RawSlice<u8> {}

/// The stepping thread's progress.
#[derive(Default)]
struct Progress {
    state: Mutex<Finished>,
    changed: Condvar,
}

#[derive(Default)]
struct Finished {
    /// Ids of finished envs, in the order they finished.
    ids: Vec<usize>,
    /// Whether the thread has returned (or panicked).
    over: bool,
    /// How many finished envs a waiting `recv` needs: the thread wakes it
    /// only then, not at every env.
    wanted: usize,
}

/// A send whose stepping thread may still run (the owner keeps the arrays
/// the thread writes alive next to it).
pub(super) struct InFlight {
    handle: Option<JoinHandle<()>>,
    progress: Arc<Progress>,
    /// Final observations of the envs whose game ends (rows of the others
    /// stay 0). Written by the thread through a raw pointer: its heap buffer
    /// stays put while `InFlight` moves, and is read only for finished rows.
    final_obs: Vec<f32>,
    /// The same under `obs_format="packed"` (bytes; `final_obs` is empty).
    final_packed: Vec<u8>,
    obs_len: usize,
    /// How many sent envs there are, and how many `recv` has handed out.
    sent: usize,
    handed: usize,
    pub(super) num_envs: usize,
}

impl InFlight {
    /// Starts stepping `batch` with `actions` where `active` on a new thread.
    ///
    /// SAFETY: `batch` and the buffers behind `out` must outlive the thread
    /// and nothing else may touch them until [`InFlight::join`] returns,
    /// except rows of envs reported finished, which may be read.
    pub(super) unsafe fn start(
        batch: &mut dyn DynBatch,
        out: RawOut,
        actions: Vec<i64>,
        active: Vec<bool>,
        packed: bool,
    ) -> Self {
        let num_envs = batch.num_envs();
        let obs_len = batch.obs_len();
        let sent = active.iter().filter(|&&a| a).count();
        let (mut final_obs, mut final_packed) = if packed {
            (Vec::new(), vec![0u8; num_envs * obs_len])
        } else {
            (vec![0.0f32; num_envs * obs_len], Vec::new())
        };
        let final_raw = if packed {
            RawObs::U8(RawSlice::new(&mut final_packed))
        } else {
            RawObs::F32(RawSlice::new(&mut final_obs))
        };
        let progress = Arc::new(Progress::default());
        // SAFETY (lifetime erasure): see the function's contract.
        let ptr = BatchPtr(std::mem::transmute::<&mut dyn DynBatch, &'static mut dyn DynBatch>(batch));
        let shared = progress.clone();
        let handle = std::thread::spawn(move || {
            let ptr = ptr;
            let out = out;
            let final_raw = final_raw;
            // Marks the thread over even if stepping panics, so that `recv`
            // stops waiting and reports it.
            struct Over(Arc<Progress>);
            impl Drop for Over {
                fn drop(&mut self) {
                    self.0.state.lock().unwrap_or_else(|e| e.into_inner()).over = true;
                    self.0.changed.notify_all();
                }
            }
            let _over = Over(shared.clone());
            // SAFETY: the contract of `start`.
            let batch = unsafe { &mut *ptr.0 };
            let mut view = unsafe {
                BatchOut {
                    obs: match &out.obs {
                        RawObs::F32(s) => ObsOut::F32(s.get()),
                        RawObs::U8(s) => ObsOut::U8(s.get()),
                    },
                    mask: out.mask.get(),
                    rewards: out.rewards.get(),
                    terminated: out.terminated.get(),
                    truncated: out.truncated.get(),
                    to_act: out.to_act.get(),
                    info: out.info.get(),
                    final_obs: match &final_raw {
                        RawObs::F32(s) => ObsOut::F32(s.get()),
                        RawObs::U8(s) => ObsOut::U8(s.get()),
                    },
                }
            };
            // The mutex orders each env's row writes before a reader sees its id.
            let done = |i: usize| {
                let mut g = shared.state.lock().unwrap_or_else(|e| e.into_inner());
                g.ids.push(i);
                if g.ids.len() == g.wanted {
                    shared.changed.notify_all();
                }
            };
            batch.step_active_then(&actions, &active, &mut view, &done);
        });
        InFlight { handle: Some(handle), progress, final_obs, final_packed, obs_len, sent, handed: 0, num_envs }
    }

    /// Waits (the GIL released) until `k` more envs than handed out so far
    /// have finished, or all the rest when `k` is `None`; returns their ids,
    /// sorted, and counts them handed out.
    pub(super) fn next_finished(&mut self, py: Python<'_>, k: Option<usize>) -> PyResult<Vec<i64>> {
        let left = self.sent - self.handed;
        let k = k.map_or(left, |k| k.min(left));
        let want = self.handed + k;
        let progress = self.progress.clone();
        let got = py.detach(move || {
            let mut g = progress.state.lock().unwrap_or_else(|e| e.into_inner());
            g.wanted = want;
            while g.ids.len() < want && !g.over {
                g = progress.changed.wait(g).unwrap_or_else(|e| e.into_inner());
            }
            (g.ids.len() >= want).then(|| g.ids[want - k..want].to_vec())
        });
        let mut ids: Vec<i64> = match got {
            Some(ids) => ids.into_iter().map(|i| i as i64).collect(),
            None => {
                self.join_quietly();
                return Err(pyo3::exceptions::PyRuntimeError::new_err("the VecEnv stepping thread panicked"));
            }
        };
        ids.sort_unstable();
        self.handed = want;
        Ok(ids)
    }

    /// Whether `recv` has handed out every sent env.
    pub(super) fn all_handed(&self) -> bool {
        self.handed >= self.sent
    }

    /// The final observations of finished env rows `ids` (rows of envs
    /// whose game did not end, per `ended`, are 0), shape (k, obs_len).
    fn final_rows<T: Copy>(&self, src: &[T], ids: &[i64], ended: &[bool], out: &mut [T]) {
        let l = self.obs_len;
        for (j, (&i, &e)) in ids.iter().zip(ended).enumerate() {
            if e {
                // SAFETY: env `i` reported finished (ordered by the mutex) and
                // no thread writes its row again; a raw read of just that row.
                unsafe {
                    std::ptr::copy_nonoverlapping(src.as_ptr().add(i as usize * l), out[j * l..].as_mut_ptr(), l);
                }
            }
        }
    }

    /// Waits for the thread without Python (after the last rows, and when
    /// the VecEnv is dropped).
    pub(super) fn join_quietly(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The refusal every batch method gives while a send is in flight.
pub(super) fn busy() -> PyErr {
    LudotecaValueError::new_err(
        "this VecEnv is stepping a send(): call recv() (until it has returned every sent env) before using it",
    )
}

/// The rows `ids` (finished envs) of a send's arrays, as `step` reports
/// them: `(obs, rewards, terminated, truncated, info)` with
/// `info["env_id"]`, and the final-observation entries when one of these
/// games ended. `full` is the arrays as a step tuple; `obs_dims` one env's
/// observation shape.
pub(super) fn take_rows<'py>(
    py: Python<'py>,
    flight: &InFlight,
    full: &Bound<'py, PyTuple>,
    ids: Vec<i64>,
    obs_dims: &[usize],
) -> PyResult<Bound<'py, PyTuple>> {
    let k = ids.len();
    // Every env at once (sorted ids 0..n): the arrays themselves, as `step`
    // returns them (the thread is done with them).
    let whole = k == flight.num_envs;
    // Otherwise fancy indexing copies just these rows, which no thread writes any more.
    let idx = PyArray1::from_vec(py, ids);
    let rows = |a: Bound<'py, PyAny>| if whole { Ok(a) } else { a.get_item(&idx) };
    let mut parts: Vec<Bound<'py, PyAny>> = Vec::with_capacity(5);
    for j in 0..4 {
        parts.push(rows(full.get_item(j)?)?);
    }
    let info = full.get_item(4)?.cast_into::<PyDict>()?;
    let out_info = PyDict::new(py);
    for (key, value) in info.iter() {
        out_info.set_item(key, rows(value)?)?;
    }
    let ended: Vec<bool> = {
        let t = parts[2].cast::<PyArray1<bool>>()?.to_vec()?;
        let u = parts[3].cast::<PyArray1<bool>>()?.to_vec()?;
        t.iter().zip(&u).map(|(a, b)| *a || *b).collect()
    };
    if ended.iter().any(|&e| e) {
        let mut dims = vec![k];
        dims.extend_from_slice(obs_dims);
        let returns = PyArray2::<f32>::zeros(py, [k, 2], false);
        let rewards = parts[1].cast::<PyArray2<f32>>()?.readonly().as_slice()?.to_vec();
        // SAFETY: fresh arrays, not shared yet.
        let fin = unsafe {
            let idx_ro = idx.readonly();
            if flight.final_obs.is_empty() && !flight.final_packed.is_empty() {
                let fin = PyArrayDyn::<u8>::zeros(py, dims, false);
                flight.final_rows(&flight.final_packed, idx_ro.as_slice()?, &ended, fin.as_slice_mut()?);
                fin.into_any()
            } else {
                let fin = PyArrayDyn::<f32>::zeros(py, dims, false);
                flight.final_rows(&flight.final_obs, idx_ro.as_slice()?, &ended, fin.as_slice_mut()?);
                fin.into_any()
            }
        };
        unsafe {
            let r = returns.as_slice_mut()?;
            for (j, &e) in ended.iter().enumerate() {
                if e {
                    r[2 * j..2 * j + 2].copy_from_slice(&rewards[2 * j..2 * j + 2]);
                }
            }
        }
        out_info.set_item("final_observation", fin)?;
        out_info.set_item("_final_observation", PyArray1::from_vec(py, ended))?;
        out_info.set_item("final_returns", returns)?;
    }
    out_info.set_item("env_id", &idx)?;
    parts.push(out_info.into_any());
    PyTuple::new(py, parts)
}
