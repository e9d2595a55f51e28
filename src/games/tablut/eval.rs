//! The built-in evaluation of search (docs/search.md, "Built-in evaluations"):
//! material, plus the king's routes to the corners, his distance to the
//! nearest corner and the attackers beside him.

use super::board::{NEIGHBOURS, SIZE};
use super::state::{State, SWEDES};
use crate::core::Player;
use crate::search::eval::squash;

/// A Swede is worth two Muscovites (8 defenders face 16 attackers).
const SWEDE: f32 = 1.0;
const MUSCOVITE: f32 = 0.5;
/// An open route to a corner (one rook move) is nearly a win when the
/// Swedes move next, and two routes cannot both be blocked.
const ROUTE: f32 = 1.5;
/// Per step of Manhattan distance the king is closer to a corner than at the throne (8).
const CLOSER: f32 = 0.1;
/// Per Muscovite on a square beside the king (four close him in).
const BESIDE: f32 = 0.25;
/// Material units per unit of the squashed scale.
const SCALE: f32 = 3.0;

/// `squash(score / SCALE)` for the Swedes and its negation for the
/// Muscovites, where the score is `SWEDE * swedes - MUSCOVITE * muscovites +
/// ROUTE * routes + CLOSER * (8 - distance to the nearest corner) - BESIDE *
/// attackers beside the king` (0 at the start).
pub fn heuristic(s: &State, player: Player) -> f32 {
    let mut score = SWEDE * s.swedes.count_ones() as f32 - MUSCOVITE * s.muscovites.count_ones() as f32;
    if (s.king as usize) < SIZE * SIZE {
        let k = s.king as usize;
        let (f, r) = ((k % SIZE) as i32, (k / SIZE) as i32);
        let edge = (SIZE - 1) as i32;
        let dist = f.min(edge - f) + r.min(edge - r);
        score += ROUTE * s.king_corner_routes() as f32 + CLOSER * (8 - dist) as f32;
        let beside =
            NEIGHBOURS[k].iter().filter(|&&n| (n as usize) < SIZE * SIZE && s.muscovites >> n & 1 == 1).count();
        score -= BESIDE * beside as f32;
    }
    let v = squash(score / SCALE);
    if player == SWEDES {
        v
    } else {
        -v
    }
}
