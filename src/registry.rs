//! The one list of games. The Python surface, the CLI, the tests and the docs
//! read it: adding a game is one entry here (its [`GameEntry`] lives with
//! its family, in `games/<family>/mod.rs`).

use crate::error::{GameError, Result};
use crate::options::OptValue;
use std::sync::Arc;

pub use crate::dynamic::{DynGame, GameEntry};

/// All registered games, in display order.
pub fn entries() -> &'static [&'static GameEntry] {
    GAMES
}

static GAMES: &[&GameEntry] = &[
    // registry:games (one line per game id; seed games first, then the validation presets)
    &crate::games::draughts::TABLERO,
    &crate::games::tablut::ENTRY,
    &crate::games::alquerque::KHARBAGA,
    &crate::games::alquerque::ZAMMA,
    &crate::games::draughts::DAMAS,
    &crate::games::draughts::DAMAS_10X10,
    &crate::games::backgammon::ENTRY,
    &crate::games::draughts::INTERNATIONAL,
    &crate::games::draughts::BRAZILIAN,
    &crate::games::draughts::RUSSIAN,
    &crate::games::draughts::CHECKERS,
];

/// The entry of game `id`.
pub fn find(id: &str) -> Result<&'static GameEntry> {
    GAMES.iter().copied().find(|e| e.id == id).ok_or_else(|| GameError::UnknownGame {
        given: id.to_string(),
        known: GAMES.iter().map(|e| e.id).collect::<Vec<_>>().join(", "),
    })
}

/// Builds game `id` with `given` options.
pub fn make(id: &str, given: &[(String, OptValue)]) -> Result<Arc<dyn DynGame>> {
    find(id)?.make(given)
}
