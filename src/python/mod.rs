//! The pyo3 module `ludoteca._core`: a thin layer that converts types and
//! errors. Everything it does is defined by the core.

mod alphabeta;
mod env;
mod errors;
mod state;
mod vec_env;

use crate::options::OptValue;
use crate::registry;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

pub(crate) use errors::to_py;

/// Converts Python keyword options to core option values.
pub(crate) fn options_from_kwargs(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, OptValue)>> {
    let mut out = Vec::new();
    if let Some(kwargs) = kwargs {
        for (k, v) in kwargs.iter() {
            let name: String = k.extract()?;
            let value = if v.is_instance_of::<PyBool>() {
                OptValue::Bool(v.extract()?)
            } else if let Ok(i) = v.extract::<i64>() {
                OptValue::Int(i)
            } else if let Ok(s) = v.extract::<String>() {
                OptValue::Str(s)
            } else {
                OptValue::Str(v.repr()?.to_string())
            };
            out.push((name, value));
        }
    }
    Ok(out)
}

pub(crate) fn opt_to_py<'py>(py: Python<'py>, v: &OptValue) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        OptValue::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        OptValue::Int(i) => i.into_pyobject(py)?.into_any(),
        OptValue::Str(s) => s.into_pyobject(py)?.into_any(),
    })
}

/// Ids of every registered game, in display order.
#[pyfunction]
fn games() -> Vec<&'static str> {
    registry::entries().iter().map(|e| e.id).collect()
}

/// Registry facts of one game: family, version, summary, default max_turns,
/// and every option with its default and description.
#[pyfunction]
fn game_info<'py>(py: Python<'py>, game_id: &str) -> PyResult<Bound<'py, PyDict>> {
    let entry = registry::find(game_id).map_err(to_py)?;
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
    alphabeta::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
