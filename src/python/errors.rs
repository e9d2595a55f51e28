//! Core errors become the exception classes of `ludoteca.errors` (all of them
//! `ValueError`s; see that module for the hierarchy).

use crate::error::GameError;
use pyo3::prelude::*;

// The classes are defined in Python (`ludoteca.errors`, where their
// hierarchy and docstrings live); these are typed handles to them, imported
// on first use, so that no error is looked up by its class name.
pyo3::import_exception!(ludoteca.errors, LudotecaValueError);
pyo3::import_exception!(ludoteca.errors, UnknownGameError);
pyo3::import_exception!(ludoteca.errors, OptionError);
pyo3::import_exception!(ludoteca.errors, IllegalActionError);
pyo3::import_exception!(ludoteca.errors, ActionsError);
pyo3::import_exception!(ludoteca.errors, PositionError);
pyo3::import_exception!(ludoteca.errors, MoveError);
pyo3::import_exception!(ludoteca.errors, GameOverError);
pyo3::import_exception!(ludoteca.errors, SearchError);
pyo3::import_exception!(ludoteca.errors, SamplingError);

pub(crate) fn to_py(e: GameError) -> PyErr {
    let message = e.to_string();
    match &e {
        GameError::UnknownGame { .. } => UnknownGameError::new_err(message),
        GameError::UnknownOption { .. } | GameError::BadOption { .. } => OptionError::new_err(message),
        GameError::ActionOutOfRange { .. } | GameError::IllegalAction { .. } => IllegalActionError::new_err(message),
        GameError::GameOver { .. } | GameError::EpisodeOver => GameOverError::new_err(message),
        GameError::BadPosition { .. } => PositionError::new_err(message),
        GameError::BadMove { .. } => MoveError::new_err(message),
        GameError::Invalid(_) => LudotecaValueError::new_err(message),
    }
}

/// `m`'s contents, or a library error (not pyo3's "Already borrowed") when
/// another thread is inside a call of the same object: `what` is the class
/// name. The objects whose calls release the GIL (`Env`, `MCTS`, `VecEnv`)
/// keep their mutable part behind a mutex, so that this is the only error a
/// shared object can meet.
pub(crate) fn lock_or_busy<'a, T>(m: &'a std::sync::Mutex<T>, what: &str) -> PyResult<std::sync::MutexGuard<'a, T>> {
    use std::sync::TryLockError;
    match m.try_lock() {
        Ok(guard) => Ok(guard),
        Err(TryLockError::WouldBlock) => Err(LudotecaValueError::new_err(format!(
            "this {what} is in use by another thread: an {what} serves one call at a time \
             (give each thread its own {what}, or guard a shared one with a lock)"
        ))),
        Err(TryLockError::Poisoned(_)) => Err(LudotecaValueError::new_err(format!(
            "this {what} is unusable: an earlier call on it failed inside the engine"
        ))),
    }
}
