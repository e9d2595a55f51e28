//! The decision-level engine: [`State`], legal actions, applying a decision,
//! soplo (huff, force), the end-of-game rules of every preset.

use super::action::{self, Decision};
use super::board::{bit, Board, Square, NONE};
use super::movegen::Engine;
use super::preset::{Choice, Draws, Huff, Preset};
use super::state::{State, DRAW, ONGOING, WIN0, WIN1};
use crate::core::{Action, Applied};
use crate::game::GameSpec;
use std::collections::HashSet;

/// How a turn ended, for the soplo bookkeeping.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum TurnKind {
    /// Tablero: the huff is the turn.
    HuffTurn,
    /// Damas: a huff after which no move was possible (or the game ended).
    HuffAlone,
    Force,
    Plain {
        from: u8,
        to: u8,
    },
    Capture {
        from: u8,
        to: u8,
        stopped: bool,
    },
}

/// Rules of one draughts preset.
pub struct DraughtsRules {
    pub eng: Engine,
    pub(super) spec: GameSpec,
    /// The action of a man's one-square step by side, direction and target
    /// square (padded bit): the legal mask's men find their moves by target.
    man_step_action: [[[u16; 64]; 4]; 2],
}

pub const NUM_PLANES: usize = 26;

impl DraughtsRules {
    pub fn new(preset: Preset) -> DraughtsRules {
        let eng = Engine::new(preset);
        let num_actions = action::num_actions(&eng.geo);
        let size = preset.size as usize;
        let spec = GameSpec {
            num_actions,
            observation_shape: vec![NUM_PLANES, size, size],
            offers: true,
            info_fields: &[],
            observation_high: 1.0,
        };
        let mut man_step_action = [[[u16::MAX; 64]; 4]; 2];
        for (side, by_dir) in man_step_action.iter_mut().enumerate() {
            for (d, by_to) in by_dir.iter_mut().enumerate() {
                for (t, a) in by_to.iter_mut().enumerate() {
                    // Directions 0..4 pair up as opposites d, 3 - d.
                    let from = eng.geo.step[t][3 - d];
                    if from != super::board::NONE {
                        *a = action::hop_action(&eng.geo, side, from, d, 1).0 as u16;
                    }
                }
            }
        }
        DraughtsRules { eng, spec, man_step_action }
    }

    pub fn preset(&self) -> &Preset {
        &self.eng.preset
    }

    // ----- action encoding (spec "Actions"): see `action.rs` -----

    #[inline(always)]
    pub fn hop_action(&self, side: usize, from: u8, dir: usize, dist: u8) -> Action {
        action::hop_action(&self.eng.geo, side, from, dir, dist)
    }

    pub fn huff_action(&self, side: usize, b: u8) -> Action {
        action::huff_action(&self.eng.geo, side, b)
    }

    pub fn stop_action(&self) -> Action {
        action::stop_action(&self.eng.geo)
    }

    pub fn force_action(&self) -> Action {
        action::force_action(&self.eng.geo)
    }

    /// Decodes an action for `side` (no legality check).
    #[inline]
    pub fn decode(&self, side: usize, a: Action) -> Decision {
        action::decode(&self.eng.geo, side, a)
    }

    /// Destination of a hop and the piece it jumps (`NONE` for a plain move).
    pub fn hop_target(&self, s: &State, from: u8, dir: usize, dist: u8) -> (u8, u8) {
        let g = &self.eng.geo;
        let occ = s.board.occupied();
        let mut captured = NONE;
        for k in 0..dist as usize - 1 {
            let q = g.ray_at(from, dir, k);
            if q != NONE && occ & bit(q) != 0 {
                captured = q;
            }
        }
        (g.ray_at(from, dir, dist as usize - 1), captured)
    }

    // ----- legal actions -----

    /// The plain move banned by the anti-shuffle rule (damas), if any.
    #[inline]
    fn banned(&self, s: &State) -> Option<(u8, u8)> {
        let p = s.side as usize;
        if self.eng.preset.draws != Draws::Damas || s.shuffle_len[p] < 2 {
            return None;
        }
        let [(a, b), (c, d)] = s.shuffle[p];
        (a == d && b == c).then_some((a, b))
    }

    fn emit_hops(&self, s: &State, p: u8, occ: u64, opp: u64, restrict: bool, f: &mut impl FnMut(Action)) {
        let side = s.side as usize;
        let king = s.board.kings[side] & bit(p) != 0;
        self.eng.for_each_hop(occ, opp, p, king, side, restrict, |d, dist, _, _| f(self.hop_action(side, p, d, dist)));
    }

    /// Hops of compulsory presets from the pieces of `src` that begin a legal
    /// complete sequence.
    fn emit_compulsory_hops(&self, s: &State, src: u64, occ_all: u64, opp: u64, f: &mut impl FnMut(Action)) {
        let side = s.side as usize;
        let eng = &self.eng;
        if eng.preset.choice == Choice::Majority {
            let total = |p: u8, king: bool, q: u8, r: u8| {
                let (k2, stop) = eng.after_hop(king, r, side);
                1 + if stop { 0 } else { eng.max_cont(occ_all & !bit(p), opp & !bit(q), r, k2, side) }
            };
            let mut best = 0;
            let mut it = src;
            while it != 0 {
                let p = it.trailing_zeros() as u8;
                it &= it - 1;
                let king = s.board.kings[side] & bit(p) != 0;
                eng.for_each_hop(occ_all & !bit(p), opp, p, king, side, false, |_, _, q, r| {
                    best = best.max(total(p, king, q, r));
                });
            }
            let mut it = src;
            while it != 0 {
                let p = it.trailing_zeros() as u8;
                it &= it - 1;
                let king = s.board.kings[side] & bit(p) != 0;
                eng.for_each_hop(occ_all & !bit(p), opp, p, king, side, false, |d, dist, q, r| {
                    if total(p, king, q, r) == best {
                        f(self.hop_action(side, p, d, dist));
                    }
                });
            }
        } else {
            let mut it = src;
            while it != 0 {
                let p = it.trailing_zeros() as u8;
                it &= it - 1;
                self.emit_hops(s, p, occ_all & !bit(p), opp, true, f);
            }
        }
    }

    /// Calls `f` for every legal game action (offer actions excluded), in
    /// the order the turn listings and searches follow.
    pub fn for_each_legal(&self, s: &State, f: &mut impl FnMut(Action)) {
        self.legal_walk::<true>(s, f)
    }

    /// The actions of [`DraughtsRules::for_each_legal`] in an order of the
    /// move generator's choosing: for callers that collect them into a set
    /// (the legal mask, legality tests), where the plain moves cost less so.
    pub fn for_each_legal_any_order(&self, s: &State, f: &mut impl FnMut(Action)) {
        self.legal_walk::<false>(s, f)
    }

    fn legal_walk<const ORDERED: bool>(&self, s: &State, f: &mut impl FnMut(Action)) {
        if s.result != ONGOING {
            return;
        }
        let side = s.side as usize;
        let b = &s.board;
        let opp_all = b.pieces(1 - side);
        let soplo = self.eng.preset.soplo();
        if let Some((_, at)) = s.cap {
            let occ = b.occupied() & !bit(at);
            let opp = opp_all & !s.jumped;
            if soplo {
                self.emit_hops(s, at, occ, opp, false, f);
                if !s.must_capture {
                    f(self.stop_action());
                }
            } else {
                self.emit_compulsory_hops(s, bit(at), occ | bit(at), opp, f);
            }
            return;
        }
        let occ = b.occupied();
        if !soplo {
            let src = self.eng.capture_sources(b, side);
            if src != 0 {
                self.emit_compulsory_hops(s, src, occ, opp_all, f);
            } else {
                self.emit_quiet::<ORDERED>(s, None, f);
            }
            return;
        }
        if s.must_capture {
            let mut src = s.capturers;
            while src != 0 {
                let p = src.trailing_zeros() as u8;
                src &= src - 1;
                self.emit_hops(s, p, occ & !bit(p), opp_all, false, f);
            }
            return;
        }
        let mut src = self.eng.capture_sources(b, side);
        while src != 0 {
            let p = src.trailing_zeros() as u8;
            src &= src - 1;
            self.emit_hops(s, p, occ & !bit(p), opp_all, false, f);
        }
        self.emit_quiet::<ORDERED>(s, self.banned(s), f);
        if s.huffed.is_none() && s.huff != 0 {
            let mut h = s.huff;
            while h != 0 {
                let q = h.trailing_zeros() as u8;
                h &= h - 1;
                f(self.huff_action(side, q));
            }
            if s.force.is_some() {
                f(self.force_action());
            }
        }
    }

    fn emit_quiet<const ORDERED: bool>(&self, s: &State, banned: Option<(u8, u8)>, f: &mut impl FnMut(Action)) {
        let side = s.side as usize;
        if !ORDERED && banned.is_none() {
            // The men's steps from their target squares straight to actions:
            // most of a game's moves, a table lookup each.
            for (d, mut to) in self.eng.man_step_targets(&s.board, side) {
                let actions = &self.man_step_action[side & 1][d];
                while to != 0 {
                    let t = to.trailing_zeros() as usize;
                    to &= to - 1;
                    f(Action(u32::from(actions[t & 63])));
                }
            }
            self.eng.quiet_king_steps(&s.board, side, &mut |from, _, dir, dist, _| {
                f(self.hop_action(side, from, dir, dist))
            });
            return;
        }
        let mut emit = |from, to, dir, dist, _| {
            if banned != Some((from, to)) {
                f(self.hop_action(side, from, dir, dist));
            }
        };
        if ORDERED {
            self.eng.quiet_steps(&s.board, side, &mut emit);
        } else {
            self.eng.quiet_steps_any_order(&s.board, side, &mut emit);
        }
    }

    pub fn has_legal(&self, s: &State) -> bool {
        if s.result == ONGOING && !self.eng.preset.soplo() && s.cap.is_none() {
            // Compulsory capture at a turn boundary: a piece that can capture
            // has a sequence, and otherwise any plain move will do (no move
            // is banned outside soplo). Bitboards, without listing the turn.
            let side = s.side as usize;
            return self.eng.capture_sources(&s.board, side) != 0 || self.eng.has_quiet(&s.board, side);
        }
        let mut any = false;
        self.for_each_legal_any_order(s, &mut |_| any = true);
        any
    }

    // ----- applying -----

    /// Applies a legal game action.
    pub fn apply_decision(&self, s: &mut State, a: Action) -> Applied {
        let side = s.side as usize;
        match self.decode(side, a) {
            Decision::Huff(q) => {
                let was_king = s.board.kings[1 - side] & bit(q) != 0;
                s.board.clear(bit(q));
                if self.eng.preset.huff == Huff::WholeTurn {
                    let pre = s.board;
                    self.end_turn(s, TurnKind::HuffTurn, pre, 0);
                    return Applied::TurnOver;
                }
                s.huffed = Some((q, was_king));
                s.huff = 0;
                s.force = None;
                s.capturers = self.eng.correct_capturers(&s.board, side);
                // Spec "Damas huffs that end things": the engine ends the turn itself.
                if s.board.pieces(1 - side) == 0 || self.material_draw(&s.board) || !self.has_legal(s) {
                    let pre = s.board;
                    self.end_turn(s, TurnKind::HuffAlone, pre, 0);
                    return Applied::TurnOver;
                }
                Applied::MidTurn
            }
            Decision::Force => {
                let count = s.board.count(side);
                s.board = s.force.expect("force is legal only with f=");
                let pre = s.board;
                self.end_turn(s, TurnKind::Force, pre, count);
                Applied::TurnOver
            }
            Decision::Stop => {
                self.finish_capture(s, true);
                Applied::TurnOver
            }
            Decision::Hop { from, dir, dist } => {
                let (to, captured) = self.hop_target(s, from, dir, dist);
                let king = s.board.kings[side] & bit(from) != 0;
                if captured == NONE {
                    let pre = s.board;
                    s.board.men[side] &= !bit(from);
                    s.board.kings[side] &= !bit(from);
                    if king || self.eng.geo.far_row[side] & bit(to) != 0 {
                        s.board.kings[side] |= bit(to);
                    } else {
                        s.board.men[side] |= bit(to);
                    }
                    self.end_turn(s, TurnKind::Plain { from, to }, pre, 0);
                    return Applied::TurnOver;
                }
                let start = match s.cap {
                    Some((start, _)) => start,
                    None => {
                        // Moving uses up this turn's huff and force rights.
                        s.huff = 0;
                        s.force = None;
                        from
                    }
                };
                let (k2, stop) = self.eng.after_hop(king, to, side);
                s.board.men[side] &= !bit(from);
                s.board.kings[side] &= !bit(from);
                if k2 {
                    s.board.kings[side] |= bit(to);
                } else {
                    s.board.men[side] |= bit(to);
                }
                s.jumped |= bit(captured);
                s.cap = Some((start, to));
                let occ = s.board.occupied() & !bit(to);
                let opp = s.board.pieces(1 - side) & !s.jumped;
                if !stop && self.eng.can_capture_from(occ, opp, to, k2, side) {
                    return Applied::MidTurn;
                }
                self.finish_capture(s, false);
                Applied::TurnOver
            }
            Decision::Offer => unreachable!("offer actions are the session's"),
        }
    }

    fn finish_capture(&self, s: &mut State, stopped: bool) {
        let side = s.side as usize;
        let (from, to) = s.cap.expect("a capture is in progress");
        // The placement before the move part (for a later force): the piece
        // back on its start square (no promotion mid-capture in soplo presets).
        let mut pre = s.board;
        let king = pre.kings[side] & bit(to) != 0;
        pre.men[side] &= !bit(to);
        pre.kings[side] &= !bit(to);
        if king {
            pre.kings[side] |= bit(from);
        } else {
            pre.men[side] |= bit(from);
        }
        s.board.clear(s.jumped);
        if s.board.men[side] & bit(to) != 0 && self.eng.geo.far_row[side] & bit(to) != 0 {
            s.board.men[side] &= !bit(to);
            s.board.kings[side] |= bit(to);
        }
        self.end_turn(s, TurnKind::Capture { from, to, stopped }, pre, 0);
    }

    /// Whether the material is one of the "as soon as" draws.
    fn material_draw(&self, b: &Board) -> bool {
        match self.eng.preset.draws {
            Draws::Tablero => {
                b.men[0] | b.men[1] == 0 && b.kings[0].count_ones() == b.kings[1].count_ones() && b.kings[0] != 0
            }
            Draws::Damas => {
                b.count(0) == 1 && b.count(1) == 1 && (b.men[0] | b.men[1] == 0 || b.kings[0] | b.kings[1] == 0)
            }
            _ => false,
        }
    }

    /// Whether the `k=` rule's material condition holds.
    pub fn k_condition(&self, b: &Board) -> bool {
        match self.eng.preset.draws {
            Draws::Damas => {
                b.men[0] | b.men[1] == 0 && {
                    let (a, c) = (b.kings[0].count_ones(), b.kings[1].count_ones());
                    (a, c) == (2, 1) || (a, c) == (1, 2)
                }
            }
            Draws::Damas10 => b.men[0] | b.men[1] == 0 && b.occupied() != 0,
            _ => false,
        }
    }

    /// Ends the mover's turn: soplo bookkeeping, `a=`, `k=`, next mover, result.
    /// `pre` is the placement before the move part; `mover_count` the mover's
    /// pieces at turn start when a force changed them.
    fn end_turn(&self, s: &mut State, kind: TurnKind, pre: Board, mover_count: u32) {
        let side = s.side as usize;
        let preset = &self.eng.preset;
        let mut huff = 0;
        if preset.soplo() && !s.must_capture {
            let c = s.capturers;
            // Spec "Soplo": offence when a correct capture was available and not made.
            let moved = |from: u8, to: u8| if c & bit(from) != 0 { (c & !bit(from)) | bit(to) } else { c };
            huff = match kind {
                TurnKind::HuffTurn => c,
                TurnKind::HuffAlone | TurnKind::Force => 0,
                TurnKind::Plain { from, to } => moved(from, to),
                TurnKind::Capture { to, stopped: true, .. } => bit(to),
                TurnKind::Capture { from, to, stopped: false } => {
                    if c & bit(from) != 0 {
                        0
                    } else {
                        moved(from, to)
                    }
                }
            };
        }
        if preset.draws == Draws::Damas {
            match kind {
                TurnKind::Plain { from, to } => {
                    let l = &mut s.shuffle_len[side];
                    if *l == 2 {
                        s.shuffle[side][0] = s.shuffle[side][1];
                        *l = 1;
                    }
                    s.shuffle[side][*l as usize] = (from, to);
                    *l += 1;
                }
                _ => {
                    s.shuffle[side] = [(0, 0); 2];
                    s.shuffle_len[side] = 0;
                }
            }
            if kind == TurnKind::Force {
                // The force took back the offender's last move: only moves
                // actually made count (seed 003), so it leaves the list.
                let l = &mut s.shuffle_len[1 - side];
                if *l > 0 {
                    *l -= 1;
                    s.shuffle[1 - side][*l as usize] = (0, 0);
                }
            }
        }
        let began = s.k;
        let count = if kind == TurnKind::Force { mover_count } else { s.board.count(side) };
        let mut k = began;
        if let Some(v) = k {
            let counts = match preset.draws {
                Draws::Damas => count == 2,
                _ => true,
            };
            if counts {
                k = Some(v + 1);
            }
        }
        s.k = if self.k_condition(&s.board) { Some(if began.is_some() { k.unwrap() } else { 0 }) } else { None };
        s.side = 1 - s.side;
        s.cap = None;
        s.jumped = 0;
        s.huffed = None;
        s.must_capture = kind == TurnKind::Force;
        s.huff = huff;
        s.force = if preset.force && huff != 0 { Some(pre) } else { None };
        self.refresh(s);
    }

    /// Recomputes the derived fields of a turn-boundary state (capturers, result).
    pub fn refresh(&self, s: &mut State) {
        let side = s.side as usize;
        s.capturers = if self.eng.preset.soplo() { self.eng.correct_capturers(&s.board, side) } else { 0 };
        s.result = ONGOING;
        s.result = self.status(s);
    }

    /// Spec "Order of end rules", for the player to move at a turn boundary.
    fn status(&self, s: &State) -> u8 {
        let me = s.side as usize;
        let win = |p: usize| if p == 0 { WIN0 } else { WIN1 };
        let b = &s.board;
        if b.pieces(me) == 0 {
            return win(1 - me);
        }
        if b.pieces(1 - me) == 0 {
            return win(me);
        }
        if self.material_draw(b) {
            return DRAW;
        }
        if !self.has_legal(s) {
            if self.eng.preset.draws == Draws::Damas && !self.has_board_move(b, 1 - me) {
                return DRAW;
            }
            return win(1 - me);
        }
        if let Some(k) = s.k {
            if k >= self.eng.preset.k_limit() {
                return DRAW;
            }
        }
        ONGOING
    }

    /// Whether `side` has a plain move or a capture on the board.
    fn has_board_move(&self, b: &Board, side: usize) -> bool {
        if self.eng.capture_sources(b, side) != 0 {
            return true;
        }
        let mut any = false;
        self.eng.quiet_moves(b, side, &mut |_, _, _| any = true);
        any
    }

    pub fn initial(&self, first: usize) -> State {
        let g = &self.eng.geo;
        let k = self.eng.preset.men as usize;
        let mut board = Board::default();
        for i in 0..k {
            board.men[1] |= bit(g.bit_of[i]);
            board.men[0] |= bit(g.bit_of[g.n as usize - 1 - i]);
        }
        let mut s = State::fresh(board, first as u8);
        self.refresh(&mut s);
        s
    }

    /// Every complete turn from `s`: `f(actions, end)` for each decision path.
    pub fn for_each_turn(&self, s: &State, f: &mut impl FnMut(&[Action], &State)) {
        let mut path = Vec::with_capacity(16);
        self.walk(s, &mut path, f);
    }

    fn walk(&self, s: &State, path: &mut Vec<Action>, f: &mut impl FnMut(&[Action], &State)) {
        let mut acts = [Action(0); 1024];
        let mut n = 0;
        self.for_each_legal(s, &mut |a| {
            acts[n] = a;
            n += 1;
        });
        for &a in &acts[..n] {
            let mut next = *s;
            path.push(a);
            if self.apply_decision(&mut next, a) == Applied::TurnOver {
                f(path, &next);
            } else {
                self.walk(&next, path, f);
            }
            path.pop();
        }
    }

    /// Distinct successor positions (perft children) of a state.
    pub fn successors(&self, s: &State) -> Vec<State> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        self.for_each_turn(s, &mut |_, end| {
            if seen.insert(*end) {
                out.push(*end);
            }
        });
        out
    }

    pub(super) fn perft_states(&self, s: &State, depth: u32) -> u64 {
        if depth == 0 || s.result != ONGOING {
            return 1;
        }
        let succ = self.successors(s);
        if depth == 1 {
            return succ.len() as u64;
        }
        succ.iter().map(|c| self.perft_states(c, depth - 1)).sum()
    }
}

impl State {
    /// Squares of `bb` as PDN squares.
    pub fn squares(rules: &DraughtsRules, bb: u64) -> Vec<Square> {
        rules.eng.geo.squares(bb)
    }
}
