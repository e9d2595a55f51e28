//! The immediate-removal majority search by brute force, for tests only:
//! every sequence of every piece walked in full, no table, no bound but the
//! count of enemy pieces, no budget. The engine's search must give the same
//! maximum, the same legal hops and the same turns.

use super::{Hop, HopBuf, Seq};
use crate::games::alquerque::rules::Alquerque;
use crate::games::alquerque::state::State;

impl Alquerque {
    fn old_best(&self, seq: &mut Seq, pos: u8, limit: u32, nodes: &mut u64) -> u32 {
        if limit == 0 {
            return 0;
        }
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

    /// The hops beginning a maximal sequence by brute force (as
    /// `(from, hop)`, in the order of the pieces and their hops), the
    /// maximum, and the nodes walked.
    pub(in crate::games::alquerque) fn unmemoized_best_hops(&self, s: &State) -> (Vec<(u8, Hop)>, u32, u64) {
        assert!(!self.deferred);
        let me = s.side.index();
        let movers = if s.mid_turn() { 1u128 << s.capturing } else { self.capturers(s, s.pieces[me]) };
        let limit = s.pieces[1 - me].count_ones();
        let (mut values, mut nodes) = (Vec::new(), 0u64);
        for from in crate::bits::SetBits(movers) {
            let from = from as u8;
            let mut seq = self.seq_of(s, from);
            let mut buf = HopBuf::new();
            self.hops(&seq, from, &mut buf);
            for h in buf.as_slice() {
                let v = self.old_hop_value(&mut seq, from, h, limit, &mut nodes);
                values.push((from, *h, v));
            }
        }
        let best = values.iter().map(|v| v.2).max().unwrap_or(0);
        let hops =
            if best == 0 { Vec::new() } else { values.iter().filter(|v| v.2 == best).map(|v| (v.0, v.1)).collect() };
        (hops, best, nodes)
    }
}

impl Alquerque {
    /// Every complete turn by brute force: breadth first over every route,
    /// the brute-force search at every decision; per end position the first
    /// path found (what `turns()` keeps), in order.
    pub(in crate::games::alquerque) fn unmemoized_turns(&self, s: &State) -> Vec<(Vec<crate::core::Action>, State)> {
        use crate::core::Applied;
        let mut out: Vec<(Vec<crate::core::Action>, State)> = Vec::new();
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((*s, Vec::new()));
        while let Some((cur, path)) = queue.pop_front() {
            let (hops, _, _) = self.unmemoized_best_hops(&cur);
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
