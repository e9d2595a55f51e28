//! Python values to core values and back (game options).

use super::errors::OptionError;
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

/// The text of a Python value for a message, cut to a short prefix.
pub(crate) fn shown(v: &Bound<'_, PyAny>) -> String {
    let text = v.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
    crate::error::clip(&text)
}

fn type_of(v: &Bound<'_, PyAny>) -> String {
    v.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// An integer argument (a Python or numpy integer; not a bool, float or
/// string) in `[lo, hi]`; anything else raises `ludoteca.errors.<class>`
/// (`class`, e.g. `OptionError::new_err`) with the message `"{what}, got ..."`, where `what` names the range.
pub(crate) fn int_in(
    v: &Bound<'_, PyAny>,
    lo: i128,
    hi: i128,
    class: fn(String) -> PyErr,
    what: &str,
) -> PyResult<i128> {
    let index = if v.is_instance_of::<PyBool>() || v.is_instance_of::<pyo3::types::PyFloat>() {
        None
    } else {
        v.call_method0("__index__").ok()
    };
    let Some(index) = index else {
        return Err(class(format!("{what}, got {} {}", type_of(v), shown(v))));
    };
    match index.extract::<i128>() {
        Ok(i) if (lo..=hi).contains(&i) => Ok(i),
        _ => Err(class(format!("{what}, got {}", shown(&index)))),
    }
}

/// An integer argument in `[lo, hi]` (`OptionError` otherwise, naming the range).
pub(crate) fn int_arg(v: &Bound<'_, PyAny>, name: &str, lo: i64, hi: i64) -> PyResult<i64> {
    int_in(v, lo as i128, hi as i128, OptionError::new_err, &format!("{name} must be an integer in [{lo}, {hi}]"))
        .map(|i| i as i64)
}

/// A seed: an integer in `[0, 2**64)` (`OptionError` otherwise).
pub(crate) fn seed_arg(v: &Bound<'_, PyAny>) -> PyResult<u64> {
    int_in(v, 0, u64::MAX as i128, OptionError::new_err, "seed must be an integer in [0, 2**64 - 1]").map(|i| i as u64)
}

/// A seed argument (see [`seed_arg`]).
pub(crate) struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;
    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        seed_arg(&obj).map(Seed)
    }
}

/// The `OptionError` of an argument of the wrong kind: "expected WHAT, got TYPE VALUE".
fn expected(obj: &Bound<'_, PyAny>, what: &str) -> PyErr {
    OptionError::new_err(format!("expected {what}, got {} {}", type_of(obj), shown(obj)))
}

/// An integer argument whose range the callee checks: a non-integer raises
/// `OptionError`; an integer beyond 64 bits is clamped to `i64::MIN` or
/// `i64::MAX`, which every callee's range check then refuses, naming the
/// range (its message quotes the clamped value).
pub(crate) struct Int(pub i64);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;
    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let i = int_in(&obj, i128::MIN, i128::MAX, OptionError::new_err, "expected an integer")
            .map_err(|_| expected(&obj, "an integer"))?;
        Ok(Int(i.clamp(i64::MIN as i128, i64::MAX as i128) as i64))
    }
}

/// A real-number argument whose range the callee checks: an int, a float or
/// anything with `__float__`, but not a bool or a string (which pyo3 would
/// read as 1.0 or refuse with a bare `TypeError`); anything else raises
/// `OptionError` saying a number was expected.
pub(crate) struct Real(pub f64);

impl<'a, 'py> FromPyObject<'a, 'py> for Real {
    type Error = PyErr;
    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<pyo3::types::PyBool>() || obj.is_instance_of::<pyo3::types::PyString>() {
            return Err(expected(&obj, "a number"));
        }
        obj.extract::<f64>().map(Real).map_err(|_| expected(&obj, "a number"))
    }
}

/// A true/false argument: a bool (Python's or numpy's); anything else
/// raises `OptionError` (also a `TypeError`) saying True or False was
/// expected, not pyo3's bare `TypeError`.
pub(crate) struct Flag(pub bool);

impl<'a, 'py> FromPyObject<'a, 'py> for Flag {
    type Error = PyErr;
    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        obj.extract::<bool>().map(Flag).map_err(|_| expected(&obj, "True or False"))
    }
}

/// A string argument: anything else raises `OptionError` (also a
/// `TypeError`) saying a string was expected, not pyo3's bare `TypeError`.
pub(crate) struct Text(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;
    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        obj.extract::<String>().map(Text).map_err(|_| expected(&obj, "a string"))
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}
