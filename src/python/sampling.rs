//! `ludoteca.masked_categorical` / `ludoteca.masked_uniform`: the Rust
//! kernels of `crate::sample` over numpy arrays, the GIL released. The
//! Python wrappers (`ludoteca/_sampling.py`) check dtypes and shapes and turn
//! `rng` into a seed; these functions take exactly what they accept.

use super::errors::SamplingError;
use crate::sample::{self, RowProblem, SampleError};
use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

fn error(e: SampleError) -> PyErr {
    let (row, problem) = e;
    SamplingError::new_err(match problem {
        RowProblem::NoLegal => format!("mask row {row} allows no action: every row needs at least one legal action"),
        RowProblem::AllMinusInf => format!("row {row}: every legal action has logit -inf (probability 0)"),
        RowProblem::BadLogit { action } => {
            format!(
                "row {row}: the logit of legal action {action} is NaN or +inf: legal logits must be finite (or -inf)"
            )
        }
    })
}

fn check(mask: &PyReadonlyArray2<'_, bool>, shape: Option<&[usize]>) -> PyResult<(usize, usize)> {
    let s = mask.shape();
    if let Some(l) = shape {
        if l != s {
            return Err(SamplingError::new_err(format!(
                "logits and mask must have the same shape, got {l:?} and {s:?}"
            )));
        }
    }
    Ok((s[0], s[1]))
}

macro_rules! categorical {
    ($name:ident, $t:ty) => {
        /// See ``ludoteca.masked_categorical``.
        #[pyfunction]
        fn $name<'py>(
            py: Python<'py>,
            logits: PyReadonlyArray2<'py, $t>,
            mask: PyReadonlyArray2<'py, bool>,
            seed: u64,
        ) -> PyResult<Bound<'py, PyArray1<i64>>> {
            let (rows, width) = check(&mask, Some(logits.shape()))?;
            let (l, m) = (logits.as_slice()?, mask.as_slice()?);
            let mut out = vec![0i64; rows];
            py.detach(|| sample::masked_categorical(l, m, width, seed, &mut out)).map_err(error)?;
            Ok(PyArray1::from_vec(py, out))
        }
    };
}
categorical!(_masked_categorical_f32, f32);
categorical!(_masked_categorical_f64, f64);

/// See ``ludoteca.masked_uniform``.
#[pyfunction]
fn _masked_uniform<'py>(
    py: Python<'py>,
    mask: PyReadonlyArray2<'py, bool>,
    seed: u64,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let (rows, width) = check(&mask, None)?;
    let m = mask.as_slice()?;
    let mut out = vec![0i64; rows];
    py.detach(|| sample::masked_uniform(m, width, seed, &mut out)).map_err(error)?;
    Ok(PyArray1::from_vec(py, out))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_masked_categorical_f32, m)?)?;
    m.add_function(wrap_pyfunction!(_masked_categorical_f64, m)?)?;
    m.add_function(wrap_pyfunction!(_masked_uniform, m)?)?;
    Ok(())
}
