//! The one move generator, parameterised by a [`Preset`]: single hops (the
//! decisions of a capture), complete capture sequences, plain moves, and a
//! bulk-counting perft over bare boards for the compulsory presets.
//!
//! Conventions inside a capture: `occ` is every piece on the board except
//! the capturing piece itself (its start square counts as empty, spec
//! "Details"), jumped pieces included (they block); `opp` is the opposing
//! pieces not yet jumped (the ones that may still be captured).

use super::board::{bit, Board, Geometry, DOWN_LEFT, DOWN_RIGHT, NONE, UP_LEFT, UP_RIGHT};
use super::preset::{Choice, Landing, MidPromotion, Preset};

/// One complete turn on a bare board: the piece on `from` ends on `to`
/// (a king if `king`), the pieces of `captured` leave the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Mv {
    pub from: u8,
    pub to: u8,
    pub king: bool,
    /// Pieces taken (their count is the sequence length).
    pub captured: u64,
}

/// A board geometry with one preset's movement rules.
#[derive(Clone, Debug)]
pub struct Engine {
    pub geo: Geometry,
    pub preset: Preset,
    /// Russian: a flying king must land where it can capture again, if it can.
    restrict_landing: bool,
}

const FORWARD: [[usize; 2]; 2] = [[UP_LEFT, UP_RIGHT], [DOWN_LEFT, DOWN_RIGHT]];
const ALL_DIRS: [usize; 4] = [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT];

impl Engine {
    pub fn new(preset: Preset) -> Engine {
        let restrict_landing = !preset.soplo() && preset.flying && preset.choice == Choice::Any;
        Engine { geo: Geometry::new(preset.size), preset, restrict_landing }
    }

    /// Directions a piece captures in.
    #[inline(always)]
    fn capture_dirs(&self, king: bool, side: usize) -> &'static [usize] {
        if king || self.preset.men_back {
            &ALL_DIRS
        } else {
            &FORWARD[side]
        }
    }

    /// Calls `f(dir, dist, captured, landing)` for every single capture hop
    /// of the piece on `p` (landing rule of the preset applied; with
    /// `restrict`, the russian landing rule too).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn for_each_hop(
        &self,
        occ: u64,
        opp: u64,
        p: u8,
        king: bool,
        side: usize,
        restrict: bool,
        mut f: impl FnMut(usize, u8, u8, u8),
    ) {
        let g = &self.geo;
        if king && self.preset.flying {
            for d in 0..4 {
                let len = g.ray_len[p as usize][d] as usize;
                let ray = &g.ray[p as usize][d];
                let mut k = 0;
                while k < len && occ & bit(ray[k]) == 0 {
                    k += 1;
                }
                if k + 1 >= len || opp & bit(ray[k]) == 0 {
                    continue;
                }
                let q = ray[k];
                let mut m = k + 1;
                if restrict {
                    let start = m;
                    let mut any_cont = false;
                    while m < len && occ & bit(ray[m]) == 0 {
                        if self.can_capture_from(occ, opp & !bit(q), ray[m], true, side) {
                            any_cont = true;
                        }
                        m += 1;
                    }
                    for (j, &r) in ray.iter().enumerate().take(m).skip(start) {
                        if !any_cont || self.can_capture_from(occ, opp & !bit(q), r, true, side) {
                            f(d, (j + 1) as u8, q, r);
                        }
                    }
                } else {
                    while m < len && occ & bit(ray[m]) == 0 {
                        f(d, (m + 1) as u8, q, ray[m]);
                        if self.preset.landing == Landing::RightBehind {
                            break;
                        }
                        m += 1;
                    }
                }
            }
        } else {
            for &d in self.capture_dirs(king, side) {
                let q = g.step[p as usize][d];
                if q == NONE || opp & bit(q) == 0 {
                    continue;
                }
                let r = g.step[q as usize][d];
                if r == NONE || occ & bit(r) != 0 {
                    continue;
                }
                f(d, 2, q, r);
            }
        }
    }

    /// Whether the piece on `p` has a capture hop.
    pub fn can_capture_from(&self, occ: u64, opp: u64, p: u8, king: bool, side: usize) -> bool {
        let g = &self.geo;
        if king && self.preset.flying {
            for d in 0..4 {
                let len = g.ray_len[p as usize][d] as usize;
                let ray = &g.ray[p as usize][d];
                let mut k = 0;
                while k < len && occ & bit(ray[k]) == 0 {
                    k += 1;
                }
                if k + 1 < len && opp & bit(ray[k]) != 0 && occ & bit(ray[k + 1]) == 0 {
                    return true;
                }
            }
            false
        } else {
            self.capture_dirs(king, side).iter().any(|&d| {
                let q = g.step[p as usize][d];
                if q == NONE || opp & bit(q) == 0 {
                    return false;
                }
                let r = g.step[q as usize][d];
                r != NONE && occ & bit(r) == 0
            })
        }
    }

    /// The piece's kind after landing on `r`, and whether the capture must end there.
    #[inline(always)]
    pub fn after_hop(&self, king: bool, r: u8, side: usize) -> (bool, bool) {
        if king || self.geo.far_row[side] & bit(r) == 0 {
            return (king, false);
        }
        match self.preset.mid_promotion {
            MidPromotion::PassThrough => (false, false),
            MidPromotion::PromoteAndContinue => (true, false),
            MidPromotion::EndsMove => (true, true),
        }
    }

    /// Most further pieces the piece on `p` can take (compulsory presets).
    pub fn max_cont(&self, occ: u64, opp: u64, p: u8, king: bool, side: usize) -> u8 {
        let mut best = 0;
        self.for_each_hop(occ, opp, p, king, side, false, |_, _, q, r| {
            let (k2, stop) = self.after_hop(king, r, side);
            let v = 1 + if stop { 0 } else { self.max_cont(occ, opp & !bit(q), r, k2, side) };
            best = best.max(v);
        });
        best
    }

    /// Pieces of `side` that can capture at all.
    pub fn capture_sources(&self, b: &Board, side: usize) -> u64 {
        let g = &self.geo;
        let occ = b.occupied();
        let empty = g.valid & !occ;
        let opp = b.pieces(1 - side);
        // Short kings capture like men in every direction: by shifts too, with
        // no branch per piece (only flying kings walk their rays below).
        let (short_kings, mut kings) = if self.preset.flying { (0, b.kings[side]) } else { (b.kings[side], 0) };
        let mut src = 0;
        for d in ALL_DIRS {
            let back = 3 - d;
            // Men capture forward only (UP_* for player 0, DOWN_* for player 1) unless men_back.
            let men_may = self.preset.men_back || (d < DOWN_LEFT) == (side == 0);
            let men = b.men[side] & (men_may as u64).wrapping_neg();
            src |= g.shift(g.shift(empty, back) & opp, back) & (men | short_kings);
        }
        while kings != 0 {
            let p = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            if self.can_capture_from(occ & !bit(p), opp, p, true, side) {
                src |= bit(p);
            }
        }
        src
    }

    /// Soplo: the pieces that could make a *correct* capture (spec "Soplo"):
    /// every piece that can capture, but only the kings when a king can and
    /// the preset gives kings priority.
    pub fn correct_capturers(&self, b: &Board, side: usize) -> u64 {
        let src = self.capture_sources(b, side);
        if self.preset.choice == Choice::KingPriority && src & b.kings[side] != 0 {
            src & b.kings[side]
        } else {
            src
        }
    }

    /// Complete capture sequences of the piece on `p` (compulsory rules: a
    /// sequence goes on while it can). `f(to, king, captured, len)`.
    #[allow(clippy::too_many_arguments)]
    fn sequences(
        &self,
        occ: u64,
        opp: u64,
        p: u8,
        king: bool,
        side: usize,
        captured: u64,
        len: u8,
        f: &mut impl FnMut(u8, bool, u64, u8),
    ) {
        let mut any = false;
        self.for_each_hop(occ, opp, p, king, side, self.restrict_landing, |_, _, q, r| {
            any = true;
            let (k2, stop) = self.after_hop(king, r, side);
            if stop {
                f(r, k2, captured | bit(q), len + 1);
            } else {
                self.sequences(occ, opp & !bit(q), r, k2, side, captured | bit(q), len + 1, f);
            }
        });
        if !any && len > 0 {
            f(p, king || self.geo.far_row[side] & bit(p) != 0, captured, len);
        }
    }

    /// Every legal complete turn of `side` on a bare board under compulsory
    /// capture, one per distinct resulting position. Returns whether they are captures.
    pub fn gen_moves(&self, b: &Board, side: usize, out: &mut Vec<Mv>) -> bool {
        out.clear();
        let occ_all = b.occupied();
        let opp = b.pieces(1 - side);
        let mut src = self.capture_sources(b, side);
        if src != 0 {
            let majority = self.preset.choice == Choice::Majority;
            let mut best = 0u8;
            while src != 0 {
                let p = src.trailing_zeros() as u8;
                src &= src - 1;
                let king = b.kings[side] & bit(p) != 0;
                self.sequences(occ_all & !bit(p), opp, p, king, side, 0, 0, &mut |to, k, captured, len| {
                    if majority {
                        if len < best {
                            return;
                        }
                        if len > best {
                            best = len;
                            out.clear();
                        }
                    }
                    let mv = Mv { from: p, to, king: k, captured };
                    // Different routes to the same position are one move (spec).
                    if !out.contains(&mv) {
                        out.push(mv);
                    }
                });
            }
            return true;
        }
        self.quiet_moves(b, side, &mut |from, to, king| out.push(Mv { from, to, king, captured: 0 }));
        false
    }

    /// Plain moves: `f(from, to, king_after)`.
    pub fn quiet_moves(&self, b: &Board, side: usize, f: &mut impl FnMut(u8, u8, bool)) {
        self.quiet_steps(b, side, &mut |from, to, _, _, king| f(from, to, king));
    }

    /// Plain moves with their direction and distance, in the order of
    /// [`Engine::quiet_moves`]: `f(from, to, dir, dist, king_after)` (the
    /// action encoding needs the direction, which the walk already knows).
    pub fn quiet_steps(&self, b: &Board, side: usize, f: &mut impl FnMut(u8, u8, usize, u8, bool)) {
        let g = &self.geo;
        let occ = b.occupied();
        let mut men = b.men[side];
        while men != 0 {
            let p = men.trailing_zeros() as u8;
            men &= men - 1;
            for &d in &FORWARD[side] {
                let t = g.step[p as usize][d];
                if t != NONE && occ & bit(t) == 0 {
                    f(p, t, d, 1, g.far_row[side] & bit(t) != 0);
                }
            }
        }
        self.quiet_king_steps(b, side, f);
    }

    /// The calls of [`Engine::quiet_steps`] in another order (the men's
    /// steps by direction, then by target square), for callers that only
    /// collect them (the legal mask). A man's step is a shift of the men's
    /// bitboard: no branch per man and direction, where the ordered walk
    /// mispredicted about ten branches a `checkers` step.
    pub fn quiet_steps_any_order(&self, b: &Board, side: usize, f: &mut impl FnMut(u8, u8, usize, u8, bool)) {
        let g = &self.geo;
        for (d, mut to) in self.man_step_targets(b, side) {
            while to != 0 {
                let t = to.trailing_zeros() as u8;
                to &= to - 1;
                // Directions 0..4 pair up as opposites d, 3 - d.
                let from = g.step[t as usize][3 - d];
                debug_assert!(b.men[side] & bit(from) != 0 && g.step[from as usize][d] == t);
                f(from, t, d, 1, g.far_row[side] & bit(t) != 0);
            }
        }
        self.quiet_king_steps(b, side, f);
    }

    /// The empty squares `side`'s men can step to, by forward direction
    /// (those of `FORWARD[side]`): their plain moves by shifting the men.
    #[inline(always)]
    pub fn man_step_targets(&self, b: &Board, side: usize) -> [(usize, u64); 2] {
        let g = &self.geo;
        let empty = g.valid & !b.occupied();
        FORWARD[side].map(|d| (d, g.shift(b.men[side], d) & empty))
    }

    /// The kings' plain moves, as [`Engine::quiet_steps`] calls them.
    pub fn quiet_king_steps(&self, b: &Board, side: usize, f: &mut impl FnMut(u8, u8, usize, u8, bool)) {
        let occ = b.occupied();
        let g = &self.geo;
        let mut kings = b.kings[side];
        while kings != 0 {
            let p = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            for d in 0..4 {
                let len = g.ray_len[p as usize][d] as usize;
                let max = if self.preset.flying { len } else { len.min(1) };
                for (k, &t) in g.ray[p as usize][d][..max].iter().enumerate() {
                    if occ & bit(t) != 0 {
                        break;
                    }
                    f(p, t, d, k as u8 + 1, true);
                }
            }
        }
    }

    /// Whether `side` has a plain move: a man with an empty square ahead, or
    /// a king with an empty neighbour (the first square of a flying king's
    /// ray is a short king's step).
    pub fn has_quiet(&self, b: &Board, side: usize) -> bool {
        let g = &self.geo;
        let empty = g.valid & !b.occupied();
        let mut to = 0;
        for d in ALL_DIRS {
            let men_may = (d < DOWN_LEFT) == (side == 0);
            let men = b.men[side] & (men_may as u64).wrapping_neg();
            to |= g.shift(men | b.kings[side], d) & empty;
        }
        to != 0
    }

    /// Number of plain moves (bulk count for perft).
    fn count_quiet(&self, b: &Board, side: usize) -> u64 {
        let g = &self.geo;
        let occ = b.occupied();
        let empty = g.valid & !occ;
        let mut n = 0u64;
        for &d in &FORWARD[side] {
            n += (g.shift(b.men[side], d) & empty).count_ones() as u64;
        }
        let mut kings = b.kings[side];
        while kings != 0 {
            let p = kings.trailing_zeros() as usize;
            kings &= kings - 1;
            for d in 0..4 {
                let len = g.ray_len[p][d] as usize;
                let max = if self.preset.flying { len } else { len.min(1) };
                let mut k = 0;
                while k < max && occ & bit(g.ray[p][d][k]) == 0 {
                    k += 1;
                }
                n += k as u64;
            }
        }
        n
    }

    /// The board after `mv` by `side`.
    #[inline(always)]
    pub fn apply_mv(&self, b: &Board, side: usize, mv: &Mv) -> Board {
        let mut n = *b;
        let o = 1 - side;
        n.men[side] &= !bit(mv.from);
        n.kings[side] &= !bit(mv.from);
        n.men[o] &= !mv.captured;
        n.kings[o] &= !mv.captured;
        if mv.king {
            n.kings[side] |= bit(mv.to);
        } else {
            n.men[side] |= bit(mv.to);
        }
        n
    }

    /// perft over bare boards (compulsory presets): distinct successor
    /// positions, a position without moves is a leaf at any depth.
    pub fn perft(&self, b: &Board, side: usize, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut lists: Vec<Vec<Mv>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
        self.perft_rec(b, side, depth, &mut lists)
    }

    fn perft_rec(&self, b: &Board, side: usize, depth: u32, lists: &mut [Vec<Mv>]) -> u64 {
        let (list, rest) = lists.split_first_mut().unwrap();
        if depth == 1 && self.capture_sources(b, side) == 0 {
            let n = self.count_quiet(b, side);
            return n.max(1);
        }
        self.gen_moves(b, side, list);
        if list.is_empty() {
            return 1;
        }
        if depth == 1 {
            return list.len() as u64;
        }
        let mut total = 0;
        for mv in list.iter() {
            let child = self.apply_mv(b, side, mv);
            total += self.perft_rec(&child, 1 - side, depth - 1, rest);
        }
        total
    }
}
