//! The immediate-removal majority search as it was before the memo (issue
//! #13), kept for tests only: every route searched again, the budget reset
//! for every root hop. The memoized search must give the same legal hops
//! wherever this one was not cut by its budget.

use super::{Hop, HopBuf, Seq, SEARCH_BUDGET};
use crate::games::alquerque::rules::Alquerque;
use crate::games::alquerque::state::State;

impl Alquerque {
    fn old_best(&self, seq: &mut Seq, pos: u8, limit: u32, nodes: &mut u64) -> u32 {
        if limit == 0 {
            return 0;
        }
        if seq.budget == 0 {
            seq.cut = true;
            return 0;
        }
        seq.budget -= 1;
        *nodes += 1;
        let mut buf = HopBuf::new();
        self.hops(seq, pos, &mut buf);
        let mut best = 0;
        for h in buf.as_slice() {
            let v = self.old_hop_value(seq, pos, h, limit, nodes);
            if v > best {
                best = v;
                if best >= limit {
                    return best;
                }
            }
        }
        best
    }

    fn old_hop_value(&self, seq: &mut Seq, from: u8, h: &Hop, limit: u32, nodes: &mut u64) -> u32 {
        let saved = (seq.own, seq.enemy);
        self.make(seq, from, h);
        let v = 1 + self.old_best(seq, h.to, limit - 1, nodes);
        (seq.own, seq.enemy) = saved;
        v
    }

    /// The hops beginning a maximal sequence by the unmemoized search (as
    /// `(from, hop)`), its maximum, its nodes, and whether any root hop
    /// reached the budget.
    pub(in crate::games::alquerque) fn unmemoized_best_hops(&self, s: &State) -> (Vec<(u8, Hop)>, u32, u64, bool) {
        assert!(!self.deferred);
        let me = s.side.index();
        let movers = if s.mid_turn() { 1u128 << s.capturing } else { self.capturers(s, s.pieces[me]) };
        let limit = s.pieces[1 - me].count_ones();
        let (mut values, mut nodes, mut cut) = (Vec::new(), 0u64, false);
        for from in crate::bits::SetBits(movers) {
            let from = from as u8;
            let mut seq = self.seq_of(s, from, 0);
            let mut buf = HopBuf::new();
            self.hops(&seq, from, &mut buf);
            for h in buf.as_slice() {
                seq.budget = SEARCH_BUDGET;
                seq.cut = false;
                let v = self.old_hop_value(&mut seq, from, h, limit, &mut nodes);
                cut |= seq.cut;
                values.push((from, *h, v));
            }
        }
        let best = values.iter().map(|v| v.2).max().unwrap_or(0);
        let hops = if best == 0 { Vec::new() } else { values.iter().filter(|v| v.2 == best).map(|v| (v.0, v.1)).collect() };
        (hops, best, nodes, cut)
    }
}

impl Alquerque {
    /// Every complete turn as the listing did before the memo: breadth first
    /// over every route, the unmemoized search at every decision; per end
    /// position the first path found (what `turns()` keeps), in order.
    pub(in crate::games::alquerque) fn unmemoized_turns(&self, s: &State) -> Vec<(Vec<crate::core::Action>, State)> {
        use crate::core::Applied;
        let mut out: Vec<(Vec<crate::core::Action>, State)> = Vec::new();
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((*s, Vec::new()));
        while let Some((cur, path)) = queue.pop_front() {
            let (hops, _, _, _) = self.unmemoized_best_hops(&cur);
            let mut legal: Vec<crate::core::Action> =
                hops.iter().map(|(from, h)| self.encode(cur.side, *from, h.dir, h.steps)).collect();
            if legal.is_empty() && !cur.mid_turn() {
                self.for_each_simple_move(&cur, |from, d, steps, _| legal.push(self.encode(cur.side, from, d, steps)));
            }
            legal.sort_unstable();
            for a in legal {
                let mut next = cur;
                let mut p = path.clone();
                p.push(a);
                if self.apply_action(&mut next, a) == Applied::TurnOver {
                    if !out.iter().any(|(_, e)| *e == next) {
                        out.push((p, next));
                    }
                } else {
                    queue.push_back((next, p));
                }
            }
        }
        out
    }
}
