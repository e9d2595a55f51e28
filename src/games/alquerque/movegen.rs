//! Move generation: simple moves, capture hops, the majority search, and
//! applying one decision. Nothing here allocates: the search works on stack
//! buffers.
//!
//! The majority rule is decided per hop: with `best(x)` the most *new*
//! pieces a continuation from situation `x` can still capture (0 when none),
//! a hop `h` is legal iff `new(h) + best(after h) == best(now) > 0`, and the
//! turn ends after a hop iff `best(after) == 0`. In deferred mode a re-jump
//! has `new = 0`, so it is legal only on the way to more pieces (spec:
//! re-jumps serve only to reach more pieces).
//!
//! Deferred mode would make the search exponential (every order of every
//! re-jump trail), so it prunes dominated branches: within a run of
//! re-jumps (no new piece since) returning to a point already visited in
//! that run leaves the same position and captured set with fewer jumps
//! still allowed, so it can never reach more. The values stay exact; the
//! mask still offers every hop of the decision whose exact value is maximal.

use super::board::{Dir, Point, NONE};
use super::rules::Alquerque;
use super::state::{State, MAX_JUMPS};
use crate::core::{Action, Applied, Player};
use std::collections::{HashSet, VecDeque};

/// One capture hop of a piece: landing point, jumped piece, direction, and
/// the number of points travelled along the line.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Hop {
    pub to: u8,
    pub victim: u8,
    pub dir: u8,
    pub steps: u8,
}

/// The hops of one piece: at most 8 directions x 7 landing points.
struct HopBuf {
    n: usize,
    h: [Hop; 56],
}

impl HopBuf {
    #[inline]
    fn new() -> HopBuf {
        HopBuf { n: 0, h: [Hop::default(); 56] }
    }
    #[inline]
    fn push(&mut self, h: Hop) {
        self.h[self.n] = h;
        self.n += 1;
    }
    #[inline]
    fn as_slice(&self) -> &[Hop] {
        &self.h[..self.n]
    }
}

/// A capture sequence under way, for the search: the mover's and the
/// enemy's pieces, what was jumped and which jumps were made.
#[derive(Clone)]
struct Seq {
    own: u128,
    enemy: u128,
    jumped: u128,
    king: bool,
    /// Points visited since the last new capture (deferred-mode pruning).
    seg: u128,
    /// Search nodes left (deferred mode; see [`SEARCH_BUDGET`]).
    budget: u32,
    nused: usize,
    used: [(u8, u8); MAX_JUMPS],
}

/// Search nodes one hop's evaluation may visit in deferred mode. The
/// search tries new captures before re-jumps and stops at the bound of
/// [`Alquerque::reach_bound`], which is exact at positions reached in play,
/// so it ends long before this in practice; the budget only keeps
/// pathological re-jump mazes from stalling a batch (**Decision**: past it,
/// the best sequence found so far counts as the maximum).
pub const SEARCH_BUDGET: u32 = 20_000;

/// Mid-turn states [`Alquerque::for_each_turn`] tells apart exactly.
const WALK_EXACT: usize = 4096;

/// Entries the root search keeps between its two passes before recomputing.
const ROOT_CACHE: usize = 256;

impl Alquerque {
    #[inline]
    fn deferred(&self) -> bool {
        self.deferred
    }

    /// The capture hops of the piece on `from`, given the occupancy of `seq`.
    fn hops(&self, seq: &Seq, from: u8, out: &mut HopBuf) {
        self.hops_in(seq, seq.own | seq.enemy, from, out)
    }

    /// The capture hops from `from` with occupancy `occ`.
    fn hops_in(&self, seq: &Seq, occ: u128, from: u8, out: &mut HopBuf) {
        let next = &self.geo.next;
        let used = &seq.used[..seq.nused];
        let is_used = |to: u8| self.deferred() && used.iter().any(|&j| j == (from, to));
        for d in 0..8u8 {
            let line = &next[d as usize];
            if !seq.king {
                let a = line[from as usize];
                if a == NONE || seq.enemy >> a & 1 == 0 {
                    continue;
                }
                let b = line[a as usize];
                if b == NONE || occ >> b & 1 != 0 || is_used(b) {
                    continue;
                }
                out.push(Hop { to: b, victim: a, dir: d, steps: 2 });
            } else {
                let mut p = line[from as usize];
                let mut steps = 1u8;
                while p != NONE && occ >> p & 1 == 0 {
                    p = line[p as usize];
                    steps += 1;
                }
                if p == NONE || seq.enemy >> p & 1 == 0 {
                    continue;
                }
                let victim = p;
                let mut q = line[victim as usize];
                steps += 1;
                while q != NONE && occ >> q & 1 == 0 {
                    if !is_used(q) {
                        out.push(Hop { to: q, victim, dir: d, steps });
                    }
                    q = line[q as usize];
                    steps += 1;
                }
            }
        }
    }

    /// Whether `h` from `from` captures a piece not captured before in this sequence.
    #[inline]
    fn is_new(&self, seq: &Seq, h: &Hop) -> bool {
        !self.deferred() || seq.jumped >> h.victim & 1 == 0
    }

    /// Makes hop `h` of the piece on `from` in the search.
    #[inline]
    fn make(&self, seq: &mut Seq, from: u8, h: &Hop) {
        seq.own ^= (1u128 << from) | (1u128 << h.to);
        if self.deferred() {
            seq.jumped |= 1u128 << h.victim;
            seq.used[seq.nused] = (from, h.to);
            seq.nused += 1;
        } else {
            seq.enemy &= !(1u128 << h.victim);
        }
    }

    /// Deferred mode: new pieces that some jump from a point reachable from
    /// `pos` by unused jumps could capture. An upper bound of `best`, and
    /// the exact value at legal positions: occupancy is static during a
    /// deferred sequence and every jump can be made backwards, so a walk
    /// through the reachable points using each jump at most once in each
    /// direction captures all of them (module docs).
    fn reach_bound(&self, seq: &Seq, pos: u8) -> u32 {
        let occ = (seq.own & !(1u128 << pos)) | seq.enemy;
        let mut seen = 1u128 << pos;
        let mut stack = [0u8; 81];
        stack[0] = pos;
        let mut n = 1;
        let mut victims = 0u128;
        while n > 0 {
            n -= 1;
            let p = stack[n];
            let mut buf = HopBuf::new();
            self.hops_in(seq, occ, p, &mut buf);
            for h in buf.as_slice() {
                victims |= 1u128 << h.victim;
                if seen >> h.to & 1 == 0 {
                    seen |= 1u128 << h.to;
                    stack[n] = h.to;
                    n += 1;
                }
            }
        }
        (victims & !seq.jumped).count_ones()
    }

    /// The most new pieces a continuation from `pos` captures, stopping
    /// early once `limit` is reached (`limit` = pieces still capturable).
    fn best(&self, seq: &mut Seq, pos: u8, limit: u32) -> u32 {
        if limit == 0 || seq.nused >= MAX_JUMPS || seq.budget == 0 {
            return 0;
        }
        seq.budget -= 1;
        let limit = if self.deferred() { limit.min(self.reach_bound(seq, pos)) } else { limit };
        if limit == 0 {
            return 0;
        }
        let mut buf = HopBuf::new();
        self.hops(seq, pos, &mut buf);
        let mut best = 0;
        // New captures first: they reach the bound soonest.
        for pass in [true, false] {
            for h in buf.as_slice() {
                if self.is_new(seq, h) != pass {
                    continue;
                }
                let v = self.hop_value(seq, pos, h, limit);
                if v > best {
                    best = v;
                    if best >= limit {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// `new(h) + best(after h)`, or 0 for a re-jump that leads nowhere new.
    fn hop_value(&self, seq: &mut Seq, from: u8, h: &Hop, limit: u32) -> u32 {
        let new = self.is_new(seq, h) as u32;
        if new == 0 && seq.seg >> h.to & 1 != 0 {
            return 0; // a loop of re-jumps: dominated (module docs)
        }
        let saved = (seq.own, seq.enemy, seq.jumped, seq.nused, seq.seg);
        self.make(seq, from, h);
        seq.seg = if new == 1 { 1u128 << h.to } else { seq.seg | 1u128 << h.to };
        let v = new + self.best(seq, h.to, limit - new);
        (seq.own, seq.enemy, seq.jumped, seq.nused, seq.seg) = saved;
        v
    }

    fn seq_of(&self, s: &State, from: u8) -> Seq {
        let me = s.side.index();
        let mut seq = Seq {
            own: s.pieces[me],
            enemy: s.pieces[1 - me],
            jumped: s.jumped,
            king: s.kings >> from & 1 != 0,
            seg: 1u128 << from,
            budget: SEARCH_BUDGET,
            nused: s.njumps as usize,
            used: [(0, 0); MAX_JUMPS],
        };
        if self.deferred() {
            seq.used[..seq.nused].copy_from_slice(s.jumps());
        }
        seq
    }

    /// Pieces of the opponent that a sequence can still capture.
    #[inline]
    fn capturable(&self, s: &State) -> u32 {
        (s.pieces[s.side.other().index()] & !s.jumped).count_ones()
    }

    /// Calls `f(from, hop)` for every hop that begins a maximal capture
    /// sequence at this decision; returns the maximum (0: no capture).
    pub(super) fn for_each_best_hop(&self, s: &State, mut f: impl FnMut(u8, &Hop)) -> u32 {
        let me = s.side.index();
        let movers = if s.mid_turn() { 1u128 << s.capturing } else { s.pieces[me] };
        let limit = self.capturable(s);
        let mut cache = [0u8; ROOT_CACHE];
        let mut k = 0usize;
        let mut best = 0u32;
        let mut bits = movers;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let mut seq = self.seq_of(s, from);
            let mut buf = HopBuf::new();
            self.hops(&seq, from, &mut buf);
            for h in buf.as_slice() {
                seq.budget = SEARCH_BUDGET;
                let v = self.hop_value(&mut seq, from, h, limit);
                if k < ROOT_CACHE {
                    cache[k] = v as u8;
                }
                k += 1;
                best = best.max(v);
            }
        }
        if best == 0 {
            return 0;
        }
        let mut k = 0usize;
        let mut bits = movers;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let mut seq = self.seq_of(s, from);
            let mut buf = HopBuf::new();
            self.hops(&seq, from, &mut buf);
            for h in buf.as_slice() {
                seq.budget = SEARCH_BUDGET;
                let v = if k < ROOT_CACHE { cache[k] as u32 } else { self.hop_value(&mut seq, from, h, limit) };
                k += 1;
                if v == best {
                    f(from, h);
                }
            }
        }
        best
    }

    /// Calls `f(from, dir, steps, to)` for every non-capturing move.
    pub(super) fn for_each_simple_move(&self, s: &State, mut f: impl FnMut(u8, u8, u8, u8)) {
        let me = s.side.index();
        let occ = s.occupied();
        let own = s.pieces[me];
        let mut bits = own & !s.kings;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            for &d in &self.forward[me] {
                let to = self.geo.next[d as usize][from as usize];
                if to != NONE && occ >> to & 1 == 0 {
                    f(from, d, 1, to);
                }
            }
        }
        let mut bits = own & s.kings;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            for d in 0..8u8 {
                let line = &self.geo.next[d as usize];
                let mut to = line[from as usize];
                let mut steps = 1;
                while to != NONE && occ >> to & 1 == 0 {
                    f(from, d, steps, to);
                    to = line[to as usize];
                    steps += 1;
                }
            }
        }
    }

    /// Whether the side to move has any legal move (at a turn boundary).
    pub(super) fn has_move(&self, s: &State) -> bool {
        if s.mid_turn() {
            return true;
        }
        let me = s.side.index();
        let occ = s.occupied();
        let mut bits = s.pieces[me] & !s.kings;
        while bits != 0 {
            let from = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            for &d in &self.forward[me] {
                let to = self.geo.next[d as usize][from];
                if to != NONE && occ >> to & 1 == 0 {
                    return true;
                }
            }
        }
        let mut bits = s.pieces[me] & s.kings;
        while bits != 0 {
            let from = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            for d in 0..8 {
                let to = self.geo.next[d][from];
                if to != NONE && occ >> to & 1 == 0 {
                    return true;
                }
            }
        }
        // Only captures are left: any capture hop starts a legal sequence.
        let mut bits = s.pieces[me];
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let seq = self.seq_of(s, from);
            let mut buf = HopBuf::new();
            self.hops(&seq, from, &mut buf);
            if buf.n > 0 {
                return true;
            }
        }
        false
    }

    /// The action of moving the piece on `from` `steps` points in absolute
    /// direction `dir`, for `side` (from its own point of view).
    #[inline]
    pub(super) fn encode(&self, side: Player, from: u8, dir: u8, steps: u8) -> Action {
        let (p, d) = match side {
            Player::P0 => (from, dir),
            Player::P1 => (80 - from, (dir + 4) & 7),
        };
        Action(self.geo.ordinal[p as usize] as u32 * 64 + d as u32 * 8 + (steps as u32 - 1))
    }

    /// Calls `f` for every legal action of the decision (offer actions excluded).
    pub(super) fn for_each_legal(&self, s: &State, mut f: impl FnMut(Action)) {
        if s.pieces[s.side.index()] == 0 {
            return;
        }
        let side = s.side;
        let best = self.for_each_best_hop(s, |from, h| f(self.encode(side, from, h.dir, h.steps)));
        if best == 0 && !s.mid_turn() {
            self.for_each_simple_move(s, |from, d, steps, _| f(self.encode(side, from, d, steps)));
        }
    }

    /// Applies a legal action.
    pub(super) fn apply_action(&self, s: &mut State, a: Action) -> Applied {
        let me = s.side.index();
        let [from, dir, to, _steps] = self.actions[me][a.index()];
        debug_assert!(from != NONE, "action {a:?} has no geometry");
        let line = &self.geo.next[dir as usize];
        let occ = s.occupied();
        let mut victim = NONE;
        let mut p = line[from as usize];
        while p != to {
            if occ >> p & 1 != 0 {
                victim = p;
                break;
            }
            p = line[p as usize];
        }
        let (fb, tb) = (1u128 << from, 1u128 << to);
        s.pieces[me] ^= fb | tb;
        let king = s.kings & fb != 0;
        if king {
            s.kings ^= fb | tb;
        }
        if victim != NONE {
            let vb = 1u128 << victim;
            if self.deferred() {
                s.jumped |= vb;
                s.jumps[s.njumps as usize] = (from, to);
                s.njumps += 1;
            } else {
                s.pieces[1 - me] &= !vb;
                s.kings &= !vb;
            }
            let mut seq = self.seq_of(s, to);
            if self.best(&mut seq, to, 1) > 0 {
                s.capturing = to;
                return Applied::MidTurn;
            }
        }
        // The turn ends here: deferred captures leave, a pawn ending on the
        // far rank is promoted (spec: passing through does not promote).
        s.pieces[1 - me] &= !s.jumped;
        s.kings &= !s.jumped;
        if !king && self.geo.far_rank[me] & tb != 0 {
            s.kings |= tb;
        }
        s.clear_sequence();
        s.side = s.side.other();
        Applied::TurnOver
    }

    /// Calls `f(actions, end)` for every complete turn from `s`, breadth
    /// first through the decision tree (shorter sequences first), skipping
    /// re-jump loops (module docs: dominated, they end where loop-free
    /// paths end). Every legal first action starts at least one reported
    /// turn. No dedup of end positions.
    pub(super) fn for_each_turn(&self, s: &State, f: &mut impl FnMut(&[Action], &State)) {
        let seg = if s.mid_turn() { 1u128 << s.capturing } else { 0 };
        let mut queue = VecDeque::new();
        queue.push_back((*s, Vec::new(), seg));
        let mut seen = HashSet::new();
        let mut legal = Vec::new();
        while let Some((cur, path, seg)) = queue.pop_front() {
            legal.clear();
            self.for_each_legal(&cur, |a| legal.push(a));
            legal.sort_unstable();
            for &a in &legal {
                let to = self.actions[cur.side.index()][a.index()][2];
                let mut next = cur;
                let before = next.jumped;
                let mut p = path.clone();
                p.push(a);
                if self.apply_action(&mut next, a) == Applied::TurnOver {
                    f(&p, &next);
                    continue;
                }
                let new = next.jumped != before || !self.deferred();
                let rejump_loop = !new && seg >> to & 1 != 0;
                // Deferred mode: decision paths (from the same first
                // decision) that made the same jumps in another order
                // continue identically: walk the shortest one. Past
                // WALK_EXACT states (re-jump mazes of a mulá explode
                // combinatorially) paths reaching the same point with the
                // same pieces jumped are merged (**Decision**: they differ
                // only in which jumps remain allowed, which practically
                // never changes where a maximal sequence can end).
                let key = if seen.len() < WALK_EXACT {
                    let mut used = next.jumps().to_vec();
                    used.sort_unstable();
                    (p[0], to, next.jumped, used)
                } else {
                    (p[0], to, next.jumped, Vec::new())
                };
                if !rejump_loop && (!self.deferred() || seen.insert(key)) {
                    let seg = if new { 1u128 << to } else { seg | 1u128 << to };
                    queue.push_back((next, p, seg));
                }
            }
        }
    }

    /// The absolute point of the piece an action moves, and its landing point.
    pub(super) fn action_points(&self, side: Player, a: Action) -> Option<(Point, Point)> {
        let [from, _, to, _] = *self.actions[side.index()].get(a.index())?;
        (from != NONE).then_some((Point(from), Point(to)))
    }

    /// The directions in which a pawn of `side` steps (forwards).
    pub(super) fn forward_dirs(side: Player) -> [u8; 3] {
        match side {
            Player::P0 => [Dir::N as u8, Dir::NE as u8, Dir::NW as u8],
            Player::P1 => [Dir::S as u8, Dir::SW as u8, Dir::SE as u8],
        }
    }
}
