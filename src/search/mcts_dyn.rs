//! [`Forest`] behind one object-safe surface, for the bindings: states of
//! any game in, search results out. Games that sample chance inside `apply`
//! (backgammon `chance="sampled"`) are searched with their explicit-chance
//! copy ([`Rules::explicit_chance`]): the tree holds chance nodes with the
//! dice's probabilities, and the real game keeps rolling its own dice.

use super::mcts::{Forest, MctsConfig, Root, SearchResult};
use crate::dynamic::{session_of, ConfiguredGame, DynState};
use crate::error::{GameError, Result};
use crate::game::{GameSpec, Rules};
use std::sync::Arc;

/// A search over one configured game, of any kind.
pub trait DynMcts: Send + Sync {
    fn spec(&self) -> &GameSpec;
    /// Starts a search from `states` (all of this game, each with a player to decide).
    fn set_roots(&mut self, states: &[&dyn DynState]) -> Result<()>;
    /// The whole search with the built-in random-rollout evaluator.
    fn search_rollouts(&mut self);
    /// Runs every tree to its next leaf; the number of leaves waiting for an evaluation.
    fn select(&mut self) -> usize;
    /// Observations and legal masks of the waiting leaves, one row each.
    fn write_leaves(&self, obs: &mut [f32], mask: &mut [bool]);
    /// Expands the waiting leaves with the evaluator's logits and values.
    fn expand(&mut self, logits: &[f32], values: &[f32]) -> Result<()>;
    fn results(&mut self) -> Vec<SearchResult>;
    fn config(&self) -> &MctsConfig;
    #[cfg(test)]
    fn check_tree(&self, i: usize) -> std::result::Result<super::mcts::TreeCheck, String>;
    #[cfg(test)]
    fn chance_visits(&self, i: usize, min_visits: u32) -> Vec<Vec<(f32, u32)>>;
}

struct Erased<R: Rules> {
    game: Arc<ConfiguredGame<R>>,
    /// The explicit-chance copy of a sampled-chance game.
    explicit: Option<R>,
    forest: Forest<R>,
}

/// The rules the tree is searched with: the explicit-chance copy if any.
fn tree_rules<'a, R: Rules>(explicit: &'a Option<R>, game: &'a ConfiguredGame<R>) -> &'a R {
    explicit.as_ref().unwrap_or(&game.config.rules)
}

/// A search over `game` (`max_turns` is taken from the game's options).
pub fn new_search<R: Rules>(game: Arc<ConfiguredGame<R>>, mut config: MctsConfig, threads: usize, seed: u64) -> Result<Box<dyn DynMcts>> {
    config.max_turns = game.config.common.max_turns;
    let explicit = if game.config.rules.samples_chance() { game.config.rules.explicit_chance() } else { None };
    let forest = Forest::new(config, threads, seed)?;
    Ok(Box::new(Erased { game, explicit, forest }))
}

impl<R: Rules> DynMcts for Erased<R> {
    fn spec(&self) -> &GameSpec {
        self.game.config.rules.spec()
    }

    fn set_roots(&mut self, states: &[&dyn DynState]) -> Result<()> {
        let mut roots = Vec::with_capacity(states.len());
        for (i, s) in states.iter().enumerate() {
            let other = s.game();
            let same_game = other.entry().id == self.game.entry.id && *other.options() == self.game.options;
            let session = session_of::<R>(*s).filter(|_| same_game).ok_or_else(|| {
                GameError::Invalid(format!(
                    "state {i} is a state of {} {:?}, not of the searched game {} {:?}",
                    other.entry().id,
                    other.options(),
                    self.game.entry.id,
                    self.game.options
                ))
            })?;
            let rules = &self.game.config.rules;
            if session.verdict().is_some() || session.to_act(rules) == crate::core::ToAct::Terminal {
                return Err(GameError::GameOver { hint: ": search needs a position where a player decides" });
            }
            if session.to_act(rules) != rules.to_act(&session.state) {
                return Err(GameError::Invalid(format!(
                    "state {i} has a draw offer pending: search chooses moves, answer the offer with accept_draw or decline_draw"
                )));
            }
            roots.push(Root { state: session.state.clone(), turns: session.turns_played() });
        }
        self.forest.set_roots(tree_rules(&self.explicit, &self.game), roots)
    }

    fn search_rollouts(&mut self) {
        self.forest.search_rollouts(tree_rules(&self.explicit, &self.game))
    }

    fn select(&mut self) -> usize {
        self.forest.select(tree_rules(&self.explicit, &self.game))
    }

    fn write_leaves(&self, obs: &mut [f32], mask: &mut [bool]) {
        self.forest.write_leaves(tree_rules(&self.explicit, &self.game), obs, mask)
    }

    fn expand(&mut self, logits: &[f32], values: &[f32]) -> Result<()> {
        self.forest.expand(tree_rules(&self.explicit, &self.game), logits, values)
    }

    fn results(&mut self) -> Vec<SearchResult> {
        self.forest.results(tree_rules(&self.explicit, &self.game))
    }

    fn config(&self) -> &MctsConfig {
        self.forest.config()
    }

    #[cfg(test)]
    fn check_tree(&self, i: usize) -> std::result::Result<super::mcts::TreeCheck, String> {
        self.forest.check_tree(i)
    }

    #[cfg(test)]
    fn chance_visits(&self, i: usize, min_visits: u32) -> Vec<Vec<(f32, u32)>> {
        self.forest.chance_visits(i, min_visits)
    }
}
