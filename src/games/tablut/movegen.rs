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
    /// The occupancy, transposed (bit `file*9 + rank`), kept for file slides.
    pub(crate) occ_t: Bitboard,
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
            occ_t: 0,
        };
        for sq in Bits(s.occupied()) {
            s.occ_t |= bit(TRANSPOSED[sq] as usize);
        }
        s.status = s.derive_status();
        s
    }

    /// King captured, king on a corner, or no move for the side to move.
    #[inline]
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

    /// The moves of the piece on `from` as a 16-bit set of k-indices of the
    /// action encoding (action `from*16 + k`). `occ`/`occ_t` are the
    /// occupancy and its transpose; soldiers may not stop on the throne or a
    /// corner (spec: "Moves"), and pass over the empty throne like any empty square.
    #[inline(always)]
    fn targets(from: usize, occ: Bitboard, occ_t: Bitboard, king: bool) -> u16 {
        let (f, r) = (from % SIZE, from / SIZE);
        let rank_occ = (occ >> (r * SIZE)) as usize & 0x1FF;
        let file_occ = (occ_t >> (f * SIZE)) as usize & 0x1FF;
        let k = SLIDE[f][rank_occ] as u16 | (SLIDE[r][file_occ] as u16) << 8;
        if king {
            k
        } else {
            k & !KING_ONLY_K[from]
        }
    }

    /// Calls `f(from, targets)` for every piece of the side to move with its
    /// move set (see [`State::targets`]); stops when `f` returns true.
    #[inline(always)]
    fn each_piece(&self, mut f: impl FnMut(usize, u16) -> bool) -> bool {
        let occ = self.occupied();
        let occ_t = self.occ_t;
        if self.side == SWEDES {
            if self.king != NONE && f(self.king as usize, Self::targets(self.king as usize, occ, occ_t, true)) {
                return true;
            }
            for from in Bits(self.swedes) {
                if f(from, Self::targets(from, occ, occ_t, false)) {
                    return true;
                }
            }
        } else {
            for from in Bits(self.muscovites) {
                if f(from, Self::targets(from, occ, occ_t, false)) {
                    return true;
                }
            }
        }
        false
    }

    /// Calls `f(action)` for every legal move action of the side to move,
    /// nothing once the game is over.
    #[inline]
    pub fn for_each_action(&self, mut f: impl FnMut(usize)) {
        if self.is_over() {
            return;
        }
        self.each_piece(|from, mut k| {
            while k != 0 {
                f(from * 16 + k.trailing_zeros() as usize);
                k &= k - 1;
            }
            false
        });
    }

    /// Calls `f(from, to)` for every legal move of the side to move (square
    /// indices), nothing once the game is over.
    #[inline]
    pub fn for_each_move(&self, mut f: impl FnMut(usize, usize)) {
        self.for_each_action(|a| {
            let (from, to) = super::notation::decode(a);
            f(from, to)
        });
    }

    /// The legal moves of the side to move, in action order.
    pub fn moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.for_each_move(|from, to| {
            out.push(Move { from: Square::new(from).expect("square"), to: Square::new(to).expect("square") })
        });
        out
    }

    /// Number of legal moves of the side to move.
    #[inline]
    pub fn count_moves(&self) -> u32 {
        if self.is_over() {
            return 0;
        }
        let mut n = 0;
        self.each_piece(|_, k| {
            n += k.count_ones();
            false
        });
        n
    }

    /// Whether the side to move has a move (ignores the status).
    #[inline]
    fn has_move(&self) -> bool {
        self.each_piece(|_, k| k != 0)
    }

    /// Whether `from -> to` is a legal move of the side to move.
    pub fn is_legal_move(&self, from: usize, to: usize) -> bool {
        if self.is_over() || from >= SQUARES || to >= SQUARES || from == to {
            return false;
        }
        if from % SIZE != to % SIZE && from / SIZE != to / SIZE {
            return false;
        }
        self.is_legal_action(super::notation::encode(from, to))
    }

    /// Whether move action `a` (< 1296) is legal for the side to move.
    #[inline]
    pub fn is_legal_action(&self, a: usize) -> bool {
        let from = a >> 4;
        if self.is_over() || from >= SQUARES {
            return false;
        }
        let is_king = self.king as usize == from;
        let own = if self.side == SWEDES {
            is_king || self.swedes & bit(from) != 0
        } else {
            self.muscovites & bit(from) != 0
        };
        own && Self::targets(from, self.occupied(), self.occ_t, is_king) & (1 << (a & 15)) != 0
    }

    /// Plays a legal move given as a [`Move`].
    pub fn play_move(&mut self, mv: Move) {
        self.play(mv.from.index(), mv.to.index())
    }

    /// Plays a legal move of the side to move (unchecked): moves the piece,
    /// makes its captures, decides the end, and hands the move over.
    #[inline]
    pub fn play(&mut self, from: usize, to: usize) {
        let step = bit(from) | bit(to);
        self.occ_t ^= bit(TRANSPOSED[from] as usize) | bit(TRANSPOSED[to] as usize);
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
        self.status = self.derive_status();
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
                        self.occ_t &= !bit(TRANSPOSED[n as usize] as usize);
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
                        self.occ_t &= !bit(TRANSPOSED[n as usize] as usize);
                    }
                } else if n == self.king && self.king_surrounded() {
                    self.occ_t &= !bit(TRANSPOSED[n as usize] as usize);
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
        let k = self.king as usize;
        let (f, r) = (k % SIZE, k / SIZE);
        // Only on an edge line can a corner be one rook move away: k = 0 and
        // k = 7 are the two ends of the line.
        let t = Self::targets(k, self.occupied(), self.occ_t, true);
        let ends = |line_pos: usize, bits: u16| {
            if line_pos == 0 || line_pos == SIZE - 1 {
                (bits & 1) as u32 + ((bits >> 7) & 1) as u32
            } else {
                0
            }
        };
        ends(r, t & 0xFF) + ends(f, t >> 8)
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
