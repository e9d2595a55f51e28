//! Action index <-> move, from the mover's point of view (player 1 sees the
//! board turned 180 degrees about e5).
//!
//! Action `point*64 + dir*8 + (steps-1)`: `point` is the ordinal of the
//! starting point (rank then file) in the mover's view, `dir` 0..7 = N NE E
//! SE S SW W NW in the mover's view (N = forwards), `steps` 1..8 the points
//! travelled along the line. Then the 4 offer actions.

use super::board::{Geometry, NONE};
use crate::core::Player;

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
