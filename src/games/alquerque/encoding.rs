//! Action encoding and observation planes, both from the mover's point of
//! view (player 1 sees the board turned 180 degrees about e5).
//!
//! Action `point*64 + dir*8 + (steps-1)`: `point` is the ordinal of the
//! starting point (rank then file) in the mover's view, `dir` 0..7 = N NE E
//! SE S SW W NW in the mover's view (N = forwards), `steps` 1..8 the points
//! travelled along the line. Then the 4 offer actions.
//!
//! Observation, shape `[23, 9, 9]` over the lattice (rank, file) of the
//! mover's view; 1.0 = yes, 0.0 = no unless said:
//!  0 own pawns, 1 own mulás, 2 opponent pawns, 3 opponent mulás,
//!  4 points of the board,
//!  5 the capturing piece while a capture sequence is under way,
//!  6 deferred mode: opponent pieces already jumped in this sequence,
//!  7..14 deferred mode: jumps made in this sequence from this point in
//!    direction 0..7 (mover's view): the sum of 2^-(steps-1) over those jumps
//!    (a short leap is 0.5), so every set of jumps has its own value,
//! 15..22 a line leaves this point in direction 0..7 (mover's view).

use super::board::{Geometry, Point, NONE};
use super::rules::Alquerque;
use super::state::State;
use crate::core::Player;

pub const PLANES: usize = 23;
const PLANE: usize = 81;

/// Per player, per game action: `[from, absolute dir, to, steps]` in
/// absolute lattice points, `from == NONE` where the line is too short.
pub fn action_table(geo: &Geometry, side: Player) -> Vec<[u8; 4]> {
    let mut table = vec![[NONE, 0, NONE, 0]; geo.num_points() * 64];
    for (o, &p) in geo.by_ordinal.iter().enumerate() {
        for d in 0..8u8 {
            let (from, dir) = match side {
                Player::P0 => (p.0, d),
                Player::P1 => (p.rotate().0, (d + 4) & 7),
            };
            let mut to = from;
            for steps in 1..=8u8 {
                to = geo.next[dir as usize][to as usize];
                if to == NONE {
                    break;
                }
                table[o * 64 + d as usize * 8 + steps as usize - 1] = [from, dir, to, steps];
            }
        }
    }
    table
}

/// The constant planes 4 and 15..22 (the same for both players: both boards
/// are symmetric under the 180-degree turn).
pub fn geometry_planes(geo: &Geometry) -> Vec<f32> {
    let mut out = vec![0.0; PLANES * PLANE];
    for &p in &geo.by_ordinal {
        out[4 * PLANE + p.0 as usize] = 1.0;
        for d in 0..8 {
            if geo.next[d][p.0 as usize] != NONE {
                out[(15 + d) * PLANE + p.0 as usize] = 1.0;
            }
        }
    }
    out
}

impl Alquerque {
    pub(super) fn write_observation(&self, s: &State, out: &mut [f32]) {
        out.copy_from_slice(&self.geometry_planes);
        let me = s.side.index();
        let view = |l: u8| match s.side {
            Player::P0 => l as usize,
            Player::P1 => 80 - l as usize,
        };
        let planes = [
            (0, s.pieces[me] & !s.kings),
            (1, s.pieces[me] & s.kings),
            (2, s.pieces[1 - me] & !s.kings),
            (3, s.pieces[1 - me] & s.kings),
            (6, s.jumped),
        ];
        for (plane, mut bits) in planes {
            while bits != 0 {
                let l = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                out[plane * PLANE + view(l)] = 1.0;
            }
        }
        if s.mid_turn() {
            out[5 * PLANE + view(s.capturing)] = 1.0;
        }
        for (from, dir, steps) in s.used.iter() {
            let d = match s.side {
                Player::P0 => dir,
                Player::P1 => (dir + 4) & 7,
            };
            out[(7 + d as usize) * PLANE + view(from)] += 0.5f32.powi(steps as i32 - 1);
        }
    }

    /// Direction and number of steps from `a` to `b` along a line through
    /// both (they lie on one line: a jump's start and landing).
    pub(super) fn line_between(&self, a: Point, b: Point) -> (u8, u8) {
        for d in 0..8u8 {
            let mut p = a.0;
            for steps in 1..=8u8 {
                p = self.geo.next[d as usize][p as usize];
                if p == NONE {
                    break;
                }
                if p == b.0 {
                    return (d, steps);
                }
            }
        }
        (NONE, 0)
    }
}
