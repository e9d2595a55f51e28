//! The backgammon [`State`]: the board, the dice, the phase of the game and
//! the match score; and what a game is worth.

use super::board::{Pos, Side, BAR, OFF};
use super::movegen::Mask;
use crate::core::Player;

/// Where a game stands (the Match ID game state, split by whether dice are rolled).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// "No game started": the opening roll is next (a chance node).
    Opening,
    /// The player on turn rolls next (a chance node; transient in sampled mode).
    ToRoll,
    /// The player on turn has dice to play.
    Move,
    /// Option `cube`: the player on turn may double before rolling; decides
    /// between rolling (no double) and doubling.
    Cube,
    /// Option `cube`: the player on turn (`turn`) doubled; the opponent
    /// decides between taking and dropping.
    Doubled,
    /// The match (or single game) is over; the turn is with the loser.
    Over,
}

/// A backgammon position with its match context: small, `Copy`, no heap.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Each player's checkers in its own numbering (see [`board`]).
    pub board: [Side; 2],
    pub phase: Phase,
    /// Player on roll (to roll at chance nodes; the loser once over).
    pub turn: Player,
    /// The roll, larger die first; `[0, 0]` when not rolled.
    pub roll: [u8; 2],
    pub(super) left: [u8; 4],
    pub(super) nleft: u8,
    pub(super) mask: Mask,
    pub score: [u16; 2],
    pub match_length: u16,
    pub(super) last_points: u16,
    pub(super) last_winner: i8,
    /// log2 of the cube value (0: cube 1).
    pub cube: u8,
    /// Cube owner: -1 centred, else the player index.
    pub owner: i8,
    /// This game is the Crawford game of the match (no doubling).
    pub crawford: bool,
    /// Reglamento with `open_point="next_turn"`: this turn began with the
    /// opponent shut out, so it must end with a point open to the opponent
    /// when some legal turn does. Set with the roll, kept for the turn
    /// (mid-turn the position no longer shows it); false otherwise.
    pub(super) obliged: bool,
}

impl State {
    /// The board from the point of view of the player on turn.
    #[inline]
    pub fn pos(&self) -> Pos {
        Pos { me: self.board[self.turn.index()], opp: self.board[self.turn.other().index()] }
    }

    #[inline]
    pub(super) fn set_pos(&mut self, p: &Pos) {
        self.board[self.turn.index()] = p.me;
        self.board[self.turn.other().index()] = p.opp;
    }

    /// Dice still to play this turn, larger first (empty unless [`Phase::Move`]).
    #[inline]
    pub fn left(&self) -> &[u8] {
        &self.left[..self.nleft as usize]
    }

    /// The value of the cube (1, 2, 4, ...).
    #[inline]
    pub fn cube_value(&self) -> u32 {
        1 << self.cube
    }

    /// The player who decides now (the taker while a double is offered).
    #[inline]
    pub fn decider(&self) -> Player {
        if self.phase == Phase::Doubled {
            self.turn.other()
        } else {
            self.turn
        }
    }

    /// A match game after the Crawford game: a player is one point from the
    /// end and this game is not the Crawford game.
    pub fn post_crawford(&self) -> bool {
        self.match_length > 1 && !self.crawford && self.score.iter().any(|&s| s + 1 == self.match_length)
    }

    pub(super) fn clear_dice(&mut self) {
        self.roll = [0, 0];
        self.left = [0; 4];
        self.nleft = 0;
        self.mask = [0; 3];
        self.obliged = false;
    }
}

/// Points the winner of a finished game scores: 1, 2 (gammon: the loser has
/// borne off none) or 3 (backgammon: and has a checker in the winner's home
/// board or, with `bar` (all but the reglamento's `bar_backgammon=False`),
/// on the bar).
pub fn game_points(board: &[Side; 2], winner: Player, bar: bool) -> u8 {
    let loser = &board[winner.other().index()];
    if loser[OFF] > 0 {
        1
    } else if bar && loser[BAR] > 0 || loser[19..=24].iter().any(|&n| n > 0) {
        3
    } else {
        2
    }
}
