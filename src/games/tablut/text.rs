//! The board as text (`str(state)`, the command line).

use super::board::{bit, CORNERS, SIZE, THRONE_SQ};
use super::state::{State, Status, SWEDES};

/// A diagram with ranks 9..1 on the left and files a..i below: `K` the king,
/// `S` Swedish soldiers, `M` Muscovites, `#` an empty corner, `+` the empty
/// throne, `.` an empty square; then the side to move, the king's free routes
/// to a corner (raichi / tuichi), or how the game ended.
pub fn board_text(s: &State) -> String {
    let mut out = String::new();
    for rank in (0..SIZE).rev() {
        let cells: Vec<String> = (0..SIZE)
            .map(|file| {
                let sq = rank * SIZE + file;
                let c = if s.king == sq as u8 {
                    'K'
                } else if s.swedes & bit(sq) != 0 {
                    'S'
                } else if s.muscovites & bit(sq) != 0 {
                    'M'
                } else if CORNERS & bit(sq) != 0 {
                    '#'
                } else if sq == THRONE_SQ {
                    '+'
                } else {
                    '.'
                };
                c.to_string()
            })
            .collect();
        out.push_str(&format!("{} {}\n", rank + 1, cells.join(" ")));
    }
    out.push_str("  a b c d e f g h i\n");
    let side = if s.side == SWEDES { "Swedes (player 0: K, S)" } else { "Muscovites (player 1: M)" };
    match s.status {
        Status::Ongoing => {
            out.push_str(&format!("{side} to move"));
            match s.king_corner_routes() {
                0 => {}
                1 => out.push_str("; raichi: the king has a free path to a corner"),
                n => out.push_str(&format!("; tuichi: the king has free paths to {n} corners")),
            }
        }
        Status::KingEscaped => out.push_str("the king reached a corner: the Swedes won"),
        Status::KingCaptured => out.push_str("the king was captured: the Muscovites won"),
        Status::NoMoves => out.push_str(&format!("{side} cannot move and lost")),
    }
    out
}

/// The board as data for pictures: the king, soldiers (owner 0) and
/// Muscovites (owner 1) from rank 9 down, `to_move` the side to move.
pub fn board_view(s: &State) -> crate::game::BoardView {
    let mut pieces = Vec::new();
    for rank in (0..SIZE).rev() {
        for file in 0..SIZE {
            let sq = rank * SIZE + file;
            let cell = ((SIZE - 1 - rank) as u32, file as u32);
            if s.king == sq as u8 {
                pieces.push((cell.0, cell.1, "king", 0));
            } else if s.swedes & bit(sq) != 0 {
                pieces.push((cell.0, cell.1, "man", 0));
            } else if s.muscovites & bit(sq) != 0 {
                pieces.push((cell.0, cell.1, "man", 1));
            }
        }
    }
    crate::game::BoardView {
        rows: SIZE as u32,
        cols: SIZE as u32,
        pieces,
        ints: vec![("to_move", s.side.index() as i64)],
        ..Default::default()
    }
}
