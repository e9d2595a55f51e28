//! Action index <-> move (spec tablut.md, "Actions").
//!
//! Action `from*16 + k`, `from = (rank-1)*9 + (file-1)`: k = 0..7 are the
//! other eight squares of the same rank by increasing file, k = 8..15 the
//! other eight squares of the same file by increasing rank. Then the four
//! resign/draw actions: 81*16 + 4 = 1300 actions. Never rotated.

use super::board::*;
use super::state::Move;
use crate::core::Action;

/// Actions that are moves (81 squares x 16 targets).
pub const MOVE_ACTIONS: usize = SQUARES * 16;
/// All actions, the four offer actions included.
pub const NUM_ACTIONS: usize = MOVE_ACTIONS + 4;

/// The squares `(from, to)` of move action `a` (< [`MOVE_ACTIONS`]).
#[inline(always)]
pub fn decode(a: usize) -> (usize, usize) {
    let from = a >> 4;
    let k = a & 15;
    let (file, rank) = (from % SIZE, from / SIZE);
    let to = if k < 8 {
        let f = k + (k >= file) as usize;
        rank * SIZE + f
    } else {
        let r = (k - 8) + (k - 8 >= rank) as usize;
        r * SIZE + file
    };
    (from, to)
}

/// The action of a rook move `from -> to` (same rank or file, distinct squares).
#[inline(always)]
pub fn encode(from: usize, to: usize) -> usize {
    let (ff, fr, tf, tr) = (from % SIZE, from / SIZE, to % SIZE, to / SIZE);
    debug_assert!(from != to && (ff == tf || fr == tr));
    let k = if fr == tr { tf - (tf > ff) as usize } else { 8 + tr - (tr > fr) as usize };
    from * 16 + k
}

impl Move {
    pub fn from_action(a: Action) -> Option<Move> {
        (a.index() < MOVE_ACTIONS).then(|| {
            let (from, to) = decode(a.index());
            Move { from: Square::new(from).expect("square"), to: Square::new(to).expect("square") }
        })
    }

    /// The action of this move, if it is a rook move between distinct squares.
    pub fn to_action(self) -> Option<Action> {
        let (from, to) = (self.from, self.to);
        let straight = from.file() == to.file() || from.rank() == to.rank();
        (from != to && straight).then(|| Action(encode(from.index(), to.index()) as u32))
    }
}
