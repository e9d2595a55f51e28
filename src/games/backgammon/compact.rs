//! The compact forms players type, resolved against the legal moves:
//! `24/15` (one checker using both dice), `24/18/15`, `24/18(2)` (two
//! checkers), `bar/20`, `8/off`, hits marked `*` or not. The strict notation
//! (one token per die, [`super::notation`]) is what `legal_moves()` writes;
//! this module only reads.
//!
//! A compact move says where checkers leave and arrive, not which die each
//! used: it is matched on the net change of the mover's checkers. Two legal
//! moves with the same net change but different results (one hits on the
//! way, the other does not) make the text ambiguous, and the error names both.

use super::board::{CheckerMove, Variant, BAR};
use super::movegen::for_each_complete_in;
use super::notation;
use super::state::State;
use crate::core::Action;
use crate::error::{GameError, Result};

/// Net change of the mover's checkers per index (0 = off, 25 = bar).
type Net = [i8; 26];

/// Parses a compact move into its net change, or `None` when the text is not
/// one (the strict parser then reports its own error).
fn parse(text: &str) -> Option<Net> {
    let mut net = [0i8; 26];
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    for word in words {
        let (path, count) = match word.split_once('(') {
            Some((path, rest)) => (path, rest.strip_suffix(')')?.parse::<i8>().ok().filter(|n| (1..=4).contains(n))?),
            None => (word, 1),
        };
        let points: Vec<u8> = path.split('/').map(point).collect::<Option<_>>()?;
        if points.len() < 2 || points.windows(2).any(|w| w[1] >= w[0]) {
            return None;
        }
        net[points[0] as usize] -= count;
        net[*points.last()? as usize] += count;
    }
    Some(net)
}

/// `bar` = 25, `off` = 0, a point 1..24 with an optional hit mark `*`.
fn point(text: &str) -> Option<u8> {
    let text = text.strip_suffix('*').unwrap_or(text);
    if text.eq_ignore_ascii_case("bar") {
        Some(BAR as u8)
    } else if text.eq_ignore_ascii_case("off") {
        Some(0)
    } else {
        text.parse::<u8>().ok().filter(|p| (1..=24).contains(p))
    }
}

/// The decisions of the turn written `text` in a compact form. `Ok(None)`
/// leaves the text to the strict parser: it is no compact move, or a legal
/// move in the strict notation, or strict-looking and matching nothing (the
/// strict parser's error says more, e.g. how many dice the roll plays). An
/// error when it is a compact move that is not legal or is ambiguous.
pub fn resolve(s: &State, text: &str, v: Variant) -> Result<Option<Vec<Action>>> {
    let Some(want) = parse(text) else { return Ok(None) };
    let strict = notation::parse_move(text).ok();
    let mut strict_legal = false;
    let mut found: Vec<(super::board::Pos, Vec<CheckerMove>)> = Vec::new();
    let mut legal: Vec<String> = Vec::new();
    for_each_complete_in(v, s.obliged, &s.pos(), s.left(), &mut |end, moves| {
        if let Some(tokens) = &strict {
            let mut mine: Vec<_> = moves.iter().map(|&m| notation::token(m)).collect();
            mine.sort_unstable();
            strict_legal |= &mine == tokens;
        }
        let written = notation::write_moves(moves);
        if !legal.contains(&written) {
            legal.push(written);
        }
        let mut net = [0i8; 26];
        for m in moves {
            net[m.from as usize] -= 1;
            net[m.to() as usize] += 1;
        }
        if net == want && !found.iter().any(|(p, _)| p == end) {
            found.push((*end, moves.to_vec()));
        }
    });
    if strict_legal {
        return Ok(None);
    }
    match found.as_slice() {
        [(_, moves)] => Ok(Some(moves.iter().map(|m| m.action()).collect())),
        [] if strict.is_some() => Ok(None),
        [] => Err(GameError::bad_move(text, format!("not a legal move here; legal moves: {}", legal.join(", ")))),
        several => {
            let spellings: Vec<String> = several.iter().map(|(_, m)| notation::write_moves(m)).collect();
            Err(GameError::bad_move(
                text,
                format!(
                    "ambiguous: it can be played {} (they differ in a hit on the way); write one of them",
                    spellings.join(" or ")
                ),
            ))
        }
    }
}
