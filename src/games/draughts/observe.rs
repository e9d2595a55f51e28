//! Observation planes (docs/games/draughts.md "Observation planes"): shape
//! `(26, size, size)`, from the mover's point of view (player 1's board is
//! turned 180 degrees); light squares are always 0.

use super::preset::{Draws, Huff};
use super::rules::DraughtsRules;
use crate::game::PlaneCode;
use super::state::State;

/// Plane indices.
pub const MY_MEN: usize = 0;
pub const MY_KINGS: usize = 1;
pub const OPP_MEN: usize = 2;
pub const OPP_KINGS: usize = 3;
/// `h=`: opponent pieces the mover may huff.
pub const HUFF: usize = 4;
/// `f=`: the placement a force returns to (4 planes, same order as 0..3).
pub const FORCE_MY_MEN: usize = 5;
pub const FORCE_AVAILABLE: usize = 9;
/// `m=1`: constant plane.
pub const MUST_CAPTURE: usize = 10;
/// Mid-capture: the capturing piece, its start square, the pieces jumped.
pub const CAP_PIECE: usize = 11;
pub const CAP_START: usize = 12;
pub const JUMPED: usize = 13;
/// Soplo: mover pieces that could make a correct capture when its move part began.
pub const CAPTURERS: usize = 14;
/// Mid-turn: the square huffed this turn.
pub const HUFFED: usize = 15;
/// `a=`: mover's last plain move (from, to), previous plain move (from, to);
/// then the opponent's (4 planes each).
pub const MY_SHUFFLE: usize = 16;
pub const OPP_SHUFFLE: usize = 20;
/// `k=`: constant 1 while the counter rule runs; constant k / limit.
pub const K_RUNNING: usize = 24;
pub const K_VALUE: usize = 25;

/// The planes a position of `r`'s preset can change (docs/games/draughts.md,
/// "Observation formats"): the others belong to rules the preset does not
/// have, and the position string refuses their fields.
pub fn compact_planes(r: &DraughtsRules) -> Vec<(usize, PlaneCode)> {
    let p = r.preset();
    let mut planes = vec![MY_MEN, MY_KINGS, OPP_MEN, OPP_KINGS];
    if p.soplo() {
        planes.push(HUFF);
    }
    if p.force {
        planes.extend([FORCE_MY_MEN, FORCE_MY_MEN + 1, FORCE_MY_MEN + 2, FORCE_MY_MEN + 3, FORCE_AVAILABLE, MUST_CAPTURE]);
    }
    planes.extend([CAP_PIECE, CAP_START, JUMPED]);
    if p.soplo() {
        planes.push(CAPTURERS);
    }
    if p.huff == Huff::ThenMove {
        planes.push(HUFFED);
    }
    if p.draws == Draws::Damas {
        planes.extend(MY_SHUFFLE..OPP_SHUFFLE + 4);
    }
    let mut out: Vec<(usize, PlaneCode)> = planes.into_iter().map(|q| (q, PlaneCode::Bit)).collect();
    let limit = p.k_limit();
    if limit > 0 {
        let bits = (u8::BITS - limit.leading_zeros()) as u8;
        out.push((K_RUNNING, PlaneCode::Bit));
        out.push((K_VALUE, PlaneCode::Int { bits, scale: limit as f32 }));
    }
    out
}

pub fn observe(r: &DraughtsRules, s: &State, out: &mut [f32]) {
    let g = &r.eng.geo;
    let size = g.size as usize;
    let area = size * size;
    out.fill(0.0);
    let me = s.side as usize;
    let op = 1 - me;
    let cell = |b: u8| -> usize {
        let (row, col) = (g.row[b as usize] as usize, g.col[b as usize] as usize);
        if me == 1 {
            (size - 1 - row) * size + (size - 1 - col)
        } else {
            row * size + col
        }
    };
    let set = |out: &mut [f32], plane: usize, mut bb: u64| {
        while bb != 0 {
            let b = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            out[plane * area + cell(b)] = 1.0;
        }
    };
    let b = &s.board;
    set(out, MY_MEN, b.men[me]);
    set(out, MY_KINGS, b.kings[me]);
    set(out, OPP_MEN, b.men[op]);
    set(out, OPP_KINGS, b.kings[op]);
    set(out, HUFF, s.huff);
    if let Some(f) = s.force {
        set(out, FORCE_MY_MEN, f.men[me]);
        set(out, FORCE_MY_MEN + 1, f.kings[me]);
        set(out, FORCE_MY_MEN + 2, f.men[op]);
        set(out, FORCE_MY_MEN + 3, f.kings[op]);
        out[FORCE_AVAILABLE * area..(FORCE_AVAILABLE + 1) * area].fill(1.0);
    }
    if s.must_capture {
        out[MUST_CAPTURE * area..(MUST_CAPTURE + 1) * area].fill(1.0);
    }
    if let Some((from, at)) = s.cap {
        set(out, CAP_PIECE, 1 << at);
        set(out, CAP_START, 1 << from);
    }
    set(out, JUMPED, s.jumped);
    set(out, CAPTURERS, s.capturers);
    if let Some((q, _)) = s.huffed {
        set(out, HUFFED, 1 << q);
    }
    for (p, base) in [(me, MY_SHUFFLE), (op, OPP_SHUFFLE)] {
        let len = s.shuffle_len[p] as usize;
        // Last move first, then the one before it.
        for (slot, i) in (0..len).rev().enumerate() {
            let (from, to) = s.shuffle[p][i];
            set(out, base + 2 * slot, 1 << from);
            set(out, base + 2 * slot + 1, 1 << to);
        }
    }
    if let Some(k) = s.k {
        out[K_RUNNING * area..(K_RUNNING + 1) * area].fill(1.0);
        let v = k as f32 / r.preset().k_limit().max(1) as f32;
        out[K_VALUE * area..(K_VALUE + 1) * area].fill(v);
    }
}
