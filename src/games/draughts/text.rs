//! The board as text (`str(state)`, the command line).

use super::rules::DraughtsRules;
use super::state::State;

/// An ASCII diagram, top row first, as player 0 sees it: `b`/`w` men and
/// `B`/`W` kings by colour, `.` empty dark squares; then the side to move and
/// the position string.
pub fn board_text(r: &DraughtsRules, s: &State) -> String {
    let g = &r.eng.geo;
    let size = g.size as usize;
    let colours = match r.eng.preset.colour0 {
        'B' => ['b', 'w'],
        _ => ['w', 'b'],
    };
    let mut grid = vec![vec![' '; size]; size];
    for bit in 0..64u8 {
        if g.valid >> bit & 1 == 0 {
            continue;
        }
        let (row, col) = (g.row[bit as usize] as usize, g.col[bit as usize] as usize);
        let m = 1u64 << bit;
        grid[row][col] = (0..2)
            .find_map(|p| {
                if s.board.men[p] & m != 0 {
                    Some(colours[p])
                } else if s.board.kings[p] & m != 0 {
                    Some(colours[p].to_ascii_uppercase())
                } else {
                    None
                }
            })
            .unwrap_or('.');
    }
    let mut out = String::new();
    for (row, cells) in grid.iter().enumerate() {
        let line: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
        out.push_str(&format!("{:>2} {}\n", size - row, line.join(" ")));
    }
    let files: Vec<String> = (0..size).map(|c| ((b'a' + c as u8) as char).to_string()).collect();
    out.push_str(&format!("   {}\n", files.join(" ")));
    let mover = colours[s.side as usize].to_ascii_uppercase();
    out.push_str(&format!("{} to move (player {})", if mover == 'B' { "Black" } else { "White" }, s.side));
    out
}
