//! Notation (spec "Notation for a complete turn"): `22-18`, `22x15x8`,
//! `s12`, `s12 22-18`, `f`; action names for single decisions.

use super::action::Decision;
use super::board::NONE;
use super::rules::DraughtsRules;
use super::state::State;
use crate::core::Action;
use crate::error::{GameError, Result};

/// Name of one decision: `22-18` (move), `22x15` (one capture hop),
/// `s12` (huff), `stop`, `f` (force).
pub fn action_name(r: &DraughtsRules, s: &State, a: Action) -> String {
    let g = &r.eng.geo;
    match r.decode(s.side as usize, a) {
        Decision::Hop { from, dir, dist } => {
            let (to, captured) = r.hop_target(s, from, dir, dist);
            const DIRS: [&str; 4] = ["up-left", "up-right", "down-left", "down-right"];
            if to == NONE {
                return format!("{}:{}x{}(off the board)", g.square(from), DIRS[dir], dist);
            }
            let sep = if captured == NONE { '-' } else { 'x' };
            format!("{}{sep}{}", g.square(from), g.square(to))
        }
        Decision::Huff(q) => format!("s{}", g.square(q)),
        Decision::Stop => "stop".into(),
        Decision::Force => "f".into(),
        Decision::Offer => "offer".into(),
    }
}

/// Notation of the complete turn `actions` from `s`.
pub fn turn_notation(r: &DraughtsRules, s: &State, actions: &[Action]) -> String {
    let g = &r.eng.geo;
    let mut st = *s;
    let mut parts: Vec<String> = Vec::new();
    let mut cur = String::new();
    for &a in actions {
        match r.decode(st.side as usize, a) {
            Decision::Huff(q) => parts.push(format!("s{}", g.square(q))),
            Decision::Force => parts.push("f".into()),
            // From a mid-capture position a turn may be just `stop`.
            Decision::Stop if cur.is_empty() => parts.push("stop".into()),
            Decision::Stop | Decision::Offer => {}
            Decision::Hop { from, dir, dist } => {
                let (to, captured) = r.hop_target(&st, from, dir, dist);
                if captured == NONE {
                    cur = format!("{}-{}", g.square(from), g.square(to));
                } else if cur.is_empty() {
                    cur = format!("{}x{}", g.square(from), g.square(to));
                } else {
                    cur.push_str(&format!("x{}", g.square(to)));
                }
            }
        }
        r.apply_decision(&mut st, a);
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    parts.join(" ")
}

/// Checks the shape of one token: `s12`, `f`, `22-18`, `22x15x8`.
fn token_ok(t: &str) -> bool {
    let num = |x: &str| !x.is_empty() && x.len() <= 2 && x.bytes().all(|c| c.is_ascii_digit());
    if t == "f" || t == "stop" {
        return true;
    }
    if let Some(rest) = t.strip_prefix('s') {
        return num(rest);
    }
    if let Some((a, b)) = t.split_once('-') {
        return num(a) && num(b);
    }
    let parts: Vec<&str> = t.split('x').collect();
    parts.len() >= 2 && parts.iter().all(|p| num(p))
}

/// The decisions of the turn written `text` (every legal spelling accepted).
pub fn parse_turn(r: &DraughtsRules, s: &State, text: &str) -> Result<Vec<Action>> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.is_empty() || tokens.len() > 2 || !tokens.iter().all(|t| token_ok(t)) {
        return Err(GameError::bad_move(
            text,
            "expected a move like '22-18', a capture like '22x15x8', a huff 's12' (damas: 's12 22-18') or a force 'f'",
        ));
    }
    let want = tokens.join(" ");
    let mut found = None;
    r.for_each_turn(s, &mut |actions, _| {
        if found.is_none() && turn_notation(r, s, actions) == want {
            found = Some(actions.to_vec());
        }
    });
    found.ok_or_else(|| {
        use crate::game::Rules;
        let legal: Vec<String> = r.turns(s).into_iter().map(|t| t.notation).collect();
        GameError::bad_move(text, format!("not a legal move here; legal moves: {}", legal.join(", ")))
    })
}
