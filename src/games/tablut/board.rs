//! Geometry of the 9x9 Tablut board: squares, bitboards, the throne and the
//! corners, and the neighbour table every other module walks.
//!
//! ```text
//!   9  . . . M M M . . .     squares are numbered (rank-1)*9 + (file-1):
//!   8  . . . . M . . . .     a1 = 0, i1 = 8, a9 = 72, i9 = 80
//!   7  . . . . S . . . .
//!   6  M . . . S . . . M     throne: e5 = 40
//!   5  M M S S K S S M M     corners: a1 a9 i1 i9 (0, 72, 8, 80)
//!   4  M . . . S . . . M
//!   3  . . . . S . . . .
//!   2  . . . . M . . . .
//!   1  . . . M M M . . .
//!      a b c d e f g h i
//! ```

use std::fmt;

/// Board width and height.
pub const SIZE: usize = 9;
/// Number of squares.
pub const SQUARES: usize = SIZE * SIZE;

/// A set of squares: bit `i` is square `i`.
pub type Bitboard = u128;

/// Every square of the board.
pub const BOARD: Bitboard = (1u128 << SQUARES) - 1;
/// The throne (konakis), e5.
pub const THRONE_SQ: usize = 40;
pub const THRONE: Bitboard = 1u128 << THRONE_SQ;
/// The four corners a1, i1, a9, i9.
pub const CORNERS: Bitboard = 1u128 | 1u128 << 8 | 1u128 << 72 | 1u128 << 80;
/// Squares only the king may stop on.
pub const KING_ONLY: Bitboard = THRONE | CORNERS;

/// "No square" in the neighbour table.
pub const NONE: u8 = u8::MAX;

/// Directions in neighbour-table order: west, east, south, north.
pub const DIRS: [(i8, i8); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// `NEIGHBOURS[sq][d]`: the square next to `sq` in direction `DIRS[d]`, or [`NONE`] off the board.
pub static NEIGHBOURS: [[u8; 4]; SQUARES] = neighbours();

const fn neighbours() -> [[u8; 4]; SQUARES] {
    let mut t = [[NONE; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % SIZE) as i8, (sq / SIZE) as i8);
        let mut d = 0;
        while d < 4 {
            let (nf, nr) = (f + DIRS[d].0, r + DIRS[d].1);
            if nf >= 0 && nf < SIZE as i8 && nr >= 0 && nr < SIZE as i8 {
                t[sq][d] = (nr as usize * SIZE + nf as usize) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// `TRANSPOSED[sq]`: the square's bit in the transposed (file-major) bitboard,
/// `file*9 + rank`, where a file's nine squares are contiguous.
pub static TRANSPOSED: [u8; SQUARES] = transposed();

const fn transposed() -> [u8; SQUARES] {
    let mut t = [0u8; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        t[sq] = ((sq % SIZE) * SIZE + sq / SIZE) as u8;
        sq += 1;
    }
    t
}

/// `SLIDE[pos][occ]`: the empty squares a rook on `pos` (0..9) of a line of
/// nine reaches given the line's occupancy `occ` (9 bits), as the k-indices of
/// the action encoding: the other eight squares in increasing order (square
/// `x` is k = `x - (x > pos)`).
pub static SLIDE: [[u8; 512]; SIZE] = slide();

const fn slide() -> [[u8; 512]; SIZE] {
    let mut t = [[0u8; 512]; SIZE];
    let mut pos = 0;
    while pos < SIZE {
        let mut occ = 0;
        while occ < 512 {
            let mut k = 0u8;
            let mut x = pos + 1;
            while x < SIZE && occ & (1 << x) == 0 {
                k |= 1 << (x - 1);
                x += 1;
            }
            let mut x = pos as i32 - 1;
            while x >= 0 && occ & (1 << x) == 0 {
                k |= 1 << x;
                x -= 1;
            }
            t[pos][occ] = k;
            occ += 1;
        }
        pos += 1;
    }
    t
}

/// `KING_ONLY_K[sq]`: the 16 k-indices of moves from `sq` (k < 8 along the
/// rank, k >= 8 along the file) that land on the throne or a corner.
pub static KING_ONLY_K: [u16; SQUARES] = king_only_k();

const fn king_only_k() -> [u16; SQUARES] {
    let mut t = [0u16; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = (sq % SIZE, sq / SIZE);
        let mut x = 0;
        while x < SIZE {
            if x != f && KING_ONLY & (1u128 << (r * SIZE + x)) != 0 {
                t[sq] |= 1 << (x - (x > f) as usize);
            }
            if x != r && KING_ONLY & (1u128 << (x * SIZE + f)) != 0 {
                t[sq] |= 1 << (8 + x - (x > r) as usize);
            }
            x += 1;
        }
        sq += 1;
    }
    t
}

/// The bit of square index `sq`.
#[inline(always)]
pub const fn bit(sq: usize) -> Bitboard {
    1u128 << sq
}

/// One of the 81 squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const THRONE: Square = Square(THRONE_SQ as u8);

    /// The square of index `(rank-1)*9 + (file-1)`, if on the board.
    pub fn new(index: usize) -> Option<Square> {
        (index < SQUARES).then_some(Square(index as u8))
    }

    /// From 0-based file (a = 0) and rank (rank 1 = 0).
    pub fn from_coords(file: usize, rank: usize) -> Option<Square> {
        (file < SIZE && rank < SIZE).then(|| Square((rank * SIZE + file) as u8))
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file (a = 0).
    #[inline]
    pub fn file(self) -> usize {
        self.index() % SIZE
    }

    /// 0-based rank (rank 1 = 0).
    #[inline]
    pub fn rank(self) -> usize {
        self.index() / SIZE
    }

    pub fn is_corner(self) -> bool {
        CORNERS & bit(self.index()) != 0
    }

    /// Parses `e3`: a file letter a..i then a rank digit 1..9.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let (f, r) = (b[0].to_ascii_lowercase(), b[1]);
        if !(b'a'..=b'i').contains(&f) || !(b'1'..=b'9').contains(&r) {
            return None;
        }
        Square::from_coords((f - b'a') as usize, (r - b'1') as usize)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank() + 1)
    }
}

/// Iterates the squares of a bitboard, lowest first.
pub use crate::bits::SetBits as Bits;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_and_print() {
        for i in 0..SQUARES {
            let s = Square::new(i).unwrap();
            assert_eq!(Square::parse(&s.to_string()), Some(s));
        }
        assert_eq!(Square::parse("e5"), Some(Square::THRONE));
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("i9").unwrap().index(), 80);
        for bad in ["", "j1", "a0", "a10", "e", "55"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        assert_eq!(NEIGHBOURS[0], [NONE, 1, NONE, 9]);
        assert_eq!(NEIGHBOURS[80], [79, NONE, 71, NONE]);
        assert_eq!(NEIGHBOURS[THRONE_SQ], [39, 41, 31, 49]);
        assert_eq!(CORNERS.count_ones(), 4);
        assert!(Square::parse("i1").unwrap().is_corner());
    }

    #[test]
    fn slide_table_stops_at_pieces() {
        // Rook on c (2) of a line with pieces on a (0) and f (5): reaches b, d, e,
        // that is k = 1 (b), 2 (d), 3 (e).
        assert_eq!(SLIDE[2][0b10_0001], 0b1110);
        assert_eq!(SLIDE[0][0], 0xFF);
        assert_eq!(SLIDE[8][0], 0xFF);
        assert_eq!(SLIDE[4][0b0_0010_1000], 0, "boxed in by d and f");
        // e3 (f=4, r=2): the file move to e5 (k = 8 + 3) is for the king only.
        assert_eq!(KING_ONLY_K[22], 1 << 11);
        // a2: a1 (file k = 8) is a corner, a9 (k = 15) too; rank: nothing.
        assert_eq!(KING_ONLY_K[9], 1 << 8 | 1 << 15);
        assert_eq!(TRANSPOSED[1], 9);
    }
}
