//! The compact, `Copy` state of an alquerque game.

use super::board::{Point, NONE};
use crate::core::Player;

/// When captured pieces leave the board (option `removal`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Removal {
    /// A captured piece leaves as soon as it is jumped.
    Immediate,
    /// Captured pieces leave when the sequence ends; until then they block
    /// but may be jumped again.
    Deferred,
}

/// Longest capture sequence a state can hold. In deferred mode a sequence
/// is bounded by the number of distinct jumps; 64 hops is far beyond any
/// sequence reachable in play (**Decision**: a continuation longer than this
/// is not generated).
pub const MAX_JUMPS: usize = 64;

/// A position, possibly in the middle of a capture sequence.
///
/// Bit `l` of a `u128` is lattice point `l` (see [`Point`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Pieces per player (pawns and mulás). In deferred mode the pieces
    /// jumped so far in the current sequence are still here.
    pub pieces: [u128; 2],
    /// Mulás of both players.
    pub kings: u128,
    pub side: Player,
    /// The capturing piece's point while a capture sequence is under way, else [`NONE`].
    pub capturing: u8,
    /// Deferred mode: enemy pieces jumped in the current sequence (still on the board).
    pub jumped: u128,
    /// Deferred mode: jumps made in the current sequence, as (start, landing)
    /// points (which determine the jumped piece), oldest first.
    pub njumps: u8,
    pub jumps: [(u8, u8); MAX_JUMPS],
}

impl State {
    pub fn empty(side: Player) -> State {
        State { pieces: [0; 2], kings: 0, side, capturing: NONE, jumped: 0, njumps: 0, jumps: [(0, 0); MAX_JUMPS] }
    }

    #[inline]
    pub fn occupied(&self) -> u128 {
        self.pieces[0] | self.pieces[1]
    }

    #[inline]
    pub fn mid_turn(&self) -> bool {
        self.capturing != NONE
    }

    /// The owner and kind (`true` = mulá) of the piece on `p`.
    pub fn piece_at(&self, p: Point) -> Option<(Player, bool)> {
        let b = p.bit();
        let king = self.kings & b != 0;
        if self.pieces[0] & b != 0 {
            Some((Player::P0, king))
        } else if self.pieces[1] & b != 0 {
            Some((Player::P1, king))
        } else {
            None
        }
    }

    pub fn jumps(&self) -> &[(u8, u8)] {
        &self.jumps[..self.njumps as usize]
    }

    /// Ends a capture sequence's bookkeeping (unused jump slots stay zero so
    /// that equal positions compare and hash equal).
    pub fn clear_sequence(&mut self) {
        self.capturing = NONE;
        self.jumped = 0;
        for j in &mut self.jumps[..self.njumps as usize] {
            *j = (0, 0);
        }
        self.njumps = 0;
    }
}
