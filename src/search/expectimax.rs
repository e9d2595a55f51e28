//! n-ply expectimax over complete moves and chance outcomes (backgammon's 21
//! rolls), with gnubg's move filter.
//!
//! Plies count chance layers, as gnubg counts them (in a game without chance,
//! complete turns, so that the search still ends): at 0 plies every move is
//! judged by the evaluation of the position it leads to (before the
//! opponent's roll); at `n` plies by the average over the rolls that follow
//! of the best reply searched at `n - 1` plies. Below the root's choices, a
//! player's moves are first judged at 0 plies and only the best
//! [`Config::filter`] are searched deeper (gnubg's move filter does the same
//! with its own thresholds), which makes 2 plies affordable.
//!
//! Chance must be enumerated: the search runs on
//! [`Rules::explicit_chance`] (backgammon with `chance="sampled"` rolls its
//! own dice, and the state is the same type in both modes). Values are kept
//! for one player and negated where the other decides (the game is
//! zero-sum), so a forced pass (a roll with no legal move, after which the
//! opponent rolls again) needs no special case.

use super::eval::{Aborted, Evaluator};
use crate::core::{Player, ToAct};
use crate::game::Rules;
use std::time::{Duration, Instant};

/// Deepest search allowed, in chance layers (each multiplies the work by about 21 x moves).
pub const MAX_PLIES: u32 = 4;

#[derive(Clone, Debug)]
pub struct Config {
    /// Chance layers below the root's moves (0..=[`MAX_PLIES`]).
    pub plies: u32,
    /// Moves kept by the 0-ply filter at a decision searched deeper; 0 keeps all.
    pub filter: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config { plies: 1, filter: 8 }
    }
}

#[derive(Clone, Debug)]
pub struct Outcome {
    /// Index of the best turn in `rules.turns(root)` (`None` at a chance or terminal root).
    pub best: Option<usize>,
    /// Value of the root for [`Outcome::player`], in the units of the game's returns.
    pub value: f32,
    /// The player to move at the root; player 0 at a chance or terminal root.
    pub player: Player,
    /// States visited.
    pub nodes: u64,
    pub elapsed: Duration,
}

struct Search<'a, R: Rules, E> {
    rules: &'a R,
    /// Whether the game has dice: then a ply is a roll and a move (gnubg's
    /// count); without, a ply is one complete turn.
    chance: bool,
    eval: &'a mut E,
    filter: usize,
    nodes: u64,
    rng: crate::core::GameRng,
}

impl<R: Rules, E: Evaluator<R>> Search<'_, R, E> {
    /// The value of `s` for `me` with `k` chance layers still to search.
    fn value(&mut self, s: &R::State, me: Player, k: u32) -> Result<f32, Aborted> {
        self.nodes += 1;
        match self.rules.to_act(s) {
            ToAct::Terminal => Ok(self.rules.returns(s)[me.index()]),
            ToAct::Chance if k == 0 => self.eval.evaluate(self.rules, s, me),
            ToAct::Chance => {
                let mut total = 0.0f64;
                for (a, p) in self.rules.chance_outcomes(s) {
                    let mut next = s.clone();
                    self.rules.apply(&mut next, a, &mut self.rng);
                    total += p * self.value(&next, me, k - 1)? as f64;
                }
                Ok(total as f32)
            }
            ToAct::Player(_) if k == 0 && !self.chance => self.eval.evaluate(self.rules, s, me),
            ToAct::Player(m) => {
                let mut kids = Vec::new();
                self.rules.next_states(s, &mut kids);
                let (_, v) = self.decide(&kids, m, k)?;
                Ok(if m == me { v } else { -v })
            }
        }
    }

    /// The best of `kids` for their mover `m`: (index, value for `m`).
    fn decide(&mut self, kids: &[R::State], m: Player, k: u32) -> Result<(usize, f32), Aborted> {
        let mut shallow = Vec::with_capacity(kids.len());
        for c in kids {
            shallow.push(self.value(c, m, 0)?);
        }
        let mut order: Vec<usize> = (0..kids.len()).collect();
        if k > 0 {
            // Stable sort: ties keep the game's order (determinism).
            order.sort_by(|&a, &b| shallow[b].total_cmp(&shallow[a]));
            if self.filter > 0 {
                order.truncate(self.filter);
            }
        }
        let mut best = (usize::MAX, f32::NEG_INFINITY);
        for i in order {
            let v = if k == 0 { shallow[i] } else { self.value(&kids[i], m, if self.chance { k } else { k - 1 })? };
            if v > best.1 || best.0 == usize::MAX {
                best = (i, v);
            }
        }
        Ok(best)
    }
}

/// Searches `root` to `cfg.plies` chance layers and returns its best complete turn.
pub fn search<R: Rules, E: Evaluator<R>>(
    rules: &R,
    root: &R::State,
    cfg: &Config,
    eval: &mut E,
) -> Result<Outcome, Aborted> {
    let start = Instant::now();
    let explicit = rules.explicit_chance();
    let r = explicit.as_ref().unwrap_or(rules);
    let plies = cfg.plies.min(MAX_PLIES);
    let mut search = Search {
        rules: r,
        chance: explicit.is_some(),
        eval,
        filter: cfg.filter,
        nodes: 0,
        rng: crate::core::rng_from_seed(0),
    };
    let (best, value, player) = match r.to_act(root) {
        ToAct::Player(m) => {
            let kids: Vec<R::State> = rules.turns(root).into_iter().map(|t| t.state).collect();
            search.nodes += 1;
            let (i, v) = search.decide(&kids, m, plies)?;
            (Some(i), v, m)
        }
        ToAct::Chance | ToAct::Terminal => (None, search.value(root, Player::P0, plies)?, Player::P0),
    };
    Ok(Outcome { best, value, player, nodes: search.nodes, elapsed: start.elapsed() })
}
