//! The pyo3 module `ludoteca._core`: a thin layer that converts types and
//! errors. Everything it does is defined by the core.

mod alphabeta;
mod convert;
mod env;
mod errors;
mod interrupt;
mod sampling;
mod search;
mod state;
mod vec_env;
mod vec_env_async;

use crate::registry;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use convert::opt_to_py;
use errors::to_py;

/// Ids of every registered game, in display order.
#[pyfunction]
fn games() -> Vec<&'static str> {
    registry::entries().iter().map(|e| e.id).collect()
}

/// Registry facts of a game: id, family, version, summary, max_turns,
/// offers, and options (a list of ``{"name", "default", "doc"}``).
#[pyfunction]
fn game_info<'py>(py: Python<'py>, game_id: convert::Text) -> PyResult<Bound<'py, PyDict>> {
    let entry = registry::find(&game_id).map_err(to_py)?;
    let d = PyDict::new(py);
    d.set_item("id", entry.id)?;
    d.set_item("family", entry.family)?;
    d.set_item("version", entry.version)?;
    d.set_item("summary", entry.summary)?;
    d.set_item("max_turns", entry.max_turns)?;
    d.set_item("offers", entry.offers)?;
    let opts = PyList::empty(py);
    for spec in entry.option_specs() {
        let o = PyDict::new(py);
        o.set_item("name", spec.name)?;
        o.set_item("default", opt_to_py(py, &spec.default_value())?)?;
        o.set_item("doc", spec.doc)?;
        opts.append(o)?;
    }
    d.set_item("options", opts)?;
    Ok(d)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(game_info, m)?)?;
    m.add_class::<state::PyGame>()?;
    m.add_class::<state::PyState>()?;
    m.add_class::<env::PyEnv>()?;
    m.add_class::<vec_env::PyVecEnv>()?;
    search::register(m)?;
    sampling::register(m)?;
    alphabeta::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
