//! Leaf evaluations and state keys shared by the searches.

use crate::core::Player;
use crate::game::Rules;
use std::hash::{Hash, Hasher};

/// The caller's evaluation failed; the caller keeps the reason (a Python
/// exception, say) and the search unwinds without a result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Aborted;

/// What a non-terminal state is worth to `player`, in the units of
/// [`Rules::returns`] (1 is a won game).
pub trait Evaluator<R: Rules> {
    fn evaluate(&mut self, rules: &R, s: &R::State, player: Player) -> Result<f32, Aborted>;
}

/// The game's own [`Rules::heuristic`].
#[derive(Copy, Clone, Debug, Default)]
pub struct Builtin;

impl<R: Rules> Evaluator<R> for Builtin {
    #[inline]
    fn evaluate(&mut self, rules: &R, s: &R::State, player: Player) -> Result<f32, Aborted> {
        Ok(rules.heuristic(s, player))
    }
}

/// A function as an evaluation (the bindings wrap a Python callable in one).
pub struct FnEval<F>(pub F);

impl<R: Rules, F: FnMut(&R, &R::State, Player) -> Result<f32, Aborted>> Evaluator<R> for FnEval<F> {
    #[inline]
    fn evaluate(&mut self, rules: &R, s: &R::State, player: Player) -> Result<f32, Aborted> {
        (self.0)(rules, s, player)
    }
}

/// A 64-bit key of a state for the transposition table: the state's own
/// `Hash` fed to an FxHash-style word mixer (fast on the small `Copy`
/// states of the games), finished with splitmix64 so that the low bits that
/// index the table are well spread.
pub fn state_key<S: Hash>(s: &S) -> u64 {
    let mut h = WordHasher(0);
    s.hash(&mut h);
    crate::core::splitmix64(h.0)
}

struct WordHasher(u64);

impl WordHasher {
    #[inline]
    fn mix(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in chunks.by_ref() {
            self.mix(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(buf) ^ ((rest.len() as u64) << 56));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.mix(i as u64)
    }
    fn write_u16(&mut self, i: u16) {
        self.mix(i as u64)
    }
    fn write_u32(&mut self, i: u32) {
        self.mix(i as u64)
    }
    fn write_u64(&mut self, i: u64) {
        self.mix(i)
    }
    fn write_u128(&mut self, i: u128) {
        self.mix(i as u64);
        self.mix((i >> 64) as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64)
    }
}

/// `x` squashed into (-1, 1) with slope 1 at 0: how the built-in heuristics
/// turn a material-like score into a value that never reaches a won game's 1.
#[inline]
pub fn squash(x: f32) -> f32 {
    x / (1.0 + x.abs())
}
