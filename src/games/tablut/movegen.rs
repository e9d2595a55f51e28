//! The position, its rook moves, and what a move does: custodial captures,
//! the king's capture and the end of the game (spec tablut.md, "Moves",
//! "Captures", "End of game").

use super::board::*;
use crate::core::{splitmix64, Player};
use std::fmt;

/// The Swedes are player 0, the Muscovites player 1 (spec: "Board and sides").
pub const SWEDES: Player = Player::P0;
pub const MUSCOVITES: Player = Player::P1;

/// Whether and how the game ended. Derived from the board and the side to
/// move (it is cached, not extra state).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    /// The king stands on a corner: the Swedes won.
    KingEscaped,
    /// The king was captured (no king on the board): the Muscovites won.
    KingCaptured,
    /// The side to move has no legal move and lost (spec **Decision**).
    NoMoves,
}

/// One move: a piece from one square to another along a rank or a file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// A Tablut position: the whole Markov state (placement and side to move).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Swedish soldiers (the king is not in this set).
    pub(crate) swedes: Bitboard,
    pub(crate) muscovites: Bitboard,
    /// The king's square, or [`NONE`] once captured.
    pub(crate) king: u8,
    pub(crate) side: Player,
    pub(crate) status: Status,
}

impl State {
    /// The spec's start: `3MMM3/4M4/4S4/M3S3M/MMSSKSSMM/M3S3M/4S4/4M4/3MMM3 s`.
    pub fn start() -> State {
        let sq = |name: &str| bit(Square::parse(name).expect("start square").index());
        let set = |names: &[&str]| names.iter().fold(0, |b, n| b | sq(n));
        State::from_parts(
            set(&["c5", "d5", "f5", "g5", "e3", "e4", "e6", "e7"]),
            set(&["a4", "a5", "a6", "b5", "i4", "i5", "i6", "h5", "d1", "e1", "f1", "e2", "d9", "e9", "f9", "e8"]),
            Some(Square::THRONE),
            SWEDES,
        )
    }

    /// A position from its placement and side to move; the status is derived.
    pub(crate) fn from_parts(swedes: Bitboard, muscovites: Bitboard, king: Option<Square>, side: Player) -> State {
        let mut s = State {
            swedes,
            muscovites,
            king: king.map_or(NONE, |k| k.index() as u8),
            side,
            status: Status::Ongoing,
        };
        s.status = s.derive_status();
        s
    }

    fn derive_status(&self) -> Status {
        if self.king == NONE {
            Status::KingCaptured
        } else if CORNERS & bit(self.king as usize) != 0 {
            Status::KingEscaped
        } else if !self.has_move() {
            Status::NoMoves
        } else {
            Status::Ongoing
        }
    }

    #[inline]
    pub fn side_to_move(&self) -> Player {
        self.side
    }

    #[inline]
    pub fn status(&self) -> Status {
        self.status
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.status != Status::Ongoing
    }

    /// The winner once the game is over.
    pub fn winner(&self) -> Option<Player> {
        match self.status {
            Status::Ongoing => None,
            Status::KingEscaped => Some(SWEDES),
            Status::KingCaptured => Some(MUSCOVITES),
            Status::NoMoves => Some(self.side.other()),
        }
    }

    pub fn king(&self) -> Option<Square> {
        (self.king != NONE).then(|| Square::new(self.king as usize).expect("king on the board"))
    }

    #[inline]
    fn king_bb(&self) -> Bitboard {
        if self.king == NONE {
            0
        } else {
            bit(self.king as usize)
        }
    }

    #[inline]
    pub(crate) fn occupied(&self) -> Bitboard {
        self.swedes | self.muscovites | self.king_bb()
    }

    /// Pieces in play: [Swedes including the king, Muscovites].
    pub fn piece_counts(&self) -> [u32; 2] {
        [self.swedes.count_ones() + (self.king != NONE) as u32, self.muscovites.count_ones()]
    }

    /// Calls `f(from, to)` for every legal move of the side to move (square
    /// indices), nothing once the game is over.
    #[inline]
    pub fn for_each_move(&self, mut f: impl FnMut(usize, usize)) {
        if self.is_over() {
            return;
        }
        self.walk_moves(|from, to| {
            f(from, to);
            false
        });
    }

    /// Number of legal moves of the side to move.
    pub fn count_moves(&self) -> u32 {
        let mut n = 0;
        self.for_each_move(|_, _| n += 1);
        n
    }

    /// Whether the side to move has a move (ignores the status).
    fn has_move(&self) -> bool {
        self.walk_moves(|_, _| true)
    }

    /// Walks the rook moves of the side to move; stops early when `f` says so.
    /// Returns whether it stopped early.
    #[inline(always)]
    fn walk_moves(&self, mut f: impl FnMut(usize, usize) -> bool) -> bool {
        let occ = self.occupied();
        // Spec: only the king may stop on the throne or a corner; soldiers pass over the empty throne.
        let mut walk = |from: usize, forbidden: Bitboard| {
            for d in 0..4 {
                let mut cur = NEIGHBOURS[from][d];
                while cur != NONE && occ & bit(cur as usize) == 0 {
                    if forbidden & bit(cur as usize) == 0 && f(from, cur as usize) {
                        return true;
                    }
                    cur = NEIGHBOURS[cur as usize][d];
                }
            }
            false
        };
        if self.side == SWEDES {
            if self.king != NONE && walk(self.king as usize, 0) {
                return true;
            }
            for from in Bits(self.swedes) {
                if walk(from, KING_ONLY) {
                    return true;
                }
            }
        } else {
            for from in Bits(self.muscovites) {
                if walk(from, KING_ONLY) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `from -> to` is a legal move of the side to move.
    pub fn is_legal_move(&self, from: usize, to: usize) -> bool {
        if self.is_over() || from >= SQUARES || to >= SQUARES || from == to {
            return false;
        }
        let (ff, fr, tf, tr) = (from % SIZE, from / SIZE, to % SIZE, to / SIZE);
        if ff != tf && fr != tr {
            return false;
        }
        let is_king = self.king as usize == from;
        let own = if self.side == SWEDES { self.swedes } else { self.muscovites };
        if !(own & bit(from) != 0 || (is_king && self.side == SWEDES)) {
            return false;
        }
        if !is_king && KING_ONLY & bit(to) != 0 {
            return false;
        }
        let occ = self.occupied();
        let d = if fr == tr {
            if tf < ff {
                0
            } else {
                1
            }
        } else if tr < fr {
            2
        } else {
            3
        };
        let mut cur = NEIGHBOURS[from][d] as usize;
        loop {
            if occ & bit(cur) != 0 {
                return false;
            }
            if cur == to {
                return true;
            }
            cur = NEIGHBOURS[cur][d] as usize;
        }
    }

    /// Plays a legal move of the side to move (unchecked): moves the piece,
    /// makes its captures, decides the end, and hands the move over.
    #[inline]
    pub fn play(&mut self, from: usize, to: usize) {
        let step = bit(from) | bit(to);
        let mover = self.side;
        if self.king as usize == from {
            self.king = to as u8;
        } else if mover == SWEDES {
            self.swedes ^= step;
        } else {
            self.muscovites ^= step;
        }
        self.capture(to);
        // Spec: the move that ends the game is played in full, then the side flips.
        self.side = mover.other();
        self.status = if self.king == NONE {
            Status::KingCaptured
        } else if CORNERS & bit(self.king as usize) != 0 {
            Status::KingEscaped
        } else if !self.has_move() {
            Status::NoMoves
        } else {
            Status::Ongoing
        };
    }

    /// Active custodial captures around `to`, the square the mover just reached.
    #[inline(always)]
    fn capture(&mut self, to: usize) {
        let nb = &NEIGHBOURS[to];
        if self.side == SWEDES {
            // Spec Decision: the king is armed (captures as mover and as anvil).
            // Corners are hostile to both sides; the empty throne is not hostile.
            let anvils = self.swedes | self.king_bb() | CORNERS;
            for d in 0..4 {
                let n = nb[d];
                if n != NONE && self.muscovites & bit(n as usize) != 0 {
                    let far = NEIGHBOURS[n as usize][d];
                    if far != NONE && anvils & bit(far as usize) != 0 {
                        self.muscovites &= !bit(n as usize);
                    }
                }
            }
        } else {
            let anvils = self.muscovites | CORNERS;
            for d in 0..4 {
                let n = nb[d];
                if n == NONE {
                    continue;
                }
                if self.swedes & bit(n as usize) != 0 {
                    let far = NEIGHBOURS[n as usize][d];
                    if far != NONE && anvils & bit(far as usize) != 0 {
                        self.swedes &= !bit(n as usize);
                    }
                } else if n == self.king && self.king_surrounded() {
                    self.king = NONE;
                }
            }
        }
    }

    /// The four king-capture cases of the spec in one test: every side of the
    /// king is a Muscovite, the board's edge, the (necessarily empty) throne,
    /// or a corner. Interior: four Muscovites (case 1); on an edge: three
    /// (case 2); next to the throne: three (case 3); next to a corner on an
    /// edge: two (case 4). A corner or the throne never holds a Muscovite, so
    /// no other mix is possible.
    #[inline]
    fn king_surrounded(&self) -> bool {
        let hostile = self.muscovites | THRONE | CORNERS;
        NEIGHBOURS[self.king as usize].iter().all(|&n| n == NONE || hostile & bit(n as usize) != 0)
    }

    /// Corners the king could reach with one move, given the board as it is:
    /// 1 is raichi, 2 tuichi. **Decision:** 0 once the game is over (king
    /// captured, or already on a corner).
    pub fn king_corner_routes(&self) -> u32 {
        if self.king == NONE || CORNERS & bit(self.king as usize) != 0 {
            return 0;
        }
        let occ = self.occupied();
        let mut routes = 0;
        for d in 0..4 {
            let mut cur = NEIGHBOURS[self.king as usize][d];
            while cur != NONE && occ & bit(cur as usize) == 0 {
                if CORNERS & bit(cur as usize) != 0 {
                    routes += 1;
                }
                cur = NEIGHBOURS[cur as usize][d];
            }
        }
        routes
    }

    /// 64-bit hash of the placement and the side to move (repetition key).
    pub fn hash(&self) -> u64 {
        let mut h = splitmix64(self.swedes as u64);
        h = splitmix64(h ^ (self.swedes >> 64) as u64);
        h = splitmix64(h ^ self.muscovites as u64);
        h = splitmix64(h ^ (self.muscovites >> 64) as u64);
        splitmix64(h ^ ((self.king as u64) << 1 | self.side as u64))
    }

    /// Leaves of the move tree to `depth`; a finished game is a leaf. Every
    /// move leads to a distinct position (the vacated square tells the piece
    /// apart, and captures only remove enemies), so no deduplication is needed.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.is_over() {
            return 1;
        }
        if depth == 1 {
            return self.count_moves() as u64;
        }
        let mut total = 0;
        self.for_each_move(|from, to| {
            let mut next = *self;
            next.play(from, to);
            total += next.perft(depth - 1);
        });
        total
    }
}
