//! Line-graph boards on the 9x9 lattice: a board is its points and, per point
//! and direction, the next point along a line. Both boards are *data* (a list
//! of lines); the engine never looks at anything else.
//!
//! ```text
//!  kharbaga (41 points)            zamma (81 points)
//!  9 o---o---o---o---o             9 o-o-o-o-o-o-o-o-o
//!    |\ /|\ /|\ /|\ /|               |\|/|\|/|\|/|\|/|
//!  8 | o | o | o | o |             8 o-o-o-o-o-o-o-o-o
//!    |/ \|/ \|/ \|/ \|               |/|\|/|\|/|\|/|\|
//!  7 o---o---o---o---o             7 o-o-o-o-o-o-o-o-o
//!    ...                             ...
//!    a b c d e f g h i               a b c d e f g h i
//! ```

use std::fmt;

/// A point of the 9x9 lattice, `rank * 9 + file` (a1 = 0, i1 = 8, i9 = 80).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u8);

/// "No point" in the next-point tables.
pub const NONE: u8 = u8::MAX;

impl Point {
    #[inline]
    pub fn new(file: u8, rank: u8) -> Point {
        debug_assert!(file < 9 && rank < 9);
        Point(rank * 9 + file)
    }
    #[inline]
    pub fn file(self) -> u8 {
        self.0 % 9
    }
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 / 9
    }
    /// The point seen by player 1: the board turned 180 degrees about e5.
    #[inline]
    pub fn rotate(self) -> Point {
        Point(80 - self.0)
    }
    #[inline]
    pub fn bit(self) -> u128 {
        1u128 << self.0
    }
    /// Parses `a1` .. `i9` (any lattice point; whether it is on the board is
    /// the caller's check).
    pub fn parse(text: &str) -> Option<Point> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let (f, r) = (b[0].wrapping_sub(b'a'), b[1].wrapping_sub(b'1'));
        (f < 9 && r < 9).then(|| Point::new(f, r))
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}

/// The eight line directions; N is towards rank 9 (forwards for player 0).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    N = 0,
    NE = 1,
    E = 2,
    SE = 3,
    S = 4,
    SW = 5,
    W = 6,
    NW = 7,
}

impl Dir {
    pub const ALL: [Dir; 8] = [Dir::N, Dir::NE, Dir::E, Dir::SE, Dir::S, Dir::SW, Dir::W, Dir::NW];

    #[inline]
    pub fn from_index(i: usize) -> Dir {
        Dir::ALL[i & 7]
    }
    /// (file, rank) signs of one step.
    pub fn delta(self) -> (i8, i8) {
        [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)][self as usize]
    }
    /// The direction turned 180 degrees (player 1's view).
    #[inline]
    pub fn rotate(self) -> Dir {
        Dir::from_index(self as usize + 4)
    }
    fn from_delta(df: i32, dr: i32) -> Dir {
        let d = (df.signum() as i8, dr.signum() as i8);
        *Dir::ALL.iter().find(|x| x.delta() == d).expect("a line step has a direction")
    }
}

/// One board: its points and lines. Built from a list of lines, so another
/// alquerque board is another list, not new code.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub name: &'static str,
    /// Lattice points that are points of the board.
    pub points: u128,
    /// `next[dir][point]`: the next point along the line in `dir`, or [`NONE`].
    pub next: [[u8; 81]; 8],
    /// Index of a lattice point among the board's points (rank then file), or [`NONE`].
    pub ordinal: [u8; 81],
    /// The board's points in ordinal order.
    pub by_ordinal: Vec<Point>,
    /// Per player, the points of the far rank where a pawn is promoted.
    pub far_rank: [u128; 2],
    /// Points per rank, bottom to top (for position strings).
    pub rank_len: [u8; 9],
    /// Per direction, the points that have a next point in it.
    pub has_next: [u128; 8],
    /// Per direction, the lattice step `next - point`, when every line step in
    /// that direction is the same one (both boards: then a whole set of points
    /// moves along a direction with one shift, see [`Geometry::before`]).
    pub delta: [Option<i8>; 8],
    /// `ray[d][p]`: the points after `p` along its line in direction `d`.
    pub ray: [[u128; 81]; 8],
    /// `near[p]`: the points one step from `p` in any direction.
    pub near: [u128; 81],
}

impl Geometry {
    /// A board from its lines: each line is a list of points in order; one
    /// step goes from a point to the next one of its line.
    pub fn from_lines(name: &'static str, lines: &[Vec<Point>]) -> Geometry {
        let mut next = [[NONE; 81]; 8];
        let mut points = 0u128;
        for line in lines {
            for w in line.windows(2) {
                let (a, b) = (w[0], w[1]);
                let d = Dir::from_delta(b.file() as i32 - a.file() as i32, b.rank() as i32 - a.rank() as i32);
                next[d as usize][a.0 as usize] = b.0;
                next[d.rotate() as usize][b.0 as usize] = a.0;
            }
            for p in line {
                points |= p.bit();
            }
        }
        let mut ordinal = [NONE; 81];
        let mut by_ordinal = Vec::new();
        let mut rank_len = [0u8; 9];
        for l in 0..81u8 {
            if points >> l & 1 == 1 {
                ordinal[l as usize] = by_ordinal.len() as u8;
                by_ordinal.push(Point(l));
                rank_len[Point(l).rank() as usize] += 1;
            }
        }
        let rank = |r: u8| (0..9).map(|f| Point::new(f, r).bit()).fold(0, |a, b| a | b) & points;
        let mut has_next = [0u128; 8];
        let mut delta = [None; 8];
        for d in 0..8 {
            let steps: Vec<i8> = (0..81u8)
                .filter(|&l| next[d][l as usize] != NONE)
                .map(|l| next[d][l as usize] as i8 - l as i8)
                .collect();
            has_next[d] = (0..81u8).filter(|&l| next[d][l as usize] != NONE).fold(0, |a, l| a | 1u128 << l);
            delta[d] = steps.first().copied().filter(|&x| steps.iter().all(|&y| y == x));
        }
        let mut ray = [[0u128; 81]; 8];
        let mut near = [0u128; 81];
        for d in 0..8 {
            for l in 0..81 {
                let mut q = next[d][l];
                if q != NONE {
                    near[l] |= 1u128 << q;
                }
                while q != NONE {
                    ray[d][l] |= 1u128 << q;
                    q = next[d][q as usize];
                }
            }
        }
        Geometry {
            name,
            points,
            next,
            ordinal,
            by_ordinal,
            far_rank: [rank(8), rank(0)],
            rank_len,
            has_next,
            delta,
            ray,
            near,
        }
    }

    /// The points whose next point in direction `d` is in `set`; `None` when
    /// the direction's steps differ from point to point (no board here).
    #[inline]
    pub fn before(&self, d: usize, set: u128) -> Option<u128> {
        let k = self.delta[d]?;
        let moved = if k >= 0 { set >> k as u32 } else { set << (-k) as u32 };
        Some(moved & self.has_next[d])
    }

    /// Kharbaga: the 5x5 grid of a 4x4-square board (orthogonal steps of two
    /// lattice squares) with both diagonals of every square (diagonal steps of
    /// one); the square centres have only diagonal lines.
    pub fn kharbaga() -> Geometry {
        let mut lines = Vec::new();
        for k in (0..9).step_by(2) {
            lines.push((0..9).step_by(2).map(|f| Point::new(f, k)).collect());
            lines.push((0..9).step_by(2).map(|r| Point::new(k, r)).collect());
        }
        lines.extend(diagonals());
        Geometry::from_lines("kharbaga", &lines)
    }

    /// Zamma: every lattice point, orthogonal lines everywhere, diagonals
    /// through the points whose file + rank is even (an alquerque board).
    pub fn zamma() -> Geometry {
        let mut lines = Vec::new();
        for k in 0..9 {
            lines.push((0..9).map(|f| Point::new(f, k)).collect());
            lines.push((0..9).map(|r| Point::new(k, r)).collect());
        }
        lines.extend(diagonals());
        Geometry::from_lines("zamma", &lines)
    }

    #[inline]
    pub fn num_points(&self) -> usize {
        self.by_ordinal.len()
    }

    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.points & p.bit() != 0
    }

    #[inline]
    pub fn step(&self, p: Point, d: Dir) -> Option<Point> {
        let n = self.next[d as usize][p.0 as usize];
        (n != NONE).then_some(Point(n))
    }
}

/// The diagonal lines through the lattice points whose file + rank is even
/// (shared by both boards).
fn diagonals() -> Vec<Vec<Point>> {
    let mut lines = Vec::new();
    for c in (-8i32..=8).step_by(2) {
        // file - rank = c (NE lines) and file + rank = c + 8 (NW lines)
        let ne: Vec<Point> =
            (0..9i32).filter(|r| (0..9).contains(&(r + c))).map(|r| Point::new((r + c) as u8, r as u8)).collect();
        let s = c + 8;
        let nw: Vec<Point> =
            (0..9i32).filter(|r| (0..9).contains(&(s - r))).map(|r| Point::new((s - r) as u8, r as u8)).collect();
        for line in [ne, nw] {
            if line.len() > 1 {
                lines.push(line);
            }
        }
    }
    lines
}

impl Geometry {
    /// Direction and number of steps from `a` to `b` along a line through
    /// both (they lie on one line: a jump's start and landing).
    pub fn line_between(&self, a: Point, b: Point) -> (u8, u8) {
        for d in 0..8u8 {
            let mut p = a.0;
            for steps in 1..=8u8 {
                p = self.next[d as usize][p as usize];
                if p == NONE {
                    break;
                }
                if p == b.0 {
                    return (d, steps);
                }
            }
        }
        (NONE, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        Point::parse(s).unwrap()
    }

    #[test]
    fn kharbaga_has_41_points_with_two_square_orthogonal_steps() {
        let g = Geometry::kharbaga();
        assert_eq!(g.num_points(), 41);
        assert_eq!(g.rank_len, [5, 4, 5, 4, 5, 4, 5, 4, 5]);
        assert_eq!(g.step(p("a1"), Dir::E), Some(p("c1")));
        assert_eq!(g.step(p("a1"), Dir::N), Some(p("a3")));
        assert_eq!(g.step(p("a1"), Dir::NE), Some(p("b2")));
        assert_eq!(g.step(p("b2"), Dir::NE), Some(p("c3")));
        assert_eq!(g.step(p("a1"), Dir::W), None);
        assert!(!g.contains(p("b1")));
    }

    #[test]
    fn kharbaga_centre_points_have_only_diagonal_lines() {
        let g = Geometry::kharbaga();
        for c in ["b2", "d4", "f6", "h8", "d2"] {
            for d in [Dir::N, Dir::E, Dir::S, Dir::W] {
                assert_eq!(g.step(p(c), d), None, "{c} {d:?}");
            }
            for d in [Dir::NE, Dir::SE, Dir::SW, Dir::NW] {
                assert!(g.step(p(c), d).is_some(), "{c} {d:?}");
            }
        }
        // e5 is a grid point: 8 neighbours.
        assert_eq!(Dir::ALL.iter().filter(|&&d| g.step(p("e5"), d).is_some()).count(), 8);
    }

    #[test]
    fn zamma_diagonals_only_through_even_points() {
        let g = Geometry::zamma();
        assert_eq!(g.num_points(), 81);
        assert_eq!(g.step(p("a1"), Dir::NE), Some(p("b2")));
        assert_eq!(g.step(p("b1"), Dir::NE), None);
        assert_eq!(g.step(p("b1"), Dir::NW), None);
        assert_eq!(g.step(p("b1"), Dir::N), Some(p("b2")));
        assert_eq!(g.step(p("b2"), Dir::SW), Some(p("a1")));
    }

    #[test]
    fn shifted_sets_agree_with_the_next_point_table() {
        for g in [Geometry::kharbaga(), Geometry::zamma()] {
            for d in 0..8 {
                assert!(g.delta[d].is_some(), "{} direction {d} has one lattice step", g.name);
                // A set that is not a board-only pattern: every third lattice point.
                let set = (0..81u32).filter(|l| l % 3 == 0).fold(0u128, |a, l| a | 1u128 << l);
                let want = (0..81u8)
                    .filter(|&l| g.next[d][l as usize] != NONE && set >> g.next[d][l as usize] & 1 != 0)
                    .fold(0u128, |a, l| a | 1u128 << l);
                assert_eq!(g.before(d, set), Some(want), "{} direction {d}", g.name);
            }
        }
        assert_eq!(Geometry::kharbaga().delta[Dir::E as usize], Some(2));
        assert_eq!(Geometry::zamma().delta[Dir::N as usize], Some(9));
    }

    #[test]
    fn boards_are_symmetric_under_rotation() {
        for g in [Geometry::kharbaga(), Geometry::zamma()] {
            for l in 0..81u8 {
                for d in Dir::ALL {
                    let a = g.step(Point(l), d).map(Point::rotate);
                    let b = if g.contains(Point(l)) { g.step(Point(l).rotate(), d.rotate()) } else { None };
                    assert_eq!(a, b, "{} {} {d:?}", g.name, Point(l));
                }
            }
        }
    }
}
