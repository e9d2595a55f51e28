//! The rules of one board with one removal mode: [`Alquerque`], built from
//! the board's geometry and the action and observation tables.

use super::action::action_table;
use super::board::Geometry;
use super::observe::{geometry_planes, PLANES};
use super::state::{Removal, State};
use crate::core::Player;
use crate::game::GameSpec;
use crate::options::Options;

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
            spec: GameSpec {
                num_actions: n * 64 + 4,
                observation_shape: vec![PLANES, 9, 9],
                offers: true,
                info_fields: &[],
                observation_high: 1.0,
            },
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
