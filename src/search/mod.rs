//! Search over any [`crate::game::Rules`], for every game alike: the layer
//! between the games and the agents. No pyo3 here; the bindings in
//! `crate::python` call in.
//!
//! * [`mcts`]: Monte-Carlo tree search (PUCT or Gumbel), chance nodes,
//!   batched leaf evaluation over many trees ([`mcts::Forest`]; the same
//!   behind one object-safe surface for the bindings is
//!   `crate::dynamic::mcts`, the type-erasure layer above this one).
//! * [`alphabeta`]: negamax over complete turns for the deterministic games;
//! * [`expectimax`]: n-ply expectimax over complete moves and dice rolls;
//! * [`eval`]: what a leaf is worth (the game's built-in heuristic or a
//!   caller's function), and the state keys of the transposition table;
//! * [`mlp`]: a value network evaluated natively (the TD baselines').
//!
//! MCTS works decision by decision; alpha-beta and expectimax on complete
//! turns ([`crate::game::Rules::next_states`]), so a multi-capture, a huff
//! then a move, or a roll's four checker moves are one edge. Values are kept
//! per player, not by depth parity, because the same player may move again
//! (docs/search.md).

pub mod alphabeta;
pub mod eval;
pub mod expectimax;
pub mod mcts;
mod mcts_random;
#[cfg(test)]
mod mcts_tests;
pub mod mlp;
#[cfg(test)]
mod tests;
pub mod tree;
