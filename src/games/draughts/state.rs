//! [`State`]: a draughts position at a turn boundary or in the middle of a
//! turn, with its result.

use super::board::Board;

/// Result codes of [`State::result`].
pub const ONGOING: u8 = 0;
pub const WIN0: u8 = 1;
pub const WIN1: u8 = 2;
pub const DRAW: u8 = 3;

/// A position, at a turn boundary or in the middle of a turn. Squares are
/// padded bits (see `board.rs`). `Copy`, no heap.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub board: Board,
    /// Player to move (0 or 1).
    pub side: u8,
    /// ONGOING, WIN0, WIN1 or DRAW (derived from the rest at turn boundaries).
    pub result: u8,
    /// `h=`: pieces of the side not to move that the mover may huff this turn.
    pub huff: u64,
    /// `f=`: the placement a force returns to (damas, damas_10x10).
    pub force: Option<Board>,
    /// `m=1`: after a force, the mover must make a correct capture.
    pub must_capture: bool,
    /// `a=` (damas): each player's trailing plain moves (from, to), oldest first.
    pub shuffle: [[(u8, u8); 2]; 2],
    pub shuffle_len: [u8; 2],
    /// `k=`: counter of the running draw rule; `None` while it does not run.
    /// In the middle of a turn: as it was when the turn began.
    pub k: Option<u8>,
    /// Mid-turn `s=`: the huff already made this turn (square, was a king).
    pub huffed: Option<(u8, bool)>,
    /// Mid-turn `p=`: capture in progress, (start square, current square).
    pub cap: Option<(u8, u8)>,
    /// Mid-turn `j=`: pieces already jumped (still on the board).
    pub jumped: u64,
    /// Soplo: pieces of the mover that could make a correct capture when its
    /// move part began (`c=` in the middle of a capture; derived otherwise).
    pub capturers: u64,
}

impl State {
    /// Who won, from the result code (`None` while the game goes on).
    pub fn outcome(&self) -> Option<crate::core::Outcome> {
        use crate::core::{Outcome, Player};
        match self.result {
            WIN0 => Some(Outcome::Win(Player::P0)),
            WIN1 => Some(Outcome::Win(Player::P1)),
            DRAW => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// A turn-boundary state with `side` to move and no pending soplo, counters or history.
    pub fn fresh(board: Board, side: u8) -> State {
        State {
            board,
            side,
            result: ONGOING,
            huff: 0,
            force: None,
            must_capture: false,
            shuffle: [[(0, 0); 2]; 2],
            shuffle_len: [0; 2],
            k: None,
            huffed: None,
            cap: None,
            jumped: 0,
            capturers: 0,
        }
    }
}
