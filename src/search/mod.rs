//! Search over the [`crate::game::Rules`] trait, for every game alike: no
//! pyo3 here (the bindings in `python/` wrap it).
//!
//! * [`alphabeta`]: negamax over complete turns for the deterministic games;
//! * [`expectimax`]: n-ply expectimax over complete moves and dice rolls;
//! * [`eval`]: what a leaf is worth (the game's built-in heuristic or a
//!   caller's function), and the state keys of the transposition table.
//!
//! Both searches work on complete turns ([`crate::game::Rules::next_states`]),
//! so a multi-capture, a huff then a move, or a roll's four checker moves are
//! one edge; values are kept per player, not by depth parity, because the
//! same player may move again (docs/search.md).

pub mod alphabeta;
pub mod eval;
pub mod expectimax;

#[cfg(test)]
mod tests;
