//! The board as text (`str(state)`, the command line).

use super::board::{BAR, OFF};
use super::state::State;
use crate::core::Player;

/// A diagram numbered from player 0's side (`X` = player 0, `O` = player 1):
/// points 13..24 on top, 12..1 below, each with its owner and count; then
/// bar, borne-off checkers, dice and score.
pub fn board_text(s: &State) -> String {
    // Player 1's point q is player 0's point 25 - q.
    let cell = |p: usize| -> String {
        let (x, o) = (s.board[0][p], s.board[1][25 - p]);
        match (x, o) {
            (0, 0) => " . ".to_string(),
            (n, 0) => format!("X{n:<2}"),
            (0, n) => format!("O{n:<2}"),
            _ => "?? ".to_string(),
        }
    };
    let row = |points: &mut dyn Iterator<Item = usize>| -> String {
        let cells: Vec<String> = points.map(cell).collect();
        format!("{} | {}", cells[..6].join(" "), cells[6..].join(" "))
    };
    let label = |points: &mut dyn Iterator<Item = usize>| -> String {
        let cells: Vec<String> = points.map(|p| format!("{p:<3}")).collect();
        format!("{} | {}", cells[..6].join(" "), cells[6..].join(" "))
    };
    let mut out = String::new();
    out.push_str(&label(&mut (13..=24)));
    out.push('\n');
    out.push_str(&row(&mut (13..=24)));
    out.push('\n');
    out.push_str(&row(&mut (1..=12).rev()));
    out.push('\n');
    out.push_str(&label(&mut (1..=12).rev()));
    out.push('\n');
    out.push_str(&format!(
        "bar X{} O{}   off X{} O{}   (X = player 0, points numbered from X's side)\n",
        s.board[0][BAR], s.board[1][BAR], s.board[0][OFF], s.board[1][OFF]
    ));
    let who = if s.turn == Player::P0 { "X" } else { "O" };
    let dice = if s.roll == [0, 0] { "to roll".to_string() } else { format!("rolled {}-{}", s.roll[0], s.roll[1]) };
    out.push_str(&format!("{who} (player {}) {dice}; score {}-{} in a match to {}", s.turn as u8, s.score[0], s.score[1], s.match_length));
    out
}
