//! The one list of games. The Python surface, the CLI, the tests and the docs
//! read it: adding a game is one entry here.

use crate::dynamic::{erase, DynGame};
use crate::error::{GameError, Result};
use crate::game::Rules;
use crate::options::{OptKind, OptSpec, OptValue, Options};
use std::sync::Arc;

/// A registered game id.
pub struct GameEntry {
    pub id: &'static str,
    /// The family module and docs page (`docs/games/<family>.md`).
    pub family: &'static str,
    /// Rules version: bumped whenever legal moves, encodings or rewards change.
    pub version: u32,
    pub summary: &'static str,
    /// Default of the common `max_turns` option.
    pub max_turns: u32,
    /// Whether the game has the four resign/draw-offer actions.
    pub offers: bool,
    /// The game's own options (the common ones are added by [`GameEntry::option_specs`]).
    pub options: &'static [OptSpec],
    /// Builds the rules from resolved options.
    pub build: fn(&'static GameEntry, Options) -> Result<Arc<dyn DynGame>>,
}

const ILLEGAL: OptSpec = OptSpec {
    name: "illegal_action",
    kind: OptKind::Choice(&["raise", "lose", "rules"]),
    doc: "what an environment does with an illegal action: raise ValueError, the offender loses, or the game's own rule",
};
const RESIGN: OptSpec = OptSpec { name: "resign", kind: OptKind::Bool(false), doc: "enable the resign action" };
const DRAW_OFFERS: OptSpec =
    OptSpec { name: "draw_offers", kind: OptKind::Bool(false), doc: "enable the offer/accept/decline draw actions" };

impl GameEntry {
    /// Every option this game accepts, common ones first, with defaults.
    pub fn option_specs(&'static self) -> Vec<OptSpec> {
        let mut specs = vec![
            OptSpec {
                name: "max_turns",
                kind: OptKind::Int { default: self.max_turns as i64, min: 0, max: 1_000_000 },
                doc: "full turns after which an environment truncates the game (0: never)",
            },
            ILLEGAL,
        ];
        if self.offers {
            specs.push(RESIGN);
            specs.push(DRAW_OFFERS);
        }
        specs.extend_from_slice(self.options);
        specs
    }

    /// Builds the game with `given` options (unknown names and bad values are errors).
    pub fn make(&'static self, given: &[(String, OptValue)]) -> Result<Arc<dyn DynGame>> {
        let options = Options::resolve(self.id, &self.option_specs(), given)?;
        (self.build)(self, options)
    }
}

/// Helper for `GameEntry::build`: rules from a constructor, then type erasure.
pub fn build_with<R: Rules>(
    entry: &'static GameEntry,
    options: Options,
    make: impl FnOnce(&Options) -> Result<R>,
) -> Result<Arc<dyn DynGame>> {
    let rules = make(&options)?;
    Ok(erase(entry, options, rules))
}

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
