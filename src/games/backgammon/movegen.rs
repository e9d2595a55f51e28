//! Move generation: which dice can be used, the per-decision mask, and the
//! complete moves of a roll (spec: moves).
//!
//! The rule "use as many dice as possible; with only one usable, the larger"
//! is applied by search: a checker move is legal at a decision exactly when
//! some complete move of maximal length begins with it.
//!
//! With doubles every legal sequence can be reordered so that its sources do
//! not increase (a move from a lower point never enables one from a higher
//! point: it cannot free the bar, cannot bring a checker home, and cannot
//! remove the highest checker), so searches over doubles only try
//! non-increasing sources; the end positions are the same.

use super::board::{CheckerMove, OpenPoint, Pos, Variant, BAR};

/// The 150 action bits of one decision (`source*6 + die-1`).
pub type Mask = [u64; 3];

#[inline]
pub fn mask_set(mask: &mut Mask, i: usize) {
    mask[i >> 6] |= 1u64 << (i & 63);
}

#[inline]
pub fn mask_has(mask: &Mask, i: usize) -> bool {
    i < 192 && mask[i >> 6] >> (i & 63) & 1 == 1
}

#[inline]
pub fn mask_is_empty(mask: &Mask) -> bool {
    mask[0] == 0 && mask[1] == 0 && mask[2] == 0
}

/// The most of `n` dice showing `d` that can be played using sources `<= max_src`
/// in non-increasing order; stops searching once all `n` are found.
fn max_doubles<const REG: bool>(v: Variant, p: &Pos, d: usize, n: u32, max_src: usize) -> u32 {
    if !REG {
        return max_doubles_in(p, Sets::of(p), d, n, max_src);
    }
    if n == 0 {
        return 0;
    }
    let hi = p.highest();
    let mut best = 0;
    let mut s = max_src.min(hi);
    while s >= 1 {
        if p.can_move_in::<REG>(v, s, d, hi) {
            let mut q = *p;
            q.play(s, d);
            let r = 1 + max_doubles::<REG>(v, &q, d, n - 1, s);
            if r > best {
                best = r;
                if best == n {
                    return n;
                }
            }
        }
        s -= 1;
    }
    best
}

/// [`max_doubles`] under the standard rules with `p`'s point sets known (each move updates them).
fn max_doubles_in(p: &Pos, sets: Sets, d: usize, n: u32, max_src: usize) -> u32 {
    if n == 0 {
        return 0;
    }
    let mut best = 0;
    let mut src = sets.sources(d) & ((2u32 << max_src) - 1);
    while src != 0 {
        // Highest source first, as the order of the search requires.
        let s = 31 - src.leading_zeros() as usize;
        src &= !(1 << s);
        let mut q = *p;
        q.play(s, d);
        let r = 1 + max_doubles_in(&q, sets.after(s, p.me[s], d), d, n - 1, s);
        if r > best {
            best = r;
            if best == n {
                return n;
            }
        }
    }
    best
}

/// A position as two point sets of the side to move (bit `s` = point `s`,
/// [`BAR`] = 25): `me`, the points 1..=25 holding its checkers, and `open`,
/// the points 1..=24 it may land on (at most one opposing checker). A
/// move changes `me` only: hitting a blot leaves its point open.
#[derive(Copy, Clone)]
struct Sets {
    me: u32,
    open: u32,
}

impl Sets {
    #[inline]
    fn of(p: &Pos) -> Sets {
        // Byte tests over a padded copy: the compiler makes them a few vector
        // compares instead of 50 scalar ones.
        let bits = |side: &[u8; 26], test: fn(u8) -> bool| {
            let mut b = [0u8; 32];
            b[..26].copy_from_slice(side);
            b.iter().enumerate().fold(0u32, |m, (i, &x)| m | (test(x) as u32) << i)
        };
        let me = bits(&p.me, |x| x > 0) & !1;
        // Opposing point `i` is the mover's point `25 - i`: reversing the
        // 32 bits puts `i` at `31 - i`, six too high.
        let open = (bits(&p.opp, |x| x <= 1).reverse_bits() >> 6) & 0x1FF_FFFE;
        Sets { me, open }
    }

    /// Every source that can move a checker by `d`: [`Pos::can_move`] for
    /// all points at once.
    #[inline]
    fn sources(self, d: usize) -> u32 {
        let hi = if self.me == 0 { 0 } else { 31 - self.me.leading_zeros() as usize };
        if hi == BAR {
            return (self.open >> (BAR - d) & 1) << BAR;
        }
        // A checker above `d` lands on point `s - d` if it is open.
        let mut s = self.me & self.open << d & !((2u32 << d) - 1);
        if (1..=6).contains(&hi) {
            // Bearing off: exactly from `d`, or from the highest point below `d`.
            s |= self.me & 1 << d;
            if hi < d {
                s |= 1 << hi;
            }
        }
        s
    }

    /// The sets after the checker on `s` (one of `count` there) moves by `d`.
    #[inline]
    fn after(self, s: usize, count: u8, d: usize) -> Sets {
        let mut me = self.me;
        if count == 1 {
            me &= !(1 << s);
        }
        if s > d {
            me |= 1 << (s - d);
        }
        Sets { me, open: self.open }
    }
}

/// Whether any checker can move by `d`.
#[inline]
fn any_move<const REG: bool>(v: Variant, p: &Pos, d: usize) -> bool {
    let hi = p.highest();
    (1..=hi).any(|s| p.can_move_in::<REG>(v, s, d, hi))
}

/// Whether both dice `a` then `b` can be played starting with a checker from `s`.
#[inline]
fn two_from<const REG: bool>(v: Variant, p: &Pos, s: usize, a: usize, b: usize) -> bool {
    let mut q = *p;
    q.play(s, a);
    any_move::<REG>(v, &q, b)
}

/// The legal checker moves at a decision with dice `left` still to play
/// (`left` sorted larger first; all equal for doubles). Empty: nothing can be
/// played (a forced pass at the start of a turn, the end of the turn otherwise).
/// Standard rules; [`legal_mask_in`] for a choice of rules.
#[inline]
pub fn legal_mask(p: &Pos, left: &[u8]) -> Mask {
    legal_mask_g::<false>(Variant::STANDARD, p, left)
}

/// [`legal_mask`] under the standard rules or (`REG`) the reglamento's
/// movement rules, before its obligation to open a point.
fn legal_mask_g<const REG: bool>(v: Variant, p: &Pos, left: &[u8]) -> Mask {
    if !REG {
        return legal_mask_std(p, left);
    }
    let mut mask = [0u64; 3];
    let hi = p.highest();
    let bit = |s: usize, d: usize| (if s == BAR { 0 } else { s }) * 6 + d - 1;
    match *left {
        [] => {}
        [d] => {
            let d = d as usize;
            for s in 1..=hi {
                if p.can_move_in::<REG>(v, s, d, hi) {
                    mask_set(&mut mask, bit(s, d));
                }
            }
        }
        [a, b] if a != b => {
            let (a, b) = (a as usize, b as usize);
            let mut both = false;
            for s in 1..=hi {
                if p.can_move_in::<REG>(v, s, a, hi) && two_from::<REG>(v, p, s, a, b) {
                    mask_set(&mut mask, bit(s, a));
                    both = true;
                }
                if p.can_move_in::<REG>(v, s, b, hi) && two_from::<REG>(v, p, s, b, a) {
                    mask_set(&mut mask, bit(s, b));
                    both = true;
                }
            }
            if !both {
                // Only one die can be used: the larger if it can (spec: moves).
                for d in [a, b] {
                    for s in 1..=hi {
                        if p.can_move_in::<REG>(v, s, d, hi) {
                            mask_set(&mut mask, bit(s, d));
                        }
                    }
                    if !mask_is_empty(&mask) {
                        break;
                    }
                }
            }
        }
        _ => {
            let d = left[0] as usize;
            let n = left.len() as u32;
            let most = max_doubles::<REG>(v, p, d, n, BAR);
            if most == 0 {
                return mask;
            }
            for s in 1..=hi {
                if p.can_move_in::<REG>(v, s, d, hi) {
                    let mut q = *p;
                    q.play(s, d);
                    if most == 1 || max_doubles::<REG>(v, &q, d, most - 1, BAR) == most - 1 {
                        mask_set(&mut mask, bit(s, d));
                    }
                }
            }
        }
    }
    mask
}

/// [`legal_mask`] (standard rules) from the point sets: all sources of a die at once.
fn legal_mask_std(p: &Pos, left: &[u8]) -> Mask {
    let mut mask = [0u64; 3];
    let bit = |s: usize, d: usize| (if s == BAR { 0 } else { s }) * 6 + d - 1;
    match *left {
        [] => {}
        [d] => {
            let d = d as usize;
            for s in crate::bits::SetBits(Sets::of(p).sources(d)) {
                mask_set(&mut mask, bit(s, d));
            }
        }
        [a, b] if a != b => {
            let (a, b) = (a as usize, b as usize);
            let sets = Sets::of(p);
            let mut both = false;
            // A first move is legal when the other die can still be played after it.
            for (x, y) in [(a, b), (b, a)] {
                for s in crate::bits::SetBits(sets.sources(x)) {
                    if sets.after(s, p.me[s], x).sources(y) != 0 {
                        mask_set(&mut mask, bit(s, x));
                        both = true;
                    }
                }
            }
            if !both {
                // Only one die can be used: the larger if it can (spec: moves).
                for d in [a, b] {
                    for s in crate::bits::SetBits(sets.sources(d)) {
                        mask_set(&mut mask, bit(s, d));
                    }
                    if !mask_is_empty(&mask) {
                        break;
                    }
                }
            }
        }
        _ => {
            let d = left[0] as usize;
            let n = left.len() as u32;
            let sets = Sets::of(p);
            let most = max_doubles_in(p, sets, d, n, BAR);
            if most == 0 {
                return mask;
            }
            for s in crate::bits::SetBits(sets.sources(d)) {
                let mut q = *p;
                q.play(s, d);
                if most == 1 || max_doubles_in(&q, sets.after(s, p.me[s], d), d, most - 1, BAR) == most - 1 {
                    mask_set(&mut mask, bit(s, d));
                }
            }
        }
    }
    mask
}

/// Calls `f(end, moves)` for every legal complete move with dice `left`
/// (possibly several times per end position; callers deduplicate). Calls
/// nothing when no die can be used. Standard rules; [`for_each_complete_in`]
/// for a choice of rules.
#[inline]
pub fn for_each_complete(p: &Pos, left: &[u8], f: &mut impl FnMut(&Pos, &[CheckerMove])) {
    for_each_complete_g::<false>(Variant::STANDARD, p, left, f)
}

fn for_each_complete_g<const REG: bool>(v: Variant, p: &Pos, left: &[u8], f: &mut impl FnMut(&Pos, &[CheckerMove])) {
    let mut path = [CheckerMove { from: 0, die: 0 }; 4];
    match *left {
        [] => {}
        [a, b] if a != b => {
            let (a, b) = (a as usize, b as usize);
            let mut both = false;
            let hi = p.highest();
            for (x, y) in [(a, b), (b, a)] {
                for s in (1..=hi).rev() {
                    if !p.can_move_in::<REG>(v, s, x, hi) {
                        continue;
                    }
                    let mut q = *p;
                    q.play(s, x);
                    path[0] = CheckerMove { from: s as u8, die: x as u8 };
                    let hq = q.highest();
                    for t in (1..=hq).rev() {
                        if q.can_move_in::<REG>(v, t, y, hq) {
                            let mut r = q;
                            r.play(t, y);
                            path[1] = CheckerMove { from: t as u8, die: y as u8 };
                            both = true;
                            f(&r, &path[..2]);
                        }
                    }
                }
            }
            if !both {
                for d in [a, b] {
                    let mut any = false;
                    for s in (1..=hi).rev() {
                        if p.can_move_in::<REG>(v, s, d, hi) {
                            let mut q = *p;
                            q.play(s, d);
                            path[0] = CheckerMove { from: s as u8, die: d as u8 };
                            any = true;
                            f(&q, &path[..1]);
                        }
                    }
                    if any {
                        break;
                    }
                }
            }
        }
        _ => {
            // One die left, or doubles: sources non-increasing (see module doc).
            let d = left[0] as usize;
            let most = max_doubles::<REG>(v, p, d, left.len() as u32, BAR);
            if most > 0 {
                doubles_paths::<REG>(v, p, d, most as usize, BAR, &mut path, 0, f);
            }
        }
    }
}

fn doubles_paths<const REG: bool>(
    v: Variant,
    p: &Pos,
    d: usize,
    len: usize,
    max_src: usize,
    path: &mut [CheckerMove; 4],
    k: usize,
    f: &mut impl FnMut(&Pos, &[CheckerMove]),
) {
    if k == len {
        f(p, &path[..len]);
        return;
    }
    let hi = p.highest();
    let mut s = max_src.min(hi);
    while s >= 1 {
        if p.can_move_in::<REG>(v, s, d, hi) {
            let mut q = *p;
            q.play(s, d);
            path[k] = CheckerMove { from: s as u8, die: d as u8 };
            // Only continue along paths that can still reach the full length.
            if len - k - 1 == 0 || max_doubles::<REG>(v, &q, d, (len - k - 1) as u32, s) == (len - k - 1) as u32 {
                doubles_paths::<REG>(v, &q, d, len, s, path, k + 1, f);
            }
        }
        s -= 1;
    }
}

/// The distinct end positions of the legal complete moves, with one
/// representative sequence each, in order of discovery.
pub fn distinct_moves(p: &Pos, left: &[u8]) -> Vec<(Pos, Vec<CheckerMove>)> {
    distinct_moves_in(Variant::STANDARD, false, p, left)
}

/// [`distinct_moves`] under the rules `v`; `obliged`: the turn began with
/// the opponent shut out (see [`for_each_complete_in`]).
pub fn distinct_moves_in(v: Variant, obliged: bool, p: &Pos, left: &[u8]) -> Vec<(Pos, Vec<CheckerMove>)> {
    let mut out: Vec<(Pos, Vec<CheckerMove>)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for_each_complete_in(v, obliged, p, left, &mut |end, moves| {
        if seen.insert(*end) {
            out.push((*end, moves.to_vec()));
        }
    });
    out
}

/// The distinct end positions only, sorted (for perft).
pub fn distinct_ends(p: &Pos, left: &[u8], buf: &mut Vec<Pos>) {
    distinct_ends_in(Variant::STANDARD, false, p, left, buf)
}

/// [`distinct_ends`] under the rules `v` (see [`distinct_moves_in`]).
pub fn distinct_ends_in(v: Variant, obliged: bool, p: &Pos, left: &[u8], buf: &mut Vec<Pos>) {
    buf.clear();
    for_each_complete_in(v, obliged, p, left, &mut |end, _| buf.push(*end));
    buf.sort_unstable();
    buf.dedup();
}

// The seed's rule set (`rules="reglamento"`): the movement rules of
// `Pos::can_move_in::<true>`, and the obligation to open a point (docs:
// "Decision (obliged to open a point)"), in one of two readings:
// `AvoidClosing`, no turn may end with the opponent shut out (on the bar,
// no entry point open to it) when some other legal turn of the same roll
// avoids it; `NextTurn`, only a turn that began with the opponent shut out
// (`obliged`, kept in the state for the whole turn) must end with a point
// open to it, when some legal turn does.

/// Whether the turn ending at `end` leaves the opponent on the bar without a
/// point to enter under the rules `v`.
#[inline]
pub fn shuts_out(v: Variant, end: &Pos) -> bool {
    end.opp[BAR] > 0 && (1..=6).all(|q| !v.opponent_enters(end, q))
}

/// Whether the obligation to open a point constrains a turn under `v`:
/// always (`AvoidClosing`), or when the turn began with the opponent shut
/// out (`NextTurn`, `obliged`).
#[inline]
pub fn obligation_applies(v: Variant, obliged: bool) -> bool {
    match v.open_point {
        OpenPoint::Never => false,
        OpenPoint::AvoidClosing => true,
        OpenPoint::NextTurn => obliged,
    }
}

/// Whether `dice` more checker moves could leave every entry point of the
/// opponent blocked: each move blocks at most one more point (the one it
/// lands on; hitting a blot there only swaps which checker blocks it, or
/// blocks a point that was open), so the obligation can only matter then.
#[inline]
fn may_shut_out(v: Variant, p: &Pos, dice: usize) -> bool {
    (1..=6).filter(|&q| !v.opponent_enters(p, q)).count() + dice >= 6
}

/// Whether some legal rest of the turn from `p` with `left` ends without
/// shutting the opponent out (`p` itself when nothing more can be played).
fn rest_avoids_shut_out(v: Variant, p: &Pos, left: &[u8]) -> bool {
    let mut any_end = false;
    let mut avoids = false;
    for_each_complete_g::<true>(v, p, left, &mut |end, _| {
        any_end = true;
        avoids |= !shuts_out(v, end);
    });
    if any_end {
        avoids
    } else {
        !shuts_out(v, p)
    }
}

/// [`legal_mask`] under the rules `v`, the obligation to open a point
/// included (`obliged`: see [`for_each_complete_in`]).
#[inline]
pub fn legal_mask_in(v: Variant, obliged: bool, p: &Pos, left: &[u8]) -> Mask {
    if v.reglamento() {
        reglamento_mask(v, obliged, p, left)
    } else {
        legal_mask_g::<false>(v, p, left)
    }
}

/// The reglamento's mask, kept out of line so the standard path stays a direct call.
#[inline(never)]
fn reglamento_mask(v: Variant, obliged: bool, p: &Pos, left: &[u8]) -> Mask {
    let mask = legal_mask_g::<true>(v, p, left);
    if mask_is_empty(&mask)
        || !obligation_applies(v, obliged)
        || !may_shut_out(v, p, left.len())
        || !rest_avoids_shut_out(v, p, left)
    {
        return mask;
    }
    // Some turn avoids shutting the opponent out: only the first moves of such turns.
    let mut out = [0u64; 3];
    for i in 0..super::board::NUM_ACTIONS {
        if !mask_has(&mask, i) {
            continue;
        }
        let m = CheckerMove::from_action(crate::core::Action(i as u32));
        let mut q = *p;
        q.play(m.from as usize, m.die as usize);
        let k = left.iter().position(|&d| d == m.die).expect("a masked move uses a die left");
        let mut rest = [0u8; 4];
        rest[..k].copy_from_slice(&left[..k]);
        rest[k..left.len() - 1].copy_from_slice(&left[k + 1..]);
        if rest_avoids_shut_out(v, &q, &rest[..left.len() - 1]) {
            mask_set(&mut out, i);
        }
    }
    out
}

/// [`for_each_complete`] under the rules `v`, the obligation to open a
/// point included. `obliged` (read only by `OpenPoint::NextTurn`): the turn
/// began with the opponent shut out; mid-turn the caller passes the flag of
/// the turn's start, which the position alone no longer shows.
#[inline]
pub fn for_each_complete_in(v: Variant, obliged: bool, p: &Pos, left: &[u8], f: &mut impl FnMut(&Pos, &[CheckerMove])) {
    if !v.reglamento() {
        return for_each_complete(p, left, f);
    }
    if !obligation_applies(v, obliged) || !may_shut_out(v, p, left.len()) {
        return for_each_complete_g::<true>(v, p, left, f);
    }
    let mut all: Vec<(Pos, Vec<CheckerMove>)> = Vec::new();
    for_each_complete_g::<true>(v, p, left, &mut |end, moves| all.push((*end, moves.to_vec())));
    let avoid = all.iter().any(|(end, _)| !shuts_out(v, end));
    for (end, moves) in &all {
        if !avoid || !shuts_out(v, end) {
            f(end, moves);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;
    use rand::RngExt;

    /// Random placements of both sides' checkers (half of them with the
    /// mover's checkers all home, so that bearing off is tested too).
    fn random_pos(seed: u64) -> Pos {
        let mut rng = rng_from_seed(seed);
        let mut p = Pos { me: [0; 26], opp: [0; 26] };
        let home_only = seed.is_multiple_of(2);
        for _ in 0..15 {
            loop {
                let i = if home_only { rng.random_range(0..=6) } else { rng.random_range(0..=BAR) };
                // A point holds one side's checkers only (mover's i = opponent's 25 - i).
                if i == 0 || i == BAR || p.opp[25 - i] == 0 {
                    p.me[i] += 1;
                    break;
                }
            }
        }
        for _ in 0..15 {
            loop {
                let i = rng.random_range(0..=BAR);
                if i == 0 || i == BAR || p.me[25 - i] == 0 {
                    p.opp[i] += 1;
                    break;
                }
            }
        }
        p
    }

    #[test]
    fn point_sets_give_the_sources_can_move_gives_and_follow_a_move() {
        for seed in 0..3000 {
            let p = random_pos(seed);
            let sets = Sets::of(&p);
            let hi = p.highest();
            for d in 1..=6 {
                let want = (1..=BAR).filter(|&s| p.can_move(s, d, hi)).fold(0u32, |m, s| m | 1 << s);
                assert_eq!(sets.sources(d), want, "die {d} at {p:?}");
                for s in crate::bits::SetBits(want) {
                    let mut q = p;
                    q.play(s, d);
                    let (got, moved) = (sets.after(s, p.me[s], d), Sets::of(&q));
                    assert_eq!((got.me, got.open), (moved.me, moved.open), "{s}/{d} at {p:?}");
                }
            }
        }
    }
}
