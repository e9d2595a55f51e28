//! Move notation (spec: alquerque.md, "Notation"): `c3-d4` for a move,
//! `c3xe5xg7` for a capture listing every landing point. One decision is
//! written the same way (`c3-d4`, `c3xe5`).

use super::board::{Point, NONE};
use super::rules::Alquerque;
use super::state::State;
use crate::core::{Action, Applied};
use crate::error::{GameError, Result};

impl Alquerque {
    /// Whether action `a` (legal geometry assumed) jumps a piece from `s`.
    fn is_capture(&self, s: &State, a: Action) -> bool {
        if s.mid_turn() {
            return true;
        }
        let [from, dir, to, _] = self.actions[s.side.index()][a.index()];
        let occ = s.occupied();
        let mut p = self.geo.next[dir as usize][from as usize];
        while p != to && p != NONE {
            if occ >> p & 1 != 0 {
                return true;
            }
            p = self.geo.next[dir as usize][p as usize];
        }
        false
    }

    pub(super) fn decision_name(&self, s: &State, a: Action) -> String {
        match self.action_points(s.side, a) {
            Some((from, to)) => format!("{from}{}{to}", if self.is_capture(s, a) { 'x' } else { '-' }),
            None => {
                let (o, d, steps) = (a.0 / 64, a.0 / 8 % 8, a.0 % 8 + 1);
                let start = self.geo.by_ordinal.get(o as usize).map(|p| p.to_string()).unwrap_or_else(|| "?".into());
                format!("<no line: point {o} ({start} for black) dir {d} steps {steps}>")
            }
        }
    }

    pub(super) fn turn_notation(&self, s: &State, actions: &[Action]) -> String {
        let Some(&first) = actions.first() else { return String::new() };
        let sep = if self.is_capture(s, first) { 'x' } else { '-' };
        let mut out = String::new();
        for (k, &a) in actions.iter().enumerate() {
            let Some((from, to)) = self.action_points(s.side, a) else { return String::new() };
            if k == 0 {
                out.push_str(&from.to_string());
            }
            out.push(sep);
            out.push_str(&to.to_string());
        }
        out
    }

    /// The decisions of the complete turn written `text`.
    pub(super) fn parse_notation(&self, s: &State, text: &str) -> Result<Vec<Action>> {
        let t = text.trim();
        let bad = |m: String| GameError::bad_move(text, m);
        let (sep, capture) = if t.contains('x') { ('x', true) } else { ('-', false) };
        let parts: Vec<&str> = t.split(sep).collect();
        if parts.len() < 2 || (!capture && parts.len() != 2) || (capture && t.contains('-')) {
            return Err(bad("expected a move like c3-d4 or a capture like c3xe5xg7 (every landing point)".into()));
        }
        let mut points = Vec::with_capacity(parts.len());
        for p in &parts {
            let q = Point::parse(p)
                .filter(|&q| self.geo.contains(q))
                .ok_or_else(|| bad(format!("{p:?} is not a point of the {} board (a1..i9)", self.geo.name)))?;
            points.push(q);
        }
        let mut cur = *s;
        let mut path = Vec::with_capacity(points.len() - 1);
        for (k, w) in points.windows(2).enumerate() {
            let mut found = None;
            self.for_each_legal(&cur, |a| {
                if self.action_points(cur.side, a) == Some((w[0], w[1])) {
                    found = Some(a);
                }
            });
            let Some(a) = found else {
                let mut legal = Vec::new();
                self.for_each_legal(&cur, |a| legal.push(self.decision_name(&cur, a)));
                return Err(bad(format!(
                    "{}{sep}{} is not legal here{}; legal: {}",
                    w[0],
                    w[1],
                    if k > 0 { format!(" (hop {})", k + 1) } else { String::new() },
                    legal.join(" ")
                )));
            };
            if self.is_capture(&cur, a) != capture {
                return Err(bad(format!(
                    "{}{sep}{} is {}: write it with '{}'",
                    w[0],
                    w[1],
                    if capture { "not a capture" } else { "a capture" },
                    if capture { '-' } else { 'x' }
                )));
            }
            path.push(a);
            let done = self.apply_action(&mut cur, a) == Applied::TurnOver;
            if done && k + 2 < points.len() {
                return Err(bad(format!("the turn ends on {}; nothing may follow", w[1])));
            }
            if !done && k + 2 == points.len() {
                let mut legal = Vec::new();
                self.for_each_legal(&cur, |a| legal.push(self.decision_name(&cur, a)));
                return Err(bad(format!(
                    "the capture must go on from {} (maximal capture): {}",
                    w[1],
                    legal.join(" ")
                )));
            }
        }
        Ok(path)
    }
}
