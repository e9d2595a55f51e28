//! The observation: `(8, 9, 9)` float planes, never rotated (spec: Tablut is
//! asymmetric; the observation says whose turn it is). `obs[c][row][col]`
//! with `row = 9 - rank` (row 0 is rank 9, the top line of the position
//! string) and `col = file` (a = 0). Every value is 0 or 1, so the planes
//! survive a cast to bytes.
//!
//! | plane | meaning |
//! |-------|---------|
//! | 0 | the king |
//! | 1 | Swedish soldiers |
//! | 2 | Muscovites |
//! | 3 | side to move: all ones when the Muscovites (player 1) are to move |
//! | 4 | the throne e5 (constant) |
//! | 5 | the corners (constant) |
//! | 6 | raichi or better: all ones when `king_corner_routes >= 1` |
//! | 7 | tuichi: all ones when `king_corner_routes == 2` |
//!
//! Planes 0-3 are the whole Markov state; 6-7 are derived from it.

use super::board::*;
use super::state::{State, MUSCOVITES};

pub const PLANES: usize = 8;
pub const OBS_LEN: usize = PLANES * SQUARES;

/// Writes every entry of `out` (length [`OBS_LEN`]).
pub fn observe(s: &State, out: &mut [f32]) {
    let out = &mut out[..OBS_LEN];
    out.fill(0.0);
    let king = s.king().map_or(0, |k| bit(k.index()));
    for (plane, bb) in [(0, king), (1, s.swedes), (2, s.muscovites), (4, THRONE), (5, CORNERS)] {
        let plane = &mut out[plane * SQUARES..(plane + 1) * SQUARES];
        for rank in 0..SIZE {
            let mut row = (bb >> (rank * SIZE)) as u16 & 0x1FF;
            let base = (SIZE - 1 - rank) * SIZE;
            while row != 0 {
                plane[base + row.trailing_zeros() as usize] = 1.0;
                row &= row - 1;
            }
        }
    }
    let routes = s.king_corner_routes();
    for (plane, on) in [(3, s.side_to_move() == MUSCOVITES), (6, routes >= 1), (7, routes == 2)] {
        if on {
            out[plane * SQUARES..(plane + 1) * SQUARES].fill(1.0);
        }
    }
}

/// The planes the compact format keeps (4 and 5 are the board's own).
pub const COMPACT: [usize; 6] = [0, 1, 2, 3, 6, 7];

/// Where the compact planes go.
trait Sink {
    /// Entry `e` of compact plane `j` is 1.
    fn set(&mut self, j: usize, e: usize);
    /// Compact plane `j` is all ones.
    fn fill(&mut self, j: usize);
}

/// Every 1 of the compact planes of `s`, in the order of [`COMPACT`].
#[inline(always)]
fn emit_compact(s: &State, sink: &mut impl Sink) {
    let king = s.king().map_or(0, |k| bit(k.index()));
    for (j, bb) in [(0, king), (1, s.swedes), (2, s.muscovites)] {
        for rank in 0..SIZE {
            let mut row = (bb >> (rank * SIZE)) as u16 & 0x1FF;
            let base = (SIZE - 1 - rank) * SIZE;
            while row != 0 {
                sink.set(j, base + row.trailing_zeros() as usize);
                row &= row - 1;
            }
        }
    }
    let routes = s.king_corner_routes();
    for (j, on) in [(3, s.side_to_move() == MUSCOVITES), (4, routes >= 1), (5, routes == 2)] {
        if on {
            sink.fill(j);
        }
    }
}

struct Floats<'a>(&'a mut [f32]);

impl Sink for Floats<'_> {
    #[inline(always)]
    fn set(&mut self, j: usize, e: usize) {
        self.0[j * SQUARES + e] = 1.0;
    }
    fn fill(&mut self, j: usize) {
        self.0[j * SQUARES..(j + 1) * SQUARES].fill(1.0);
    }
}

struct Bits<'a>(&'a mut [u8]);

impl Sink for Bits<'_> {
    #[inline(always)]
    fn set(&mut self, j: usize, e: usize) {
        let i = j * SQUARES + e;
        self.0[i >> 3] |= 1 << (i & 7);
    }
    fn fill(&mut self, j: usize) {
        for i in j * SQUARES..(j + 1) * SQUARES {
            self.0[i >> 3] |= 1 << (i & 7);
        }
    }
}

/// The compact planes ([`COMPACT`]) of `s`, written directly.
pub fn observe_compact(s: &State, out: &mut [f32]) {
    let out = &mut out[..COMPACT.len() * SQUARES];
    out.fill(0.0);
    emit_compact(s, &mut Floats(out));
}

/// The packed bits of `s`: the compact planes, one bit per square.
pub fn observe_packed(s: &State, out: &mut [u8]) {
    out.fill(0);
    emit_compact(s, &mut Bits(out));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_observation_planes() {
        let mut obs = vec![7.0f32; OBS_LEN];
        observe(&State::start(), &mut obs);
        let plane = |c: usize| &obs[c * SQUARES..(c + 1) * SQUARES];
        let sum = |c: usize| plane(c).iter().sum::<f32>();
        assert_eq!(
            [sum(0), sum(1), sum(2), sum(3), sum(4), sum(5), sum(6), sum(7)],
            [1.0, 8.0, 16.0, 0.0, 1.0, 4.0, 0.0, 0.0]
        );
        // Row 0 is rank 9: d9 e9 f9 are Muscovites.
        assert_eq!(&plane(2)[..9], &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
        assert_eq!(plane(0)[4 * 9 + 4], 1.0);
        assert!(obs.iter().all(|&v| v == 0.0 || v == 1.0));
    }
}
