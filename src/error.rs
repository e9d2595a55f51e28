//! Typed errors of the core. The Python bindings turn each variant into its
//! own exception class (all of them `ValueError`s, see `python/ludoteca`).

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    #[error("unknown game '{given}'; known: {known}")]
    UnknownGame { given: String, known: String },

    #[error("unknown option '{name}' for {game}; known: {known}")]
    UnknownOption { game: String, name: String, known: String },

    #[error("option '{name}' of {game}: {message}")]
    BadOption { game: String, name: String, message: String },

    #[error("action {action} is out of range: expected an integer in [0, {num_actions})")]
    ActionOutOfRange { action: i64, num_actions: usize },

    #[error("illegal action {action} ({what}) at this decision; legal actions: {legal}")]
    IllegalAction { action: u32, what: String, legal: String },

    #[error("the game is over: no action can be applied{hint}")]
    GameOver { hint: &'static str },

    /// A step after the episode ended, before `reset()` (single environments).
    #[error("the game is over (terminated or truncated): call reset() before step()")]
    EpisodeOver,

    #[error("bad position string '{text}': {message}")]
    BadPosition { text: String, message: String },

    #[error("bad move '{text}': {message}")]
    BadMove { text: String, message: String },

    #[error("{0}")]
    Invalid(String),
}

impl GameError {
    pub fn position(text: &str, message: impl Into<String>) -> Self {
        GameError::BadPosition { text: text.to_string(), message: message.into() }
    }

    pub fn bad_move(text: &str, message: impl Into<String>) -> Self {
        GameError::BadMove { text: text.to_string(), message: message.into() }
    }
}

pub type Result<T, E = GameError> = std::result::Result<T, E>;
