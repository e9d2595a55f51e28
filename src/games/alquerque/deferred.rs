//! Deferred removal, exactly and in polynomial time.
//!
//! In `removal="deferred"` the pieces a sequence jumps stay on the board
//! until it ends, so the board does not change during a sequence: only the
//! capturing piece moves. The jumps a piece could make then form a fixed
//! *jump graph* on the empty points (the capturing piece's start and current
//! points count as empty), one arc `x → y` per jump over one enemy piece, and
//! every arc has its reverse `y → x` over the same piece (the line between
//! them is the same). A sequence is a trail in that graph: each arc at most
//! once (spec: the same jump may not be made twice), a piece jumped again
//! counts once, and the sequence ends with the jump that captures its last
//! new piece.
//!
//! Two facts make everything exact without search:
//!
//! * **The maximum.** Let `U` be the jumps made so far (a trail from the
//!   origin `o` to the current point `c`) and `R` the arcs not yet made. In
//!   `R` every point has as many arcs in as out except `c` (one more out) and
//!   `o` (one more in), so the weak component of `c` in `R` has an Euler
//!   trail from `c`: a continuation can make *every* remaining jump of that
//!   component, and so capture every piece on one of its arcs. The most new
//!   pieces a continuation captures is therefore the number of not-yet-jumped
//!   pieces on the arcs of `c`'s weak component of `R` (O(arcs) to count).
//! * **Where a sequence can end.** It ends with a jump `a = x → y` over a new
//!   piece `p`, after every other capturable piece. Such an end is possible
//!   iff, in `R` without the arcs over `p`, there is a path `P` from `x` to `o`
//!   such that after removing `P`, `c`'s weak component still holds `x` and an
//!   arc over every other capturable piece: then an Euler trail from `c` to
//!   `x` covers it (the arcs of `P` are covered by their reverses, or their
//!   pieces were jumped already), and conversely any trail `c ⇝ x` leaves such
//!   a path in what it did not use. `P` is found by a 0-1 breadth-first
//!   search that avoids arcs whose reverse was used (the only arcs whose
//!   removal can disconnect anything). At a turn's start (`U` empty) this is
//!   plain connectivity.
//!
//! **Decision** (docs/games/alquerque.md): a re-jump is legal exactly when
//! the maximum can still be completed after it (seed: re-jumps are "para poder
//! capturar más piezas"); nothing else limits the route, and the rule against
//! repeating a jump bounds every sequence by the number of jumps of the
//! graph. Which pieces a turn captures and where it can end do not depend on
//! this choice (a route with a detour can always be shortened), so perft and
//! the turns listed are the same as with detour-free routes.

use super::board::NONE;

/// One jump: from a point, in a direction, over `victim`, landing `steps`
/// points along the line (a pawn's short leap is 2).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Jump {
    pub from: u8,
    pub dir: u8,
    pub steps: u8,
    pub to: u8,
    pub victim: u8,
}

impl Jump {
    #[inline]
    fn slot(&self) -> (usize, u64) {
        (self.from as usize, 1u64 << (self.dir * 8 + self.steps - 1))
    }
}

/// The jumps made in the current sequence, as a set (the order they were
/// made in does not change what may follow): bit `dir * 8 + steps - 1` of
/// word `from`. Unbounded by design: a sequence may make every jump of its
/// graph once.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct JumpSet {
    bits: [u64; 81],
}

impl Default for JumpSet {
    fn default() -> Self {
        JumpSet::EMPTY
    }
}

impl std::fmt::Debug for JumpSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl JumpSet {
    pub const EMPTY: JumpSet = JumpSet { bits: [0; 81] };

    #[inline]
    pub fn contains(&self, j: &Jump) -> bool {
        let (w, b) = j.slot();
        self.bits[w] & b != 0
    }

    #[inline]
    pub fn insert(&mut self, j: &Jump) {
        let (w, b) = j.slot();
        self.bits[w] |= b;
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }

    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// `(from, dir, steps)` of every jump, by point, then direction, then steps.
    pub fn iter(&self) -> impl Iterator<Item = (u8, u8, u8)> + '_ {
        self.bits
            .iter()
            .enumerate()
            .filter(|(_, &w)| w != 0)
            .flat_map(|(from, &w)| crate::bits::SetBits(w).map(move |k| (from as u8, k as u8 / 8, k as u8 % 8 + 1)))
    }

    fn union(&self, other: &JumpSet) -> JumpSet {
        let mut out = *self;
        for (a, b) in out.bits.iter_mut().zip(other.bits.iter()) {
            *a |= *b;
        }
        out
    }
}

/// A deferred sequence's fixed board: what blocks, what may be jumped, and
/// how the capturing piece moves.
pub struct Maze<'a> {
    next: &'a [[u8; 81]; 8],
    /// Every piece but the capturing one (its start and current points are empty).
    occ: u128,
    enemy: u128,
    king: bool,
    /// Every jump of the graph, by start point: those from `q` are
    /// `jumps[first[q]..first[q + 1]]` (computed once: every search below
    /// walks them many times).
    jumps: Vec<Jump>,
    first: [u16; 82],
}

/// Where a sequence can go from a situation: the point reached, the jumps
/// made, the pieces jumped, and the sequence's start point.
#[derive(Copy, Clone, Debug)]
pub struct Situation {
    pub at: u8,
    pub origin: u8,
    pub used: JumpSet,
    pub jumped: u128,
}

/// The jumps from `p` over `enemy` pieces into empty points (`occ`: every
/// occupied point, the capturing piece's own point not included), walking
/// the lines; a pawn (`king` false) jumps the adjacent piece, a mulá flies.
/// Immediate removal asks this for one point at a time: building a whole
/// [`Maze`] for it cost ten times the rest of a step.
pub fn walk_jumps(next: &[[u8; 81]; 8], occ: u128, enemy: u128, king: bool, p: u8, f: impl FnMut(Jump)) {
    walk_jumps_in(next, occ, enemy, king, p, 0xFF, f)
}

/// [`walk_jumps`] in the directions of the set `dirs` only (bit `d`: direction `d`).
#[inline]
pub fn walk_jumps_in(
    next: &[[u8; 81]; 8],
    occ: u128,
    enemy: u128,
    king: bool,
    p: u8,
    dirs: u8,
    mut f: impl FnMut(Jump),
) {
    for d in crate::bits::SetBits(dirs as u64) {
        let d = d as u8;
        let line = &next[d as usize];
        if !king {
            let a = line[p as usize];
            if a == NONE || enemy >> a & 1 == 0 {
                continue;
            }
            let b = line[a as usize];
            if b != NONE && occ >> b & 1 == 0 {
                f(Jump { from: p, dir: d, steps: 2, to: b, victim: a });
            }
        } else {
            let mut q = line[p as usize];
            let mut steps = 1u8;
            while q != NONE && occ >> q & 1 == 0 {
                q = line[q as usize];
                steps += 1;
            }
            if q == NONE || enemy >> q & 1 == 0 {
                continue;
            }
            let victim = q;
            let mut l = line[victim as usize];
            steps += 1;
            while l != NONE && occ >> l & 1 == 0 {
                f(Jump { from: p, dir: d, steps, to: l, victim });
                l = line[l as usize];
                steps += 1;
            }
        }
    }
}

impl<'a> Maze<'a> {
    /// `own` and `enemy` as on the board, the capturing piece standing on `at`.
    pub fn new(next: &'a [[u8; 81]; 8], own: u128, enemy: u128, at: u8, king: bool) -> Maze<'a> {
        let mut maze =
            Maze { next, occ: (own & !(1u128 << at)) | enemy, enemy, king, jumps: Vec::new(), first: [0; 82] };
        let mut jumps = Vec::new();
        for q in 0..81u8 {
            maze.first[q as usize] = jumps.len() as u16;
            // Only an empty point can be a jump's start (the capturing
            // piece's own points are empty here).
            if maze.occ >> q & 1 == 0 {
                maze.walk_jumps(q, |j| jumps.push(j));
            }
        }
        maze.first[81] = jumps.len() as u16;
        maze.jumps = jumps;
        maze
    }

    /// Every jump of the graph from `p`, made or not.
    #[inline]
    pub fn for_each_jump(&self, p: u8, mut f: impl FnMut(Jump)) {
        for &j in &self.jumps[self.first[p as usize] as usize..self.first[p as usize + 1] as usize] {
            f(j)
        }
    }

    /// The jumps from `p`, walking the lines.
    fn walk_jumps(&self, p: u8, f: impl FnMut(Jump)) {
        walk_jumps(self.next, self.occ, self.enemy, self.king, p, f)
    }

    #[inline]
    fn reverse(j: &Jump) -> Jump {
        Jump { from: j.to, dir: (j.dir + 4) & 7, steps: j.steps, to: j.from, victim: j.victim }
    }

    /// The weak component of `start` over the jumps not in `blocked` (an edge
    /// is there while either direction is), ignoring jumps over `skip`:
    /// its points and the pieces its jumps go over.
    fn component(&self, start: u8, blocked: &JumpSet, skip: u8) -> (u128, u128) {
        let mut seen = 1u128 << start;
        let mut victims = 0u128;
        let mut stack = [0u8; 81];
        stack[0] = start;
        let mut n = 1;
        while n > 0 {
            n -= 1;
            let p = stack[n];
            self.for_each_jump(p, |j| {
                if j.victim == skip || (blocked.contains(&j) && blocked.contains(&Self::reverse(&j))) {
                    return;
                }
                victims |= 1u128 << j.victim;
                if seen >> j.to & 1 == 0 {
                    seen |= 1u128 << j.to;
                    stack[n] = j.to;
                    n += 1;
                }
            });
        }
        (seen, victims)
    }

    /// The most new pieces a continuation from `s` captures (module docs).
    pub fn max_new(&self, s: &Situation) -> u32 {
        (self.component(s.at, &s.used, NONE).1 & !s.jumped).count_ones()
    }

    /// `s` after jump `j`.
    #[inline]
    pub fn after(&self, s: &Situation, j: &Jump) -> Situation {
        let mut used = s.used;
        used.insert(j);
        Situation { at: j.to, origin: s.origin, used, jumped: s.jumped | 1u128 << j.victim }
    }

    /// `(new, rest)` of jump `j` from `s`: whether it captures a new piece,
    /// and the most new pieces a continuation captures after it. The jump
    /// begins a maximal sequence iff `new + rest` is the maximum and
    /// `new || rest > 0`; the sequence ends after it iff `rest == 0`.
    pub fn value(&self, s: &Situation, j: &Jump) -> (bool, u32) {
        (s.jumped >> j.victim & 1 == 0, self.max_new(&self.after(s, j)))
    }

    /// Calls `f(jump)` for every jump from `s.at` not made yet.
    pub fn for_each_open_jump(&self, s: &Situation, mut f: impl FnMut(Jump)) {
        self.for_each_jump(s.at, |j| {
            if !s.used.contains(&j) {
                f(j)
            }
        })
    }

    /// Whether a continuation from `s` can end with jump `last` over a new
    /// piece, after capturing every other piece it can (module docs).
    pub fn can_end_with(&self, s: &Situation, last: &Jump) -> bool {
        let p = last.victim;
        if s.jumped >> p & 1 != 0 || s.used.contains(last) {
            return false;
        }
        let capturable = self.component(s.at, &s.used, NONE).1 & !s.jumped;
        if capturable >> p & 1 == 0 {
            return false;
        }
        let required = capturable & !(1u128 << p);
        let x = last.from;
        let (points, victims) = self.component(s.at, &s.used, p);
        if points >> x & 1 == 0 || required & !victims != 0 {
            return false;
        }
        if x == s.origin {
            return true;
        }
        let Some(path) = self.spare_path(s, x, p) else { return false };
        let (points, victims) = self.component(s.at, &s.used.union(&path), p);
        points >> x & 1 != 0 && required & !victims == 0
    }

    /// A path of open jumps (none over `p`) from `x` to the sequence's origin,
    /// using as few jumps whose reverse was made as it can (0-1 BFS).
    fn spare_path(&self, s: &Situation, x: u8, p: u8) -> Option<JumpSet> {
        let mut dist = [u16::MAX; 81];
        let mut prev: [Option<Jump>; 81] = [None; 81];
        let mut deque = std::collections::VecDeque::with_capacity(81);
        dist[x as usize] = 0;
        deque.push_back(x);
        while let Some(u) = deque.pop_front() {
            let du = dist[u as usize];
            self.for_each_jump(u, |j| {
                if j.victim == p || s.used.contains(&j) {
                    return;
                }
                let w = s.used.contains(&Self::reverse(&j)) as u16;
                if du + w < dist[j.to as usize] {
                    dist[j.to as usize] = du + w;
                    prev[j.to as usize] = Some(j);
                    if w == 0 {
                        deque.push_front(j.to);
                    } else {
                        deque.push_back(j.to);
                    }
                }
            });
        }
        if dist[s.origin as usize] == u16::MAX {
            return None;
        }
        let mut path = JumpSet::EMPTY;
        let mut v = s.origin;
        while v != x {
            let j = prev[v as usize].expect("a reached point has a predecessor");
            path.insert(&j);
            v = j.from;
        }
        Some(path)
    }

    /// A sequence from `s` that captures every piece it can and ends with
    /// `last` (which [`Maze::can_end_with`] allows): an Euler trail to
    /// `last.from` through the jumps left once a spare path to the origin is
    /// set aside (module docs), with every detour that captures nothing new
    /// cut out, then `last`. O(jumps).
    pub fn route(&self, s: &Situation, last: &Jump) -> Option<Vec<Jump>> {
        let p = last.victim;
        let x = last.from;
        let blocked = if x == s.origin { s.used } else { s.used.union(&self.spare_path(s, x, p)?) };
        let (points, _) = self.component(s.at, &blocked, p);
        // Open jumps of the component, per point; each is taken once.
        let mut adj: Vec<Vec<Jump>> = vec![Vec::new(); 81];
        let mut bits = points;
        while bits != 0 {
            let q = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            self.for_each_jump(q, |j| {
                if j.victim != p && !blocked.contains(&j) {
                    adj[q as usize].push(j);
                }
            });
        }
        // Hierholzer: the Euler trail from `at`, which ends at `x`.
        let mut next = [0usize; 81];
        let mut stack = vec![(s.at, None::<Jump>)];
        let mut trail = Vec::new();
        while let Some(&(v, via)) = stack.last() {
            if let Some(&j) = adj[v as usize].get(next[v as usize]) {
                next[v as usize] += 1;
                stack.push((j.to, Some(j)));
            } else {
                stack.pop();
                trail.extend(via);
            }
        }
        trail.reverse();
        if trail.last().map_or(s.at, |j| j.to) != x {
            return None;
        }
        // Cut every closed detour that captures nothing new: where the walk
        // comes back to a point with no new piece since it was last there.
        let mut out: Vec<Jump> = Vec::with_capacity(trail.len() + 1);
        let mut seen_at = [usize::MAX; 81]; // route length when last at the point
        let mut captured_at = [0u32; 81];
        let mut jumped = s.jumped;
        let mut captured = 0u32;
        seen_at[s.at as usize] = 0;
        for j in trail {
            out.push(j);
            if jumped >> j.victim & 1 == 0 {
                jumped |= 1u128 << j.victim;
                captured += 1;
            }
            let t = j.to as usize;
            if seen_at[t] != usize::MAX && captured_at[t] == captured {
                // Forget the points of the detour, then cut it.
                for k in seen_at[t]..out.len() - 1 {
                    seen_at[out[k].to as usize] = usize::MAX;
                }
                out.truncate(seen_at[t]);
            }
            seen_at[t] = out.len();
            captured_at[t] = captured;
        }
        self.shorten_rejumps(s, p, &mut out);
        out.push(*last);
        Some(out)
    }

    /// Replaces every run of re-jumps in `route` (jumps over pieces already
    /// jumped) by a shortest run of re-jumps between the same two points
    /// that uses no jump made elsewhere in the sequence, for a shorter
    /// notation. The captures and their order are unchanged.
    fn shorten_rejumps(&self, s: &Situation, p: u8, route: &mut Vec<Jump>) {
        let mut i = 0;
        let mut jumped = s.jumped;
        while i < route.len() {
            if jumped >> route[i].victim & 1 == 0 {
                jumped |= 1u128 << route[i].victim;
                i += 1;
                continue;
            }
            let mut k = i;
            while k < route.len() && jumped >> route[k].victim & 1 != 0 {
                k += 1;
            }
            let from = if i == 0 { s.at } else { route[i - 1].to };
            let to = route[k - 1].to;
            let mut taken = s.used;
            for (n, j) in route.iter().enumerate() {
                if n < i || n >= k {
                    taken.insert(j);
                }
            }
            if let Some(path) = self.shortest_rejumps(from, to, &taken, jumped, p) {
                if path.len() < k - i {
                    let len = path.len();
                    route.splice(i..k, path);
                    k = i + len;
                }
            }
            i = k;
        }
    }

    /// A shortest path of open jumps (none in `taken`, none over `p`, each
    /// over a piece in `jumped`) from `from` to `to`.
    fn shortest_rejumps(&self, from: u8, to: u8, taken: &JumpSet, jumped: u128, p: u8) -> Option<Vec<Jump>> {
        let mut prev: [Option<Jump>; 81] = [None; 81];
        let mut seen = 1u128 << from;
        let mut queue = std::collections::VecDeque::with_capacity(81);
        queue.push_back(from);
        while let Some(u) = queue.pop_front() {
            if u == to {
                break;
            }
            self.for_each_jump(u, |j| {
                if j.victim != p && jumped >> j.victim & 1 != 0 && !taken.contains(&j) && seen >> j.to & 1 == 0 {
                    seen |= 1u128 << j.to;
                    prev[j.to as usize] = Some(j);
                    queue.push_back(j.to);
                }
            });
        }
        if seen >> to & 1 == 0 {
            return None;
        }
        let mut path = Vec::new();
        let mut v = to;
        while v != from {
            let j = prev[v as usize]?;
            path.push(j);
            v = j.from;
        }
        path.reverse();
        Some(path)
    }

    /// Every way a maximal continuation from `s` can end, one route per end
    /// point (the point decides the end position: the captured pieces are
    /// always all those the continuation can reach). Empty when nothing is
    /// capturable.
    pub fn for_each_end(&self, s: &Situation, mut f: impl FnMut(&[Jump])) {
        self.for_each_end_until(s, &mut |route| {
            f(route);
            true
        })
    }

    /// [`Maze::for_each_end`] until `f` answers false. Per piece `p` that
    /// could be the last: the component without `p`'s jumps must hold every
    /// other capturable piece; then each open jump over `p` from a point of
    /// that component may end the sequence (at a turn's start always, since
    /// every jump's reverse is still open; mid-sequence when a spare path to
    /// the origin exists, [`Maze::can_end_with`]).
    fn for_each_end_until(&self, s: &Situation, f: &mut dyn FnMut(&[Jump]) -> bool) {
        let capturable = self.component(s.at, &s.used, NONE).1 & !s.jumped;
        let mut ended = 0u128;
        let mut lasts = capturable;
        while lasts != 0 {
            let p = lasts.trailing_zeros() as u8;
            lasts &= lasts - 1;
            let required = capturable & !(1u128 << p);
            let (points, victims) = self.component(s.at, &s.used, p);
            if required & !victims != 0 {
                continue;
            }
            let mut bits = points;
            while bits != 0 {
                let x = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let mut over_p = Vec::new();
                self.for_each_jump(x, |j| {
                    if j.victim == p && !s.used.contains(&j) {
                        over_p.push(j)
                    }
                });
                for last in over_p {
                    if ended >> last.to & 1 != 0 {
                        continue;
                    }
                    let fresh = s.used.is_empty() || x == s.origin;
                    if !fresh && !self.can_end_with(s, &last) {
                        continue;
                    }
                    if let Some(route) = self.route(s, &last) {
                        ended |= 1u128 << last.to;
                        if !f(&route) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// A route from `s` that starts with `first` (a jump that begins a
    /// maximal sequence) and ends wherever the first end found after it is.
    pub fn route_starting_with(&self, s: &Situation, first: &Jump) -> Option<Vec<Jump>> {
        let after = self.after(s, first);
        if self.max_new(&after) == 0 {
            return Some(vec![*first]);
        }
        let mut found = None;
        self.for_each_end_until(&after, &mut |route| {
            found = Some(std::iter::once(*first).chain(route.iter().copied()).collect());
            false
        });
        found
    }

    /// The sequence's start point, from the jumps made (a trail from it to
    /// `at`): the point with one more jump out than in, or `at` itself.
    pub fn origin_of(used: &JumpSet, at: u8, next: &[[u8; 81]; 8]) -> Option<u8> {
        let mut balance = [0i32; 81];
        for (from, dir, steps) in used.iter() {
            let mut to = from;
            for _ in 0..steps {
                to = next[dir as usize][to as usize];
                if to == NONE {
                    return None;
                }
            }
            balance[from as usize] += 1;
            balance[to as usize] -= 1;
        }
        let plus: Vec<u8> = (0..81u8).filter(|&q| balance[q as usize] == 1).collect();
        let minus: Vec<u8> = (0..81u8).filter(|&q| balance[q as usize] == -1).collect();
        let other = balance.iter().any(|&b| b.abs() > 1);
        match (plus.as_slice(), minus.as_slice(), other) {
            ([], [], false) => Some(at),
            ([o], [c], false) if *c == at => Some(*o),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::alquerque::board::Geometry;
    use rand::{Rng, RngExt, SeedableRng};

    /// Brute force: every trail from `s` (each jump at most once), the most
    /// new pieces captured, and the points where a maximal one ends (its last
    /// jump captures a new piece).
    fn brute(m: &Maze, s: &Situation) -> Option<(u32, u128)> {
        fn walk(m: &Maze, s: &Situation, base: u128, best: &mut (u32, u128), budget: &mut u64) {
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            let mut jumps = Vec::new();
            m.for_each_open_jump(s, |j| jumps.push(j));
            for j in jumps {
                let t = m.after(s, &j);
                if s.jumped >> j.victim & 1 == 0 {
                    let n = (t.jumped & !base).count_ones();
                    if n > best.0 {
                        *best = (n, 0);
                    }
                    if n == best.0 {
                        best.1 |= 1u128 << j.to;
                    }
                }
                walk(m, &t, base, best, budget);
            }
        }
        let mut best = (0, 0);
        let mut budget = 100_000u64;
        walk(m, s, s.jumped, &mut best, &mut budget);
        // Too many trails to enumerate in a test: no verdict.
        (budget > 0).then_some(best)
    }

    fn ends(m: &Maze, s: &Situation) -> u128 {
        let mut out = 0u128;
        m.for_each_end(s, |route| {
            // Every route is a real maximal sequence ending with a new capture.
            let mut cur = *s;
            for (i, j) in route.iter().enumerate() {
                assert!(!cur.used.contains(j), "route repeats a jump");
                let mut open = false;
                m.for_each_open_jump(&cur, |k| open |= k == *j);
                assert!(open, "route makes a jump that is not there");
                let (new, rest) = m.value(&cur, j);
                if i + 1 == route.len() {
                    assert!(new && rest == 0, "route must end with its last new capture");
                } else {
                    assert!(rest > 0, "route stops capturing before its end");
                }
                cur = m.after(&cur, j);
            }
            assert_eq!((cur.jumped & !s.jumped).count_ones(), m.max_new(s));
            out |= 1u128 << route.last().unwrap().to;
        });
        out
    }

    /// A random legal prefix: each jump keeps the maximum within reach.
    fn random_prefix(m: &Maze, s: &Situation, rng: &mut impl Rng, hops: usize) -> Situation {
        let mut cur = *s;
        let best = m.max_new(s);
        for _ in 0..hops {
            let mut legal = Vec::new();
            m.for_each_open_jump(&cur, |j| {
                let (new, rest) = m.value(&cur, &j);
                let captured = (cur.jumped & !s.jumped).count_ones() + new as u32;
                if captured + rest == best && rest > 0 {
                    legal.push(j);
                }
            });
            if legal.is_empty() {
                break;
            }
            let j = legal[rng.random_range(0..legal.len())];
            cur = m.after(&cur, &j);
        }
        cur
    }

    fn random_case(g: &Geometry, rng: &mut impl Rng) -> (u128, u128, u8, bool) {
        let pts: Vec<u8> = g.by_ordinal.iter().map(|p| p.0).collect();
        let mut taken = 0u128;
        let mut pick = |rng: &mut dyn FnMut(usize) -> usize| loop {
            let p = pts[rng(pts.len())];
            if taken >> p & 1 == 0 {
                taken |= 1u128 << p;
                return p;
            }
        };
        let mut r = |n: usize| rng.random_range(0..n);
        let at = pick(&mut r);
        let king = r(2) == 0;
        let nenemy = 2 + r(if king { 4 } else { 7 });
        let mut enemy = 0u128;
        for _ in 0..nenemy {
            enemy |= 1u128 << pick(&mut r);
        }
        let mut own = 1u128 << at;
        for _ in 0..r(4) {
            own |= 1u128 << pick(&mut r);
        }
        (own, enemy, at, king)
    }

    #[test]
    fn maximum_and_end_points_match_brute_force_at_turn_start_and_mid_sequence() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let mut checked = [0u32; 2];
        for g in [Geometry::kharbaga(), Geometry::zamma()] {
            for _ in 0..150 {
                let (own, enemy, at, king) = random_case(&g, &mut rng);
                let m = Maze::new(&g.next, own, enemy, at, king);
                let start = Situation { at, origin: at, used: JumpSet::EMPTY, jumped: 0 };
                if m.max_new(&start) == 0 {
                    continue;
                }
                for hops in [0usize, 1, 3, 6] {
                    let s = random_prefix(&m, &start, &mut rng, hops);
                    let Some((max, end_points)) = brute(&m, &s) else { continue };
                    assert_eq!(m.max_new(&s), max, "{} {s:?} own {own:x} enemy {enemy:x} king {king}", g.name);
                    assert_eq!(ends(&m, &s), end_points, "{} {s:?} own {own:x} enemy {enemy:x} king {king}", g.name);
                    assert_eq!(Maze::origin_of(&s.used, s.at, &g.next), Some(at));
                    checked[(hops > 0) as usize] += 1;
                }
            }
        }
        assert!(checked[0] > 40 && checked[1] > 120, "{checked:?}");
    }
}
