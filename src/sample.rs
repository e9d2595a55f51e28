//! Sampling one legal action per row of a caller's mask array: from the
//! softmax of the caller's logits over the legal actions
//! ([`masked_categorical`]), or uniformly ([`masked_uniform`]). The numpy
//! path of a training loop calls them (`ludoteca.masked_categorical`), so
//! they run over many rows at once, in parallel when that pays.
//!
//! Row `i` draws its one uniform number from `derive_seed(seed, i)`: the
//! result depends on the seed and the row, not on the thread count.

use crate::core::{derive_seed, splitmix64};
use rayon::prelude::*;

/// What is wrong with one row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RowProblem {
    /// The mask allows no action.
    NoLegal,
    /// Every legal action has logit -inf (probability 0).
    AllMinusInf,
    /// A legal action's logit is NaN or +inf.
    BadLogit { action: usize },
}

/// The first bad row (lowest index) and what is wrong with it.
pub type SampleError = (usize, RowProblem);

/// Logit element types.
pub trait Logit: Copy + Send + Sync {
    fn to_f64(self) -> f64;
}
impl Logit for f32 {
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
}
impl Logit for f64 {
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
}

/// Row `row`'s uniform number in [0, 1) (53 bits).
#[inline]
fn uniform(seed: u64, row: usize) -> f64 {
    (splitmix64(derive_seed(seed, row as u64)) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Appends the indices of the true entries of `mask` to `out`, sixteen
/// entries per SSE2 compare (masks are mostly false).
#[inline]
fn legal_indices(mask: &[bool], out: &mut Vec<u32>) {
    out.clear();
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        while done + 16 <= mask.len() {
            // SAFETY: SSE2 is part of the x86_64 baseline; the load reads
            // `mask[done..done + 16]` (bools are bytes holding 0 or 1).
            let mut bits = unsafe {
                let v = _mm_loadu_si128(mask.as_ptr().add(done).cast::<__m128i>());
                !_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) as u32 & 0xFFFF
            };
            while bits != 0 {
                out.push((done + bits.trailing_zeros() as usize) as u32);
                bits &= bits - 1;
            }
            done += 16;
        }
    }
    for (i, &m) in mask[done..].iter().enumerate() {
        if m {
            out.push((done + i) as u32);
        }
    }
}

/// Rows per parallel task: about 64 KiB of mask each, and no split below
/// 256 KiB in all (the pool's wake-up would cost more).
fn rows_per_task(rows: usize, width: usize) -> usize {
    if rows * width.max(1) < 1 << 18 || rayon::current_num_threads() <= 1 {
        return rows.max(1);
    }
    ((1usize << 16) / width.max(1)).max(1)
}

/// Runs `row_fn(i, mask_row, scratch)` for every row, in parallel tasks,
/// writing `out[i]`; returns the lowest failing row.
fn each_row(
    mask: &[bool],
    width: usize,
    out: &mut [i64],
    row_fn: &(dyn Fn(usize, &[bool], &mut Vec<u32>, &mut Vec<f64>) -> Result<i64, RowProblem> + Sync),
) -> Result<(), SampleError> {
    let rows = out.len();
    let per = rows_per_task(rows, width);
    let run = |(t, outs): (usize, &mut [i64])| -> Result<(), SampleError> {
        let mut idx = Vec::new();
        let mut w = Vec::new();
        for (j, o) in outs.iter_mut().enumerate() {
            let i = t * per + j;
            *o = row_fn(i, &mask[i * width..(i + 1) * width], &mut idx, &mut w).map_err(|p| (i, p))?;
        }
        Ok(())
    };
    if per >= rows {
        return run((0, out));
    }
    let errors: Vec<SampleError> = out.par_chunks_mut(per).enumerate().filter_map(|c| run(c).err()).collect();
    match errors.into_iter().min_by_key(|e| e.0) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// One action per row of the `(rows, width)` arrays `logits` and `mask`,
/// drawn with probability `exp(logit) / sum of exp(legal logits)` among the
/// legal actions of the row. Illegal actions' logits are never read.
pub fn masked_categorical<T: Logit>(
    logits: &[T],
    mask: &[bool],
    width: usize,
    seed: u64,
    out: &mut [i64],
) -> Result<(), SampleError> {
    debug_assert_eq!(logits.len(), out.len() * width);
    debug_assert_eq!(mask.len(), out.len() * width);
    each_row(mask, width, out, &|i, m, idx, w| {
        legal_indices(m, idx);
        if idx.is_empty() {
            return Err(RowProblem::NoLegal);
        }
        let row = &logits[i * width..(i + 1) * width];
        let mut max = f64::NEG_INFINITY;
        for &a in idx.iter() {
            let l = row[a as usize].to_f64();
            if l.is_nan() || l == f64::INFINITY {
                return Err(RowProblem::BadLogit { action: a as usize });
            }
            max = max.max(l);
        }
        if max == f64::NEG_INFINITY {
            return Err(RowProblem::AllMinusInf);
        }
        w.clear();
        let mut total = 0.0;
        for &a in idx.iter() {
            total += (row[a as usize].to_f64() - max).exp();
            w.push(total);
        }
        let x = uniform(seed, i) * total;
        // The first cumulative weight above x; the last legal action with
        // weight takes any rounding remainder.
        let k = w.partition_point(|&c| c <= x).min(idx.len() - 1);
        Ok(idx[k] as i64)
    })
}

/// One action per row of the `(rows, width)` array `mask`, uniformly among
/// the row's legal actions.
pub fn masked_uniform(mask: &[bool], width: usize, seed: u64, out: &mut [i64]) -> Result<(), SampleError> {
    debug_assert_eq!(mask.len(), out.len() * width);
    each_row(mask, width, out, &|i, m, idx, _| {
        legal_indices(m, idx);
        if idx.is_empty() {
            return Err(RowProblem::NoLegal);
        }
        let k = ((uniform(seed, i) * idx.len() as f64) as usize).min(idx.len() - 1);
        Ok(idx[k] as i64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_indices_finds_every_true_entry_in_order() {
        let mask: Vec<bool> = (0..83).map(|i| i % 7 == 3 || i == 82).collect();
        let mut idx = Vec::new();
        legal_indices(&mask, &mut idx);
        let want: Vec<u32> = (0..83).filter(|&i| mask[i as usize]).collect();
        assert_eq!(idx, want);
    }

    #[test]
    fn samples_only_legal_actions_and_reports_the_first_bad_row() {
        let width = 5;
        let mask = [false, true, false, true, false, /* row 1 */ false, false, false, false, false];
        let logits = [0.0f32; 10];
        let mut out = [0i64; 2];
        assert_eq!(masked_categorical(&logits, &mask, width, 1, &mut out), Err((1, RowProblem::NoLegal)));
        let mut out = [0i64; 1];
        for seed in 0..50 {
            masked_categorical(&logits[..5], &mask[..5], width, seed, &mut out).unwrap();
            assert!(out[0] == 1 || out[0] == 3);
            masked_uniform(&mask[..5], width, seed, &mut out).unwrap();
            assert!(out[0] == 1 || out[0] == 3);
        }
        let nan = [0.0, f32::NAN, 0.0, 0.0, 0.0];
        assert_eq!(
            masked_categorical(&nan, &mask[..5], width, 0, &mut out),
            Err((0, RowProblem::BadLogit { action: 1 }))
        );
        // An illegal NaN is never read.
        let nan = [f32::NAN, 0.0, 0.0, 0.0, 0.0];
        assert!(masked_categorical(&nan, &mask[..5], width, 0, &mut out).is_ok());
        let ninf = [0.0, f32::NEG_INFINITY, 0.0, f32::NEG_INFINITY, 0.0];
        assert_eq!(masked_categorical(&ninf, &mask[..5], width, 0, &mut out), Err((0, RowProblem::AllMinusInf)));
    }

    #[test]
    fn results_do_not_depend_on_how_rows_are_split() {
        // Large enough to run in parallel tasks; each row checked against a
        // one-row call, which runs alone.
        let (rows, width) = (600, 1000);
        let mask: Vec<bool> = (0..rows * width).map(|i| (i * 7919) % 13 == 0).collect();
        let logits: Vec<f64> = (0..rows * width).map(|i| ((i * 31) % 17) as f64 * 0.3).collect();
        let mut all = vec![0i64; rows];
        masked_categorical(&logits, &mask, width, 9, &mut all).unwrap();
        for i in (0..rows).step_by(37) {
            let mut one = [0i64];
            let (l, m) = (&logits[i * width..(i + 1) * width], &mask[i * width..(i + 1) * width]);
            // Row i of the batch draws with row index i: shift through a
            // batch of i + 1 rows whose last row is this one.
            let mut l2 = vec![0.0f64; i * width];
            l2.extend_from_slice(l);
            let mut m2 = vec![true; i * width];
            m2.extend_from_slice(m);
            let mut out = vec![0i64; i + 1];
            masked_categorical(&l2, &m2, width, 9, &mut out).unwrap();
            one[0] = out[i];
            assert_eq!(all[i], one[0], "row {i}");
        }
    }
}
