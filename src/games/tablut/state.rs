//! The tablut [`State`] (the whole Markov state: placement, side to move,
//! and the status derived from them when a move is played), its [`Move`],
//! and who won.

use super::board::*;
use crate::core::Player;
use std::fmt;

/// The Swedes are player 0, the Muscovites player 1 (spec: "Board and sides").
pub const SWEDES: Player = Player::P0;
pub const MUSCOVITES: Player = Player::P1;

/// Whether and how the game ended. Derived from the board and the side to
/// move (it is cached, not extra state).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    /// The king stands on a corner: the Swedes won.
    KingEscaped,
    /// The king was captured (no king on the board): the Muscovites won.
    KingCaptured,
    /// The side to move has no legal move and lost (spec **Decision**).
    NoMoves,
}

/// One move: a piece from one square to another along a rank or a file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// A Tablut position: the whole Markov state (placement and side to move).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Swedish soldiers (the king is not in this set).
    pub(crate) swedes: Bitboard,
    pub(crate) muscovites: Bitboard,
    /// The king's square, or [`NONE`] once captured.
    pub(crate) king: u8,
    pub(crate) side: Player,
    pub(crate) status: Status,
    /// The occupancy, transposed (bit `file*9 + rank`), kept for file slides.
    pub(crate) occ_t: Bitboard,
}
