//! ludoteca: fast, rule-exact environments for traditional board games.
//!
//! The core is pure Rust: [`game::Rules`] is what a game implements,
//! [`session::Session`] adds the common model (offers, illegal-action
//! policies, repetition, turn counting), [`batch`] is the one batch engine,
//! [`registry`] lists the games. The pyo3 bindings live in `python/`, behind
//! the `python` feature.

pub mod batch;
pub mod core;
pub mod dynamic;
pub mod error;
pub mod game;
pub mod games;
pub mod options;
pub mod registry;
pub mod search;
pub mod session;
pub mod testing;
pub mod text;
#[cfg(test)]
mod toy;

#[cfg(feature = "python")]
mod python;

pub use crate::core::{Action, Applied, GameRng, Player, ToAct};
pub use crate::error::{GameError, Result};
pub use crate::game::{GameSpec, Rules, Turn};
