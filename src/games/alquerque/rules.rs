//! The [`Rules`] of both boards, the end of the game, and the registry entries.

use super::board::Geometry;
use super::encoding::{action_table, geometry_planes, PLANES};
use super::state::{Removal, State};
use crate::core::{splitmix64, Action, Applied, GameRng, Player, ToAct};
use crate::error::Result;
use crate::game::{GameSpec, Rules, Turn};
use crate::options::{OptKind, OptSpec, Options};
use crate::registry::{build_with, GameEntry};

/// Which alquerque board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Board {
    Kharbaga,
    Zamma,
}

impl Board {
    pub fn geometry(self) -> Geometry {
        match self {
            Board::Kharbaga => Geometry::kharbaga(),
            Board::Zamma => Geometry::zamma(),
        }
    }

    /// The start position (spec: alquerque.md, "Sides and start").
    pub fn start(self) -> &'static str {
        match self {
            Board::Kharbaga => "wwwww/wwww/wwwww/wwww/ww1bb/bbbb/bbbbb/bbbb/bbbbb b",
            Board::Zamma => {
                "wwwwwwwww/wwwwwwwww/wwwwwwwww/wwwwwwwww/wwww1bbbb/bbbbbbbbb/bbbbbbbbb/bbbbbbbbb/bbbbbbbbb b"
            }
        }
    }
}

/// The rules of one board with one removal mode.
pub struct Alquerque {
    pub(super) geo: Geometry,
    pub(super) removal: Removal,
    pub(super) deferred: bool,
    pub(super) spec: GameSpec,
    /// Per player, per game action: `[from, dir, to, steps]` (absolute).
    pub(super) actions: [Vec<[u8; 4]>; 2],
    /// Per player, the directions of a pawn's step.
    pub(super) forward: [[u8; 3]; 2],
    pub(super) geometry_planes: Vec<f32>,
    pub(super) start: State,
    /// Pieces per side at the start (no position has more).
    pub(super) max_pieces: u32,
}

impl Alquerque {
    pub fn new(board: Board, removal: Removal) -> Alquerque {
        let geo = board.geometry();
        let n = geo.num_points();
        let mut rules = Alquerque {
            actions: [action_table(&geo, Player::P0), action_table(&geo, Player::P1)],
            forward: [Alquerque::forward_dirs(Player::P0), Alquerque::forward_dirs(Player::P1)],
            geometry_planes: geometry_planes(&geo),
            spec: GameSpec { num_actions: n * 64 + 4, observation_shape: vec![PLANES, 9, 9], offers: true, info_fields: &[] },
            geo,
            removal,
            deferred: removal == Removal::Deferred,
            start: State::empty(Player::P0),
            max_pieces: 81,
        };
        rules.start = rules.parse_position(board.start()).expect("the spec's start position parses");
        rules.max_pieces = rules.start.pieces[0].count_ones();
        rules
    }

    pub fn from_options(board: Board, o: &Options) -> Alquerque {
        let removal = if o.str("removal") == "deferred" { Removal::Deferred } else { Removal::Immediate };
        Alquerque::new(board, removal)
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    pub fn removal(&self) -> Removal {
        self.removal
    }
}

impl Rules for Alquerque {
    type State = State;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn initial_state(&self, _rng: &mut GameRng) -> State {
        self.start
    }

    fn to_act(&self, s: &State) -> ToAct {
        // Spec, end of game: no pieces or no legal move on one's turn loses.
        if s.mid_turn() || (s.pieces[s.side.index()] != 0 && self.has_move(s)) {
            ToAct::Player(s.side)
        } else {
            ToAct::Terminal
        }
    }

    fn legal_mask(&self, s: &State, mask: &mut [bool]) {
        mask.fill(false);
        self.for_each_legal(s, |a| mask[a.index()] = true);
    }

    fn is_legal(&self, s: &State, a: Action) -> bool {
        if a.index() >= self.spec.num_game_actions() || self.actions[s.side.index()][a.index()][0] == super::board::NONE {
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
        if self.to_act(s) != ToAct::Terminal {
            return [0.0; 2];
        }
        match s.side {
            Player::P0 => [-1.0, 1.0],
            Player::P1 => [1.0, -1.0],
        }
    }

    fn observe(&self, s: &State, out: &mut [f32]) {
        self.write_observation(s, out)
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

    /// Every complete turn, one per distinct end position (re-jump loops
    /// skipped: they end where loop-free turns end).
    fn turns(&self, s: &State) -> Vec<Turn<State>> {
        let mut out: Vec<Turn<State>> = Vec::new();
        self.for_each_turn(s, &mut |path, end| {
            // One entry per end position; among paths with the same first
            // decision the shortest gives the notation.
            match out.iter_mut().find(|t| t.state == *end) {
                None => out.push(Turn { actions: path.to_vec(), notation: self.turn_notation(s, path), state: *end }),
                Some(t) if t.actions[0] == path[0] && path.len() < t.actions.len() => {
                    t.actions = path.to_vec();
                    t.notation = self.turn_notation(s, path);
                }
                Some(_) => {}
            }
        });
        out
    }

    fn parse_turn(&self, s: &State, text: &str) -> Result<Vec<Action>> {
        self.parse_notation(s, text)
    }

    fn next_states(&self, s: &State, out: &mut Vec<State>) {
        let start = out.len();
        self.for_each_turn(s, &mut |_, end| crate::game::push_distinct(out, start, end));
    }

    fn heuristic(&self, s: &State, player: Player) -> f32 {
        super::eval::heuristic(self, s, player)
    }

    /// Bulk perft: complete turns through the decision tree, distinct end
    /// positions per node (spec: moves that produce the same position are one).
    fn perft(&self, s: &State, depth: u32) -> u64 {
        if depth == 0 || self.to_act(s) == ToAct::Terminal {
            return 1;
        }
        let mut ends = Vec::with_capacity(64);
        self.for_each_turn(s, &mut |_, e| ends.push(*e));
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
    version: 1,
    summary: "Kharbaga: alquerque-family draughts on a 41-point board, flying mulás, majority capture",
    max_turns: 300,
    offers: true,
    options: OPTIONS,
    build: |e, o| build_with(e, o, |o| Ok(Alquerque::from_options(Board::Kharbaga, o))),
};

pub static ZAMMA: GameEntry = GameEntry {
    id: "zamma",
    family: "alquerque",
    version: 1,
    summary: "Zamma: alquerque-family draughts on the 81-point board, flying mulás, majority capture",
    max_turns: 500,
    offers: true,
    options: OPTIONS,
    build: |e, o| build_with(e, o, |o| Ok(Alquerque::from_options(Board::Zamma, o))),
};
