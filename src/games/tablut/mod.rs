//! Tablut (Linnaeus' Tablut, corner-escape version): spec
//! `shared/spec/tablut.md`, docs `docs/games/tablut.md`.
//!
//! * [`board`]: squares, bitboards, throne, corners, neighbours;
//! * [`state`]: the position, its moves, its status;
//! * [`action`]: action index <-> move;
//! * [`movegen`]: rook moves, perft;
//! * [`rules`]: what a move does: captures, the end of the game;
//! * [`observe`]: observation planes;
//! * [`notation`]: `e3-h3` notation;
//! * [`position`]: the position string;
//! * `text`: the board as text;
//! * this file: [`TablutRules`], the [`Rules`] adapter, and the registry entry.

pub mod action;
pub mod board;
mod eval;
pub mod movegen;
pub mod notation;
pub mod observe;
pub mod position;
pub mod rules;
pub mod state;
mod text;

#[cfg(test)]
mod tests;

pub use board::Square;
pub use state::{Move, State, Status};

use crate::core::{Action, Applied, GameRng, ToAct};
use crate::dynamic::{build_with, DynGame, GameEntry};
use crate::error::Result;
use crate::game::{GameSpec, LegalOut, Rules, Turn};
use crate::options::{OptKind, OptSpec, Options};
use action::{decode, encode, MOVE_ACTIONS, NUM_ACTIONS};
use board::SIZE;
use observe::{OBS_LEN, PLANES};
use state::SWEDES;
use std::sync::Arc;

const REPETITION_DRAW: OptSpec = OptSpec {
    name: "repetition_draw",
    kind: OptKind::Bool(true),
    doc: "the third occurrence of a position with the same side to move is a draw",
};

/// Default `max_turns`: 400 turns (one move each), 200 per side.
pub const MAX_TURNS: u32 = 400;

pub static ENTRY: GameEntry = GameEntry {
    id: "tablut",
    family: "tablut",
    version: 1,
    summary: "Linnaeus' Tablut, 9x9, corner escape: the Swedes' king flees to a corner, the Muscovites hunt him",
    max_turns: MAX_TURNS,
    offers: true,
    options: &[REPETITION_DRAW],
    build,
};

fn build(entry: &'static GameEntry, options: Options) -> Result<Arc<dyn DynGame>> {
    build_with(entry, options, |o| Ok(TablutRules::new(o)))
}

/// Tablut with its options.
#[derive(Clone, Debug)]
pub struct TablutRules {
    spec: GameSpec,
    /// Spec Decision: the third occurrence of a position (same side to move) draws.
    repetition_draw: bool,
}

impl TablutRules {
    pub fn new(options: &Options) -> TablutRules {
        TablutRules::with(options.bool("repetition_draw"))
    }

    pub fn with(repetition_draw: bool) -> TablutRules {
        TablutRules {
            spec: GameSpec {
                num_actions: NUM_ACTIONS,
                observation_shape: vec![PLANES, SIZE, SIZE],
                offers: true,
                info_fields: &["king_corner_routes"],
                observation_high: 1.0,
            },
            repetition_draw,
        }
    }
}

impl Rules for TablutRules {
    type State = State;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn initial_state(&self, _rng: &mut GameRng) -> State {
        State::start()
    }

    #[inline]
    fn to_act(&self, s: &State) -> ToAct {
        if s.is_over() {
            ToAct::Terminal
        } else {
            ToAct::Player(s.side_to_move())
        }
    }

    fn legal_mask(&self, s: &State, mask: &mut [bool]) {
        s.write_move_mask(mask);
        mask[MOVE_ACTIONS..NUM_ACTIONS].fill(false);
    }

    fn legal_out(&self, s: &State, out: &mut LegalOut<'_>) {
        out.bits.fill(0);
        s.write_move_mask_bits(out.mask, out.bits);
        out.mask[MOVE_ACTIONS..NUM_ACTIONS].fill(false);
        out.count_from_bits();
    }

    #[inline]
    fn apply(&self, s: &mut State, a: Action, _rng: &mut GameRng) -> Applied {
        let (from, to) = decode(a.index());
        s.play(from, to);
        Applied::TurnOver
    }

    fn returns(&self, s: &State) -> [f32; 2] {
        crate::core::returns_of(s.outcome())
    }

    fn observe(&self, s: &State, out: &mut [f32]) {
        observe::observe(s, &mut out[..OBS_LEN]);
    }

    fn compact_planes(&self) -> Vec<(usize, crate::game::PlaneCode)> {
        // Planes 4 and 5 (throne, corners) are the board's.
        observe::COMPACT.into_iter().map(|p| (p, crate::game::PlaneCode::Bit)).collect()
    }

    fn observe_compact(&self, s: &State, _layout: &crate::game::ObsLayout, out: &mut [f32]) {
        observe::observe_compact(s, out)
    }

    fn observe_packed(&self, s: &State, _layout: &crate::game::ObsLayout, out: &mut [u8]) {
        observe::observe_packed(s, out)
    }

    fn to_position(&self, s: &State) -> String {
        position::format(s)
    }

    fn from_position(&self, text: &str) -> Result<State> {
        position::parse(text)
    }

    fn action_to_string(&self, _s: &State, a: Action) -> String {
        match Move::from_action(a) {
            Some(mv) => mv.to_string(),
            // Offer actions are named by the session, which answers first.
            None => format!("<action {}>", a.0),
        }
    }

    fn notation(&self, s: &State, actions: &[Action]) -> String {
        actions.first().map_or_else(String::new, |&a| self.action_to_string(s, a))
    }

    fn piece_counts(&self, s: &State) -> [u32; 2] {
        s.piece_counts()
    }

    fn next_states(&self, s: &State, out: &mut Vec<State>) {
        s.for_each_move(|from, to| {
            let mut next = *s;
            next.play(from, to);
            out.push(next);
        });
    }

    fn heuristic(&self, s: &State, player: crate::core::Player) -> f32 {
        eval::heuristic(s, player)
    }

    /// The Swedes to move with a route open: the king steps onto the corner.
    fn wins_at_once(&self, s: &State) -> bool {
        s.side_to_move() == SWEDES && !s.is_over() && s.king_corner_routes() > 0
    }

    /// The Muscovites to move with a route open (raichi or tuichi): unless
    /// they close it or take the king, he escapes.
    fn threatened(&self, s: &State) -> bool {
        s.side_to_move() != SWEDES && !s.is_over() && s.king_corner_routes() > 0
    }

    fn board_text(&self, s: &State) -> String {
        text::board_text(s)
    }

    fn board_view(&self, s: &State) -> Option<crate::game::BoardView> {
        Some(text::board_view(s))
    }

    fn string_to_action(&self, s: &State, text: &str) -> Result<Action> {
        let mv = notation::parse_legal(s, text)?;
        Ok(Action(encode(mv.from.index(), mv.to.index()) as u32))
    }

    #[inline]
    fn is_legal(&self, s: &State, a: Action) -> bool {
        a.index() < MOVE_ACTIONS && s.is_legal_action(a.index())
    }

    /// One turn per legal move: every move leads to a distinct position.
    fn turns(&self, s: &State) -> Vec<Turn<State>> {
        let mut out = Vec::with_capacity(128);
        s.for_each_move(|from, to| {
            let mut next = *s;
            next.play(from, to);
            let notation = format!("{}-{}", Square::new(from).unwrap(), Square::new(to).unwrap());
            out.push(Turn { actions: vec![Action(encode(from, to) as u32)], notation, state: next });
        });
        out.sort_by_key(|t| t.actions[0]);
        out
    }

    fn parse_turn(&self, s: &State, text: &str) -> Result<Vec<Action>> {
        Ok(vec![self.string_to_action(s, text)?])
    }

    fn perft(&self, s: &State, depth: u32) -> u64 {
        s.perft(depth)
    }

    fn write_info(&self, s: &State, out: &mut [i32]) {
        out[0] = s.king_corner_routes() as i32;
    }

    fn repetition_key(&self, s: &State) -> Option<u64> {
        self.repetition_draw.then(|| s.hash())
    }
}
