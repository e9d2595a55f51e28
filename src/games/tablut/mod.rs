//! Tablut (Linnaeus' Tablut, corner-escape version): spec
//! `shared/spec/tablut.md`, docs `docs/games/tablut.md`.
//!
//! * [`board`]: squares, bitboards, throne, corners, neighbours;
//! * [`movegen`]: the position, rook moves, captures, the end of the game;
//! * [`notation`]: action encoding and `e3-h3` notation;
//! * [`position`]: the position string;
//! * [`encoding`]: observation planes;
//! * [`rules`]: the [`crate::game::Rules`] impl.

pub mod board;
pub mod encoding;
mod eval;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod rules;

#[cfg(test)]
mod tests;

pub use board::Square;
pub use movegen::{Move, State, Status};
pub use rules::TablutRules;

use crate::dynamic::DynGame;
use crate::error::Result;
use crate::options::{OptKind, OptSpec, Options};
use crate::registry::{self, GameEntry};
use std::sync::Arc;

const REPETITION_DRAW: OptSpec = OptSpec {
    name: "repetition_draw",
    kind: OptKind::Bool(true),
    doc: "the third occurrence of a position with the same side to move is a draw",
};

/// Default `max_turns`: 400 turns (one move each), 200 per side.
pub const MAX_TURNS: u32 = 400;

pub static ENTRY: GameEntry = GameEntry {
    id: "tablut",
    family: "tablut",
    version: 1,
    summary: "Linnaeus' Tablut, 9x9, corner escape: the Swedes' king flees to a corner, the Muscovites hunt him",
    max_turns: MAX_TURNS,
    offers: true,
    options: &[REPETITION_DRAW],
    build,
};

fn build(entry: &'static GameEntry, options: Options) -> Result<Arc<dyn DynGame>> {
    registry::build_with(entry, options, |o| Ok(TablutRules::new(o)))
}
