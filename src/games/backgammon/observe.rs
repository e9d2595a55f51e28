//! The observation (docs/games/backgammon.md, "Observation planes"): a flat
//! vector of [`OBS_LEN`] floats from the point of view of the player to act
//! (the player on roll; at a chance node the player about to roll; at the
//! end the loser, who holds the turn in the Match ID).

use super::board::{BAR, CHECKERS, OFF};
use super::state::{Phase, State};
use crate::game::PlaneCode;

/// Entries per point and side: n>=1, n>=2, n>=3, (n-3)/2 if n>3, n/15.
pub const PER_POINT: usize = 5;
/// Offsets of the blocks (the writers below use them as literals; the
/// tests read the layout from these).
#[allow(dead_code)]
pub const MY_POINTS: usize = 0;
#[allow(dead_code)]
pub const OPP_POINTS: usize = 24 * PER_POINT;
pub const BARS: usize = 48 * PER_POINT; // my bar /15, opp bar /15
pub const OFFS: usize = BARS + 2; // my off /15, opp off /15
pub const DICE: usize = OFFS + 2; // 6 entries: dice of value 1..6 still to play
pub const MATCH: usize = DICE + 6; // my score, opp score, match length
pub const FLAGS: usize = MATCH + 3; // chance node, no game started, game over
pub const OBS_LEN: usize = FLAGS + 3;
/// Entries added by option `cube`, from [`OBS_LEN`] on: log2 of the cube value,
/// I own the cube, the opponent owns it, Crawford game, post-Crawford game,
/// my away score, the opponent's away score (both 0 in money play), a double
/// is offered to me, I may double now.
pub const CUBE_OBS: usize = 9;

/// [`point_values`] of two points at once (index `a << 4 | b`: the blocks of
/// `a` then `b` checkers; a point holds at most [`CHECKERS`]), computed by
/// the compiler: observing is then one 40-byte copy per pair of points,
/// without compares, a division or a check that a lazy table is initialised
/// (10 KB; fewer instructions than two 20-byte copies from a table by point).
static PAIR_TABLE: [[f32; 2 * PER_POINT]; 256] = {
    let mut t = [[0.0; 2 * PER_POINT]; 256];
    let mut i = 0;
    while i < 256 {
        let (a, b) = (point_values((i >> 4) as u8), point_values((i & 15) as u8));
        let mut k = 0;
        while k < PER_POINT {
            t[i][k] = a[k];
            t[i][PER_POINT + k] = b[k];
            k += 1;
        }
        i += 1;
    }
    t
};

const fn point_values(n: u8) -> [f32; PER_POINT] {
    let mut out = [0.0; PER_POINT];
    let n = n as f32;
    out[0] = (n >= 1.0) as u8 as f32;
    out[1] = (n >= 2.0) as u8 as f32;
    out[2] = (n >= 3.0) as u8 as f32;
    out[3] = if n > 3.0 { (n - 3.0) / 2.0 } else { 0.0 };
    out[4] = n / 15.0;
    out
}

/// Every entry (each is one plane of a flat observation) can change, in
/// every configuration: the compact observation is the full one. The
/// packed codes: the 0/1 entries as bits, the others as whole numbers
/// (docs/games/backgammon.md "Observation formats").
pub fn compact_planes(len: usize) -> Vec<(usize, PlaneCode)> {
    let int = |bits: u8, scale: f32| PlaneCode::Int { bits, scale };
    let mut codes = Vec::with_capacity(len);
    for _ in 0..48 {
        // n>=1, n>=2, n>=3, (n-3)/2 (n-3 <= 12), n/15 (n <= 15).
        codes.extend([PlaneCode::Bit, PlaneCode::Bit, PlaneCode::Bit, int(4, 2.0), int(4, 15.0)]);
    }
    codes.extend([int(4, 15.0); 4]); // bars, borne off
    codes.extend([int(3, 1.0); 6]); // dice left of each value: 0..4
    codes.extend([int(15, 1.0); 3]); // scores, match length: below 2^15 (the Match ID's fields)
    codes.extend([PlaneCode::Bit; 3]);
    if len > OBS_LEN {
        // log2 of the cube (at most MAX_CUBE_LOG2), ownership, Crawford, post-Crawford,
        // away scores (below 2^15), doubled, may double.
        codes.extend([int(4, 1.0), PlaneCode::Bit, PlaneCode::Bit, PlaneCode::Bit, PlaneCode::Bit]);
        codes.extend([int(15, 1.0), int(15, 1.0), PlaneCode::Bit, PlaneCode::Bit]);
    }
    debug_assert_eq!(codes.len(), len);
    codes.into_iter().enumerate().collect()
}

/// The packed bits of a point holding `n` checkers: n>=1, n>=2, n>=3 (one
/// bit each), then n-3 if n>3 (4 bits), then n (4 bits): 11 bits, the codes
/// of [`compact_planes`] in order.
const POINT_BITS: u32 = 11;
static POINT_CODE: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut n: usize = 0;
    while n < 16 {
        let ge = (n >= 1) as u16 | ((n >= 2) as u16) << 1 | ((n >= 3) as u16) << 2;
        let over = n.saturating_sub(3) as u16;
        t[n] = ge | over << 3 | (n as u16) << 7;
        n += 1;
    }
    t
};

/// The codes of two points holding `a` and `b` checkers (index `16 a + b`):
/// `a`'s 11 bits, then `b`'s. Two points per push halve the writer's work.
static PAIR_CODE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = POINT_CODE[i >> 4] as u32 | (POINT_CODE[i & 15] as u32) << POINT_BITS;
        i += 1;
    }
    t
};

/// Where each field of the packed observation starts (bits): the 48 point
/// codes in pairs, bars and borne off (4 bits each), dice left by value (3
/// bits each), scores and match length (15 bits each), 3 flags, then the
/// cube's fields.
const PACKED_POINTS: usize = 0;
const PACKED_BARS: usize = PACKED_POINTS + 48 * POINT_BITS as usize;
const PACKED_DICE: usize = PACKED_BARS + 4 * 4;
const PACKED_MATCH: usize = PACKED_DICE + 6 * 3;
const PACKED_FLAGS: usize = PACKED_MATCH + 3 * 15;
const PACKED_CUBE: usize = PACKED_FLAGS + 3;
const PACKED_END: usize = PACKED_CUBE + 4 + 4 + 2 * 15 + 2;

/// The packed observation's bits in words, each field at an offset known
/// when compiling: an OR or two a field, where a running bit writer paid a
/// branch and a bounds check each (backgammon's packed observation cost
/// more than its move generation).
struct Fields([u64; PACKED_END.div_ceil(64) + 1]);

impl Fields {
    /// The `n` low bits of `v` at bit `at`.
    #[inline(always)]
    fn put(&mut self, at: usize, v: u64, n: u32) {
        let v = v & ((1u64 << n) - 1);
        self.0[at / 64] |= v << (at % 64);
        if at % 64 + n as usize > 64 {
            self.0[at / 64 + 1] |= v >> (64 - at % 64);
        }
    }
}

/// The packed observation written from the state (the same bits as
/// packing the full observation by [`compact_planes`]; tested).
pub fn observe_packed(s: &State, cube: bool, out: &mut [u8]) {
    let who = s.decider();
    let me = &s.board[who.index()];
    let opp = &s.board[who.other().index()];
    let mut f = Fields([0; PACKED_END.div_ceil(64) + 1]);
    // Points in pairs (a point holds at most 15 checkers: `& 15` only tells the compiler so).
    let pair = |a: u8, b: u8| PAIR_CODE[((a & 15) as usize) << 4 | (b & 15) as usize] as u64;
    // Unrolled by hand so that every offset is a constant.
    macro_rules! pairs {
        ($($i:literal)*) => {$(
            let q = 1 + 2 * $i;
            f.put(PACKED_POINTS + 2 * $i * POINT_BITS as usize, pair(me[q], me[q + 1]), 2 * POINT_BITS);
            // The opponent's checkers on the mover's point q sit on its point 25 - q.
            f.put(PACKED_POINTS + (24 + 2 * $i) * POINT_BITS as usize, pair(opp[25 - q], opp[24 - q]), 2 * POINT_BITS);
        )*};
    }
    pairs!(0 1 2 3 4 5 6 7 8 9 10 11);
    for (k, v) in [me[BAR], opp[BAR], me[OFF], opp[OFF]].into_iter().enumerate() {
        f.put(PACKED_BARS + 4 * k, v as u64, 4);
    }
    let mut dice = [0u64; 6];
    if s.phase == Phase::Move {
        for &d in s.left() {
            dice[d as usize - 1] += 1;
        }
    }
    for (k, n) in dice.into_iter().enumerate() {
        f.put(PACKED_DICE + 3 * k, n, 3);
    }
    f.put(PACKED_MATCH, s.score[who.index()] as u64, 15);
    f.put(PACKED_MATCH + 15, s.score[who.other().index()] as u64, 15);
    f.put(PACKED_MATCH + 30, s.match_length as u64, 15);
    f.put(PACKED_FLAGS, matches!(s.phase, Phase::Opening | Phase::ToRoll) as u64, 1);
    f.put(PACKED_FLAGS + 1, (s.phase == Phase::Opening) as u64, 1);
    f.put(PACKED_FLAGS + 2, (s.phase == Phase::Over) as u64, 1);
    if cube {
        let away = |p: usize| if s.match_length == 0 { 0 } else { s.match_length.saturating_sub(s.score[p]) as u64 };
        let c = PACKED_CUBE;
        f.put(c, s.cube as u64, 4);
        f.put(c + 4, (s.owner == who as i8) as u64, 1);
        f.put(c + 5, (s.owner == who.other() as i8) as u64, 1);
        f.put(c + 6, s.crawford as u64, 1);
        f.put(c + 7, s.post_crawford() as u64, 1);
        f.put(c + 8, away(who.index()), 15);
        f.put(c + 23, away(who.other().index()), 15);
        f.put(c + 38, (s.phase == Phase::Doubled) as u64, 1);
        f.put(c + 39, (s.phase == Phase::Cube) as u64, 1);
    }
    // The buffer's bytes from the words (the bytes past the last field are zero).
    let mut bytes = [0u8; 8 * (PACKED_END.div_ceil(64) + 1)];
    for (chunk, w) in bytes.as_chunks_mut::<8>().0.iter_mut().zip(f.0) {
        *chunk = w.to_le_bytes();
    }
    let n = out.len().min(bytes.len());
    out[..n].copy_from_slice(&bytes[..n]);
    out[n..].fill(0);
}

pub fn observe(s: &State, out: &mut [f32]) {
    // The player to act: the taker while a double is offered.
    let who = s.decider();
    let me = &s.board[who.index()];
    let opp = &s.board[who.other().index()];
    // The 48 point blocks as 24 fixed-size pairs: whole-pair copies, no bounds checks
    // (a point holds at most 15 checkers, so `& 15` only tells the compiler so).
    let pairs: &mut [[f32; 2 * PER_POINT]; 24] =
        out[..BARS].as_chunks_mut::<{ 2 * PER_POINT }>().0.try_into().expect("24 pairs of point blocks");
    let pair = |a: u8, b: u8| &PAIR_TABLE[((a & 15) as usize) << 4 | (b & 15) as usize];
    for i in 0..12 {
        let q = 1 + 2 * i;
        debug_assert!(me[q].max(me[q + 1]).max(opp[25 - q]).max(opp[24 - q]) <= CHECKERS);
        pairs[i] = *pair(me[q], me[q + 1]);
        // The opponent's checkers on the mover's point q sit on its point 25 - q.
        pairs[12 + i] = *pair(opp[25 - q], opp[24 - q]);
    }
    out[BARS] = me[BAR] as f32 / 15.0;
    out[BARS + 1] = opp[BAR] as f32 / 15.0;
    out[OFFS] = me[OFF] as f32 / 15.0;
    out[OFFS + 1] = opp[OFF] as f32 / 15.0;
    out[DICE..DICE + 6].fill(0.0);
    if s.phase == Phase::Move {
        for &d in s.left() {
            out[DICE + d as usize - 1] += 1.0;
        }
    }
    out[MATCH] = s.score[who.index()] as f32;
    out[MATCH + 1] = s.score[who.other().index()] as f32;
    out[MATCH + 2] = s.match_length as f32;
    out[FLAGS] = matches!(s.phase, Phase::Opening | Phase::ToRoll) as u8 as f32;
    out[FLAGS + 1] = (s.phase == Phase::Opening) as u8 as f32;
    out[FLAGS + 2] = (s.phase == Phase::Over) as u8 as f32;
    if out.len() >= OBS_LEN + CUBE_OBS {
        let c = &mut out[OBS_LEN..OBS_LEN + CUBE_OBS];
        let away = |p: usize| if s.match_length == 0 { 0.0 } else { s.match_length.saturating_sub(s.score[p]) as f32 };
        c[0] = s.cube as f32;
        c[1] = (s.owner == who as i8) as u8 as f32;
        c[2] = (s.owner == who.other() as i8) as u8 as f32;
        c[3] = s.crawford as u8 as f32;
        c[4] = s.post_crawford() as u8 as f32;
        c[5] = away(who.index());
        c[6] = away(who.other().index());
        c[7] = (s.phase == Phase::Doubled) as u8 as f32;
        c[8] = (s.phase == Phase::Cube) as u8 as f32;
    }
}
