//! Type erasure: any [`Rules`] behind one object-safe surface, for the
//! bindings and the command line. The hot paths (batches, perft) stay
//! monomorphic inside.

use crate::batch::{Batch, DynBatch};
use crate::core::{Action, Applied, ToAct};
use crate::error::{GameError, Result};
use crate::game::{GameSpec, Rules};
use crate::options::Options;
use crate::registry::GameEntry;
use crate::session::{CommonOptions, Outcome, Session};
use std::sync::Arc;

use crate::core::Player;
use crate::search::eval::{Aborted, Builtin, Evaluator};
use crate::search::{alphabeta, expectimax};

/// A caller's evaluation across type erasure: a standalone state of the
/// searched game and the player the value is for.
pub type DynEval<'a> = dyn FnMut(Box<dyn DynState>, Player) -> std::result::Result<f32, Aborted> + 'a;

/// What a search found (docs/search.md).
#[derive(Clone, Debug)]
pub struct SearchAnswer {
    /// The best complete turn: its decisions and notation (`None` at a chance or terminal root).
    pub best: Option<(Vec<Action>, String)>,
    /// Value of the root for `player`.
    pub value: f32,
    pub player: Option<Player>,
    /// Deepest completed iteration (alpha-beta) or plies (expectimax).
    pub depth: u32,
    pub nodes: u64,
    pub seconds: f64,
}

/// The message of a search stopped by a failing caller's evaluation (the
/// bindings raise the evaluation's own exception instead).
pub const EVAL_FAILED: &str = "the evaluation function failed";

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
    /// Alpha-beta from this state ([`crate::search::alphabeta`]); `eval`
    /// replaces the game's built-in evaluation.
    fn alphabeta(&self, cfg: &alphabeta::Config, eval: Option<&mut DynEval<'_>>) -> Result<SearchAnswer>;
    /// Expectimax from this state ([`crate::search::expectimax`]).
    fn expectimax(&self, cfg: &expectimax::Config, eval: Option<&mut DynEval<'_>>) -> Result<SearchAnswer>;
    /// Every complete turn with the value for the mover of the position it
    /// leads to: the returns if the game ends, the evaluation otherwise.
    fn turn_values(&self, eval: Option<&mut DynEval<'_>>) -> Result<Vec<(String, f32)>>;
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
    fn alphabeta(&self, cfg: &alphabeta::Config, eval: Option<&mut DynEval<'_>>) -> Result<SearchAnswer> {
        self.searchable()?;
        let rules = &self.game.rules;
        let root = &self.session.state;
        let found = match eval {
            None => alphabeta::search(rules, root, cfg, &mut Builtin),
            Some(f) => alphabeta::search(rules, root, cfg, &mut self.wrap(f)),
        };
        let o = found.map_err(|e| match e {
            alphabeta::Failure::Aborted => GameError::Invalid(EVAL_FAILED.into()),
            alphabeta::Failure::Chance => GameError::Invalid(format!(
                "alpha-beta searches games without chance; {} has dice: use expectimax",
                self.game.entry.id
            )),
        })?;
        Ok(self.answer(o.best, o.value, rules.to_act(root).player(), o.depth, o.nodes, o.elapsed))
    }
    fn expectimax(&self, cfg: &expectimax::Config, eval: Option<&mut DynEval<'_>>) -> Result<SearchAnswer> {
        self.searchable()?;
        let rules = &self.game.rules;
        let root = &self.session.state;
        let found = match eval {
            None => expectimax::search(rules, root, cfg, &mut Builtin),
            Some(f) => expectimax::search(rules, root, cfg, &mut self.wrap(f)),
        };
        let o = found.map_err(|_| GameError::Invalid(EVAL_FAILED.into()))?;
        Ok(self.answer(o.best, o.value, Some(o.player), cfg.plies, o.nodes, o.elapsed))
    }
    fn turn_values(&self, eval: Option<&mut DynEval<'_>>) -> Result<Vec<(String, f32)>> {
        self.searchable()?;
        let rules = &self.game.rules;
        let root = &self.session.state;
        let Some(me) = rules.to_act(root).player() else { return Ok(Vec::new()) };
        let mut builtin = Builtin;
        let mut wrapped;
        let e: &mut dyn Evaluator<R> = match eval {
            None => &mut builtin,
            Some(f) => {
                wrapped = self.wrap(f);
                &mut wrapped
            }
        };
        let mut out = Vec::new();
        for t in rules.turns(root) {
            let v = if rules.to_act(&t.state) == ToAct::Terminal {
                rules.returns(&t.state)[me.index()]
            } else {
                e.evaluate(rules, &t.state, me).map_err(|_| GameError::Invalid(EVAL_FAILED.into()))?
            };
            out.push((t.notation, v));
        }
        Ok(out)
    }
}

impl<R: Rules> StateBox<R> {
    /// Search sees the rules' state: a position where the session has
    /// something else to settle (a draw offer to answer) is refused.
    fn searchable(&self) -> Result<()> {
        let rules = &self.game.rules;
        if self.session.to_act(rules) != rules.to_act(&self.session.state) {
            return Err(GameError::Invalid(
                "a draw offer is pending: answer it (accept_draw or decline_draw) before searching".into(),
            ));
        }
        Ok(())
    }

    /// A caller's evaluation over standalone states of this game.
    fn wrap<'f, 'g>(&self, f: &'f mut DynEval<'g>) -> CallerEval<'f, 'g, R> {
        CallerEval { game: self.game.clone(), f }
    }

    fn answer(
        &self,
        best: Option<usize>,
        value: f32,
        player: Option<Player>,
        depth: u32,
        nodes: u64,
        elapsed: std::time::Duration,
    ) -> SearchAnswer {
        let best = best.map(|i| {
            let t = self.game.rules.turns(&self.session.state).swap_remove(i);
            (t.actions, t.notation)
        });
        SearchAnswer { best, value, player, depth, nodes, seconds: elapsed.as_secs_f64() }
    }
}

/// A [`DynEval`] as an evaluation of one game's states: each state is handed
/// over as a fresh standalone state (a session without history).
struct CallerEval<'f, 'g, R: Rules> {
    game: Arc<Handle<R>>,
    f: &'f mut DynEval<'g>,
}

impl<R: Rules> Evaluator<R> for CallerEval<'_, '_, R> {
    fn evaluate(&mut self, rules: &R, s: &R::State, p: Player) -> std::result::Result<f32, Aborted> {
        let session = Session::from_state(rules, s.clone(), crate::core::rng_from_seed(0));
        (self.f)(Box::new(StateBox { game: self.game.clone(), session }), p)
    }
}

/// A standalone state from a session of a batch.
pub fn state_from_session<R: Rules>(game: Arc<Handle<R>>, session: Session<R::State>) -> Box<dyn DynState> {
    Box::new(StateBox { game, session })
}
