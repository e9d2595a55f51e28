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
