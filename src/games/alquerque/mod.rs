//! The alquerque family: `kharbaga` (41 points) and `zamma` (81 points).
//!
//! One engine for line-graph boards ([`board::Geometry`]: points plus, per
//! point and direction, the next point along a line); the two boards are two
//! line lists on the same 9x9 lattice. Rules: spec/alquerque.md; decisions
//! and encodings: docs/games/alquerque.md.

//!
//! `board.rs` geometry, `state.rs` the [`State`], `action.rs` action index
//! <-> move, `movegen.rs` legal decisions and complete turns (`deferred.rs`:
//! the exact jump-graph reasoning of deferred removal), `rules.rs` the
//! [`Alquerque`] rules object, `observe.rs` planes, `notation.rs` and
//! `position.rs` strings; this file: the [`Rules`] adapter and the entries.

mod action;
pub mod board;
mod deferred;
mod eval;
mod movegen;
mod notation;
mod observe;
mod position;
pub mod rules;
pub mod state;
mod text;

pub use board::{Dir, Geometry, Point};
pub use movegen::majority_search_nodes;
pub use observe::PLANES;
pub use rules::{Alquerque, Board};
pub use state::{Removal, State};

use crate::core::{returns_of, splitmix64, Action, Applied, GameRng, Player, ToAct};
use crate::dynamic::{build_with, GameEntry};
use crate::error::Result;
use crate::game::{GameSpec, LegalOut, Rules, Turn};
use crate::options::{OptKind, OptSpec};

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

impl Rules for Alquerque {
    type State = State;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn initial_state(&self, _rng: &mut GameRng) -> State {
        self.start
    }

    fn to_act(&self, s: &State) -> ToAct {
        if s.outcome.is_some() {
            ToAct::Terminal
        } else {
            ToAct::Player(s.side)
        }
    }

    fn legal_mask(&self, s: &State, mask: &mut [bool]) {
        mask.fill(false);
        self.for_each_legal(s, |a| mask[a.index()] = true);
    }

    fn legal_out(&self, s: &State, out: &mut LegalOut<'_>) {
        out.clear();
        self.for_each_legal(s, |a| out.add(a.index()));
    }

    fn is_legal(&self, s: &State, a: Action) -> bool {
        if a.index() >= self.spec.num_game_actions() || self.actions[s.side.index()][a.index()][0] == board::NONE {
            return false;
        }
        let mut found = false;
        self.for_each_legal(s, |b| found |= a == b);
        found
    }

    fn apply(&self, s: &mut State, a: Action, _rng: &mut GameRng) -> Applied {
        self.apply_action(s, a)
    }

    fn returns(&self, s: &State) -> [f32; 2] {
        returns_of(s.outcome)
    }

    fn observe(&self, s: &State, out: &mut [f32]) {
        observe::observe(&self.geometry_planes, s, out)
    }

    fn compact_planes(&self) -> Vec<(usize, crate::game::PlaneCode)> {
        observe::compact_planes(self.deferred)
    }

    fn observe_compact(&self, s: &State, _layout: &crate::game::ObsLayout, out: &mut [f32]) {
        observe::observe_compact(s, self.deferred, out)
    }

    fn observe_packed(&self, s: &State, _layout: &crate::game::ObsLayout, out: &mut [u8]) {
        observe::observe_packed(s, self.deferred, out)
    }

    fn to_position(&self, s: &State) -> String {
        self.format_position(s)
    }

    fn from_position(&self, text: &str) -> Result<State> {
        self.parse_position(text)
    }

    fn action_to_string(&self, s: &State, a: Action) -> String {
        self.decision_name(s, a)
    }

    fn notation(&self, s: &State, actions: &[Action]) -> String {
        self.turn_notation(s, actions)
    }

    fn piece_counts(&self, s: &State) -> [u32; 2] {
        [s.pieces[0].count_ones(), s.pieces[1].count_ones()]
    }

    fn next_states(&self, s: &State, out: &mut Vec<State>) {
        let start = out.len();
        self.for_each_end(s, &mut |end| crate::game::push_distinct(out, start, end));
    }

    fn heuristic(&self, s: &State, player: Player) -> f32 {
        eval::heuristic(self, s, player)
    }

    fn board_text(&self, s: &State) -> String {
        text::board_text(self, s)
    }

    fn board_view(&self, s: &State) -> Option<crate::game::BoardView> {
        Some(text::board_view(self, s))
    }

    /// Every complete turn, one per distinct end position.
    fn turns(&self, s: &State) -> Vec<Turn<State>> {
        let mut out: Vec<Turn<State>> = Vec::new();
        let mut index: std::collections::HashMap<State, usize> = std::collections::HashMap::new();
        self.for_each_turn(s, &mut |path, end| {
            // One entry per end position; among paths with the same first
            // decision the shortest gives the notation.
            match index.get(end) {
                None => {
                    index.insert(*end, out.len());
                    out.push(Turn { actions: path.to_vec(), notation: self.turn_notation(s, path), state: *end });
                }
                Some(&i) if out[i].actions[0] == path[0] && path.len() < out[i].actions.len() => {
                    out[i].actions = path.to_vec();
                    out[i].notation = self.turn_notation(s, path);
                }
                Some(_) => {}
            }
        });
        out
    }

    fn parse_turn(&self, s: &State, text: &str) -> Result<Vec<Action>> {
        self.parse_notation(s, text)
    }

    /// Bulk perft: complete turns through the decision tree, distinct end
    /// positions per node (spec: moves that produce the same position are one).
    fn perft(&self, s: &State, depth: u32) -> u64 {
        if depth == 0 || self.to_act(s) == ToAct::Terminal {
            return 1;
        }
        let mut ends = Vec::with_capacity(64);
        self.for_each_end(s, &mut |e| ends.push(*e));
        ends.sort_unstable_by_key(|e| (e.pieces, e.kings));
        ends.dedup_by_key(|e| (e.pieces, e.kings));
        if depth == 1 {
            return ends.len() as u64;
        }
        ends.iter().map(|e| self.perft(e, depth - 1)).sum()
    }

    /// Placement and side to move, at turn boundaries only (spec: third
    /// occurrence of the same position with the same side to move draws).
    fn repetition_key(&self, s: &State) -> Option<u64> {
        if s.mid_turn() {
            return None;
        }
        let mut h = splitmix64(s.side as u64);
        for w in [s.pieces[0], s.pieces[1], s.kings] {
            h = splitmix64(h ^ w as u64);
            h = splitmix64(h ^ (w >> 64) as u64);
        }
        Some(h)
    }
}

const OPTIONS: &[OptSpec] = &[OptSpec {
    name: "removal",
    kind: OptKind::Choice(&["immediate", "deferred"]),
    doc: "when captured pieces leave: at once (immediate) or when the capture sequence ends (deferred)",
}];

pub static KHARBAGA: GameEntry = GameEntry {
    id: "kharbaga",
    family: "alquerque",
    version: 3,
    summary: "Kharbaga: alquerque-family draughts on a 41-point board, flying mulás, majority capture",
    max_turns: 300,
    offers: true,
    options: OPTIONS,
    build: |e, o| build_with(e, o, |o| Ok(Alquerque::from_options(Board::Kharbaga, o))),
};

pub static ZAMMA: GameEntry = GameEntry {
    id: "zamma",
    family: "alquerque",
    version: 3,
    summary: "Zamma: alquerque-family draughts on the 81-point board, flying mulás, majority capture",
    max_turns: 500,
    offers: true,
    options: OPTIONS,
    build: |e, o| build_with(e, o, |o| Ok(Alquerque::from_options(Board::Zamma, o))),
};
