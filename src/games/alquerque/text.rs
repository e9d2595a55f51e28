//! The board as text (`str(state)`, the command line): the points and the
//! lines joining them, because on an alquerque board which points are
//! neighbours is the whole geometry (kharbaga's square centres have no
//! orthogonal lines, zamma's odd points no diagonals).

use super::board::{Dir, Point};
use super::rules::Alquerque;
use super::state::State;
use crate::core::Player;

/// Canvas columns per file and rows per rank: wide enough that a capturing
/// piece's brackets fit between two points.
const COL: usize = 4;
const ROW: usize = 2;

/// A diagram with rank numbers on the left and files below: `b`/`w` pawns,
/// `B`/`W` mulás, `.` an empty point, `-` `|` `/` `\` (`X` where two
/// diagonals cross) the lines. During a capture sequence the capturing piece
/// is shown `(b)` and, in deferred removal, the jumped pieces `[w]`; the
/// lines below say whose turn it is and what the sequence has done so far.
pub fn board_text(r: &Alquerque, s: &State) -> String {
    let g = &r.geo;
    let width = 8 * COL + 1;
    let mut canvas = vec![vec![' '; width]; 8 * ROW + 1];
    let at = |p: Point| ((8 - p.rank() as usize) * ROW, p.file() as usize * COL);
    // Each line segment once: from a point towards N, NE, E and SE.
    for l in 0..81u8 {
        let p = Point(l);
        if !g.contains(p) {
            continue;
        }
        for d in [Dir::N, Dir::NE, Dir::E, Dir::SE] {
            let Some(q) = g.step(p, d) else { continue };
            let ((r0, c0), (r1, c1)) = (at(p), at(q));
            // Canvas cells the segment passes through, endpoints excluded: every
            // cell of an orthogonal line, the middle of each lattice step of a diagonal.
            let cells: Vec<(usize, usize)> = match d {
                Dir::N => (r1 + 1..r0).map(|row| (row, c0)).collect(),
                Dir::E => (c0 + 1..c1).map(|col| (r0, col)).collect(),
                _ => {
                    let units = (c1 - c0) / COL;
                    (0..units)
                        .map(|j| {
                            let col = c0 + j * COL + COL / 2;
                            let row = if d == Dir::NE { r0 - j * ROW - ROW / 2 } else { r0 + j * ROW + ROW / 2 };
                            (row, col)
                        })
                        .collect()
                }
            };
            let glyph = match d {
                Dir::N => '|',
                Dir::E => '-',
                Dir::NE => '/',
                _ => '\\',
            };
            for (row, col) in cells {
                let cell = &mut canvas[row][col];
                *cell = match (*cell, glyph) {
                    ('/', '\\') | ('\\', '/') => 'X',
                    _ => glyph,
                };
            }
        }
    }
    let jumped = |p: Point| r.deferred && s.jumped & p.bit() != 0;
    for l in 0..81u8 {
        let p = Point(l);
        if !g.contains(p) {
            continue;
        }
        let (row, col) = at(p);
        canvas[row][col] = match s.piece_at(p) {
            None => '.',
            Some((Player::P0, false)) => 'b',
            Some((Player::P0, true)) => 'B',
            Some((Player::P1, false)) => 'w',
            Some((Player::P1, true)) => 'W',
        };
        let brackets = if s.mid_turn() && s.capturing == l {
            Some(('(', ')'))
        } else if jumped(p) {
            Some(('[', ']'))
        } else {
            None
        };
        if let Some((open, close)) = brackets {
            if col > 0 {
                canvas[row][col - 1] = open;
            }
            if col + 1 < width {
                canvas[row][col + 1] = close;
            }
        }
    }
    let mut out = String::new();
    for (i, line) in canvas.iter().enumerate() {
        let label = if i % ROW == 0 { format!("{}", 9 - i / ROW) } else { " ".to_string() };
        let text: String = line.iter().collect();
        out.push_str(&format!("{label} {}\n", text.trim_end()));
    }
    let files: String = (0..9).map(|f| format!("{:<COL$}", (b'a' + f) as char)).collect();
    out.push_str(&format!("  {}\n", files.trim_end()));
    let who = if s.side == Player::P0 { "b (player 0)" } else { "w (player 1)" };
    if s.mid_turn() {
        out.push_str(&format!("{who} is capturing with the piece on {}: it must jump again", Point(s.capturing)));
        if r.deferred {
            let pieces: Vec<String> = (0..81u8).map(Point).filter(|&p| jumped(p)).map(|p| p.to_string()).collect();
            out.push_str(&format!(
                "\njumped so far: {} (removal deferred: they stay, blocking, until the sequence ends)",
                pieces.join(", ")
            ));
        }
    } else {
        out.push_str(&format!("{who} to move"));
    }
    out.push_str(&format!("; removal {}", if r.deferred { "deferred" } else { "immediate" }));
    out
}

/// The board as data for pictures: pawns (`man`) and mulás (`king`), black
/// owner 0, from rank 9 down; the board's `points` (rank 1 up) and
/// `geometry` name; during a capture sequence the `capture` point and, in
/// deferred removal, the `jumped` pieces (as the position string gives them).
pub fn board_view(r: &Alquerque, s: &State) -> crate::game::BoardView {
    let cell = |p: Point| (8 - p.rank() as u32, p.file() as u32);
    let mut pieces = Vec::new();
    for rank in (0..9).rev() {
        for file in 0..9 {
            let p = Point::new(file, rank);
            if let Some((owner, king)) = r.geo.contains(p).then(|| s.piece_at(p)).flatten() {
                let (row, col) = cell(p);
                pieces.push((row, col, if king { "king" } else { "man" }, owner.index() as u8));
            }
        }
    }
    let points = (0..9).flat_map(|rank| (0..9).map(move |file| Point::new(file, rank))).filter(|&p| r.geo.contains(p));
    let mut marks = vec![("points", points.map(cell).collect())];
    if s.mid_turn() {
        marks.push(("capture", vec![cell(Point(s.capturing))]));
        if r.deferred {
            marks.push(("jumped", super::position::bits(s.jumped).map(cell).collect()));
        }
    }
    crate::game::BoardView {
        rows: 9,
        cols: 9,
        pieces,
        marks,
        ints: vec![("to_move", s.side.index() as i64)],
        words: vec![("geometry", r.geo.name.to_string())],
        ..Default::default()
    }
}
