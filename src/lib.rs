//! ludoteca: fast, rule-exact environments for traditional board games.
//!
//! The core is pure Rust, in layers that import only downwards
//! (docs/architecture.md): the vocabulary ([`core`], [`bits`], [`text`],
//! [`error`], [`options`]); [`game::Rules`], what a game implements;
//! [`session`], the common model ([`session::Session`]: offers,
//! illegal-action policies, repetition, turn counting) and the one-env step
//! contract ([`session::Env`]); [`batch`], the one batch engine; [`dynamic`],
//! type erasure and the [`dynamic::GameEntry`] a family registers; [`games`],
//! the engines; [`registry`], the list of games. The pyo3 bindings live in
//! `python/`, behind the `python` feature.

// Lints this code base answers otherwise, on purpose: the bindings' functions
// take the keyword arguments of their Python signatures one by one, move
// generators take their tables and buffers as arguments rather than a struct
// built per call, and a few tuple types name what they hold better than an alias.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]

pub mod batch;
pub mod bits;
pub mod core;
pub mod dynamic;
pub mod error;
pub mod game;
pub mod games;
pub mod options;
pub mod registry;
pub mod sample;
pub mod search;
pub mod session;
/// Test support (random-game invariants, the toy game of the session and
/// batch tests): compiled for tests only.
#[cfg(test)]
mod testing;
pub mod text;

#[cfg(feature = "python")]
mod python;

pub use crate::core::{Action, Applied, GameRng, Player, ToAct};
pub use crate::error::{GameError, Result};
pub use crate::game::{GameSpec, Rules, Turn};
