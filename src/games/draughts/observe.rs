//! Observation planes (docs/games/draughts.md "Observation planes"): shape
//! `(26, size, size)`, from the mover's point of view (player 1's board is
//! turned 180 degrees); light squares are always 0.

use super::preset::{Draws, Huff};
use super::rules::{DraughtsRules, NUM_PLANES};
use super::state::State;
use crate::game::{ObsLayout, PlaneCode};

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
        planes.extend([
            FORCE_MY_MEN,
            FORCE_MY_MEN + 1,
            FORCE_MY_MEN + 2,
            FORCE_MY_MEN + 3,
            FORCE_AVAILABLE,
            MUST_CAPTURE,
        ]);
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

/// Where the planes of one observation go: a full, compact or packed writer.
trait Sink {
    /// Entry `cell` of full plane `plane` is 1.
    fn set(&mut self, plane: usize, cell: usize);
    /// The entries of the pieces of `bb` in full plane `plane` are 1
    /// (`cells`: each padded bit's cell from the mover's point of view).
    #[inline(always)]
    fn pieces(&mut self, plane: usize, bb: u64, cells: &[u8; 64], _side: usize) {
        each_piece(self, plane, bb, cells);
    }
    /// Every entry of full plane `plane` is `value`.
    fn fill(&mut self, plane: usize, value: f32);
}

/// [`Sink::set`] for each square of `bb` (`cells`: each padded bit's cell).
#[inline(always)]
fn each_piece<K: Sink + ?Sized>(sink: &mut K, plane: usize, mut bb: u64, cells: &[u8; 64]) {
    while bb != 0 {
        let b = bb.trailing_zeros() as usize;
        bb &= bb - 1;
        sink.set(plane, cells[b & 63] as usize);
    }
}

/// Every non-zero entry of the observation of `s`, plane by plane.
fn emit(r: &DraughtsRules, s: &State, sink: &mut impl Sink) {
    let g = &r.eng.geo;
    let me = s.side as usize;
    let op = 1 - me;
    // The mover's view of each square: player 1's board turned 180 degrees.
    let cells = &g.cell[me & 1];
    let b = &s.board;
    sink.pieces(MY_MEN, b.men[me], cells, me);
    sink.pieces(MY_KINGS, b.kings[me], cells, me);
    sink.pieces(OPP_MEN, b.men[op], cells, me);
    sink.pieces(OPP_KINGS, b.kings[op], cells, me);
    each_piece(sink, HUFF, s.huff, cells);
    if let Some(f) = s.force {
        each_piece(sink, FORCE_MY_MEN, f.men[me], cells);
        each_piece(sink, FORCE_MY_MEN + 1, f.kings[me], cells);
        each_piece(sink, FORCE_MY_MEN + 2, f.men[op], cells);
        each_piece(sink, FORCE_MY_MEN + 3, f.kings[op], cells);
    }
    if let Some((from, at)) = s.cap {
        each_piece(sink, CAP_PIECE, 1 << at, cells);
        each_piece(sink, CAP_START, 1 << from, cells);
    }
    each_piece(sink, JUMPED, s.jumped, cells);
    each_piece(sink, CAPTURERS, s.capturers, cells);
    if let Some((q, _)) = s.huffed {
        each_piece(sink, HUFFED, 1 << q, cells);
    }
    for (p, base) in [(me, MY_SHUFFLE), (op, OPP_SHUFFLE)] {
        let len = s.shuffle_len[p] as usize;
        // Last move first, then the one before it.
        for (slot, i) in (0..len).rev().enumerate() {
            let (from, to) = s.shuffle[p][i];
            each_piece(sink, base + 2 * slot, 1 << from, cells);
            each_piece(sink, base + 2 * slot + 1, 1 << to, cells);
        }
    }
    if s.force.is_some() {
        sink.fill(FORCE_AVAILABLE, 1.0);
    }
    if s.must_capture {
        sink.fill(MUST_CAPTURE, 1.0);
    }
    if let Some(k) = s.k {
        sink.fill(K_RUNNING, 1.0);
        sink.fill(K_VALUE, k as f32 / r.preset().k_limit().max(1) as f32);
    }
}

struct Full<'a> {
    out: &'a mut [f32],
    area: usize,
}

impl Sink for Full<'_> {
    #[inline(always)]
    fn set(&mut self, plane: usize, cell: usize) {
        self.out[plane * self.area + cell] = 1.0;
    }
    fn fill(&mut self, plane: usize, value: f32) {
        self.out[plane * self.area..(plane + 1) * self.area].fill(value);
    }
}

/// The compact planes: full plane -> compact plane (or dropped).
struct Compact<'a> {
    out: &'a mut [f32],
    area: usize,
    slot: [u8; NUM_PLANES],
}

const DROPPED: u8 = u8::MAX;

impl Sink for Compact<'_> {
    #[inline(always)]
    fn set(&mut self, plane: usize, cell: usize) {
        let j = self.slot[plane];
        if j != DROPPED {
            self.out[j as usize * self.area + cell] = 1.0;
        }
    }
    fn fill(&mut self, plane: usize, value: f32) {
        let j = self.slot[plane];
        if j != DROPPED {
            self.out[j as usize * self.area..(j as usize + 1) * self.area].fill(value);
        }
    }
}

/// The packed bits: full plane -> first bit of its digit planes and its code.
struct Packed<'a> {
    out: &'a mut [u8],
    area: usize,
    at: &'a [(u32, PlaneCode); NUM_PLANES],
}

impl Packed<'_> {
    fn set_bits(&mut self, start: usize, len: usize) {
        for i in start..start + len {
            self.out[i >> 3] |= 1 << (i & 7);
        }
    }
}

/// Two rows' eight dark squares (a row pair's low 8 bits in the padded
/// layout) to their 16 cells' bits, from each side's point of view: player
/// 0's first row holds its squares on the odd columns, its second row on the
/// even ones; player 1's entry is the same reversed, the pair turned 180
/// degrees. One lookup a row pair: the step's piece planes are most of what
/// a packed `checkers` observation costs.
const PAIR8: [[u16; 256]; 2] = {
    const fn spread4(v: usize) -> u16 {
        (v & 1 | (v & 2) << 1 | (v & 4) << 2 | (v & 8) << 3) as u16
    }
    let mut t = [[0u16; 256]; 2];
    let mut v = 0;
    while v < 256 {
        t[0][v] = spread4(v & 15) << 1 | spread4(v >> 4) << 8;
        t[1][v] = t[0][v].reverse_bits();
        v += 1;
    }
    t
};

/// The 8x8 plane of `bb` as 64 bits (bit `row * 8 + col`) from `side`'s
/// point of view. Player 0's padded layout keeps each row's four dark
/// squares together (rows pair up in 9 bits: 4 squares, 4 squares, a pad);
/// player 1's view is the board turned 180 degrees, the 64 bits reversed,
/// which puts row pair `p`'s reversed 16 bits at `48 - 16 p` (`16 p ^ 48`).
#[inline(always)]
fn plane8(bb: u64, side: usize) -> u64 {
    let table = &PAIR8[side & 1];
    let flip = 48 * (side & 1);
    let mut plane = 0u64;
    for p in 0..4 {
        plane |= u64::from(table[(bb >> (9 * p)) as usize & 255]) << ((16 * p) ^ flip);
    }
    plane
}

impl Sink for Packed<'_> {
    #[inline(always)]
    fn set(&mut self, plane: usize, cell: usize) {
        let (at, _) = self.at[plane];
        if at != u32::MAX {
            let i = at as usize + cell;
            self.out[i >> 3] |= 1 << (i & 7);
        }
    }
    #[inline(always)]
    fn pieces(&mut self, plane: usize, bb: u64, cells: &[u8; 64], side: usize) {
        let (at, _) = self.at[plane];
        if at == u32::MAX {
            return;
        }
        if self.area == 64 && at % 8 == 0 {
            // A whole byte-aligned 8x8 plane at once, with no branch per piece
            // (the loop's exit was mispredicted about once a plane).
            let at = at as usize / 8;
            let word: &mut [u8; 8] = (&mut self.out[at..at + 8]).try_into().expect("8 bytes");
            *word = (u64::from_le_bytes(*word) | plane8(bb, side)).to_le_bytes();
            return;
        }
        each_piece(self, plane, bb, cells);
    }
    fn fill(&mut self, plane: usize, value: f32) {
        let (at, code) = self.at[plane];
        if at == u32::MAX {
            return;
        }
        let area = self.area;
        match code {
            PlaneCode::Bit if value != 0.0 => self.set_bits(at as usize, area),
            PlaneCode::Bit => {}
            PlaneCode::Int { bits, scale } => {
                let v = (value * scale + 0.5) as u32;
                for b in 0..bits as usize {
                    if v >> b & 1 != 0 {
                        self.set_bits(at as usize + b * area, area);
                    }
                }
            }
        }
    }
}

/// The compact planes of `s` (only those: no full observation is written).
pub fn observe_compact(r: &DraughtsRules, s: &State, layout: &ObsLayout, out: &mut [f32]) {
    let area = layout.plane_len;
    let mut slot = [DROPPED; NUM_PLANES];
    for (j, &(p, _)) in layout.kept.iter().enumerate() {
        slot[p] = j as u8;
    }
    out.fill(0.0);
    emit(r, s, &mut Compact { out, area, slot });
}

/// The packed bits of `s`, written from the bitboards.
pub fn observe_packed(r: &DraughtsRules, s: &State, layout: &ObsLayout, out: &mut [u8]) {
    let at: &[(u32, PlaneCode); NUM_PLANES] = layout.packed_at.as_slice().try_into().expect("26 planes");
    out.fill(0);
    emit(r, s, &mut Packed { out, area: layout.plane_len, at });
}

pub fn observe(r: &DraughtsRules, s: &State, out: &mut [f32]) {
    let area = r.eng.geo.size as usize * r.eng.geo.size as usize;
    out.fill(0.0);
    emit(r, s, &mut Full { out, area });
}
