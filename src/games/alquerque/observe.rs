//! Observation planes, from the mover's point of view (player 1 sees the
//! board turned 180 degrees about e5).
//!
//! Observation, shape `[23, 9, 9]` over the lattice (rank, file) of the
//! mover's view; 1.0 = yes, 0.0 = no unless said:
//!  0 own pawns, 1 own mulás, 2 opponent pawns, 3 opponent mulás,
//!  4 points of the board,
//!  5 the capturing piece while a capture sequence is under way,
//!  6 deferred mode: opponent pieces already jumped in this sequence,
//!  7..14 deferred mode: jumps made in this sequence from this point in
//!    direction 0..7 (mover's view): the sum of 2^-(steps-1) over those jumps
//!    (a short leap is 0.5), so every set of jumps has its own value,
//! 15..22 a line leaves this point in direction 0..7 (mover's view).

use super::board::{Geometry, NONE};
use super::state::State;
use crate::core::Player;
use crate::game::PlaneCode;

pub const PLANES: usize = 23;
const PLANE: usize = 81;

/// The constant planes 4 and 15..22 (the same for both players: both boards
/// are symmetric under the 180-degree turn).
pub fn geometry_planes(geo: &Geometry) -> Vec<f32> {
    let mut out = vec![0.0; PLANES * PLANE];
    for &p in &geo.by_ordinal {
        out[4 * PLANE + p.0 as usize] = 1.0;
        for d in 0..8 {
            if geo.next[d][p.0 as usize] != NONE {
                out[(15 + d) * PLANE + p.0 as usize] = 1.0;
            }
        }
    }
    out
}

/// The planes a position can change: the geometry planes (4, 15..22) never
/// do, and the deferred planes (6..14) only under `removal="deferred"`.
/// Planes 7..14 hold sums of distinct powers 2^-(steps-1), steps 1..8: 128
/// times one is a whole number below 256.
pub fn compact_planes(deferred: bool) -> Vec<(usize, PlaneCode)> {
    let mut out: Vec<(usize, PlaneCode)> = [0, 1, 2, 3, 5].into_iter().map(|p| (p, PlaneCode::Bit)).collect();
    if deferred {
        out.push((6, PlaneCode::Bit));
        out.extend((7..15).map(|p| (p, PlaneCode::Int { bits: 8, scale: 128.0 })));
    }
    out
}

/// Writes the observation of `s`; `geometry_planes`: the board's [`geometry_planes`].
pub fn observe(geometry_planes: &[f32], s: &State, out: &mut [f32]) {
    out.copy_from_slice(geometry_planes);
    // The compact planes, each put back at its place among the full planes
    // (jumped pieces and used jumps exist only under deferred removal).
    emit_compact(s, true, &mut Full(out));
}

/// Where the compact planes go. Compact order ([`compact_planes`]): 0, 1,
/// 2, 3, 5, then in deferred mode 6 and the jump planes 7..14.
trait Sink {
    /// Entry `e` of compact plane `j` (a 0/1 plane) is 1.
    fn set(&mut self, j: usize, e: usize);
    /// A jump of `steps` from entry `e` in direction `d` (jump plane `7 + d`).
    fn jump(&mut self, d: usize, e: usize, steps: u8);
}

/// Every non-zero entry of the compact planes of `s`.
#[inline(always)]
fn emit_compact(s: &State, deferred: bool, sink: &mut impl Sink) {
    let me = s.side.index();
    let view = |l: u8| match s.side {
        Player::P0 => l as usize,
        Player::P1 => 80 - l as usize,
    };
    let planes = [
        (0, s.pieces[me] & !s.kings),
        (1, s.pieces[me] & s.kings),
        (2, s.pieces[1 - me] & !s.kings),
        (3, s.pieces[1 - me] & s.kings),
        // Jumped pieces stay only under deferred removal (the compact
        // format has no such plane otherwise).
        (5, if deferred { s.jumped } else { 0 }),
    ];
    for (j, mut bits) in planes {
        while bits != 0 {
            let l = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            sink.set(j, view(l));
        }
    }
    if s.mid_turn() {
        sink.set(4, view(s.capturing));
    }
    if !deferred || s.used.is_empty() {
        return;
    }
    for (from, dir, steps) in s.used.iter() {
        let d = match s.side {
            Player::P0 => dir,
            Player::P1 => (dir + 4) & 7,
        };
        sink.jump(d as usize, view(from), steps);
    }
}

/// The full planes: compact plane `j` is full plane `FULL_PLANE[j]`, jump plane `7 + d`.
struct Full<'a>(&'a mut [f32]);

const FULL_PLANE: [usize; 6] = [0, 1, 2, 3, 5, 6];

impl Sink for Full<'_> {
    #[inline(always)]
    fn set(&mut self, j: usize, e: usize) {
        self.0[FULL_PLANE[j] * PLANE + e] = 1.0;
    }
    fn jump(&mut self, d: usize, e: usize, steps: u8) {
        self.0[(7 + d) * PLANE + e] += 0.5f32.powi(steps as i32 - 1);
    }
}

struct Floats<'a>(&'a mut [f32]);

impl Sink for Floats<'_> {
    #[inline(always)]
    fn set(&mut self, j: usize, e: usize) {
        self.0[j * PLANE + e] = 1.0;
    }
    fn jump(&mut self, d: usize, e: usize, steps: u8) {
        self.0[(6 + d) * PLANE + e] += 0.5f32.powi(steps as i32 - 1);
    }
}

/// Bits: the six 0/1 planes, then each jump plane as 8 digit planes of
/// 128 x value (a jump of `steps` is digit 8 - steps).
struct Bits<'a>(&'a mut [u8]);

impl Sink for Bits<'_> {
    #[inline(always)]
    fn set(&mut self, j: usize, e: usize) {
        let i = j * PLANE + e;
        self.0[i >> 3] |= 1 << (i & 7);
    }
    fn jump(&mut self, d: usize, e: usize, steps: u8) {
        let i = (6 + d * 8 + (8 - steps as usize)) * PLANE + e;
        self.0[i >> 3] |= 1 << (i & 7);
    }
}

/// The compact planes of `s` ([`compact_planes`]), written directly
/// (`out`: 5 planes, or 14 in deferred mode).
pub fn observe_compact(s: &State, deferred: bool, out: &mut [f32]) {
    out.fill(0.0);
    emit_compact(s, deferred, &mut Floats(out));
}

/// The packed bits of `s` ([`compact_planes`]), written directly.
pub fn observe_packed(s: &State, deferred: bool, out: &mut [u8]) {
    out.fill(0);
    emit_compact(s, deferred, &mut Bits(out));
}
