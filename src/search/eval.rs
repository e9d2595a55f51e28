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
    let mut h = crate::core::WordHasher::default();
    s.hash(&mut h);
    h.finish()
}

/// `x` squashed into (-1, 1) with slope 1 at 0: how the built-in heuristics
/// turn a material-like score into a value that never reaches a won game's 1.
#[inline]
pub fn squash(x: f32) -> f32 {
    x / (1.0 + x.abs())
}

/// A caller's "should the search give up now?" (the bindings answer from
/// Python's signal handlers: a Ctrl-C). Asked between pieces of work, never
/// in the middle of one, so what was searched stays consistent.
pub type Stop<'a> = &'a (dyn Fn() -> bool + Sync);

/// Never stops.
pub fn never() -> bool {
    false
}

/// `inner` that also gives up ([`Aborted`]) once `stop` says so, asking it
/// every [`Stoppable::EVERY`] evaluations: the searches need no hook of
/// their own, as every one of them calls its evaluation all along.
pub struct Stoppable<'s, E> {
    pub inner: E,
    stop: Stop<'s>,
    calls: u32,
}

impl<'s, E> Stoppable<'s, E> {
    /// Evaluations between two questions to `stop` (a few microseconds of search).
    pub const EVERY: u32 = 256;

    pub fn new(inner: E, stop: Stop<'s>) -> Self {
        Stoppable { inner, stop, calls: 0 }
    }
}

impl<R: Rules, E: Evaluator<R>> Evaluator<R> for Stoppable<'_, E> {
    #[inline]
    fn evaluate(&mut self, rules: &R, s: &R::State, player: Player) -> Result<f32, Aborted> {
        self.calls = self.calls.wrapping_add(1);
        if self.calls.is_multiple_of(Self::EVERY) && (self.stop)() {
            return Err(Aborted);
        }
        self.inner.evaluate(rules, s, player)
    }
}
