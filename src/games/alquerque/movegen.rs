//! Move generation: simple moves, capture hops, the majority search, and
//! applying one decision.
//!
//! The majority rule is decided per hop: with `best(x)` the most *new*
//! pieces a continuation from situation `x` can still capture (0 when none),
//! a hop `h` is legal iff `new(h) + best(after h) == best(now) > 0`, and the
//! turn ends after a hop iff `best(after) == 0`. In deferred mode a re-jump
//! has `new = 0`, so it is legal only on the way to more pieces (spec:
//! re-jumps serve only to reach more pieces).
//!
//! Immediate removal searches the sequences (each hop removes a piece, so
//! they are short), each situation once per decision ([`Memo`]; a mulá can
//! reach one by exponentially many routes). Deferred removal never searches:
//! [`super::deferred`] counts `best` exactly from the jump graph and lists
//! where a turn can end.

use super::board::{Dir, Point, NONE};
use super::deferred::{walk_jumps, walk_jumps_in, Jump, JumpSet, Maze, Situation};
use super::rules::Alquerque;
use super::state::State;
use crate::core::{Action, Applied, Outcome, Player};
use std::collections::{HashSet, VecDeque};
use std::hash::BuildHasherDefault;

#[cfg(test)]
mod unmemoized;

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

/// An immediate-removal capture sequence under way, for the search: the
/// mover's and the enemy's pieces.
#[derive(Clone)]
struct Seq {
    own: u128,
    enemy: u128,
    king: bool,
    /// Search nodes left (see [`SEARCH_BUDGET`]).
    budget: u32,
    /// Whether the budget ran out below the node being counted (its value
    /// is then only a lower bound and is not memoized). Memoized values are
    /// exact, whatever the bound and the budget left when they were counted.
    cut: bool,
    /// The enemy pieces this sequence could ever take
    /// ([`Alquerque::takeable`] of `still` and `enemy0`): a node's value is
    /// at most how many of them are left, and the search stops there. All
    /// bits set until the search has expanded [`TAKEABLE_AFTER`] nodes (most
    /// searches are a capture or two, and counting would cost more).
    takeable: u128,
    /// The mover's pieces that stay put, and the enemy's at the decision.
    still: u128,
    enemy0: u128,
    /// Nodes expanded so far for this mover at this decision; the memo
    /// records values only past [`TAKEABLE_AFTER`] (small searches do not
    /// pay for the table).
    expanded: u32,
}

/// Nodes a search expands before it bounds itself by the takeable pieces
/// and memoizes.
const TAKEABLE_AFTER: u32 = 16;

/// Search nodes one root hop's evaluation may expand in immediate mode,
/// where every hop removes a piece, so sequences are at most as long as the
/// pieces capturable; the search stops as soon as it has taken every piece
/// it could ever take ([`Alquerque::takeable`]). **Decision**: past the
/// budget, the best sequence found so far counts as the maximum.
/// **Decision** (issue #13, memoized search): a situation already counted
/// in the decision ([`Memo`]) is not searched again and uses no budget, and
/// the search stops at the takeable pieces rather than at all enemy pieces;
/// so it expands a part of the nodes the earlier unmemoized search visited,
/// in the same order, and reaches the budget only where that search did:
/// where that search was cut, the answer now can only be more exact (the
/// maximum counted in full, or cut later). No decision of the perft trees
/// (kharbaga and zamma to depth 8), of the playthroughs or of the random
/// games with mulás of the tests reaches the budget, before or after; the
/// unmemoized search reached it on positions with a mulá among many enemy
/// pawns, e.g. `ww6B/wwwww4/9/wwww1ww2/9/1w3w3/1w5bb/4w3b/8b b` from the
/// arena ladder (with the same legal hops as now, found before the cut).
pub const SEARCH_BUDGET: u32 = 20_000;

thread_local! {
    static SEARCH_NODES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static SEARCH_CUTS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Nodes the immediate-removal majority search has expanded on this thread
/// so far (for benchmarks and node-count tests: load does not change it).
pub fn majority_search_nodes() -> u64 {
    SEARCH_NODES.with(|n| n.get())
}

/// Root hops whose evaluation reached [`SEARCH_BUDGET`] on this thread so
/// far (the answer is then the best sequence found within it).
pub fn majority_search_cuts() -> u64 {
    SEARCH_CUTS.with(|n| n.get())
}

/// The exact values [`Alquerque::best`] has counted for situations
/// (capturing point, own pieces, enemy pieces) within one decision, or one
/// listing of a position's turns: the same situation is reached by many
/// routes (the same pieces taken in another order, a mulá landing on
/// another point behind the same piece), and without this table each route
/// searched it again, exponentially often in the number of pieces a mulá
/// could take. Open addressing, linear probing, grown at half full.
struct Memo {
    slots: Vec<Slot>,
    len: usize,
    /// The last [`Alquerque::takeable`] counted: (still, enemy, takeable).
    /// A listing's later decisions reuse it (still the same pieces, the
    /// enemy's a subset: a superset of what they can take).
    peeled: Option<(u128, u128, u128)>,
}

#[derive(Copy, Clone)]
struct Slot {
    own: u128,
    enemy: u128,
    /// Capturing point | 0x80 for a mulá; [`Slot::EMPTY`] marks a free slot.
    tag: u8,
    value: u8,
}

impl Slot {
    const EMPTY: u8 = 0xFF;
}

impl Memo {
    fn new() -> Memo {
        Memo { slots: Vec::new(), len: 0, peeled: None }
    }

    #[inline]
    fn home(&self, own: u128, enemy: u128, tag: u8) -> usize {
        let mut h = crate::core::splitmix64(own as u64 ^ (own >> 64) as u64 ^ (tag as u64) << 56);
        h = crate::core::splitmix64(h ^ enemy as u64 ^ ((enemy >> 64) as u64).rotate_left(29));
        h as usize & (self.slots.len() - 1)
    }

    /// The slot of a situation, or the free slot where it would go.
    #[inline]
    fn find(&self, own: u128, enemy: u128, tag: u8) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.home(own, enemy, tag);
        loop {
            let e = &self.slots[i];
            if e.tag == Slot::EMPTY || (e.tag == tag && e.own == own && e.enemy == enemy) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn get(&self, own: u128, enemy: u128, tag: u8) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let e = &self.slots[self.find(own, enemy, tag)];
        (e.tag != Slot::EMPTY).then_some(e.value as u32)
    }

    fn insert(&mut self, own: u128, enemy: u128, tag: u8, value: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            let size = (2 * self.slots.len()).max(64);
            let empty = Slot { own: 0, enemy: 0, tag: Slot::EMPTY, value: 0 };
            let old = std::mem::replace(&mut self.slots, vec![empty; size]);
            self.len = 0;
            for e in old.into_iter().filter(|e| e.tag != Slot::EMPTY) {
                self.insert(e.own, e.enemy, e.tag, e.value as u32);
            }
        }
        let i = self.find(own, enemy, tag);
        if self.slots[i].tag == Slot::EMPTY {
            self.slots[i] = Slot { own, enemy, tag, value: value as u8 };
            self.len += 1;
        }
    }
}

impl Alquerque {
    /// The capture hops of the piece on `from`, given the occupancy of `seq`.
    fn hops(&self, seq: &Seq, from: u8, out: &mut HopBuf) {
        let occ = (seq.own & !(1u128 << from)) | seq.enemy;
        // Only the directions with an enemy piece on the line can hold a
        // jump (the search asks this at every node, mulás flying far).
        let g = &self.geo;
        if !seq.king {
            if g.near[from as usize] & seq.enemy != 0 {
                walk_jumps_in(&g.next, occ, seq.enemy, false, from, 0xFF, |j| {
                    out.push(Hop { to: j.to, victim: j.victim, dir: j.dir, steps: j.steps })
                });
            }
            return;
        }
        for d in 0..8 {
            let ray = g.ray[d][from as usize];
            if ray & seq.enemy == 0 {
                continue;
            }
            let Some(k) = g.delta[d] else {
                walk_jumps_in(&g.next, occ, seq.enemy, true, from, 1 << d, |j| {
                    out.push(Hop { to: j.to, victim: j.victim, dir: j.dir, steps: j.steps })
                });
                continue;
            };
            // Along a ray the lattice index moves by `k` per step: the
            // nearest point of a set is its lowest bit for k > 0, its highest
            // for k < 0; landings are pushed nearest first, as a walk would.
            let nearest = |set: u128| if k > 0 { set.trailing_zeros() } else { 127 - set.leading_zeros() } as usize;
            let victim = nearest(ray & occ);
            if seq.enemy >> victim & 1 == 0 {
                continue;
            }
            let behind = g.ray[d][victim];
            let mut land = match behind & occ {
                0 => behind,
                blocked => behind & !(g.ray[d][nearest(blocked)] | 1u128 << nearest(blocked)),
            };
            let step = k.unsigned_abs() as i32;
            while land != 0 {
                let to = nearest(land);
                land &= !(1u128 << to);
                let steps = ((to as i32 - from as i32).abs() / step) as u8;
                out.push(Hop { to: to as u8, victim: victim as u8, dir: d as u8, steps });
            }
        }
    }

    /// Makes hop `h` of the piece on `from` in the search.
    #[inline]
    fn make(&self, seq: &mut Seq, from: u8, h: &Hop) {
        seq.own ^= (1u128 << from) | (1u128 << h.to);
        seq.enemy &= !(1u128 << h.victim);
    }

    /// Immediate mode: the most pieces a continuation from `pos` captures.
    /// Every hop removes a piece, so the takeable enemy pieces left bound
    /// it: the search stops as soon as a continuation takes them all.
    fn best(&self, seq: &mut Seq, memo: &mut Memo, pos: u8) -> u32 {
        let limit = (seq.enemy & seq.takeable).count_ones();
        if limit == 0 {
            return 0;
        }
        let tag = pos | (seq.king as u8) << 7;
        if let Some(v) = memo.get(seq.own, seq.enemy, tag) {
            return v;
        }
        if seq.budget == 0 {
            seq.cut = true;
            return 0;
        }
        seq.budget -= 1;
        SEARCH_NODES.with(|n| n.set(n.get() + 1));
        self.count_expansion(seq);
        let cut_above = std::mem::replace(&mut seq.cut, false);
        let mut buf = HopBuf::new();
        self.hops(seq, pos, &mut buf);
        let mut best = 0;
        for h in buf.as_slice() {
            best = best.max(self.hop_value(seq, memo, pos, h));
            if best >= limit {
                break;
            }
        }
        // A situation without a further capture costs one look at its hops,
        // and most searches are a capture or two: not worth a slot.
        if best > 0 && seq.expanded >= TAKEABLE_AFTER && (!seq.cut || best >= limit) {
            memo.insert(seq.own, seq.enemy, tag, best);
        }
        seq.cut |= cut_above;
        best
    }

    /// Immediate mode: `1 + best(after h)`.
    fn hop_value(&self, seq: &mut Seq, memo: &mut Memo, from: u8, h: &Hop) -> u32 {
        let saved = (seq.own, seq.enemy);
        self.make(seq, from, h);
        let v = 1 + self.best(seq, memo, h.to);
        (seq.own, seq.enemy) = saved;
        v
    }

    /// The search's view of a sequence by the piece on `from`, the pieces
    /// `still` not moving during it.
    fn seq_of(&self, s: &State, from: u8, still: u128) -> Seq {
        let me = s.side.index();
        Seq {
            own: s.pieces[me],
            enemy: s.pieces[1 - me],
            king: s.kings >> from & 1 != 0,
            budget: SEARCH_BUDGET,
            cut: false,
            takeable: !0,
            still,
            enemy0: s.pieces[1 - me],
            expanded: 0,
        }
    }

    #[inline]
    fn count_expansion(&self, seq: &mut Seq) {
        seq.expanded += 1;
        if seq.expanded == TAKEABLE_AFTER {
            seq.takeable = self.takeable(seq.still, seq.enemy0);
        }
    }

    /// Immediate mode: a superset of the enemy pieces a sequence can take
    /// while the pieces `still` do not move (the mover's pieces but the
    /// capturing one; at a turn's start, those that cannot capture). A
    /// piece is jumped along a line with the point before it (where the
    /// jumper comes from, or stands) and the point after it (where it lands)
    /// both free at that moment: each is empty, or held by an enemy piece
    /// taken before. So the takeable pieces are peeled
    /// from outside in, until no more is freed; a piece in a corner, or
    /// walled in by the mover's own pieces and such, is never takeable.
    /// (The positions with a mulá among many enemy pawns were slow because
    /// the bound counted pieces no route can reach: every route had to be
    /// tried to prove it.)
    fn takeable(&self, still: u128, enemy: u128) -> u128 {
        let g = &self.geo;
        let open = g.points & !still & !enemy;
        let mut taken = 0u128;
        loop {
            let free = open | taken;
            let mut found = 0u128;
            for d in 0..4 {
                found |= self.before_in(d, free) & self.before_in(d + 4, free);
            }
            found &= enemy;
            if found == taken {
                return taken;
            }
            taken = found;
        }
    }

    /// The points whose next point in direction `d` is in `set`.
    fn before_in(&self, d: usize, set: u128) -> u128 {
        self.geo.before(d, set).unwrap_or_else(|| {
            let line = &self.geo.next[d];
            let mut out = 0u128;
            for p in crate::bits::SetBits(self.geo.points & self.geo.has_next[d]) {
                if set >> line[p as usize] & 1 != 0 {
                    out |= 1u128 << p;
                }
            }
            out
        })
    }

    /// Deferred mode: the fixed board of a sequence by the piece on `at`.
    pub(super) fn maze(&self, s: &State, at: u8) -> Maze<'_> {
        let me = s.side.index();
        Maze::new(&self.geo.next, s.pieces[me], s.pieces[1 - me], at, s.kings >> at & 1 != 0)
    }

    /// Deferred mode: calls `f(point, board, situation)` for every piece in
    /// `movers` that may capture (the capturing piece alone mid-sequence).
    fn for_each_deferred_mover(&self, s: &State, movers: u128, mut f: impl FnMut(u8, &Maze<'_>, &Situation)) {
        for from in crate::bits::SetBits(movers) {
            let from = from as u8;
            f(from, &self.maze(s, from), &self.situation(s, from));
        }
    }

    /// Deferred mode: where the sequence of the piece on `at` stands (a new
    /// one at a turn boundary). The origin is only needed to list the turn's
    /// ends; it comes from the jumps made.
    pub(super) fn situation(&self, s: &State, at: u8) -> Situation {
        if s.mid_turn() {
            let origin = Maze::origin_of(&s.used, at, &self.geo.next).unwrap_or(at);
            Situation { at, origin, used: s.used, jumped: s.jumped }
        } else {
            Situation { at, origin: at, used: JumpSet::EMPTY, jumped: 0 }
        }
    }

    /// The pieces among `movers` (the side to move's, at a turn's start)
    /// that have a capture hop: the pawns found for all at once by shifting
    /// sets along each direction (a pawn on `p` jumps in `d` when the next
    /// point is an enemy and the one after it empty), the mulás by walking
    /// their lines.
    pub(super) fn capturers(&self, s: &State, movers: u128) -> u128 {
        let enemy = s.pieces[s.side.other().index()];
        let occ = s.occupied();
        let empty = self.geo.points & !occ;
        let pawns = movers & !s.kings;
        let mut found = 0u128;
        for d in 0..8 {
            match self.geo.before(d, empty).and_then(|landing| self.geo.before(d, enemy & landing)) {
                Some(from) => found |= pawns & from,
                None => return movers,
            }
        }
        for k in crate::bits::SetBits(movers & s.kings) {
            let mut any = false;
            walk_jumps(&self.geo.next, occ, enemy, true, k as u8, |_| any = true);
            if any {
                found |= 1u128 << k;
            }
        }
        found
    }

    /// Calls `f(from, hop)` for every hop that begins a maximal capture
    /// sequence at this decision; returns the maximum (0: no capture).
    pub(super) fn for_each_best_hop(&self, s: &State, f: impl FnMut(u8, &Hop)) -> u32 {
        self.for_each_best_hop_in(s, &mut Memo::new(), f)
    }

    /// [`Alquerque::for_each_best_hop`] with the situations counted so far in
    /// `memo` (immediate mode).
    fn for_each_best_hop_in(&self, s: &State, memo: &mut Memo, f: impl FnMut(u8, &Hop)) -> u32 {
        let me = s.side.index();
        // At a turn's start only a piece with a first hop can begin a
        // sequence (in either removal mode nothing is jumped yet), and most
        // turns have none: the search runs for those pieces only.
        let movers = if s.mid_turn() { 1u128 << s.capturing } else { self.capturers(s, s.pieces[me]) };
        if movers == 0 {
            return 0;
        }
        if self.deferred {
            return self.for_each_best_deferred_hop(s, movers, f);
        }
        self.for_each_best_immediate_hop(s, movers, memo, f)
    }

    /// [`Alquerque::for_each_best_hop`] in immediate mode, with the values
    /// counted so far in `memo` (this decision's, or those of every decision
    /// of the turns being listed: a situation's value does not depend on the
    /// route to it).
    fn for_each_best_immediate_hop(&self, s: &State, movers: u128, memo: &mut Memo, mut f: impl FnMut(u8, &Hop)) -> u32 {
        // Every first hop valued (on its own budget), then those worth the
        // most reported; most decisions have a few hops, kept on the stack.
        let mut few = [(0u8, Hop::default(), 0u8); 16];
        let mut n = 0;
        let mut more: Vec<(u8, Hop, u8)> = Vec::new();
        let mut best = 0u32;
        let still = s.pieces[s.side.index()] & !movers;
        // A listing whose table already holds values is in a big search:
        // bound and memoize from the start.
        let big = memo.len > 0;
        for from in crate::bits::SetBits(movers) {
            let from = from as u8;
            let mut seq = self.seq_of(s, from, still);
            if big {
                seq.expanded = TAKEABLE_AFTER;
                seq.takeable = match memo.peeled {
                    Some((st, e, t)) if st == still && seq.enemy0 & !e == 0 => t,
                    _ => {
                        let t = self.takeable(still, seq.enemy0);
                        memo.peeled = Some((still, seq.enemy0, t));
                        t
                    }
                };
            }
            let mut buf = HopBuf::new();
            self.hops(&seq, from, &mut buf);
            for h in buf.as_slice() {
                seq.budget = SEARCH_BUDGET;
                seq.cut = false;
                let v = self.hop_value(&mut seq, memo, from, h);
                if seq.cut {
                    SEARCH_CUTS.with(|n| n.set(n.get() + 1));
                }
                if n < few.len() {
                    few[n] = (from, *h, v as u8);
                    n += 1;
                } else {
                    more.push((from, *h, v as u8));
                }
                best = best.max(v);
            }
        }
        if best > 0 {
            for (from, h, v) in few[..n].iter().chain(&more) {
                if *v as u32 == best {
                    f(*from, h);
                }
            }
        }
        best
    }

    /// [`Alquerque::for_each_best_hop`] in deferred mode: a hop's value is
    /// `new + max_new(after)`, counted exactly ([`super::deferred`]); a
    /// re-jump after which nothing new is reachable is worth nothing.
    fn for_each_best_deferred_hop(&self, s: &State, movers: u128, mut f: impl FnMut(u8, &Hop)) -> u32 {
        let mut values: Vec<(u8, Jump, u32)> = Vec::new();
        let mut best = 0u32;
        self.for_each_deferred_mover(s, movers, |from, maze, sit| {
            maze.for_each_open_jump(sit, |j| {
                let (new, rest) = maze.value(sit, &j);
                let v = if new || rest > 0 { new as u32 + rest } else { 0 };
                best = best.max(v);
                values.push((from, j, v));
            });
        });
        if best > 0 {
            for (from, j, v) in values {
                if v == best {
                    f(from, &Hop { to: j.to, victim: j.victim, dir: j.dir, steps: j.steps });
                }
            }
        }
        best
    }

    /// Deferred mode: the position after the piece on `from` makes `route`,
    /// a complete maximal sequence (what [`Alquerque::apply_action`] would
    /// reach hop by hop, without counting what is left at every hop).
    fn end_of_route(&self, s: &State, from: u8, route: &[Jump]) -> State {
        let me = s.side.index();
        let to = route.last().map_or(from, |j| j.to);
        let king = s.kings >> from & 1 != 0;
        let captured = route.iter().fold(s.jumped, |acc, j| acc | 1u128 << j.victim);
        let mut end = *s;
        end.pieces[me] = (end.pieces[me] & !(1u128 << from)) | 1u128 << to;
        end.pieces[1 - me] &= !captured;
        end.kings &= !captured;
        if king {
            end.kings = (end.kings & !(1u128 << from)) | 1u128 << to;
        } else if self.geo.far_rank[me] >> to & 1 != 0 {
            end.kings |= 1u128 << to;
        }
        end.clear_sequence();
        end.side = s.side.other();
        self.settle(&mut end);
        end
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

    /// Decides [`State::outcome`] at a turn boundary. Spec, end of game: no
    /// pieces or no legal move on one's turn loses.
    pub(super) fn settle(&self, s: &mut State) {
        let lost = !s.mid_turn() && (s.pieces[s.side.index()] == 0 || !self.has_move(s));
        s.outcome = if lost { Some(Outcome::Win(s.side.other())) } else { None };
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
        self.capturers(s, s.pieces[me]) != 0
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
    pub(super) fn for_each_legal(&self, s: &State, f: impl FnMut(Action)) {
        self.for_each_legal_in(s, &mut Memo::new(), f)
    }

    /// [`Alquerque::for_each_legal`] with the situations counted so far in `memo`.
    fn for_each_legal_in(&self, s: &State, memo: &mut Memo, mut f: impl FnMut(Action)) {
        if s.pieces[s.side.index()] == 0 {
            return;
        }
        let side = s.side;
        let best = self.for_each_best_hop_in(s, memo, |from, h| f(self.encode(side, from, h.dir, h.steps)));
        if best == 0 && !s.mid_turn() {
            self.for_each_simple_move(s, |from, d, steps, _| f(self.encode(side, from, d, steps)));
        }
    }

    /// Applies a legal action.
    pub(super) fn apply_action(&self, s: &mut State, a: Action) -> Applied {
        let me = s.side.index();
        let [from, dir, to, _] = self.actions[me][a.index()];
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
            let more = if self.deferred {
                s.jumped |= vb;
                s.used.insert(&Jump { from, dir, steps: self.actions[me][a.index()][3], to, victim });
                let sit = Situation { at: to, origin: to, used: s.used, jumped: s.jumped };
                self.maze(s, to).max_new(&sit) > 0
            } else {
                s.pieces[1 - me] &= !vb;
                s.kings &= !vb;
                let mut buf = HopBuf::new();
                self.hops(&self.seq_of(s, to, 0), to, &mut buf);
                buf.n > 0
            };
            if more {
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
        self.settle(s);
        Applied::TurnOver
    }

    /// Calls `f(actions, end)` for every complete turn from `s`, in the order
    /// of their first decision. Immediate mode walks the decision tree
    /// breadth first (shorter sequences first); deferred mode lists, per
    /// capturing piece, one route to each point where a maximal sequence can
    /// end ([`Maze::for_each_end`]). Every legal first action starts at least
    /// one reported turn in immediate mode; in deferred mode every reachable
    /// end position is reported once. No dedup of end positions.
    pub(super) fn for_each_turn(&self, s: &State, f: &mut impl FnMut(&[Action], &State)) {
        self.walk_turns(s, true, f)
    }

    /// Calls `f(end)` for every end position of a turn from `s`, the same
    /// positions as [`Alquerque::for_each_turn`] (perft and the searches need
    /// no paths): a mid-turn situation is walked once whatever the first
    /// decision that led to it.
    pub(super) fn for_each_end(&self, s: &State, f: &mut impl FnMut(&State)) {
        self.walk_turns(s, false, &mut |_, e| f(e))
    }

    /// [`Alquerque::for_each_turn`]; with `paths` false, `f` gets no actions
    /// and each situation is walked once for all first decisions.
    fn walk_turns(&self, s: &State, paths: bool, f: &mut impl FnMut(&[Action], &State)) {
        if self.deferred {
            let mut turns: Vec<(Vec<Action>, State)> = Vec::new();
            let best = self.for_each_best_hop(s, |_, _| {});
            if best > 0 {
                let movers = if s.mid_turn() { 1u128 << s.capturing } else { s.pieces[s.side.index()] };
                self.for_each_deferred_mover(s, movers, |from, maze, sit| {
                    if maze.max_new(sit) != best {
                        return;
                    }
                    let play = |route: &[Jump]| {
                        let actions: Vec<Action> =
                            route.iter().map(|j| self.encode(s.side, j.from, j.dir, j.steps)).collect();
                        (actions, self.end_of_route(s, from, route))
                    };
                    maze.for_each_end(sit, |route| turns.push(play(route)));
                    // Every legal first hop starts a listed turn too (a
                    // duplicate end position, which `turns` drops).
                    let mut firsts = Vec::new();
                    maze.for_each_open_jump(sit, |j| {
                        let (new, rest) = maze.value(sit, &j);
                        if (new || rest > 0) && new as u32 + rest == best {
                            firsts.push(j);
                        }
                    });
                    for j in firsts {
                        let a = self.encode(s.side, j.from, j.dir, j.steps);
                        if !turns.iter().any(|(path, _)| path[0] == a) {
                            if let Some(route) = maze.route_starting_with(sit, &j) {
                                turns.push(play(&route));
                            }
                        }
                    }
                });
                turns.sort_by(|a, b| a.0[0].cmp(&b.0[0]));
                for (actions, end) in &turns {
                    f(actions, end);
                }
                return;
            }
        }
        // One table for every decision of the listing, and a mid-turn
        // situation reached again under the same first decision is walked
        // once: breadth first, its first visit has the shortest path, and
        // the turns below it are the same from every visit (they used to be
        // listed once per route, exponentially often with a mulá).
        let mut memo = Memo::new();
        let mut seen: HashSet<(Action, [u128; 2], u128, u8), BuildHasherDefault<crate::core::WordHasher>> = HashSet::default();
        let mut queue = VecDeque::new();
        queue.push_back((*s, Vec::new(), Action(u32::MAX)));
        let mut legal = Vec::new();
        while let Some((cur, path, first)) = queue.pop_front() {
            legal.clear();
            self.for_each_legal_in(&cur, &mut memo, |a| legal.push(a));
            legal.sort_unstable();
            for &a in &legal {
                let mut next = cur;
                let mut p = path.clone();
                if paths {
                    p.push(a);
                }
                let first = if paths && first.0 == u32::MAX { a } else { first };
                if self.apply_action(&mut next, a) == Applied::TurnOver {
                    f(&p, &next);
                } else if seen.insert((first, next.pieces, next.kings, next.capturing)) {
                    queue.push_back((next, p, first));
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
