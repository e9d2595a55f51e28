//! The board as data for pictures (kept apart from `text.rs` so the view
//! stays a small, separate function).

use super::board::{BAR, OFF};
use super::state::{Phase, State};
use crate::game::BoardView;

/// The board as data for pictures: `points0`/`points1` each player's
/// checkers on its own points 1..24, `bar`, `off`, the `dice` rolled (0 0
/// when not rolled), the dice already `played` this turn, the `score`;
/// `turn` the player on roll (the loser once over), `game_state` the Match
/// ID code (0 opening roll to come, 1 playing, 2 over), `match_length`;
/// the cube: `cube_value`, `cube_owner` (-1 centred), `crawford` (0/1) and
/// `double_offered` (0/1; option `cube`, else 1, -1, 0, 0).
pub fn board_view(s: &State) -> BoardView {
    let side = |p: usize| &s.board[p];
    let pair = |f: &dyn Fn(usize) -> i64| vec![f(0), f(1)];
    let game_state = match s.phase {
        Phase::Opening => 0,
        Phase::ToRoll | Phase::Move | Phase::Cube | Phase::Doubled => 1,
        Phase::Over => 2,
    };
    let mut played = Vec::new();
    if s.phase == Phase::Move {
        let full = if s.roll[0] == s.roll[1] { 4 } else { 2 };
        if (s.left().len()) < full {
            if s.roll[0] == s.roll[1] {
                played = vec![s.roll[0] as i64; 4 - s.left().len()];
            } else {
                played = vec![if s.left()[0] == s.roll[0] { s.roll[1] } else { s.roll[0] } as i64];
            }
        }
    }
    BoardView {
        lists: vec![
            ("points0", side(0)[1..BAR].iter().map(|&n| n as i64).collect()),
            ("points1", side(1)[1..BAR].iter().map(|&n| n as i64).collect()),
            ("bar", pair(&|p| side(p)[BAR] as i64)),
            ("off", pair(&|p| side(p)[OFF] as i64)),
            ("dice", s.roll.iter().map(|&d| d as i64).collect()),
            ("played", played),
            ("score", s.score.iter().map(|&n| n as i64).collect()),
        ],
        ints: vec![
            ("turn", s.turn.index() as i64),
            ("game_state", game_state),
            ("match_length", s.match_length as i64),
            ("cube_value", 1i64 << s.cube),
            ("cube_owner", s.owner as i64),
            ("crawford", s.crawford as i64),
            ("double_offered", (s.phase == Phase::Doubled) as i64),
        ],
        ..Default::default()
    }
}
