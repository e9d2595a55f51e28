//! Python values to core values and back (game options).

use crate::options::OptValue;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};

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
