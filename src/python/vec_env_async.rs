//! `VecEnv.send` / `VecEnv.recv`: EnvPool-style asynchronous stepping.
//!
//! `send` validates the actions, then steps the batch on a background thread
//! (which fans out over the batch's own worker threads, exactly as `step`
//! does) writing into fresh output arrays, and returns at once; `recv` joins
//! that thread and hands the rows out, all at once or `batch_size` at a time.
//! While a send is in flight the batch belongs to that thread: every other
//! method that touches it refuses with an error until `recv` (the
//! [`InFlight`] guard), and dropping the `VecEnv` waits for the thread.

use super::errors::{LudotecaValueError};
use crate::batch::{BatchOut, ObsOut};
use crate::dynamic::DynBatch;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
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

/// A send whose stepping thread may still run (the owner keeps the arrays
/// the thread writes alive next to it).
pub(super) struct InFlight {
    handle: Option<JoinHandle<(usize, Vec<f32>)>>,
    /// The env ids stepped, in increasing order.
    pub(super) ids: Vec<i64>,
    pub(super) num_envs: usize,
}

impl InFlight {
    /// Starts stepping `batch` with `actions` where `active` on a new thread.
    ///
    /// SAFETY: `batch` and the buffers behind `out` must outlive the thread
    /// and nothing else may touch them until [`InFlight::join`] returns.
    pub(super) unsafe fn start(
        batch: &mut dyn DynBatch,
        out: RawOut,
        actions: Vec<i64>,
        active: Vec<bool>,
    ) -> Self {
        let num_envs = batch.num_envs();
        let ids = active.iter().enumerate().filter(|(_, &a)| a).map(|(i, _)| i as i64).collect();
        let final_len = num_envs * batch.obs_len();
        // SAFETY (lifetime erasure): see the function's contract.
        let ptr = BatchPtr(std::mem::transmute::<&mut dyn DynBatch, &'static mut dyn DynBatch>(batch));
        let handle = std::thread::spawn(move || {
            let ptr = ptr;
            let out = out;
            let mut final_obs = vec![0.0f32; final_len];
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
                    final_obs: &mut final_obs,
                }
            };
            let ended = batch.step_active(&actions, &active, &mut view);
            (ended, final_obs)
        });
        InFlight { handle: Some(handle), ids, num_envs }
    }

    /// Waits for the thread (the GIL released); returns how many games ended
    /// and the final observations of those games (rows of other envs are 0).
    pub(super) fn join(&mut self, py: Python<'_>) -> PyResult<(usize, Vec<f32>)> {
        let handle = self.handle.take().ok_or_else(|| LudotecaValueError::new_err("this send was already received"))?;
        py.detach(move || handle.join())
            .map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("the VecEnv stepping thread panicked"))
    }

    /// Waits for the thread without Python (used when the VecEnv is dropped).
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

/// Rows of a received step still to be handed out by `recv(batch_size)`.
pub(super) struct Ready {
    /// The whole step: (obs, rewards, terminated, truncated, info) over all envs.
    pub(super) result: Py<PyTuple>,
    pub(super) ids: Vec<i64>,
    pub(super) next: usize,
}

impl Ready {
    /// The next `batch_size` (or all remaining) rows, with `info["env_id"]`.
    pub(super) fn take<'py>(&mut self, py: Python<'py>, batch_size: Option<usize>) -> PyResult<Bound<'py, PyTuple>> {
        let left = self.ids.len() - self.next;
        let k = batch_size.map_or(left, |b| b.min(left));
        let ids = PyArray1::from_slice(py, &self.ids[self.next..self.next + k]);
        self.next += k;
        let full = self.result.bind(py);
        let mut parts: Vec<Bound<'py, PyAny>> = Vec::with_capacity(5);
        for j in 0..4 {
            parts.push(full.get_item(j)?.get_item(&ids)?);
        }
        let info = full.get_item(4)?.cast_into::<PyDict>()?;
        let out_info = PyDict::new(py);
        // Every info entry is a per-env array: cut to the rows handed out.
        for (key, value) in info.iter() {
            out_info.set_item(key, value.get_item(&ids)?)?;
        }
        out_info.set_item("env_id", &ids)?;
        parts.push(out_info.into_any());
        PyTuple::new(py, parts)
    }

    pub(super) fn done(&self) -> bool {
        self.next >= self.ids.len()
    }
}
