//! Search over any [`crate::game::Rules`]: the layer between the games and
//! the agents. No Python here; the bindings in `crate::python` call in.
//!
//! * [`mcts`]: Monte-Carlo tree search (PUCT or Gumbel), chance nodes,
//!   batched leaf evaluation over many trees ([`mcts::Forest`]).
//! * [`mcts_dyn`]: the same behind one object-safe surface for the bindings.
//!
//! Alpha-beta, expectimax and the built-in evaluations (`alphabeta`,
//! `expectimax`, `eval`) come from the other half of issue 12 and are
//! declared here when merged.

pub mod mcts;
pub mod mcts_dyn;
mod mcts_random;
#[cfg(test)]
mod mcts_tests;
pub mod tree;
