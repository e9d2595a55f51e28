//! Rook moves of a position: the legal moves and actions, their count, the
//! king's corner routes, perft (spec tablut.md, "Moves").

use super::action::{decode, encode};
use super::board::*;
use super::state::{Move, State, Status, MUSCOVITES, SWEDES};
use crate::core::{splitmix64, Player};

/// `SPREAD[b]`: the eight bits of `b` as bools, bit `i` at `i`.
static SPREAD: [[bool; 8]; 256] = {
    let mut t = [[false; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            t[b][i] = b >> i & 1 != 0;
            i += 1;
        }
        b += 1;
    }
    t
};

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

    /// Who won, once the game is over (tablut has no draw by its rules).
    pub fn outcome(&self) -> Option<crate::core::Outcome> {
        self.winner().map(crate::core::Outcome::Win)
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
    pub(super) fn king_bb(&self) -> Bitboard {
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

    /// Writes the move actions' legal mask (`mask[..MOVE_ACTIONS]`; nothing
    /// legal once the game is over): a piece's sixteen actions are
    /// consecutive, so its move set is written in one go, not move by move.
    #[inline]
    pub fn write_move_mask(&self, mask: &mut [bool]) {
        self.write_move_mask_bits(mask, &mut []);
    }

    /// [`State::write_move_mask`], and the move actions' bits too unless
    /// `bits` is empty (its words must be zero): a square's 16 destinations
    /// are a quarter of one word.
    pub fn write_move_mask_bits(&self, mask: &mut [bool], bits: &mut [u64]) {
        let mask = &mut mask[..super::action::MOVE_ACTIONS];
        mask.fill(false);
        if self.is_over() {
            return;
        }
        let with_bits = !bits.is_empty();
        self.each_piece(|from, k| {
            let row = &mut mask[from * 16..from * 16 + 16];
            row[..8].copy_from_slice(&SPREAD[k as usize & 0xFF]);
            row[8..].copy_from_slice(&SPREAD[k as usize >> 8]);
            if with_bits {
                bits[from / 4] |= u64::from(k) << (16 * (from % 4));
            }
            false
        });
    }

    /// Calls `f(from, to)` for every legal move of the side to move (square
    /// indices), nothing once the game is over.
    #[inline]
    pub fn for_each_move(&self, mut f: impl FnMut(usize, usize)) {
        self.for_each_action(|a| {
            let (from, to) = decode(a);
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
    pub(super) fn has_move(&self) -> bool {
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
        self.is_legal_action(encode(from, to))
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
