//! Board geometry: squares, the padded bitboard layout, rays.
//!
//! Squares are numbered as in PDN (spec "Board, squares, sides"): 1..32 on
//! 8x8, 1..50 on 10x10, row by row from the top, dark squares only. Inside
//! the engine a square is a bit of a `u64` in a *padded* layout with one
//! ghost bit after every second row, so that the four diagonal neighbours
//! of every square are uniform shifts (h = board size / 2):
//!
//! ```text
//!   10x10 (h = 5)                  8x8 (h = 4)
//!   row 0:  bits  0..4             row 0: bits  0..3
//!   row 1:  bits  5..9             row 1: bits  4..7
//!   ghost:  bit  10                ghost: bit   8
//!   row 2:  bits 11..15            row 2: bits  9..12
//!   ...                            ...
//!   up-left = -(h+1)  up-right = -h  down-left = +h  down-right = +(h+1)
//! ```
//!
//! A step off the left or right edge lands on a ghost bit, off the top or
//! bottom outside the board mask: masking with `valid` removes both.

use std::fmt;

/// A square in PDN numbering (1-based).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Absolute directions (player 0's view): 0 up-left, 1 up-right, 2 down-left,
/// 3 down-right. The opposite of `d` is `3 - d`.
pub const UP_LEFT: usize = 0;
pub const UP_RIGHT: usize = 1;
pub const DOWN_LEFT: usize = 2;
pub const DOWN_RIGHT: usize = 3;

pub const NONE: u8 = 255;

/// Tables of one board size.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub size: u8,
    pub half: u8,
    /// Number of dark squares (32 or 50).
    pub n: u8,
    /// Longest ray (size - 1), the `D` of the action encoding.
    pub d: u8,
    pub valid: u64,
    /// PDN index (0-based) -> padded bit.
    pub bit_of: [u8; 50],
    /// padded bit -> PDN index (0-based), `NONE` for ghosts.
    pub idx_of: [u8; 64],
    /// Neighbour bit per direction, `NONE` off the board.
    pub step: [[u8; 4]; 64],
    /// Squares along each ray, nearest first; `ray_len` of them are valid.
    pub ray: [[[u8; 9]; 4]; 64],
    pub ray_len: [[u8; 4]; 64],
    /// Promotion row of each player (player 0 promotes on the top row).
    pub far_row: [u64; 2],
    /// Row (0 = top) and column (0 = left) of each padded bit.
    pub row: [u8; 64],
    pub col: [u8; 64],
    /// Observation cell (`row * size + col`) of each padded bit from each
    /// player's point of view (player 1's board turned 180 degrees): one
    /// lookup per piece when the observation is written.
    pub cell: [[u8; 64]; 2],
}

impl Geometry {
    pub fn new(size: u8) -> Geometry {
        assert!(size == 8 || size == 10);
        let half = size / 2;
        let n = size * half;
        let mut g = Geometry {
            size,
            half,
            n,
            d: size - 1,
            valid: 0,
            bit_of: [0; 50],
            idx_of: [NONE; 64],
            step: [[NONE; 4]; 64],
            ray: [[[NONE; 9]; 4]; 64],
            ray_len: [[0; 4]; 64],
            far_row: [0; 2],
            row: [NONE; 64],
            col: [NONE; 64],
            cell: [[0; 64]; 2],
        };
        let bit_at = |r: i32, c: i32| -> Option<u8> {
            if r < 0 || c < 0 || r >= size as i32 || c >= size as i32 || (r + c) % 2 == 0 {
                return None;
            }
            let k = (c / 2) as u8;
            let r = r as u8;
            Some((r / 2) * (2 * half + 1) + (r % 2) * half + k)
        };
        for idx in 0..n {
            let r = idx / half;
            let k = idx % half;
            let c = if r.is_multiple_of(2) { 2 * k + 1 } else { 2 * k };
            let b = bit_at(r as i32, c as i32).unwrap();
            g.bit_of[idx as usize] = b;
            g.idx_of[b as usize] = idx;
            g.valid |= 1 << b;
            g.row[b as usize] = r;
            g.col[b as usize] = c;
            let cell = r as usize * size as usize + c as usize;
            g.cell[0][b as usize] = cell as u8;
            g.cell[1][b as usize] = (size as usize * size as usize - 1 - cell) as u8;
            if r == 0 {
                g.far_row[0] |= 1 << b;
            }
            if r == size - 1 {
                g.far_row[1] |= 1 << b;
            }
        }
        const DR: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
        for idx in 0..n {
            let b = g.bit_of[idx as usize] as usize;
            let (r, c) = (g.row[b] as i32, g.col[b] as i32);
            for (d, (dr, dc)) in DR.iter().enumerate() {
                g.step[b][d] = bit_at(r + dr, c + dc).unwrap_or(NONE);
                let mut k = 0;
                while let Some(t) = bit_at(r + dr * (k + 1), c + dc * (k + 1)) {
                    g.ray[b][d][k as usize] = t;
                    k += 1;
                }
                g.ray_len[b][d] = k as u8;
            }
        }
        g
    }

    /// Padded bit of a PDN square (1-based).
    #[inline]
    pub fn bit(&self, sq: Square) -> u8 {
        self.bit_of[sq.0 as usize - 1]
    }

    /// PDN square of a padded bit.
    #[inline]
    pub fn square(&self, bit: u8) -> Square {
        Square(self.idx_of[bit as usize] + 1)
    }

    /// Squares of a bitboard in ascending PDN order.
    pub fn squares(&self, mut bb: u64) -> Vec<Square> {
        // The padded layout keeps PDN order: ascending bits are ascending squares.
        let mut out = Vec::new();
        while bb != 0 {
            out.push(self.square(bb.trailing_zeros() as u8));
            bb &= bb - 1;
        }
        out
    }

    /// Shift every square of `bb` one step in absolute direction `d`.
    #[inline(always)]
    pub fn shift(&self, bb: u64, d: usize) -> u64 {
        let h = self.half as u32;
        (match d {
            UP_LEFT => bb >> (h + 1),
            UP_RIGHT => bb >> h,
            DOWN_LEFT => bb << h,
            _ => bb << (h + 1),
        }) & self.valid
    }

    /// The square `k` + 1 steps from `b` along `d` (`NONE` off the board).
    #[inline(always)]
    pub fn ray_at(&self, b: u8, d: usize, k: usize) -> u8 {
        if k < self.ray_len[b as usize][d] as usize {
            self.ray[b as usize][d][k]
        } else {
            NONE
        }
    }
}

/// Pieces by player: men and kings, one bitboard each.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Board {
    pub men: [u64; 2],
    pub kings: [u64; 2],
}

impl Board {
    #[inline(always)]
    pub fn pieces(&self, p: usize) -> u64 {
        self.men[p] | self.kings[p]
    }

    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.men[0] | self.men[1] | self.kings[0] | self.kings[1]
    }

    pub fn count(&self, p: usize) -> u32 {
        self.pieces(p).count_ones()
    }

    /// Removes whatever stands on the squares of `bb`.
    #[inline(always)]
    pub fn clear(&mut self, bb: u64) {
        for p in 0..2 {
            self.men[p] &= !bb;
            self.kings[p] &= !bb;
        }
    }
}

/// The bitboard bit of padded square `b`.
#[inline(always)]
pub fn bit(b: u8) -> u64 {
    1u64 << b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdn_numbering_matches_spec_corners() {
        // Spec: on 8x8 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1.
        let g = Geometry::new(8);
        let rc = |s: u8| {
            let b = g.bit(Square(s)) as usize;
            (g.row[b], g.col[b])
        };
        assert_eq!(rc(1), (0, 1));
        assert_eq!(rc(4), (0, 7));
        assert_eq!(rc(5), (1, 0));
        assert_eq!(rc(29), (7, 0));
        assert_eq!(rc(32), (7, 6));
        // 10x10: 1 = b10, 6 = a9, 46 = a1, 50 = i1.
        let g = Geometry::new(10);
        let rc = |s: u8| {
            let b = g.bit(Square(s)) as usize;
            (g.row[b], g.col[b])
        };
        assert_eq!(rc(1), (0, 1));
        assert_eq!(rc(6), (1, 0));
        assert_eq!(rc(46), (9, 0));
        assert_eq!(rc(50), (9, 8));
    }

    #[test]
    fn shifts_agree_with_neighbour_tables() {
        for size in [8, 10] {
            let g = Geometry::new(size);
            for i in 0..g.n {
                let b = g.bit_of[i as usize];
                for d in 0..4 {
                    let want = match g.step[b as usize][d] {
                        NONE => 0,
                        t => 1u64 << t,
                    };
                    assert_eq!(g.shift(1 << b, d), want, "size {size} square {} dir {d}", i + 1);
                }
            }
        }
    }
}
