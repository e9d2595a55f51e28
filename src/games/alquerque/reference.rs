//! A naive reference implementation of the spec, for cross-checking the
//! engine: square arrays, coordinates, geometry computed from the spec's
//! words, every capture sequence enumerated in full, majority applied at the
//! end. Slow and simple on purpose; it shares no code with the engine.

use std::collections::BTreeSet;

/// `board[rank*9+file]`: 0 empty, 1 black pawn, 2 black mulá, -1 white pawn, -2 white mulá.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Pos {
    pub board: Vec<i8>,
    pub black_to_move: bool,
}

pub struct Reference {
    pub zamma: bool,
    pub deferred: bool,
}

const DIRS: [(i32, i32); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

impl Reference {
    fn on_board(&self, f: i32, r: i32) -> bool {
        (0..9).contains(&f) && (0..9).contains(&r) && (self.zamma || (f + r) % 2 == 0)
    }

    /// Next point along a line from (f, r) in direction d, per the spec's board descriptions.
    fn step(&self, f: i32, r: i32, d: usize) -> Option<(i32, i32)> {
        let (df, dr) = DIRS[d];
        let diagonal = df != 0 && dr != 0;
        let (nf, nr) = if self.zamma {
            if diagonal && (f + r) % 2 != 0 {
                return None;
            }
            (f + df, r + dr)
        } else if diagonal {
            (f + df, r + dr)
        } else {
            // orthogonal lines only along files a,c,e,g,i and ranks 1,3,5,7,9; steps of two squares
            if (dr == 0 && r % 2 != 0) || (df == 0 && f % 2 != 0) {
                return None;
            }
            (f + 2 * df, r + 2 * dr)
        };
        self.on_board(nf, nr).then_some((nf, nr))
    }

    fn idx(f: i32, r: i32) -> usize {
        (r * 9 + f) as usize
    }

    /// Every complete turn's end position, distinct.
    pub fn children(&self, pos: &Pos) -> Vec<Pos> {
        let me: i8 = if pos.black_to_move { 1 } else { -1 };
        let mut seqs: Vec<(usize, Pos)> = Vec::new(); // (captured, end)
        for r in 0..9 {
            for f in 0..9 {
                if !self.on_board(f, r) || pos.board[Self::idx(f, r)] * me <= 0 {
                    continue;
                }
                let piece = pos.board[Self::idx(f, r)];
                let mut b = pos.board.clone();
                b[Self::idx(f, r)] = 0; // the start point counts as empty
                let mut jumped = Vec::new();
                let mut used = Vec::new();
                let mut run = vec![(f, r)];
                self.jumps(&b, piece, (f, r), &mut jumped, &mut used, &mut run, &mut seqs, pos.black_to_move);
            }
        }
        let max = seqs.iter().map(|s| s.0).max().unwrap_or(0);
        let mut out = BTreeSet::new();
        if max > 0 {
            for (n, end) in seqs {
                if n == max {
                    out.insert(end);
                }
            }
        } else {
            for r in 0..9 {
                for f in 0..9 {
                    if !self.on_board(f, r) || pos.board[Self::idx(f, r)] * me <= 0 {
                        continue;
                    }
                    let piece = pos.board[Self::idx(f, r)];
                    let king = piece.abs() == 2;
                    let dirs: Vec<usize> = if king {
                        (0..8).collect()
                    } else if me == 1 {
                        vec![7, 0, 1]
                    } else {
                        vec![3, 4, 5]
                    };
                    for d in dirs {
                        let (mut cf, mut cr) = (f, r);
                        while let Some((nf, nr)) = self.step(cf, cr, d) {
                            if pos.board[Self::idx(nf, nr)] != 0 {
                                break;
                            }
                            let mut b = pos.board.clone();
                            b[Self::idx(f, r)] = 0;
                            b[Self::idx(nf, nr)] = self.promoted(piece, nr);
                            out.insert(Pos { board: b, black_to_move: !pos.black_to_move });
                            if !king {
                                break;
                            }
                            (cf, cr) = (nf, nr);
                        }
                    }
                }
            }
        }
        out.into_iter().collect()
    }

    fn promoted(&self, piece: i8, rank: i32) -> i8 {
        match (piece, rank) {
            (1, 8) => 2,
            (-1, 0) => -2,
            _ => piece,
        }
    }

    /// Extends a capture sequence of `piece` standing (virtually) at `at` on
    /// board `b` (without the mover); records every prefix that ends with a
    /// new capture as a candidate turn.
    #[allow(clippy::too_many_arguments)]
    fn jumps(
        &self,
        b: &[i8],
        piece: i8,
        at: (i32, i32),
        jumped: &mut Vec<usize>,
        used: &mut Vec<((i32, i32), (i32, i32))>,
        run: &mut Vec<(i32, i32)>,
        out: &mut Vec<(usize, Pos)>,
        black: bool,
    ) {
        let king = piece.abs() == 2;
        for d in 0..8 {
            // find the jumped piece
            let mut cur = at;
            let victim = loop {
                match self.step(cur.0, cur.1, d) {
                    None => break None,
                    Some(n) => {
                        let v = b[Self::idx(n.0, n.1)];
                        if v == 0 {
                            if !king {
                                break None;
                            }
                            cur = n;
                        } else if v * piece < 0 {
                            break Some(n);
                        } else {
                            break None;
                        }
                    }
                }
            };
            let Some(victim) = victim else { continue };
            let mut land = victim;
            while let Some(n) = self.step(land.0, land.1, d) {
                if b[Self::idx(n.0, n.1)] != 0 {
                    break;
                }
                land = n;
                let vi = Self::idx(victim.0, victim.1);
                let new = !jumped.contains(&vi);
                // A run of re-jumps that comes back to a point it visited
                // changes nothing but the jumps still allowed: it cannot
                // capture more or end anywhere new, so it is skipped.
                if !used.contains(&(at, land)) && (new || !run.contains(&land)) {
                    let mut nb = b.to_vec();
                    if !self.deferred {
                        nb[vi] = 0;
                    }
                    if new {
                        jumped.push(vi);
                    }
                    used.push((at, land));
                    if new {
                        // a candidate turn ends here
                        let mut end = nb.clone();
                        for &j in jumped.iter() {
                            end[j] = 0;
                        }
                        end[Self::idx(land.0, land.1)] = self.promoted(piece, land.1);
                        out.push((jumped.len(), Pos { board: end, black_to_move: !black }));
                    }
                    let mut next_run = if new { vec![land] } else { [run.as_slice(), &[land]].concat() };
                    self.jumps(&nb, piece, land, jumped, used, &mut next_run, out, black);
                    used.pop();
                    if new {
                        jumped.pop();
                    }
                }
                if !king {
                    break;
                }
            }
        }
    }

    pub fn perft(&self, pos: &Pos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let kids = self.children(pos);
        if kids.is_empty() {
            return 1; // terminal: no pieces or no move
        }
        if depth == 1 {
            return kids.len() as u64;
        }
        kids.iter().map(|k| self.perft(k, depth - 1)).sum()
    }
}
