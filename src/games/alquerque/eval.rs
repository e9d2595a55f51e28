//! The built-in evaluation of search (docs/search.md, "Built-in evaluations"):
//! material with mulás weighted, plus the pawns' advancement.

use super::rules::Alquerque;
use super::state::State;
use crate::core::Player;
use crate::search::eval::squash;

/// A flying mulá is worth about three pawns (as a flying draughts king).
const MULA: f32 = 3.0;
/// A pawn on the rank before promotion gains this much over one at home.
const ADVANCE: f32 = 0.25;
/// Material units per unit of the squashed scale: one pawn up is worth 0.25.
const SCALE: f32 = 3.0;

/// `squash((material and advancement of player) - (of the opponent)) / SCALE`, in (-1, 1).
pub fn heuristic(_rules: &Alquerque, s: &State, player: Player) -> f32 {
    let side = |p: Player| {
        let mine = s.pieces[p.index()];
        let mulas = mine & s.kings;
        let mut score = (mine & !s.kings).count_ones() as f32 + MULA * mulas.count_ones() as f32;
        let mut pawns = mine & !s.kings;
        while pawns != 0 {
            let rank = (pawns.trailing_zeros() / 9) as f32;
            // Player 0 moves towards rank 9 (index 8), player 1 towards rank 1.
            let advanced = if p == Player::P0 { rank } else { 8.0 - rank };
            score += ADVANCE * advanced / 7.0;
            pawns &= pawns - 1;
        }
        score
    };
    squash((side(player) - side(player.other())) / SCALE)
}
