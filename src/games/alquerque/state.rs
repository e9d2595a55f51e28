//! The compact, `Copy` state of an alquerque game.

use super::board::{Point, NONE};
use super::deferred::JumpSet;
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
    /// Deferred mode: the jumps made in the current sequence, as a set (what
    /// may follow does not depend on their order; a sequence may make every
    /// jump of its board once, so there is no cap).
    pub used: JumpSet,
}

impl State {
    pub fn empty(side: Player) -> State {
        State { pieces: [0; 2], kings: 0, side, capturing: NONE, jumped: 0, used: JumpSet::EMPTY }
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

    /// Ends a capture sequence's bookkeeping.
    pub fn clear_sequence(&mut self) {
        self.capturing = NONE;
        self.jumped = 0;
        self.used = JumpSet::EMPTY;
    }
}
