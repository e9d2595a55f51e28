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
