//! Position strings (spec "Position string"): PDN FEN, then `;`-separated
//! fields `h`, `f`, `a`, `k`, `m`, and the mid-turn fields `s`, `p`, `j`, `c`.
//!
//! Mid-turn fields (project decision, docs "Position string"):
//! * `s=12` / `s=K12`: the huff already made this turn (square, `K` if it was
//!   a king), damas/damas_10x10;
//! * `p=22x15`: a capture in progress, started on 22, the piece now on 15;
//! * `j=18,11`: the pieces already jumped in it (still on the board);
//! * `c=22,25`: soplo, the mover's pieces that could make a correct capture
//!   when its move part began (with `p=`, when not empty). It follows from
//!   the board (the capturing piece back on its start square): read, it
//!   must be that set, and may be left out.

use super::board::{bit, Board, Square};
use super::preset::{Draws, Huff};
use super::rules::DraughtsRules;
use super::state::State;
use crate::error::{GameError, Result};

fn list(r: &DraughtsRules, b: &Board, colour: char) -> String {
    let p = if r.preset().colour(0) == colour { 0 } else { 1 };
    let g = &r.eng.geo;
    let items: Vec<String> = g
        .squares(b.pieces(p))
        .into_iter()
        .map(|sq| if b.kings[p] & bit(g.bit(sq)) != 0 { format!("K{sq}") } else { sq.to_string() })
        .collect();
    format!("{colour}{}", items.join(","))
}

fn placement(r: &DraughtsRules, b: &Board) -> String {
    format!("{}:{}", list(r, b, 'B'), list(r, b, 'W'))
}

fn squares(r: &DraughtsRules, bb: u64) -> String {
    r.eng.geo.squares(bb).iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",")
}

pub fn write(r: &DraughtsRules, s: &State) -> String {
    let g = &r.eng.geo;
    let mut out = format!("{}:{}", r.preset().colour(s.side as usize), placement(r, &s.board));
    if s.huff != 0 {
        out.push_str(&format!(";h={}", squares(r, s.huff)));
    }
    if let Some(f) = &s.force {
        out.push_str(&format!(";f={}", placement(r, f)));
    }
    if s.shuffle_len != [0, 0] {
        let side = |p: usize| {
            s.shuffle[p][..s.shuffle_len[p] as usize]
                .iter()
                .map(|&(a, b)| format!("{}-{}", g.square(a), g.square(b)))
                .collect::<Vec<_>>()
                .join(",")
        };
        out.push_str(&format!(";a={}/{}", side(0), side(1)));
    }
    if let Some(k) = s.k {
        out.push_str(&format!(";k={k}"));
    }
    if s.must_capture {
        out.push_str(";m=1");
    }
    if let Some((q, king)) = s.huffed {
        out.push_str(&format!(";s={}{}", if king { "K" } else { "" }, g.square(q)));
    }
    if let Some((from, at)) = s.cap {
        out.push_str(&format!(";p={}x{}", g.square(from), g.square(at)));
        if s.jumped != 0 {
            out.push_str(&format!(";j={}", squares(r, s.jumped)));
        }
        if r.preset().soplo() && s.capturers != 0 {
            out.push_str(&format!(";c={}", squares(r, s.capturers)));
        }
    }
    out
}

struct Parser<'a> {
    r: &'a DraughtsRules,
    text: &'a str,
}

impl Parser<'_> {
    fn err(&self, m: impl Into<String>) -> GameError {
        GameError::position(self.text, m)
    }

    fn square(&self, t: &str) -> Result<u8> {
        let n = self.r.eng.geo.n;
        let v: u32 =
            t.trim().parse().map_err(|_| self.err(format!("'{t}' is not a square number (expected 1..{n})")))?;
        if v == 0 || v > n as u32 {
            return Err(self.err(format!("square {v} out of range: expected 1..{n}")));
        }
        Ok(self.r.eng.geo.bit(Square(v as u8)))
    }

    /// A comma list of squares (ascending not required); duplicates rejected.
    fn square_list(&self, what: &str, t: &str) -> Result<u64> {
        let mut bb = 0u64;
        for item in t.split(',') {
            let b = self.square(item)?;
            if bb & bit(b) != 0 {
                return Err(self.err(format!("square {} listed twice in {what}", item.trim())));
            }
            bb |= bit(b);
        }
        Ok(bb)
    }

    /// `B1,2,K3:W...` (either order, PDN ranges accepted).
    fn placement(&self, what: &str, t: &str) -> Result<Board> {
        let parts: Vec<&str> = t.split(':').collect();
        if parts.len() != 2 {
            return Err(self.err(format!("{what}: expected two piece lists 'B...:W...', got {t:?}")));
        }
        let mut b = Board::default();
        let mut seen = [false; 2];
        for part in parts {
            let part = part.trim();
            let colour = part.chars().next().unwrap_or(' ');
            if colour != 'B' && colour != 'W' {
                return Err(self.err(format!("{what}: a piece list starts with B or W, got {part:?}")));
            }
            let p = if self.r.preset().colour(0) == colour { 0 } else { 1 };
            if seen[p] {
                return Err(self.err(format!("{what}: the {colour} list appears twice")));
            }
            seen[p] = true;
            let items = &part[1..];
            if items.trim().is_empty() {
                continue;
            }
            for item in items.split(',') {
                let item = item.trim();
                let (king, body) = match item.strip_prefix('K') {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let (lo, hi) = match body.split_once('-') {
                    Some((a, c)) => (self.square(a)?, self.square(c)?),
                    None => {
                        let x = self.square(body)?;
                        (x, x)
                    }
                };
                let g = &self.r.eng.geo;
                let (lo_i, hi_i) = (g.idx_of[lo as usize], g.idx_of[hi as usize]);
                if lo_i > hi_i {
                    return Err(self.err(format!("{what}: range {item:?} runs backwards")));
                }
                for i in lo_i..=hi_i {
                    let q = g.bit_of[i as usize];
                    if b.occupied() & bit(q) != 0 {
                        return Err(self.err(format!("{what}: square {} holds two pieces", i + 1)));
                    }
                    if king {
                        b.kings[p] |= bit(q);
                    } else {
                        b.men[p] |= bit(q);
                    }
                }
            }
        }
        if b.occupied() == 0 {
            return Err(self.err(format!("{what}: no pieces at all")));
        }
        Ok(b)
    }
}

/// `f=` must be the placement before a real offence: some complete turn of
/// the offender (the side not to move) from it must lead to the pieces on the
/// board and leave exactly the huff set `h=`.
fn check_force(r: &DraughtsRules, ps: &Parser<'_>, s: &State, f: Board) -> Result<()> {
    let offender = 1 - s.side as usize;
    let g = &r.eng.geo;
    for p in 0..2 {
        if f.men[p] & g.far_row[p] != 0 {
            return Err(ps.err("f=: a man stands on its promotion row"));
        }
    }
    let mut pre = State::fresh(f, offender as u8);
    r.refresh(&mut pre);
    let mut found = false;
    r.for_each_turn(&pre, &mut |_, end| found |= end.board == s.board && end.huff == s.huff);
    if found {
        Ok(())
    } else {
        Err(ps.err(format!(
            "f= is not the placement before an offence: no turn of {} from it leaves these pieces and h=",
            r.preset().colour(offender)
        )))
    }
}

pub fn parse(r: &DraughtsRules, text: &str) -> Result<State> {
    let ps = Parser { r, text };
    let preset = r.preset();
    let g = &r.eng.geo;
    let mut fields = text.trim().split(';');
    let fen = fields.next().unwrap_or("").trim();
    let (side_letter, rest) = fen
        .split_once(':')
        .ok_or_else(|| ps.err("expected 'B:' or 'W:' (side to move) then the B and W piece lists"))?;
    let side = match side_letter.trim() {
        c if c.len() == 1 && c.starts_with(preset.colour(0)) => 0usize,
        c if c.len() == 1 && c.starts_with(preset.colour(1)) => 1usize,
        c => return Err(ps.err(format!("side to move must be B or W, got {c:?}"))),
    };
    let board = ps.placement("pieces", rest)?;
    let mut s = State::fresh(board, side as u8);
    let mut seen: Vec<&str> = Vec::new();
    let mut k_given = false;
    let mut c_field = None;
    for field in fields {
        let (key, value) = field
            .trim()
            .split_once('=')
            .ok_or_else(|| ps.err(format!("field {field:?} is not of the form key=value")))?;
        let key = key.trim();
        if seen.contains(&key) {
            return Err(ps.err(format!("field '{key}=' given twice")));
        }
        seen.push(key);
        let only = |ok: bool, which: &str| {
            if ok {
                Ok(())
            } else {
                Err(ps.err(format!("field '{key}=' exists only in {which}, not in {}", preset.id)))
            }
        };
        match key {
            "h" => {
                only(preset.soplo(), "tablero, damas and damas_10x10")?;
                s.huff = ps.square_list("h=", value)?;
                if s.huff & !board.pieces(1 - side) != 0 {
                    return Err(ps.err("h= must list pieces of the side not to move"));
                }
            }
            "f" => {
                only(preset.force, "damas and damas_10x10")?;
                s.force = Some(ps.placement("f=", value)?);
            }
            "a" => {
                only(preset.draws == Draws::Damas, "damas")?;
                let (l0, l1) = value
                    .split_once('/')
                    .ok_or_else(|| ps.err("a= expects player 0's moves '/' player 1's, e.g. a=22-18/"))?;
                for (p, l) in [l0, l1].into_iter().enumerate() {
                    if l.trim().is_empty() {
                        continue;
                    }
                    let moves: Vec<&str> = l.split(',').collect();
                    if moves.len() > 2 {
                        return Err(ps.err("a= holds at most two moves per player"));
                    }
                    for (i, m) in moves.iter().enumerate() {
                        let (x, y) = m
                            .split_once('-')
                            .ok_or_else(|| ps.err(format!("a=: {m:?} is not a plain move like 22-18")))?;
                        s.shuffle[p][i] = (ps.square(x)?, ps.square(y)?);
                    }
                    s.shuffle_len[p] = moves.len() as u8;
                }
            }
            "k" => {
                only(preset.k_limit() > 0, "damas and damas_10x10")?;
                let v: u8 =
                    value.trim().parse().map_err(|_| ps.err(format!("k= expects a turn count, got {value:?}")))?;
                if v > preset.k_limit() {
                    return Err(ps.err(format!("k={v} is beyond the rule's limit {}", preset.k_limit())));
                }
                s.k = Some(v);
                k_given = true;
            }
            "m" => {
                only(preset.force, "damas and damas_10x10")?;
                if value.trim() != "1" {
                    return Err(ps.err(format!("m= takes only the value 1, got {value:?}")));
                }
                s.must_capture = true;
            }
            "s" => {
                only(preset.huff == Huff::ThenMove, "damas and damas_10x10")?;
                let v = value.trim();
                let (king, sq) = match v.strip_prefix('K') {
                    Some(rest) => (true, rest),
                    None => (false, v),
                };
                let q = ps.square(sq)?;
                s.huffed = Some((q, king));
            }
            "p" => {
                let (a, b) = value.split_once('x').ok_or_else(|| ps.err("p= expects START x CURRENT, e.g. p=22x15"))?;
                let (from, at) = (ps.square(a)?, ps.square(b)?);
                if board.pieces(side) & bit(at) == 0 {
                    return Err(ps.err("p=: the capturing piece must stand on its current square"));
                }
                if from != at && board.occupied() & bit(from) != 0 {
                    return Err(ps.err("p=: the start square of a capture in progress must be empty"));
                }
                s.cap = Some((from, at));
            }
            "j" => {
                s.jumped = ps.square_list("j=", value)?;
                if s.jumped & !board.pieces(1 - side) != 0 {
                    return Err(ps.err("j= must list pieces of the side not to move"));
                }
            }
            "c" => {
                only(preset.soplo(), "tablero, damas and damas_10x10")?;
                c_field = Some(ps.square_list("c=", value)?);
            }
            other => {
                return Err(ps.err(format!("unknown field '{other}=': expected h, f, a, k, m (or mid-turn s, p, j, c)")))
            }
        }
    }
    // Cross-field checks (spec "Strings in terminal positions ... Parsing checks").
    if s.force.is_some() && s.huff == 0 {
        return Err(ps.err("f= only with h= (force exists only with a huff right)"));
    }
    if preset.force && s.huff != 0 && s.force.is_none() {
        return Err(ps.err("h= needs f= in this preset (the placement a force returns to)"));
    }
    if s.must_capture && s.huff != 0 {
        return Err(ps.err("m=1 and h= cannot both hold: after a force there is nothing to huff"));
    }
    if let Some((q, _)) = s.huffed {
        let at = s.cap.map(|c| c.1);
        if board.occupied() & bit(q) != 0 && at != Some(q) {
            return Err(ps.err("s= names the huffed square, which must now be empty (or hold the capturing piece)"));
        }
    }
    let mid = s.huffed.is_some() || s.cap.is_some();
    if s.jumped != 0 && s.cap.is_none() {
        return Err(ps.err("j= only with p= (a capture in progress)"));
    }
    if s.cap.is_some() && s.jumped == 0 {
        return Err(ps.err("p= needs j= (the pieces already jumped)"));
    }
    if c_field.is_some() && s.cap.is_none() {
        return Err(ps.err("c= only with p= (a capture in progress)"));
    }
    if s.huffed.is_some() && (s.huff != 0 || s.must_capture) {
        return Err(ps.err("s= (a huff made this turn) cannot come with h= or m=1"));
    }
    // No man stands on its own promotion row: it would have been crowned at
    // the end of the turn that brought it there, or at once where a man
    // crowns mid-capture. The one exception is the capturing man of a capture
    // in progress, in presets where a man passes the promotion row mid-capture
    // and goes on capturing as a man (international rules).
    for p in 0..2 {
        let mut men = s.board.men[p] & g.far_row[p];
        if let Some((_, at)) = s.cap {
            if p == side && r.eng.after_hop(false, at, side) == (false, false) {
                men &= !bit(at);
            }
        }
        if men != 0 {
            return Err(ps.err(format!("a {} man stands on its promotion row (it would be a king)", preset.colour(p))));
        }
    }
    if let Some(f) = s.force {
        check_force(r, &ps, &s, f)?;
    }
    // k= runs while its material condition holds (at turn start, mid-turn).
    let mut start = s.board;
    if let Some((q, king)) = s.huffed {
        if king {
            start.kings[1 - side] |= bit(q);
        } else {
            start.men[1 - side] |= bit(q);
        }
    }
    if preset.k_limit() > 0 {
        let cond = r.k_condition(&start);
        if k_given && !cond {
            return Err(ps.err(match preset.draws {
                Draws::Damas => "k= only while exactly two kings face one king (no men)",
                _ => "k= only while only kings are on the board",
            }));
        }
        // Lenient: a position where the rule runs without k= starts it at 0.
        if cond && !k_given {
            s.k = Some(0);
        }
    }
    if !mid {
        if s.must_capture && r.eng.correct_capturers(&s.board, side) == 0 {
            return Err(ps.err("m=1 but the side to move has no capture"));
        }
        r.refresh(&mut s);
        return Ok(s);
    }
    s.capturers = match s.cap {
        // Soplo: `c=` is what the engine counted when the move part began,
        // from the board of that moment: the capturing piece back on its
        // start square (jumped pieces stay on the board until the capture
        // ends, a huff of this turn is already made, and a man does not
        // crown mid-capture in these presets). Any other set would be a
        // state no game reaches, and would end the turn with a huff set
        // the parser refuses (issue #37).
        Some((from, at)) if preset.soplo() => {
            let mut begun = s.board;
            if from != at {
                for set in [&mut begun.men[side], &mut begun.kings[side]] {
                    if *set & bit(at) != 0 {
                        *set = (*set & !bit(at)) | bit(from);
                    }
                }
            }
            if r.eng.capture_sources(&begun, side) & bit(from) == 0 {
                return Err(ps.err("p=: the capturing piece could not capture from its start square"));
            }
            let c = r.eng.correct_capturers(&begun, side);
            if let Some(given) = c_field {
                if given != c {
                    return Err(ps.err(format!(
                        "c= must list the pieces that could make a correct capture when the move began: c={}",
                        squares(r, c)
                    )));
                }
            }
            c
        }
        Some(_) => 0,
        None => r.eng.correct_capturers(&s.board, side),
    };
    if !r.has_legal(&s) {
        return Err(ps.err("mid-turn position with no legal continuation"));
    }
    Ok(s)
}
