//! Action index <-> decision (spec draughts.md, "Actions"), from the mover's
//! point of view (player 1's squares and directions are turned 180 degrees).
//!
//! With N dark squares and D = size - 1: `from*4*D + dir*D + (dist-1)` for a
//! hop (move or capture step), then N huffs, stop, force, and the four offer
//! actions.

use super::board::Geometry;
use crate::core::Action;

/// A decoded decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Move or capture hop from `from` along absolute `dir`, `dist` steps.
    Hop {
        from: u8,
        dir: usize,
        dist: u8,
    },
    Huff(u8),
    Stop,
    Force,
    Offer,
}

/// First action index of the huffs: `4 * D * N`.
#[inline(always)]
fn huff_base(g: &Geometry) -> u32 {
    4 * g.d as u32 * g.n as u32
}

/// Size of the action space, the four offer actions included.
pub fn num_actions(g: &Geometry) -> usize {
    (huff_base(g) + g.n as u32 + 2 + 4) as usize
}

/// PDN index (0-based) of `b` from `side`'s point of view.
#[inline(always)]
fn rel_idx(g: &Geometry, side: usize, b: u8) -> u32 {
    let i = g.idx_of[b as usize] as u32;
    if side == 1 {
        g.n as u32 - 1 - i
    } else {
        i
    }
}

#[inline(always)]
fn abs_bit(g: &Geometry, side: usize, rel: u32) -> u8 {
    let i = if side == 1 { g.n as u32 - 1 - rel } else { rel };
    g.bit_of[i as usize]
}

#[inline(always)]
pub fn hop_action(g: &Geometry, side: usize, from: u8, dir: usize, dist: u8) -> Action {
    let d = g.d as u32;
    let rd = if side == 1 { 3 - dir } else { dir } as u32;
    Action(rel_idx(g, side, from) * 4 * d + rd * d + dist as u32 - 1)
}

pub fn huff_action(g: &Geometry, side: usize, b: u8) -> Action {
    Action(huff_base(g) + rel_idx(g, side, b))
}

pub fn stop_action(g: &Geometry) -> Action {
    Action(huff_base(g) + g.n as u32)
}

pub fn force_action(g: &Geometry) -> Action {
    Action(huff_base(g) + g.n as u32 + 1)
}

/// Decodes an action for `side` (no legality check).
#[inline]
pub fn decode(g: &Geometry, side: usize, a: Action) -> Decision {
    let n = g.n as u32;
    let d = g.d as u32;
    let base = huff_base(g);
    let x = a.0;
    if x < base {
        let rel = x / (4 * d);
        let rd = ((x / d) % 4) as usize;
        let dist = (x % d + 1) as u8;
        let dir = if side == 1 { 3 - rd } else { rd };
        Decision::Hop { from: abs_bit(g, side, rel), dir, dist }
    } else if x < base + n {
        Decision::Huff(abs_bit(g, side, x - base))
    } else if x == base + n {
        Decision::Stop
    } else if x == base + n + 1 {
        Decision::Force
    } else {
        Decision::Offer
    }
}
