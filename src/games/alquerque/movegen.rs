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
use std::collections::{HashMap, HashSet};
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
    /// The enemy pieces this sequence could ever take
    /// ([`Alquerque::takeable`] for the capturing piece, the mover's other
    /// pieces standing still): a situation can capture at most those of
    /// them still on the board.
    takeable: u128,
    /// The points that block for ever during the sequence: the mover's
    /// pieces that stay put, the enemy pieces it cannot take.
    wall: u128,
    /// The relaxed capture graph of the sequence ([`Alquerque::successors`]),
    /// counted once the search is big enough to pay for it.
    succ: Option<std::rc::Rc<[u128; 81]>>,
    /// Situations this sequence's search has expanded.
    expanded: u32,
}

/// Situations a mover's search expands before it counts its relaxed
/// capture graph (most searches are a capture or two, and counting the
/// graph would cost more than they do).
const GRAPH_AFTER: u32 = 64;

thread_local! {
    static SEARCH_NODES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Nodes the immediate-removal majority search has expanded on this thread
/// so far (for benchmarks and node-count tests: load does not change it).
pub fn majority_search_nodes() -> u64 {
    SEARCH_NODES.with(|n| n.get())
}

/// What [`Alquerque::reach`] has proven about situations (capturing point,
/// own pieces, enemy pieces) within one decision, or one listing of a
/// position's turns: `lo`, a number of captures some continuation makes, and
/// `hi`, a number no continuation exceeds. The same situation is reached by
/// many routes (the same pieces taken in another order, a mulá landing on
/// another point behind the same piece), and without this table each route
/// searched it again, exponentially often in the number of pieces a mulá
/// could take. Open addressing, linear probing, grown at half full.
struct Memo {
    slots: Vec<Slot>,
    len: usize,
    /// The [`Alquerque::takeable`] sets counted so far: (still, enemy,
    /// takeable). A listing's later decisions reuse them (the same pieces
    /// still, the enemy's a subset: a superset of what they can take).
    peeled: Vec<(u128, u128, u128)>,
    /// The [`Alquerque::successors`] graphs counted so far: (wall,
    /// takeable, king, graph).
    graphs: Vec<(u128, u128, bool, std::rc::Rc<[u128; 81]>)>,
}

#[derive(Copy, Clone)]
struct Slot {
    own: u128,
    enemy: u128,
    /// Capturing point | 0x80 for a mulá; [`Slot::EMPTY`] marks a free slot.
    tag: u8,
    lo: u8,
    hi: u8,
}

impl Slot {
    const EMPTY: u8 = 0xFF;
}

impl Memo {
    fn new() -> Memo {
        Memo { slots: Vec::new(), len: 0, peeled: Vec::new(), graphs: Vec::new() }
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

    /// The bounds proven for a situation, `(lo, hi)`.
    #[inline]
    fn get(&self, own: u128, enemy: u128, tag: u8) -> Option<(u32, u32)> {
        if self.slots.is_empty() {
            return None;
        }
        let e = &self.slots[self.find(own, enemy, tag)];
        (e.tag != Slot::EMPTY).then_some((e.lo as u32, e.hi as u32))
    }

    /// Records bounds proven for a situation (kept with those proven before).
    fn prove(&mut self, own: u128, enemy: u128, tag: u8, lo: u32, hi: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            let size = (2 * self.slots.len()).max(64);
            let empty = Slot { own: 0, enemy: 0, tag: Slot::EMPTY, lo: 0, hi: 0 };
            let old = std::mem::replace(&mut self.slots, vec![empty; size]);
            self.len = 0;
            for e in old.into_iter().filter(|e| e.tag != Slot::EMPTY) {
                self.prove(e.own, e.enemy, e.tag, e.lo as u32, e.hi as u32);
            }
        }
        let i = self.find(own, enemy, tag);
        let e = &mut self.slots[i];
        if e.tag == Slot::EMPTY {
            *e = Slot { own, enemy, tag, lo: lo as u8, hi: hi as u8 };
            self.len += 1;
        } else {
            e.lo = e.lo.max(lo as u8);
            e.hi = e.hi.min(hi as u8);
        }
    }

    /// [`Alquerque::takeable`], counted once per (still, enemy) in a decision
    /// or listing.
    fn takeable(&mut self, r: &Alquerque, still: u128, enemy: u128) -> u128 {
        if let Some(&(_, _, t)) = self.peeled.iter().find(|(st, e, _)| *st == still && enemy & !e == 0) {
            return t;
        }
        let t = r.takeable(still, enemy);
        self.peeled.push((still, enemy, t));
        t
    }

    /// The [`Alquerque::successors`] graph already counted for a mover, if
    /// any (a listing's later decisions start their search with it).
    fn counted_successors(&self, wall: u128, takeable: u128, king: bool) -> Option<std::rc::Rc<[u128; 81]>> {
        self.graphs.iter().find(|(w, t, k, _)| *w == wall && *t == takeable && *k == king).map(|g| g.3.clone())
    }

    /// [`Alquerque::successors`], counted once per mover in a decision or
    /// listing.
    fn successors(&mut self, r: &Alquerque, wall: u128, takeable: u128, king: bool) -> std::rc::Rc<[u128; 81]> {
        if let Some((_, _, _, g)) = self.graphs.iter().find(|(w, t, k, _)| *w == wall && *t == takeable && *k == king) {
            return g.clone();
        }
        let g = std::rc::Rc::new(r.successors(wall, takeable, king));
        self.graphs.push((wall, takeable, king, g.clone()));
        g
    }
}

/// The decision graph of one turn in immediate mode: every mid-turn
/// situation once, with its legal decisions in order, and the positions the
/// turn can end in.
#[derive(Default)]
struct TurnGraph {
    nodes: Vec<Node>,
    index: HashMap<([u128; 2], u128, u8), u32, BuildHasherDefault<crate::core::WordHasher>>,
    /// Distinct end positions (spec: moves that produce the same position
    /// are one move).
    ends: Vec<State>,
    end_index: HashMap<([u128; 2], u128), u32, BuildHasherDefault<crate::core::WordHasher>>,
}

struct Node {
    hops: Vec<(Action, Child)>,
}

#[derive(Copy, Clone)]
enum Child {
    Mid(u32),
    End(u32),
}

impl TurnGraph {
    /// Reports `(path, end)` for each end position below `child` not yet in
    /// `reported`, by the smallest path (`path` holds the way to `child`).
    fn walk(
        &self,
        child: Child,
        path: &mut Vec<Action>,
        visited: &mut HashSet<u32, BuildHasherDefault<crate::core::WordHasher>>,
        reported: &mut HashSet<u32, BuildHasherDefault<crate::core::WordHasher>>,
        f: &mut impl FnMut(&[Action], &State),
    ) {
        match child {
            Child::End(e) => {
                if reported.insert(e) {
                    f(path, &self.ends[e as usize]);
                }
            }
            Child::Mid(id) => {
                if !visited.insert(id) {
                    return;
                }
                for &(a, c) in &self.nodes[id as usize].hops {
                    path.push(a);
                    self.walk(c, path, visited, reported, f);
                    path.pop();
                }
            }
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

    /// Immediate mode: whether a continuation from `pos` captures at least
    /// `need` more pieces: a result `>= need` says yes; a result below
    /// `need` says no, and is a number of captures no continuation exceeds
    /// (so that a caller looking for the maximum can ask that next). Exact,
    /// with no budget: a situation is searched until a continuation reaches
    /// `need` or every one is proven short, and what is proven is kept in
    /// `memo` (a later question about the same situation is answered from
    /// it, or searched only as far as its bounds leave open). Every hop
    /// removes a piece, so the takeable pieces left bound the answer
    /// ([`Alquerque::takeable`]).
    fn reach(&self, seq: &mut Seq, memo: &mut Memo, pos: u8, need: u32) -> u32 {
        if need == 0 {
            return 0;
        }
        let limit = (seq.enemy & seq.takeable).count_ones();
        if limit < need {
            return limit;
        }
        let tag = pos | (seq.king as u8) << 7;
        let (lo, hi) = memo.get(seq.own, seq.enemy, tag).unwrap_or((0, limit));
        if lo >= need {
            return lo;
        }
        if hi < need {
            return hi;
        }
        SEARCH_NODES.with(|n| n.set(n.get() + 1));
        let mut buf = HopBuf::new();
        self.hops(seq, pos, &mut buf);
        if buf.n == 0 {
            // A situation without a further capture costs one look at its
            // hops: not worth a slot.
            return 0;
        }
        if need == 1 {
            return 1;
        }
        if seq.succ.is_none() {
            seq.expanded += 1;
            if seq.expanded >= GRAPH_AFTER {
                seq.succ = Some(memo.successors(self, seq.wall, seq.takeable, seq.king));
            }
        }
        if let Some(succ) = &seq.succ {
            let bound = Self::graph_bound(succ, seq.enemy & seq.takeable, &buf);
            if bound < need {
                memo.prove(seq.own, seq.enemy, tag, 1, bound);
                return bound;
            }
        }
        self.order_hops(seq, pos, &mut buf);
        let mut bound = 1;
        for h in buf.as_slice() {
            let saved = (seq.own, seq.enemy);
            self.make(seq, pos, h);
            let r = self.reach(seq, memo, h.to, need - 1);
            (seq.own, seq.enemy) = saved;
            if r >= need - 1 {
                memo.prove(seq.own, seq.enemy, tag, need, hi);
                return need;
            }
            bound = bound.max(1 + r);
        }
        memo.prove(seq.own, seq.enemy, tag, 1, bound);
        bound
    }

    /// Immediate mode: the most pieces a continuation from `pos` captures,
    /// if at least `floor` (otherwise some number below `floor`). Asked from
    /// the top: at the takeable bound first, then at each bound a failed
    /// question proves, so that where the bound is reached (most capture
    /// mazes) no continuation needs to be proven short.
    fn most(&self, seq: &mut Seq, memo: &mut Memo, pos: u8, floor: u32) -> u32 {
        let mut k = (seq.enemy & seq.takeable).count_ones();
        loop {
            let r = self.reach(seq, memo, pos, k);
            if r >= k || r < floor {
                return r.min(k);
            }
            k = r;
        }
    }

    /// At most how many pieces a continuation takes, by the relaxed capture
    /// graph `succ` over the pieces `left`: the first capture is one of the
    /// hops `buf`, each later one follows an arc from the piece taken
    /// before, so only the pieces reachable from the first victims can be
    /// taken; and a piece with no arc to a piece still left ends any
    /// sequence that takes it (pieces only leave), so of those at most one
    /// counts.
    fn graph_bound(succ: &[u128; 81], left: u128, buf: &HopBuf) -> u32 {
        let mut reach = 0u128;
        for h in buf.as_slice() {
            reach |= 1u128 << h.victim;
        }
        let mut frontier = reach;
        while frontier != 0 {
            let mut next = 0u128;
            for v in crate::bits::SetBits(frontier) {
                next |= succ[v];
            }
            next &= left & !reach;
            reach |= next;
            frontier = next;
        }
        let mut ends = 0;
        for v in crate::bits::SetBits(reach) {
            ends += (succ[v] & left & !(1u128 << v) == 0) as u32;
        }
        reach.count_ones() - ends + ends.min(1)
    }

    /// The relaxed capture graph of a sequence by a piece (`king`: a mulá)
    /// among points of which `wall` block for ever (the mover's pieces that
    /// stay put, the enemy pieces no sequence can take) and the enemy pieces
    /// `takeable` may leave: an arc `v -> w` when some capture of `v` lands
    /// where `w` can be captured next, were every takeable piece in the way
    /// already gone. Every sequence follows its arcs.
    fn successors(&self, wall: u128, takeable: u128, king: bool) -> [u128; 81] {
        let next = &self.geo.next;
        let open = |p: u8| p != NONE && wall >> p & 1 == 0;
        let mut succ = [0u128; 81];
        for v in crate::bits::SetBits(takeable) {
            let v = v as u8;
            for d in 0..8 {
                // Captured along `d`: the jumper comes from the point before
                // `v` and lands behind it.
                if !open(next[(d + 4) & 7][v as usize]) {
                    continue;
                }
                let mut y = next[d][v as usize];
                while open(y) {
                    for line in next.iter() {
                        let mut z = line[y as usize];
                        while open(z) {
                            if takeable >> z & 1 != 0 && z != v && open(line[z as usize]) {
                                succ[v as usize] |= 1u128 << z;
                            }
                            if !king {
                                break;
                            }
                            z = line[z as usize];
                        }
                    }
                    if !king {
                        break;
                    }
                    y = next[d][y as usize];
                }
            }
        }
        succ
    }

    /// Tries the hops most likely to lead far first: those landing where
    /// the piece has the fewest continuations (but some) come first, as in
    /// Warnsdorff's rule for a knight's tour: a piece that is hard to reach
    /// is taken while it still can be, and the easy ones stay for later.
    fn order_hops(&self, seq: &mut Seq, pos: u8, buf: &mut HopBuf) {
        let n = buf.n;
        if n < 2 {
            return;
        }
        let mut keys = [0u8; 56];
        for (i, &h) in buf.h[..n].iter().enumerate() {
            let saved = (seq.own, seq.enemy);
            self.make(seq, pos, &h);
            let mut next = HopBuf::new();
            self.hops(seq, h.to, &mut next);
            (seq.own, seq.enemy) = saved;
            keys[i] = if next.n == 0 { 0xFF } else { next.n as u8 };
        }
        let mut idx: [u8; 56] = std::array::from_fn(|i| i as u8);
        idx[..n].sort_by_key(|&i| keys[i as usize]);
        let old = buf.h;
        for i in 0..n {
            buf.h[i] = old[idx[i] as usize];
        }
    }

    /// The search's view of a sequence by the piece on `from` (its takeable
    /// set still to count).
    fn seq_of(&self, s: &State, from: u8) -> Seq {
        let me = s.side.index();
        let own = s.pieces[me];
        Seq {
            own,
            enemy: s.pieces[1 - me],
            king: s.kings >> from & 1 != 0,
            takeable: !0,
            wall: own & !(1u128 << from),
            succ: None,
            expanded: 0,
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
                if set >> line[p] & 1 != 0 {
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

    /// [`Alquerque::for_each_best_hop`] in immediate mode, with what was
    /// proven so far in `memo` (this decision's, or that of every decision of
    /// the turns being listed: what a situation can capture does not depend
    /// on the route to it).
    ///
    /// The maximum is raised hop by hop: a hop is worth at least `k` when a
    /// continuation after it captures `k - 1` ([`Alquerque::reach`]), and a
    /// hop is only asked whether it reaches the best found so far, then
    /// whether it beats it. Only the last question for each hop can need a
    /// proof over every continuation; a mover whose takeable pieces are
    /// fewer than the best found is not searched at all.
    fn for_each_best_immediate_hop(
        &self,
        s: &State,
        movers: u128,
        memo: &mut Memo,
        mut f: impl FnMut(u8, &Hop),
    ) -> u32 {
        let me = s.side.index();
        // Every first hop, and whether it can go on: most decisions take one
        // piece, and need neither the takeable sets nor the table.
        let mut roots: Vec<(u8, Hop, bool)> = Vec::new();
        let mut any_more = false;
        for from in crate::bits::SetBits(movers) {
            let from = from as u8;
            let mut seq = self.seq_of(s, from);
            let mut buf = HopBuf::new();
            self.hops(&seq, from, &mut buf);
            for h in buf.as_slice() {
                let saved = (seq.own, seq.enemy);
                self.make(&mut seq, from, h);
                let mut next = HopBuf::new();
                self.hops(&seq, h.to, &mut next);
                (seq.own, seq.enemy) = saved;
                any_more |= next.n > 0;
                roots.push((from, *h, next.n > 0));
            }
        }
        if roots.is_empty() {
            return 0;
        }
        if !any_more {
            for (from, h, _) in &roots {
                f(*from, h);
            }
            return 1;
        }
        // The maximum, mover by mover (those that could take the most
        // first): each mover is asked only whether it reaches the best so
        // far, and a mover whose takeable pieces are fewer is skipped.
        let mut by_mover: Vec<(u8, u128, u32)> = Vec::new();
        for from in crate::bits::SetBits(movers) {
            let from = from as u8;
            let still = s.pieces[me] & !(1u128 << from);
            let t = memo.takeable(self, still, s.pieces[1 - me]);
            by_mover.push((from, t, (t & s.pieces[1 - me]).count_ones()));
        }
        by_mover.sort_by_key(|m| std::cmp::Reverse(m.2));
        let mut best = 1u32;
        let mut values = Vec::with_capacity(by_mover.len());
        for &(from, takeable, limit) in &by_mover {
            let v = if limit < best {
                0
            } else {
                let mut seq = self.seq_of(s, from);
                seq.wall |= seq.enemy & !takeable;
                seq.takeable = takeable;
                seq.succ = memo.counted_successors(seq.wall, takeable, seq.king);
                self.most(&mut seq, memo, from, best)
            };
            best = best.max(v);
            values.push(v);
        }
        // The legal hops: those after which the rest of the maximum can
        // still be taken. What is proven here serves the next decisions of
        // a listing: the maximum from each best mover's point, and that no
        // hop leads further.
        let mut chosen: Vec<(u8, Hop)> = Vec::new();
        for (&(from, takeable, _), &v) in by_mover.iter().zip(&values) {
            if v != best {
                continue;
            }
            let mut seq = self.seq_of(s, from);
            seq.wall |= seq.enemy & !takeable;
            seq.takeable = takeable;
            seq.succ = memo.counted_successors(seq.wall, takeable, seq.king);
            memo.prove(seq.own, seq.enemy, from | (seq.king as u8) << 7, best, best);
            for (_, h, more) in roots.iter().filter(|r| r.0 == from) {
                if !more {
                    continue;
                }
                let saved = (seq.own, seq.enemy);
                self.make(&mut seq, from, h);
                let tag = h.to | (seq.king as u8) << 7;
                if self.reach(&mut seq, memo, h.to, best - 1) >= best - 1 {
                    chosen.push((from, *h));
                    memo.prove(seq.own, seq.enemy, tag, best - 1, best - 1);
                } else {
                    memo.prove(seq.own, seq.enemy, tag, 1, best - 2);
                }
                (seq.own, seq.enemy) = saved;
            }
        }
        // In the order of the movers and their hops (the order of the listing).
        let order = |m: &(u8, Hop)| roots.iter().position(|r| r.0 == m.0 && r.1 == m.1);
        chosen.sort_by_key(order);
        for (from, h) in &chosen {
            f(*from, h);
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
                self.hops(&self.seq_of(s, to), to, &mut buf);
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
        // Immediate mode: the decision graph of the turn, each mid-turn
        // situation once (its legal hops decided once, with one table for
        // every decision), then the turns read off it.
        let mut graph = TurnGraph::default();
        let mut memo = Memo::new();
        let root = self.turn_graph(s, &mut graph, &mut memo);
        if !paths {
            for end in &graph.ends {
                f(&[], end);
            }
            return;
        }
        // Per first decision, in order, a walk of the graph in the order of
        // the decisions: the first visit of a situation comes by the
        // smallest path to it, and so does the first report of each end
        // position (every path of a turn has the same length: one hop per
        // piece of the maximum). A situation visited before under the same
        // first decision leads to nothing new.
        let mut path = Vec::new();
        for &(a, child) in &graph.nodes[root as usize].hops {
            let mut visited = HashSet::<u32, BuildHasherDefault<crate::core::WordHasher>>::default();
            let mut reported = HashSet::<u32, BuildHasherDefault<crate::core::WordHasher>>::default();
            path.clear();
            path.push(a);
            graph.walk(child, &mut path, &mut visited, &mut reported, f);
        }
    }

    /// Immediate mode: adds the situation `s` and every mid-turn situation
    /// below it to `graph` (each once), with their legal decisions; returns
    /// its node.
    fn turn_graph(&self, s: &State, graph: &mut TurnGraph, memo: &mut Memo) -> u32 {
        let key = (s.pieces, s.kings, s.capturing);
        if let Some(&id) = graph.index.get(&key) {
            return id;
        }
        let id = graph.nodes.len() as u32;
        graph.nodes.push(Node { hops: Vec::new() });
        graph.index.insert(key, id);
        let mut legal = Vec::new();
        self.for_each_legal_in(s, memo, |a| legal.push(a));
        legal.sort_unstable();
        let mut hops = Vec::with_capacity(legal.len());
        for a in legal {
            let mut next = *s;
            let child = if self.apply_action(&mut next, a) == Applied::TurnOver {
                let n = graph.ends.len() as u32;
                let e = *graph.end_index.entry((next.pieces, next.kings)).or_insert(n);
                if e == n {
                    graph.ends.push(next);
                }
                Child::End(e)
            } else {
                Child::Mid(self.turn_graph(&next, graph, memo))
            };
            hops.push((a, child));
        }
        graph.nodes[id as usize].hops = hops;
        id
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
