//! The compact, `Copy` state of an alquerque game.

use super::board::{Point, NONE};
use super::deferred::JumpSet;
use crate::core::{Outcome, Player};
use std::hash::{Hash, Hasher};

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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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
    /// Who won, once the side to move has no piece or no legal move (spec,
    /// end of game): decided when a turn ends or a position is read
    /// ([`super::Alquerque::settle`]), so that asking who is to act is O(1).
    /// A function of the fields above, so left out of the hash.
    pub outcome: Option<Outcome>,
}

/// The derived hash of the fields before `outcome` (the same values as
/// before the field existed: search tables key on them).
impl Hash for State {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.pieces.hash(h);
        self.kings.hash(h);
        self.side.hash(h);
        self.capturing.hash(h);
        self.jumped.hash(h);
        self.used.hash(h);
    }
}

impl State {
    pub fn empty(side: Player) -> State {
        State { pieces: [0; 2], kings: 0, side, capturing: NONE, jumped: 0, used: JumpSet::EMPTY, outcome: None }
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
