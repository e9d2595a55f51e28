//! The draughts family: one engine, seven presets (spec draughts.md).
//!
//! * `board.rs`: squares, padded bitboard geometry;
//! * `preset.rs`: the preset table (every variant is a row);
//! * `movegen.rs`: hops, capture sequences, plain moves, bare-board perft;
//! * `rules.rs`: the decision-level state machine (soplo, force, end rules);
//! * `position.rs`, `notation.rs`, `encoding.rs`: strings, notation, observation.

pub mod board;
pub mod encoding;
pub mod eval;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod preset;
pub mod rules;
pub mod text;

#[cfg(test)]
mod tests;

pub use board::Square;
pub use preset::Preset;
pub use rules::{DraughtsRules, State};

use crate::dynamic::DynGame;
use crate::error::Result;
use crate::options::Options;
use crate::registry::{build_with, GameEntry};
use std::sync::Arc;

fn build(entry: &'static GameEntry, options: Options) -> Result<Arc<dyn DynGame>> {
    let preset = preset::PRESETS.iter().find(|p| p.id == entry.id).expect("every draughts entry has a preset");
    build_with(entry, options, |_| Ok(DraughtsRules::new(**preset)))
}

macro_rules! entry {
    ($name:ident, $preset:expr, $summary:expr) => {
        pub static $name: GameEntry = GameEntry {
            id: $preset.id,
            family: "draughts",
            version: 1,
            summary: $summary,
            max_turns: $preset.max_turns,
            offers: true,
            options: &[],
            build,
        };
    };
}

entry!(TABLERO, preset::TABLERO, "Nicaraguan juego de Tablero: 8x8, flying kings, soplo (huff is the turn), random first player");
entry!(DAMAS, preset::DAMAS, "Argentine damas (Ruibal): 8x8, flying kings, soplo with huff-then-move and force, king priority");
entry!(DAMAS_10X10, preset::DAMAS_10X10, "damas on 10x10 with 15 men each: soplo, force, king priority, kings-only 10-turn draw");
entry!(INTERNATIONAL, preset::INTERNATIONAL, "International draughts (10x10, FMJD): compulsory majority capture, flying kings");
entry!(BRAZILIAN, preset::BRAZILIAN, "Brazilian draughts: international rules on 8x8");
entry!(RUSSIAN, preset::RUSSIAN, "Russian draughts: any capture, promotion mid-capture, flying kings");
entry!(CHECKERS, preset::CHECKERS, "English/American checkers: short kings, men capture forwards only, Black first");
