//! The board as text (`str(state)`, the command line).

use super::rules::DraughtsRules;
use super::state::State;

/// An ASCII diagram, top row first, as player 0 sees it, ranks and files on
/// its edges: `b`/`w` men and `B`/`W` kings by colour, `.` empty dark
/// squares; beside it the dark squares' numbers, which the notation
/// (`22-18`, `22x15x8`, `s12`) uses.
/// Then the side to move and what the turn carries: huff and force rights,
/// a capture in progress with the pieces jumped so far, the draw counter.
pub fn board_text(r: &DraughtsRules, s: &State) -> String {
    let g = &r.eng.geo;
    let size = g.size as usize;
    let colours = match r.eng.preset.colour0 {
        'B' => ['b', 'w'],
        _ => ['w', 'b'],
    };
    let mut grid = vec![vec![' '; size]; size];
    let mut numbers = vec![vec![String::from("  "); size]; size];
    for bit in 0..64u8 {
        if g.valid >> bit & 1 == 0 {
            continue;
        }
        let (row, col) = (g.row[bit as usize] as usize, g.col[bit as usize] as usize);
        numbers[row][col] = format!("{:>2}", g.square(bit).0);
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
    // Both grids use three columns per file, so that a square's number sits
    // at the same place in the right grid as its piece in the left one.
    let mut out = String::new();
    for (row, (pieces, numbered)) in grid.iter().zip(&numbers).enumerate() {
        let cells: Vec<String> = pieces.iter().map(|c| format!("{c:>2}")).collect();
        out.push_str(&format!("{:>2} {}    {}\n", size - row, cells.join(" "), numbered.join(" ").trim_end()));
    }
    let files: Vec<String> = (0..size).map(|c| format!("{:>2}", (b'a' + c as u8) as char)).collect();
    out.push_str(&format!("   {}\n", files.join(" ")));
    let squares = |bb: u64| g.squares(bb).iter().map(|q| q.0.to_string()).collect::<Vec<_>>().join(", ");
    let colour = |p: usize| if colours[p] == 'b' { "Black" } else { "White" };
    let (mover, other) = (s.side as usize, 1 - s.side as usize);
    out.push_str(&format!("{} ({}) to move (player {mover})", colour(mover), colours[mover]));
    if let Some((start, now)) = s.cap {
        out.push_str(&format!(
            "\ncapture in progress: the piece from {} is on {}, jumped so far {} (still on the board); go on from {}",
            g.square(start),
            g.square(now),
            squares(s.jumped),
            g.square(now)
        ));
    }
    if let Some((sq, king)) = s.huffed {
        out.push_str(&format!("\nhuffed {}{} this turn", if king { "the king on " } else { "" }, g.square(sq)));
    }
    if s.huff != 0 {
        out.push_str(&format!(
            "\nsoplo: {} may huff (`s<square>`) a {} piece that could have captured and did not: {}",
            colour(mover),
            colour(other),
            squares(s.huff)
        ));
        if s.force.is_some() {
            out.push_str("; or force (`f`): take that move back and make the capture");
        }
    }
    if s.must_capture {
        out.push_str(&format!("\nafter the force, {} must make a correct capture", colour(mover)));
    }
    if let Some(k) = s.k {
        out.push_str(&format!("\ndraw counter: {k} of {} turns", r.eng.preset.k_limit()));
    }
    out
}

/// The board as data for pictures: men and kings, Black's pieces first then
/// White's, each in PDN square order, owner the player of that colour;
/// `player0_colour` (`B` or `W`, from the preset); the marks `huff` (the
/// pieces that may be huffed), `capture` (start and current square of a
/// capture in progress) and `jumped`.
pub fn board_view(r: &DraughtsRules, s: &State) -> crate::game::BoardView {
    use super::board::bit;
    let g = &r.eng.geo;
    let cell = |b: u8| (g.row[b as usize] as u32, g.col[b as usize] as u32);
    let cells = |bb: u64| g.squares(bb).into_iter().map(|sq| cell(g.bit(sq))).collect::<Vec<_>>();
    let mut pieces = Vec::new();
    for colour in ['B', 'W'] {
        let p = if r.preset().colour(0) == colour { 0 } else { 1 };
        for sq in g.squares(s.board.pieces(p)) {
            let b = g.bit(sq);
            let (row, col) = cell(b);
            pieces.push((row, col, if s.board.kings[p] & bit(b) != 0 { "king" } else { "man" }, p as u8));
        }
    }
    let mut marks = Vec::new();
    if s.huff != 0 {
        marks.push(("huff", cells(s.huff)));
    }
    if let Some((from, at)) = s.cap {
        marks.push(("capture", vec![cell(from), cell(at)]));
        if s.jumped != 0 {
            marks.push(("jumped", cells(s.jumped)));
        }
    }
    crate::game::BoardView {
        rows: g.size as u32,
        cols: g.size as u32,
        pieces,
        marks,
        ints: vec![("to_move", s.side as i64)],
        words: vec![("player0_colour", r.preset().colour(0).to_string())],
        ..Default::default()
    }
}
