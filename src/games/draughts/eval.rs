//! The built-in evaluation of search (docs/search.md, "Built-in evaluations"):
//! material with kings weighted, plus the men's advancement.

use super::rules::DraughtsRules;
use super::state::State;
use crate::core::Player;
use crate::search::eval::squash;

/// A flying king is worth about three men in international and Russian
/// practice; a short (checkers) king about one and a half.
const FLYING_KING: f32 = 3.0;
const SHORT_KING: f32 = 1.5;
/// A man on the row before promotion gains this much over one at home.
const ADVANCE: f32 = 0.25;
/// Material units per unit of the squashed scale: one man up is worth 0.25.
const SCALE: f32 = 3.0;

/// `squash((material and advancement of player) - (of the opponent)) / SCALE`, in (-1, 1).
pub fn heuristic(rules: &DraughtsRules, s: &State, player: Player) -> f32 {
    let g = &rules.eng.geo;
    let king = if rules.preset().flying { FLYING_KING } else { SHORT_KING };
    let last = (g.size - 1) as f32;
    let side = |p: usize| {
        let mut score = s.board.men[p].count_ones() as f32 + king * s.board.kings[p].count_ones() as f32;
        let mut men = s.board.men[p];
        while men != 0 {
            let row = g.row[men.trailing_zeros() as usize] as f32;
            // Player 0 promotes on the top row (row 0), player 1 on the bottom one.
            let advanced = if p == 0 { last - row } else { row };
            score += ADVANCE * advanced / (last - 1.0);
            men &= men - 1;
        }
        score
    };
    let me = player.index();
    squash((side(me) - side(1 - me)) / SCALE)
}
