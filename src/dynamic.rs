//! Type erasure: any [`Rules`] behind one object-safe surface, for the
//! bindings and the command line. The hot paths (batches, perft) stay
//! monomorphic inside.

use crate::batch::{Batch, DynBatch};
use crate::core::{Action, Applied, ToAct};
use crate::error::{GameError, Result};
use crate::game::{GameSpec, Rules};
use crate::options::Options;
use crate::registry::GameEntry;
use crate::search::mcts::MctsConfig;
use crate::search::mcts_dyn::DynMcts;
use crate::session::{CommonOptions, Outcome, Session};
use std::sync::Arc;

/// A configured game of any kind.
pub trait DynGame: Send + Sync {
    fn entry(&self) -> &'static GameEntry;
    fn spec(&self) -> &GameSpec;
    fn options(&self) -> &Options;
    fn common(&self) -> &CommonOptions;
    fn new_state(self: Arc<Self>, seed: u64) -> Box<dyn DynState>;
    fn state_from_string(self: Arc<Self>, text: &str) -> Result<Box<dyn DynState>>;
    /// `num_envs` sessions stepped together; seeds derived from `seed`.
    fn new_batch(self: Arc<Self>, num_envs: usize, seed: u64) -> Box<dyn DynBatch>;
    /// A Monte-Carlo tree search over this game (`crate::search`).
    fn new_mcts(self: Arc<Self>, config: MctsConfig, threads: usize, seed: u64) -> Result<Box<dyn DynMcts>>;
}

/// A game in progress, of any kind.
pub trait DynState: Send + Sync {
    fn game(&self) -> Arc<dyn DynGame>;
    fn clone_box(&self) -> Box<dyn DynState>;
    fn to_act(&self) -> ToAct;
    fn returns(&self) -> [f32; 2];
    fn is_truncated(&self) -> bool;
    fn turns_played(&self) -> u32;
    fn legal_mask(&self, mask: &mut [bool]);
    fn observe(&self, out: &mut [f32]);
    /// Checked apply (`State.apply_action`): errors leave the state unchanged.
    fn apply(&mut self, a: i64) -> Result<Applied>;
    /// Apply under the game's `illegal_action` policy (environments).
    fn apply_with_policy(&mut self, a: i64) -> Result<Outcome>;
    fn to_string(&self) -> String;
    fn legal_moves(&self) -> Vec<String>;
    fn board_text(&self) -> String;
    fn play(&mut self, text: &str) -> Result<()>;
    fn perft(&self, depth: u32) -> Result<u64>;
    fn action_to_string(&self, a: i64) -> Result<String>;
    fn string_to_action(&self, text: &str) -> Result<Action>;
    fn chance_outcomes(&self) -> Vec<(Action, f64)>;
    fn info(&self) -> Vec<(&'static str, i64)>;
    fn piece_counts(&self) -> [u32; 2];
    /// Starts a new game in place.
    fn reset(&mut self, seed: u64);
    /// For [`session_of`]: the concrete state behind the trait object.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A configured game: its rules, options and registry entry.
pub struct Handle<R: Rules> {
    pub entry: &'static GameEntry,
    pub options: Options,
    pub common: CommonOptions,
    pub rules: R,
}

pub fn erase<R: Rules>(entry: &'static GameEntry, options: Options, rules: R) -> Arc<dyn DynGame> {
    let common = CommonOptions::from_options(&options);
    Arc::new(Handle { entry, options, common, rules })
}

impl<R: Rules> DynGame for Handle<R> {
    fn entry(&self) -> &'static GameEntry {
        self.entry
    }
    fn spec(&self) -> &GameSpec {
        self.rules.spec()
    }
    fn options(&self) -> &Options {
        &self.options
    }
    fn common(&self) -> &CommonOptions {
        &self.common
    }
    fn new_state(self: Arc<Self>, seed: u64) -> Box<dyn DynState> {
        let session = Session::new(&self.rules, seed);
        Box::new(StateBox { game: self, session })
    }
    fn state_from_string(self: Arc<Self>, text: &str) -> Result<Box<dyn DynState>> {
        let session = Session::from_position(&self.rules, text, 0)?;
        Ok(Box::new(StateBox { game: self, session }))
    }
    fn new_batch(self: Arc<Self>, num_envs: usize, seed: u64) -> Box<dyn DynBatch> {
        Box::new(Batch::new(self, num_envs, seed))
    }
    fn new_mcts(self: Arc<Self>, config: MctsConfig, threads: usize, seed: u64) -> Result<Box<dyn DynMcts>> {
        crate::search::mcts_dyn::new_search(self, config, threads, seed)
    }
}

struct StateBox<R: Rules> {
    game: Arc<Handle<R>>,
    session: Session<R::State>,
}

impl<R: Rules> DynState for StateBox<R> {
    fn game(&self) -> Arc<dyn DynGame> {
        self.game.clone()
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(StateBox { game: self.game.clone(), session: self.session.clone() })
    }
    fn to_act(&self) -> ToAct {
        self.session.to_act(&self.game.rules)
    }
    fn returns(&self) -> [f32; 2] {
        self.session.returns(&self.game.rules)
    }
    fn is_truncated(&self) -> bool {
        self.session.is_truncated(&self.game.rules, &self.game.common)
    }
    fn turns_played(&self) -> u32 {
        self.session.turns_played()
    }
    fn legal_mask(&self, mask: &mut [bool]) {
        self.session.legal_mask(&self.game.rules, &self.game.common, mask)
    }
    fn observe(&self, out: &mut [f32]) {
        self.game.rules.observe(&self.session.state, out)
    }
    fn apply(&mut self, a: i64) -> Result<Applied> {
        self.session.apply(&self.game.rules, &self.game.common, a)
    }
    fn apply_with_policy(&mut self, a: i64) -> Result<Outcome> {
        self.session.apply_with_policy(&self.game.rules, &self.game.common, a)
    }
    fn to_string(&self) -> String {
        self.session.to_position(&self.game.rules)
    }
    fn legal_moves(&self) -> Vec<String> {
        self.session.legal_moves(&self.game.rules)
    }
    fn board_text(&self) -> String {
        self.game.rules.board_text(&self.session.state)
    }
    fn play(&mut self, text: &str) -> Result<()> {
        self.session.play(&self.game.rules, &self.game.common, text)
    }
    fn perft(&self, depth: u32) -> Result<u64> {
        if self.session.verdict().is_some() {
            return Ok(1);
        }
        Ok(self.game.rules.perft(&self.session.state, depth))
    }
    fn action_to_string(&self, a: i64) -> Result<String> {
        let n = self.game.rules.spec().num_actions;
        if a < 0 || a as u64 >= n as u64 {
            return Err(GameError::ActionOutOfRange { action: a, num_actions: n });
        }
        Ok(self.session.action_to_string(&self.game.rules, Action(a as u32)))
    }
    fn string_to_action(&self, text: &str) -> Result<Action> {
        self.session.string_to_action(&self.game.rules, text)
    }
    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        if self.to_act() == ToAct::Chance {
            self.game.rules.chance_outcomes(&self.session.state)
        } else {
            Vec::new()
        }
    }
    fn info(&self) -> Vec<(&'static str, i64)> {
        self.session.info(&self.game.rules)
    }
    fn piece_counts(&self) -> [u32; 2] {
        self.game.rules.piece_counts(&self.session.state)
    }
    fn reset(&mut self, seed: u64) {
        self.session.reset(&self.game.rules, seed)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The session behind `s` when it is a state of a game with rules `R`.
pub fn session_of<R: Rules>(s: &dyn DynState) -> Option<&Session<R::State>> {
    s.as_any().downcast_ref::<StateBox<R>>().map(|b| &b.session)
}

/// A standalone state from a session of a batch.
pub fn state_from_session<R: Rules>(game: Arc<Handle<R>>, session: Session<R::State>) -> Box<dyn DynState> {
    Box::new(StateBox { game, session })
}
