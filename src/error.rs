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

/// Characters of a user's input an error message quotes at most.
pub const QUOTE_CHARS: usize = 80;

/// `text`, or its first [`QUOTE_CHARS`] characters and how many more there were.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => text.to_string(),
        Some((end, _)) => format!("{}... ({} more characters)", &text[..end], text[end..].chars().count()),
    }
}

impl GameError {
    /// A bad position string; the message quotes at most a short prefix of `text`.
    pub fn position(text: &str, message: impl Into<String>) -> Self {
        GameError::BadPosition { text: clip(text), message: clip_message(message.into()) }
    }

    /// A bad move; the message quotes at most a short prefix of `text`.
    pub fn bad_move(text: &str, message: impl Into<String>) -> Self {
        GameError::BadMove { text: clip(text), message: clip_message(message.into()) }
    }
}

/// Messages may quote parts of the input (a field, a token) or list legal
/// moves: bounded so that a huge input cannot make a huge message.
fn clip_message(message: String) -> String {
    const MAX: usize = 1000;
    match message.char_indices().nth(MAX) {
        None => message,
        Some((end, _)) => format!("{}...", &message[..end]),
    }
}

pub type Result<T, E = GameError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_and_move_errors_quote_a_short_prefix_of_long_input() {
        let long = "x".repeat(100_000);
        for e in [GameError::position(&long, "bad"), GameError::bad_move(&long, "bad")] {
            let text = e.to_string();
            assert!(text.len() < 300, "{} characters", text.len());
            assert!(text.contains(&format!("{}... (99920 more characters)", "x".repeat(QUOTE_CHARS))), "{text}");
        }
        assert_eq!(clip("short"), "short");
    }
}
