//! Core errors become the exception classes of `ludoteca.errors` (all of them
//! `ValueError`s; see that module for the hierarchy).

use crate::error::GameError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// Raises `ludoteca.errors.<class_name>(message)`.
pub(crate) fn raise(class_name: &str, message: String) -> PyErr {
    Python::attach(|py| {
        let class = ERRORS
            .get_or_try_init(py, || py.import("ludoteca.errors").map(|m| m.unbind()))
            .and_then(|m| m.bind(py).getattr(class_name))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(class) => PyErr::from_type(class, message),
            Err(_) => pyo3::exceptions::PyValueError::new_err(message),
        }
    })
}

pub(crate) fn to_py(e: GameError) -> PyErr {
    let class = match &e {
        GameError::UnknownGame { .. } => "UnknownGameError",
        GameError::UnknownOption { .. } | GameError::BadOption { .. } => "OptionError",
        GameError::ActionOutOfRange { .. } | GameError::IllegalAction { .. } => "IllegalActionError",
        GameError::GameOver { .. } | GameError::EpisodeOver => "GameOverError",
        GameError::BadPosition { .. } => "PositionError",
        GameError::BadMove { .. } => "MoveError",
        GameError::Invalid(_) => "LudotecaValueError",
    };
    raise(class, e.to_string())
}
