//! Move notation (spec tablut.md, "Notation"): `e3-h3`; captures are implied.

use super::action::encode;
use super::board::*;
use super::state::{Move, State};
use crate::core::Action;
use crate::error::{GameError, Result};

impl Move {
    /// Parses `e3-h3` (syntax only).
    pub fn parse(text: &str) -> Result<Move> {
        let t = text.trim();
        let (a, b) = t
            .split_once('-')
            .ok_or_else(|| GameError::bad_move(text, "expected two squares joined by '-', like e3-h3"))?;
        let square = |s: &str| {
            Square::parse(s.trim()).ok_or_else(|| {
                GameError::bad_move(text, format!("'{s}' is not a square: expected a file a-i and a rank 1-9, like e3"))
            })
        };
        Ok(Move { from: square(a)?, to: square(b)? })
    }
}

/// The legal move written `text` in `s`, or an error that says why not.
pub fn parse_legal(s: &State, text: &str) -> Result<Move> {
    let mv = Move::parse(text)?;
    let (from, to) = (mv.from.index(), mv.to.index());
    if s.is_legal_move(from, to) {
        return Ok(mv);
    }
    let why = if s.is_over() {
        "the game is over".to_string()
    } else if mv.to_action().is_none() {
        "a piece moves along a rank or a file to another square".to_string()
    } else if !owns(s, from) {
        format!("no piece of the side to move on {}", mv.from)
    } else if s.king as usize != from && KING_ONLY & bit(to) != 0 {
        format!("only the king may stop on {} (the throne or a corner)", mv.to)
    } else {
        format!("the way from {} to {} is not clear", mv.from, mv.to)
    };
    let mut actions = Vec::new();
    s.for_each_move(|f, t| actions.push(encode(f, t)));
    actions.sort_unstable();
    let legal: Vec<String> =
        actions.iter().map(|&a| format!("{}", Move::from_action(Action(a as u32)).unwrap())).collect();
    Err(GameError::bad_move(text, format!("not a legal move here: {why}; legal moves: {}", legal.join(", "))))
}

fn owns(s: &State, sq: usize) -> bool {
    if s.side_to_move() == super::state::SWEDES {
        s.swedes & bit(sq) != 0 || s.king as usize == sq
    } else {
        s.muscovites & bit(sq) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::super::action::{decode, MOVE_ACTIONS, NUM_ACTIONS};
    use super::*;

    #[test]
    fn action_encoding_is_from_times_16_plus_k() {
        // e3 = (3-1)*9 + 4 = 22. Same rank by increasing file: a3 b3 c3 d3 f3 g3 h3 i3.
        let e3 = Square::parse("e3").unwrap().index();
        assert_eq!(e3, 22);
        let names: Vec<String> =
            (0..16).map(|k| Move::from_action(Action((e3 * 16 + k) as u32)).unwrap().to.to_string()).collect();
        assert_eq!(
            names,
            ["a3", "b3", "c3", "d3", "f3", "g3", "h3", "i3", "e1", "e2", "e4", "e5", "e6", "e7", "e8", "e9"]
        );
        assert_eq!(Move::parse("e3-h3").unwrap().to_action(), Some(Action(22 * 16 + 6)));
        for a in 0..MOVE_ACTIONS {
            let (from, to) = decode(a);
            assert_eq!(encode(from, to), a);
        }
        assert_eq!(NUM_ACTIONS, 1300);
    }

    #[test]
    fn bad_notation_is_rejected() {
        let s = State::start();
        let bad = |t: &str, needle: &str| {
            let e = parse_legal(&s, t).expect_err(t).to_string();
            assert!(e.contains(needle), "{t:?}: {e:?} lacks {needle:?}");
        };
        bad("e3h3", "joined by '-'");
        bad("e3-j3", "'j3' is not a square");
        bad("x-e3", "'x' is not a square");
        bad("e3-f4", "along a rank or a file");
        bad("e3-e3", "along a rank or a file");
        bad("a4-a3", "no piece of the side to move on a4");
        bad("b1-b2", "no piece of the side to move on b1");
        bad("e4-e2", "is not clear");
        bad("d1-d4", "legal moves: e3-a3");
        assert_eq!(parse_legal(&s, " e3-h3 ").unwrap().to_string(), "e3-h3");
    }
}
