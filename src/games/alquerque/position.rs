//! Position strings (spec: alquerque.md, "Position string").
//!
//! `<ranks 9..1 separated by '/'> <side>` at a turn boundary, e.g. kharbaga's
//! start `wwwww/wwww/wwwww/wwww/ww1bb/bbbb/bbbbb/bbbb/bbbbb b`; a run of empty
//! points is one digit 1-9 (`crate::text::read_rank`, as in tablut). In the middle
//! of a capture sequence more fields follow (**Decision**, spec leaves them
//! to the project):
//! * `capture=e5`: the capturing piece's point;
//! * deferred mode only: `jumped=d4,f6` the opponent pieces jumped so far
//!   (still on the board), and `jumps=c3xe5,e5xg7` the jumps made so far,
//!   each as start and landing point, written in board order (by start
//!   point, then direction, then length); any order is read. What may follow
//!   does not depend on the order they were made in, so it is not kept.

use super::board::{Point, NONE};
use super::deferred::{Jump, Maze};
use super::rules::Alquerque;
use super::state::State;
use crate::core::Player;
use crate::error::{GameError, Result};
use crate::text::RunError;

impl Alquerque {
    pub(super) fn format_position(&self, s: &State) -> String {
        let mut out = String::with_capacity(120);
        for r in (0..9).rev() {
            let points = (0..9).map(|f| Point::new(f, r)).filter(|&p| self.geo.contains(p));
            crate::text::push_rank(
                &mut out,
                points.map(|p| {
                    s.piece_at(p).map(|piece| match piece {
                        (Player::P0, false) => 'b',
                        (Player::P0, true) => 'B',
                        (Player::P1, false) => 'w',
                        (Player::P1, true) => 'W',
                    })
                }),
            );
            if r > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(if s.side == Player::P0 { 'b' } else { 'w' });
        if s.mid_turn() {
            out.push_str(&format!(" capture={}", Point(s.capturing)));
            if self.deferred {
                let jumped: Vec<String> = bits(s.jumped).map(|p| p.to_string()).collect();
                let jumps: Vec<String> = s
                    .used
                    .iter()
                    .map(|(from, dir, steps)| format!("{}x{}", Point(from), Point(self.walk(from, dir, steps))))
                    .collect();
                out.push_str(&format!(" jumped={} jumps={}", jumped.join(","), jumps.join(",")));
            }
        }
        out
    }

    pub(super) fn parse_position(&self, text: &str) -> Result<State> {
        let err = |m: String| GameError::position(text, m);
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 2 {
            return Err(err(format!(
                "expected '<ranks 9..1 separated by /> <side b|w>', e.g. {:?}",
                self.format_position(&self.start)
            )));
        }
        let side = match fields[1] {
            "b" => Player::P0,
            "w" => Player::P1,
            other => return Err(err(format!("side to move must be 'b' or 'w', got {other:?}"))),
        };
        let mut s = State::empty(side);
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 9 {
            return Err(err(format!("expected 9 ranks separated by '/', got {}", ranks.len())));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let r = 8 - i as u8;
            let points: Vec<Point> = (0..9).map(|f| Point::new(f, r)).filter(|&p| self.geo.contains(p)).collect();
            let unexpected =
                |c: char| err(format!("unexpected {c:?} in rank {}: expected b, B, w, W or a digit 1-9", r + 1));
            let more = || {
                err(format!(
                    "rank {} must describe {} points on the {} board, got more than that",
                    r + 1,
                    points.len(),
                    self.geo.name
                ))
            };
            let place = |k: usize, c: char| -> Result<()> {
                let piece = match c {
                    'b' => (0, false),
                    'B' => (0, true),
                    'w' => (1, false),
                    'W' => (1, true),
                    _ => return Err(unexpected(c)),
                };
                if k >= points.len() {
                    return Err(more());
                }
                let p = points[k];
                s.pieces[piece.0] |= p.bit();
                if piece.1 {
                    s.kings |= p.bit();
                }
                Ok(())
            };
            let k = crate::text::read_rank(rank_text, place, |e| match e {
                RunError::Zero => unexpected('0'),
                RunError::TwoDigits => {
                    err(format!("rank {}: two digits in a row, expected one digit 1-9 per run of empty points", r + 1))
                }
            })?;
            if k != points.len() {
                let got = if k > points.len() { "more than that".to_string() } else { k.to_string() };
                return Err(err(format!(
                    "rank {} must describe {} points on the {} board, got {got}",
                    r + 1,
                    points.len(),
                    self.geo.name
                )));
            }
        }
        for (i, name) in ["black", "white"].iter().enumerate() {
            let n = s.pieces[i].count_ones();
            if n > self.max_pieces {
                return Err(err(format!("{name} has {n} pieces, at most {} exist", self.max_pieces)));
            }
        }

        // Mid-turn fields, in order.
        let mut rest = fields[2..].iter();
        let mut field = |name: &str| -> Result<Option<&str>> {
            match rest.clone().next() {
                Some(f) if f.starts_with(&format!("{name}=")) => {
                    rest.next();
                    Ok(Some(&f[name.len() + 1..]))
                }
                _ => Ok(None),
            }
        };
        let capture = field("capture")?;
        let jumped = field("jumped")?;
        let jumps = field("jumps")?;
        if let Some(extra) = rest.next() {
            return Err(err(format!(
                "unexpected field {extra:?}: expected only capture=<point>{} after the side",
                if self.deferred { " jumped=<points> jumps=<jumps>" } else { "" }
            )));
        }
        let point = |t: &str| -> Result<Point> {
            Point::parse(t)
                .filter(|&p| self.geo.contains(p))
                .ok_or_else(|| err(format!("{t:?} is not a point of the {} board", self.geo.name)))
        };
        let me = side.index();
        if let Some(c) = capture {
            let p = point(c)?;
            if s.pieces[me] & p.bit() == 0 {
                return Err(err(format!("capture={p}: the side to move has no piece on {p}")));
            }
            s.capturing = p.0;
        }
        if self.deferred {
            match (capture.is_some(), jumped, jumps) {
                (false, None, None) => {}
                (true, Some(jd), Some(js)) => self.parse_sequence(&mut s, jd, js, &err, &point)?,
                _ => {
                    return Err(err(
                        "in deferred mode capture=, jumped= and jumps= come together (mid-sequence) or not at all"
                            .into(),
                    ))
                }
            }
        } else if jumped.is_some() || jumps.is_some() {
            return Err(err("jumped= and jumps= exist only with removal=deferred".into()));
        }

        // What play can reach.
        for (i, name) in ["black", "white"].iter().enumerate() {
            let far =
                self.geo.far_rank[i] & s.pieces[i] & !s.kings & !(if s.mid_turn() { 1u128 << s.capturing } else { 0 });
            if far != 0 {
                let p = Point(far.trailing_zeros() as u8);
                return Err(err(format!("{name} pawn on {p} should have been promoted (far rank)")));
            }
        }
        if s.pieces[1 - me] == 0 {
            return Err(err(format!(
                "{} (not to move) has no pieces: the game ended before this position",
                if me == 0 { "white" } else { "black" }
            )));
        }
        if s.mid_turn() {
            let mut any = false;
            self.for_each_best_hop(&s, |_, _| any = true);
            if !any {
                return Err(err(format!(
                    "the capture sequence cannot go on from {} (a finished turn has no capture= field)",
                    Point(s.capturing)
                )));
            }
        }
        self.settle(&mut s);
        Ok(s)
    }

    fn parse_sequence(
        &self,
        s: &mut State,
        jumped: &str,
        jumps: &str,
        err: &dyn Fn(String) -> GameError,
        point: &dyn Fn(&str) -> Result<Point>,
    ) -> Result<()> {
        let enemy = s.pieces[1 - s.side.index()];
        for t in jumped.split(',') {
            let p = point(t)?;
            if enemy & p.bit() == 0 {
                return Err(err(format!("jumped={p}: no opponent piece stands on {p}")));
            }
            s.jumped |= p.bit();
        }
        let king = s.kings >> s.capturing & 1 != 0;
        let mut victims = 0u128;
        for t in jumps.split(',') {
            let (a, b) =
                t.split_once('x').ok_or_else(|| err(format!("jump {t:?}: expected <start>x<landing>, e.g. c3xe5")))?;
            let (a, b) = (point(a)?, point(b)?);
            let (d, steps) = self.geo.line_between(a, b);
            if d == NONE || (!king && steps != 2) {
                return Err(err(format!("jump {t} is not a capture along one line")));
            }
            // Exactly one piece between, a jumped one; the capturing piece's
            // own point counts as empty (it was elsewhere then).
            let occ = s.occupied() & !(1u128 << s.capturing);
            let mut between = 0u128;
            let mut p = self.geo.next[d as usize][a.0 as usize];
            while p != b.0 {
                between |= occ & (1u128 << p);
                p = self.geo.next[d as usize][p as usize];
            }
            if between.count_ones() != 1 || between & s.jumped == 0 || occ >> b.0 & 1 != 0 {
                return Err(err(format!("jump {t} does not jump exactly one jumped piece onto an empty point")));
            }
            let jump = Jump { from: a.0, dir: d, steps, to: b.0, victim: between.trailing_zeros() as u8 };
            if s.used.contains(&jump) {
                return Err(err(format!("jump {t} is made twice (not allowed in one sequence)")));
            }
            s.used.insert(&jump);
            victims |= between;
        }
        // The jumps must make one trail ending on the capturing piece: every
        // point as many jumps in as out but the start (one more out) and the
        // capturing piece's point (one more in), all of them connected.
        let chained = Maze::origin_of(&s.used, s.capturing, &self.geo.next)
            .is_some_and(|o| o == s.capturing || s.occupied() >> o & 1 == 0)
            && self.jumps_connected(s);
        if !chained {
            return Err(err(format!(
                "the jumps do not make one chain from an empty start point to the capturing piece's point {}",
                Point(s.capturing)
            )));
        }
        if victims != s.jumped {
            return Err(err("jumped= must list exactly the pieces the jumps jumped".into()));
        }
        Ok(())
    }

    /// The point `steps` points from `from` in direction `dir`.
    pub(super) fn walk(&self, from: u8, dir: u8, steps: u8) -> u8 {
        (0..steps).fold(from, |p, _| if p == NONE { NONE } else { self.geo.next[dir as usize][p as usize] })
    }

    /// Whether the jumps of `s` touch one connected set of points, the
    /// capturing piece's among them.
    fn jumps_connected(&self, s: &State) -> bool {
        let mut reached = 1u128 << s.capturing;
        loop {
            let before = reached;
            for (from, dir, steps) in s.used.iter() {
                let to = self.walk(from, dir, steps);
                if reached >> from & 1 != 0 || reached >> to & 1 != 0 {
                    reached |= 1u128 << from | 1u128 << to;
                }
            }
            if reached == before {
                break;
            }
        }
        s.used.iter().all(|(from, _, _)| reached >> from & 1 != 0)
    }
}

/// The points of a bitset, in lattice order.
pub fn bits(mut b: u128) -> impl Iterator<Item = Point> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let p = Point(b.trailing_zeros() as u8);
            b &= b - 1;
            p
        })
    })
}
