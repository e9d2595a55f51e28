//! Ctrl-C during long native calls (searches, rollouts). The work runs
//! without the GIL, where Python cannot run its signal handlers; the core
//! asks a "should I stop?" hook between pieces of work (`search::eval::Stop`)
//! and these answer it from Python's handlers, so a `KeyboardInterrupt`
//! arrives within a fraction of a second and the object stays usable.

use pyo3::prelude::*;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a long call lets Python run its signal handlers: often enough
/// that Ctrl-C feels immediate, rarely enough to cost nothing measurable.
pub(crate) const INTERVAL: Duration = Duration::from_millis(50);

/// A `Stop` hook for work that runs on the calling thread without the GIL
/// (alpha-beta, expectimax): at most every [`INTERVAL`] it takes the GIL and
/// runs Python's signal handlers; once one raises, it answers true for good
/// and keeps the exception for [`SignalCheck::take`].
pub(crate) struct SignalCheck {
    next: Mutex<Instant>,
    caught: Mutex<Option<PyErr>>,
}

impl SignalCheck {
    pub(crate) fn new() -> SignalCheck {
        SignalCheck { next: Mutex::new(Instant::now() + INTERVAL), caught: Mutex::new(None) }
    }

    /// The hook: whether the work should stop now.
    pub(crate) fn stop(&self) -> bool {
        let mut caught = self.caught.lock().unwrap_or_else(|e| e.into_inner());
        if caught.is_some() {
            return true;
        }
        {
            let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
            let now = Instant::now();
            if now < *next {
                return false;
            }
            *next = now + INTERVAL;
        }
        // Only the main thread runs Python's handlers; elsewhere this is a no-op.
        match Python::attach(|py| py.check_signals()) {
            Ok(()) => false,
            Err(e) => {
                *caught = Some(e);
                true
            }
        }
    }

    /// The exception a signal handler raised, if any.
    pub(crate) fn take(&self) -> Option<PyErr> {
        self.caught.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}
