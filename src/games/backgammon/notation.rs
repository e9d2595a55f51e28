//! Move notation (spec: notation for a complete turn): one `from/to` token per
//! die, from the mover's point of view, `bar` and `off` allowed:
//! `24/18 13/11`, `bar/22 6/off`, `13/7 13/7 8/2 8/2`, `pass`.

use super::board::{CheckerMove, BAR};

/// A parsed token: from (1..=24 or 25 = bar), to (1..=24 or 0 = off).
pub type Token = (u8, u8);

/// The notation of a sequence of checker moves: tokens sorted from the
/// highest source down (bar first), then by landing point.
pub fn write_moves(moves: &[CheckerMove]) -> String {
    if moves.is_empty() {
        return "pass".to_string();
    }
    let mut sorted: Vec<CheckerMove> = moves.to_vec();
    sorted.sort_by_key(|m| std::cmp::Reverse((m.from, m.to())));
    sorted.iter().map(|m| m.notation()).collect::<Vec<_>>().join(" ")
}

/// The token of one checker move.
pub fn token(m: CheckerMove) -> Token {
    (m.from, m.to())
}

/// Parses a whole move into tokens (sorted); `pass` is the empty list.
pub fn parse_move(text: &str) -> Result<Vec<Token>, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() {
        return Err("empty move: expected tokens like '24/18 13/11', 'bar/22', '6/off' or 'pass'".into());
    }
    if words.len() == 1 && words[0].eq_ignore_ascii_case("pass") {
        return Ok(Vec::new());
    }
    if words.len() > 4 {
        return Err(format!("{} tokens: a move has at most 4 (one per die)", words.len()));
    }
    let mut out = Vec::with_capacity(words.len());
    for w in words {
        out.push(parse_token(w)?);
    }
    out.sort_unstable();
    Ok(out)
}

fn parse_token(w: &str) -> Result<Token, String> {
    let bad = || {
        format!("bad token {w:?}: expected from/to with from 1..24 or 'bar' and to 1..24 or 'off', e.g. 24/18, bar/22, 6/off")
    };
    let (from, to) = w.split_once('/').ok_or_else(bad)?;
    if to.contains('/') {
        return Err(format!("bad token {w:?}: chained moves are written one token per die (24/18 18/13)"));
    }
    let from = if from.eq_ignore_ascii_case("bar") {
        BAR as u8
    } else {
        match from.parse::<u8>() {
            Ok(p @ 1..=24) => p,
            _ => return Err(bad()),
        }
    };
    let to = if to.eq_ignore_ascii_case("off") {
        0
    } else {
        match to.strip_suffix('*').unwrap_or(to).parse::<u8>() {
            Ok(p @ 1..=24) => p,
            _ => return Err(bad()),
        }
    };
    if to >= from {
        return Err(format!("bad token {w:?}: checkers move from higher to lower points"));
    }
    if to == 0 && from > 6 {
        return Err(format!("bad token {w:?}: checkers bear off from points 1..6 only"));
    }
    if from - to > 6 && to != 0 {
        return Err(format!("bad token {w:?}: a token moves one die (1 to 6 pips); write 24/18 18/13, not 24/13"));
    }
    Ok((from, to))
}
