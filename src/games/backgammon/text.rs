//! The board as text (`str(state)`, the command line).

use super::board::{BAR, OFF};
use super::state::{Phase, State};
use crate::core::Player;

/// A diagram numbered from player 0's side (`X` = player 0, `O` = player 1):
/// points 13..24 on top, 12..1 below, each with its owner and count; then
/// bar, borne-off checkers, dice and score.
pub fn board_text(s: &State, cube: bool) -> String {
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
        "bar X{} O{}   off X{} O{}   (X = player 0; points as X counts)\n",
        s.board[0][BAR], s.board[1][BAR], s.board[0][OFF], s.board[1][OFF]
    ));
    let who = if s.turn == Player::P0 { "X" } else { "O" };
    let dice = match (s.roll, s.left()) {
        ([0, 0], _) => "to roll".to_string(),
        ([a, b], left) if left.len() == if a == b { 4 } else { 2 } => format!("rolled {a}-{b}"),
        ([a, b], left) => {
            let left: Vec<String> = left.iter().map(|d| d.to_string()).collect();
            format!("rolled {a}-{b}, still to play {}", left.join(" "))
        }
    };
    let over = s.phase == Phase::Over;
    if over {
        out.push_str("game over; ");
    } else if s.phase == Phase::Doubled {
        let taker = if s.turn == Player::P0 { "O" } else { "X" };
        out.push_str(&format!(
            "{who} (player {}) doubles to {}: {taker} takes or drops; ",
            s.turn as u8,
            2 * s.cube_value()
        ));
    } else if s.phase == Phase::Cube {
        out.push_str(&format!("{who} (player {}) may double or roll; ", s.turn as u8));
    } else {
        out.push_str(&format!("{who} (player {}) {dice}; ", s.turn as u8));
    }
    if s.match_length == 1 {
        out.push_str("a single game: a gammon pays 2 points, a backgammon 3");
    } else if s.match_length == 0 {
        out.push_str(&format!(
            "a money game: the cube multiplies 1/2/3 points; points X {} - O {}",
            s.score[0], s.score[1]
        ));
    } else {
        out.push_str(&format!(
            "match to {} points, score X {} - O {} (gammons count 2, backgammons 3)",
            s.match_length, s.score[0], s.score[1]
        ));
    }
    if cube {
        let owner = match s.owner {
            0 => "owned by X",
            1 => "owned by O",
            _ => "centred",
        };
        out.push_str(&format!("\ncube {} {owner}", s.cube_value()));
        if s.crawford {
            out.push_str(", Crawford game (no doubling)");
        } else if s.post_crawford() {
            out.push_str(", post-Crawford");
        }
    }
    if s.last_winner >= 0 {
        let winner = if s.last_winner == 0 { "X" } else { "O" };
        let when = if over { "the last game" } else { "the previous game" };
        let points = format!("{} point{}", s.last_points, if s.last_points == 1 { "" } else { "s" });
        if cube {
            // The points are the cube times 1/2/3 (or a dropped double's cube
            // value): they do not say whether it was a gammon, so no name.
            out.push_str(&format!("\n{when}: {winner} won {points}"));
        } else {
            let name = match s.last_points {
                1 => "a single game",
                2 => "a gammon",
                _ => "a backgammon",
            };
            out.push_str(&format!("\n{when}: {winner} won {name} ({points})"));
        }
    }
    out
}
