//! The draughts family: one engine, seven presets (spec draughts.md).
//!
//! * `board.rs`: squares, padded bitboard geometry;
//! * `preset.rs`: the preset table (every variant is a row);
//! * `movegen.rs`: hops, capture sequences, plain moves, bare-board perft;
//! * `state.rs`: the [`State`] and its result codes;
//! * `action.rs`: action index <-> decision;
//! * `rules.rs`: the decision-level state machine (soplo, force, end rules);
//! * `position.rs`, `notation.rs`, `observe.rs`, `text.rs`: position strings,
//!   notation, observation, the board diagram;
//! * this file: the [`Rules`] adapter and the registry entries.

pub mod action;
pub mod board;
pub mod eval;
pub mod movegen;
pub mod notation;
pub mod observe;
pub mod position;
pub mod preset;
pub mod rules;
pub mod state;
pub mod text;

#[cfg(test)]
mod tests;

pub use board::Square;
pub use preset::Preset;
pub use rules::DraughtsRules;
pub use state::State;

use crate::core::{Action, Applied, GameRng, Player, ToAct};
use crate::dynamic::{build_with, DynGame, GameEntry};
use crate::error::Result;
use crate::game::{GameSpec, LegalOut, ObsLayout, PlaneCode, Rules, Turn};
use crate::options::Options;
use preset::{Draws, First};
use rand::RngExt;
use state::ONGOING;
use std::collections::HashSet;
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

entry!(
    TABLERO,
    preset::TABLERO,
    "Nicaraguan juego de Tablero: 8x8, flying kings, soplo (huff is the turn), random first player"
);
entry!(
    DAMAS,
    preset::DAMAS,
    "Argentine damas (Ruibal): 8x8, flying kings, soplo with huff-then-move and force, king priority"
);
entry!(
    DAMAS_10X10,
    preset::DAMAS_10X10,
    "damas on 10x10 with 15 men each: soplo, force, king priority, kings-only 10-turn draw"
);
entry!(
    INTERNATIONAL,
    preset::INTERNATIONAL,
    "International draughts (10x10, FMJD): compulsory majority capture, flying kings"
);
entry!(BRAZILIAN, preset::BRAZILIAN, "Brazilian draughts: international rules on 8x8");
entry!(RUSSIAN, preset::RUSSIAN, "Russian draughts: any capture, promotion mid-capture, flying kings");
entry!(CHECKERS, preset::CHECKERS, "English/American checkers: short kings, men capture forwards only, Black first");

impl Rules for DraughtsRules {
    fn board_text(&self, s: &State) -> String {
        text::board_text(self, s)
    }

    fn board_view(&self, s: &State) -> Option<crate::game::BoardView> {
        Some(text::board_view(self, s))
    }

    type State = State;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn initial_state(&self, rng: &mut GameRng) -> State {
        let first = match self.eng.preset.first {
            // Tablero rule 3: who starts is drawn at random.
            First::Random => rng.random_range(0..2usize),
            First::P0 => 0,
            First::P1 => 1,
        };
        self.initial(first)
    }

    fn to_act(&self, s: &State) -> ToAct {
        if s.result != ONGOING {
            ToAct::Terminal
        } else {
            ToAct::Player(Player::from_index(s.side as usize))
        }
    }

    fn legal_mask(&self, s: &State, mask: &mut [bool]) {
        mask.fill(false);
        self.for_each_legal_any_order(s, &mut |a| mask[a.index()] = true);
    }

    fn legal_out(&self, s: &State, out: &mut LegalOut<'_>) {
        out.clear();
        self.for_each_legal_any_order(s, &mut |a| out.add(a.index()));
    }

    fn is_legal(&self, s: &State, a: Action) -> bool {
        let mut found = false;
        self.for_each_legal_any_order(s, &mut |x| found |= x == a);
        found
    }

    fn apply(&self, s: &mut State, a: Action, _rng: &mut GameRng) -> Applied {
        self.apply_decision(s, a)
    }

    fn returns(&self, s: &State) -> [f32; 2] {
        crate::core::returns_of(s.outcome())
    }

    fn observe(&self, s: &State, out: &mut [f32]) {
        observe::observe(self, s, out)
    }

    fn compact_planes(&self) -> Vec<(usize, PlaneCode)> {
        observe::compact_planes(self)
    }

    fn observe_compact(&self, s: &State, layout: &ObsLayout, out: &mut [f32]) {
        observe::observe_compact(self, s, layout, out)
    }

    fn observe_packed(&self, s: &State, layout: &ObsLayout, out: &mut [u8]) {
        observe::observe_packed(self, s, layout, out)
    }

    fn to_position(&self, s: &State) -> String {
        position::write(self, s)
    }

    fn from_position(&self, text: &str) -> Result<State> {
        position::parse(self, text)
    }

    fn action_to_string(&self, s: &State, a: Action) -> String {
        notation::action_name(self, s, a)
    }

    fn notation(&self, s: &State, actions: &[Action]) -> String {
        notation::turn_notation(self, s, actions)
    }

    fn piece_counts(&self, s: &State) -> [u32; 2] {
        // Pieces a force could put back (damas) are still in play.
        let f = s.force.unwrap_or(s.board);
        [s.board.count(0).max(f.count(0)), s.board.count(1).max(f.count(1))]
    }

    fn next_states(&self, s: &State, out: &mut Vec<State>) {
        if s.result != ONGOING {
            return;
        }
        let start = out.len();
        self.for_each_turn(s, &mut |_, end| crate::game::push_distinct(out, start, end));
    }

    fn heuristic(&self, s: &State, player: Player) -> f32 {
        eval::heuristic(self, s, player)
    }

    fn turns(&self, s: &State) -> Vec<Turn<State>> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        if s.result != ONGOING {
            return out;
        }
        self.for_each_turn(s, &mut |actions, end| {
            if seen.insert(*end) {
                out.push(Turn { actions: actions.to_vec(), notation: self.notation(s, actions), state: *end });
            }
        });
        out
    }

    fn parse_turn(&self, s: &State, text: &str) -> Result<Vec<Action>> {
        notation::parse_turn(self, s, text)
    }

    fn perft(&self, s: &State, depth: u32) -> u64 {
        if depth == 0 || s.result != ONGOING {
            return 1;
        }
        if !self.eng.preset.soplo() && s.cap.is_none() {
            return self.eng.perft(&s.board, s.side as usize, depth);
        }
        self.perft_states(s, depth)
    }

    fn illegal_strikes(&self) -> u32 {
        // Tablero rule 16: the second illegal action loses.
        if self.eng.preset.draws == Draws::Tablero {
            1
        } else {
            0
        }
    }
}
