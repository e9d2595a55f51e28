//! The alquerque family: `kharbaga` (41 points) and `zamma` (81 points).
//!
//! One engine for line-graph boards ([`board::Geometry`]: points plus, per
//! point and direction, the next point along a line); the two boards are two
//! line lists on the same 9x9 lattice. Rules: spec/alquerque.md; decisions
//! and encodings: docs/games/alquerque.md.

pub mod board;
mod encoding;
mod eval;
mod movegen;
mod notation;
mod position;
pub mod rules;
pub mod state;

pub use board::{Dir, Geometry, Point};
pub use encoding::PLANES;
pub use rules::{Alquerque, Board, KHARBAGA, ZAMMA};
pub use state::{Removal, State};

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
