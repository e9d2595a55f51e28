//! Type erasure: any [`Rules`] behind one object-safe surface, for the
//! bindings and the command line, and the [`GameEntry`] a family registers.
//! The hot paths (batches, perft) stay monomorphic inside.
//!
//! It sits above the generic engines ([`Session`], [`Env`], [`Batch`]) and
//! below the families, whose entries build their rules through
//! [`build_with`]; [`crate::registry`] lists the entries.

use crate::batch::{Batch, BatchOut, Dims, RolloutStats};
use crate::core::Player;
use crate::core::{Action, Applied, ToAct};
use crate::error::{GameError, Result};
use crate::game::{BoardView, GameSpec, ObsBuf, ObsLayout, Rules};
use crate::options::{OptKind, OptSpec, OptValue, Options};
use crate::search::eval::{Aborted, Builtin, Evaluator, Stop, Stoppable};
#[cfg(test)]
use crate::search::mcts::TreeCheck;
use crate::search::mcts::{Forest, MctsConfig, Root, SearchResult};
use crate::search::mlp::Mlp;
use crate::search::{alphabeta, expectimax};
use crate::session::{CommonOptions, Configured, Env, EnvSnapshot, Ruling, Session, SessionExtras, Step};
use std::sync::Arc;

/// A registered game id.
pub struct GameEntry {
    pub id: &'static str,
    /// The family module and docs page (`docs/games/<family>.md`).
    pub family: &'static str,
    /// Rules version: bumped whenever legal moves, encodings or rewards change.
    pub version: u32,
    pub summary: &'static str,
    /// Default of the common `max_turns` option.
    pub max_turns: u32,
    /// Whether the game has the four resign/draw-offer actions.
    pub offers: bool,
    /// The game's own options (the common ones are added by [`GameEntry::option_specs`]).
    pub options: &'static [OptSpec],
    /// Builds the rules from resolved options.
    pub build: fn(&'static GameEntry, Options) -> Result<Arc<dyn DynGame>>,
}

const ILLEGAL: OptSpec = OptSpec {
    name: "illegal_action",
    kind: OptKind::Choice(&["raise", "lose", "rules"]),
    doc:
        "what an environment does with an illegal action: raise ValueError, the offender loses, or the game's own rule",
};
const RESIGN: OptSpec = OptSpec { name: "resign", kind: OptKind::Bool(false), doc: "enable the resign action" };
const OBS_FORMAT: OptSpec = OptSpec {
    name: "obs_format",
    kind: OptKind::Choice(&crate::game::ObsFormat::NAMES),
    doc: "observation format: every plane as float32 (full), only the planes that can change (compact), or those as bits, eight entries per byte (packed)",
};
const DRAW_OFFERS: OptSpec =
    OptSpec { name: "draw_offers", kind: OptKind::Bool(false), doc: "enable the offer/accept/decline draw actions" };

impl GameEntry {
    /// Every option this game accepts, common ones first, with defaults.
    pub fn option_specs(&'static self) -> Vec<OptSpec> {
        let mut specs = vec![
            OptSpec {
                name: "max_turns",
                kind: OptKind::Int { default: self.max_turns as i64, min: 0, max: 1_000_000 },
                doc: "full turns after which an environment truncates the game (0: never)",
            },
            ILLEGAL,
            OBS_FORMAT,
        ];
        if self.offers {
            specs.push(RESIGN);
            specs.push(DRAW_OFFERS);
        }
        specs.extend_from_slice(self.options);
        specs
    }

    /// Builds the game with `given` options (unknown names and bad values are errors).
    pub fn make(&'static self, given: &[(String, OptValue)]) -> Result<Arc<dyn DynGame>> {
        let options = Options::resolve(self.id, &self.option_specs(), given)?;
        (self.build)(self, options)
    }
}

/// Helper for `GameEntry::build`: rules from a constructor, then type erasure.
pub fn build_with<R: Rules>(
    entry: &'static GameEntry,
    options: Options,
    make: impl FnOnce(&Options) -> Result<R>,
) -> Result<Arc<dyn DynGame>> {
    let rules = make(&options)?;
    Ok(erase(entry, options, rules))
}

/// A caller's evaluation across type erasure: a standalone state of the
/// searched game and the player the value is for.
pub type DynEval<'a> = dyn FnMut(Box<dyn DynState>, Player) -> std::result::Result<f32, Aborted> + 'a;

/// The evaluation a search uses at its leaves, across type erasure.
pub enum Evaluation<'f, 'g> {
    /// The game's built-in heuristic ([`crate::game::Rules::heuristic`]).
    Builtin,
    /// A caller's function of standalone states (a Python callable).
    Caller(&'f mut DynEval<'g>),
    /// A value network run natively on the game's observation (no caller
    /// involved: the bindings search without the GIL).
    Network(&'f Mlp),
}

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
    /// The observation format and its planes (`obs_format`).
    fn obs_layout(&self) -> &ObsLayout;
    fn new_state(self: Arc<Self>, seed: u64) -> Box<dyn DynState>;
    fn state_from_string(self: Arc<Self>, text: &str) -> Result<Box<dyn DynState>>;
    /// The state of position string `text` with its [`DynState::extras`] (unpickling).
    fn restore_state(self: Arc<Self>, text: &str, extras: &SessionExtras) -> Result<Box<dyn DynState>>;
    /// The env of a [`DynEnv::snapshot`] (unpickling).
    fn restore_env(self: Arc<Self>, snap: &EnvSnapshot) -> Result<Box<dyn DynEnv>>;
    /// `num_envs` sessions stepped together; seeds derived from `seed`.
    fn new_batch(self: Arc<Self>, num_envs: usize, seed: u64) -> Box<dyn DynBatch>;
    /// One environment (the step contract of [`Env`]) playing game 0 of `seed`.
    fn new_env(self: Arc<Self>, seed: u64) -> Box<dyn DynEnv>;
    /// A Monte-Carlo tree search over this game (`crate::search`).
    fn new_mcts(self: Arc<Self>, config: MctsConfig, threads: usize, seed: u64) -> Result<Box<dyn DynMcts>>;
}

/// A game in progress, of any kind.
pub trait DynState: Send + Sync {
    fn game(&self) -> Arc<dyn DynGame>;
    fn clone_box(&self) -> Box<dyn DynState>;
    /// What the position string does not hold (generator, counts, history).
    fn extras(&self) -> SessionExtras;
    fn to_act(&self) -> ToAct;
    fn returns(&self) -> [f32; 2];
    fn is_truncated(&self) -> bool;
    fn turns_played(&self) -> u32;
    fn legal_mask(&self, mask: &mut [bool]);
    /// The observation in the game's `obs_format` (bytes when packed).
    fn observe(&self, out: ObsBuf<'_>);
    /// Checked apply (`State.apply_action`): errors leave the state unchanged.
    fn apply(&mut self, a: i64) -> Result<Applied>;
    /// Apply under the game's `illegal_action` policy (environments).
    fn apply_with_policy(&mut self, a: i64) -> Result<Ruling>;
    fn to_string(&self) -> String;
    fn legal_moves(&self) -> Vec<String>;
    fn board_text(&self) -> String;
    fn board_view(&self) -> Option<BoardView>;
    fn play(&mut self, text: &str) -> Result<()>;
    fn perft(&self, depth: u32) -> Result<u64>;
    fn action_to_string(&self, a: i64) -> Result<String>;
    fn string_to_action(&self, text: &str) -> Result<Action>;
    fn chance_outcomes(&self) -> Vec<(Action, f64)>;
    /// At a chance node, the player whose side its observation takes
    /// ([`Rules::chance_player`]); `None` elsewhere.
    fn chance_player(&self) -> Option<Player>;
    fn info(&self) -> Vec<(&'static str, i64)>;
    fn piece_counts(&self) -> [u32; 2];
    /// Starts a new game in place.
    fn reset(&mut self, seed: u64);
    /// For [`session_of`]: the concrete state behind the trait object.
    fn as_any(&self) -> &dyn std::any::Any;
    /// Alpha-beta from this state ([`crate::search::alphabeta`]); `eval`
    /// replaces the game's built-in evaluation. Once `stop` answers true
    /// (it is asked every few hundred evaluations) the search gives up as
    /// if its evaluation had failed.
    fn alphabeta(&self, cfg: &alphabeta::Config, eval: Evaluation<'_, '_>, stop: Stop<'_>) -> Result<SearchAnswer>;
    /// Expectimax from this state ([`crate::search::expectimax`]); `stop` as for alpha-beta.
    fn expectimax(&self, cfg: &expectimax::Config, eval: Evaluation<'_, '_>, stop: Stop<'_>) -> Result<SearchAnswer>;
    /// Every complete turn with the value for the mover of the position it
    /// leads to: the returns if the game ends (a third occurrence of the
    /// position included: a draw), the evaluation otherwise.
    /// Every complete turn with the value of where it leads for the mover:
    /// the evaluation (the returns if the game ends), or with `replies` the
    /// capture quiescence search from there (games without dice).
    fn turn_values(&self, eval: Evaluation<'_, '_>, replies: bool) -> Result<Vec<(String, f32)>>;
    /// What this position is worth to `player` by `eval`: the returns once
    /// the game is over, the evaluation otherwise (as a search's leaf).
    fn evaluate(&self, eval: Evaluation<'_, '_>, player: Player) -> Result<f32>;
}

/// One environment of any game: [`Env`] behind an object.
pub trait DynEnv: Send + Sync {
    fn game(&self) -> Arc<dyn DynGame>;
    /// An independent copy that continues exactly as this env.
    fn clone_box(&self) -> Box<dyn DynEnv>;
    /// Everything the env holds, as plain values (pickling).
    fn snapshot(&self) -> EnvSnapshot;
    fn seed(&self) -> u64;
    /// See [`Env::reset`].
    fn reset(&mut self, seed: Option<u64>);
    /// See [`Env::step`].
    fn step(&mut self, a: i64) -> Result<Step>;
    /// See [`Env::is_done`].
    fn is_done(&self) -> bool;
    fn to_act(&self) -> ToAct;
    fn turns_played(&self) -> u32;
    fn legal_mask(&self, mask: &mut [bool]);
    /// The observation in the game's `obs_format` (bytes when packed).
    fn observe(&self, out: ObsBuf<'_>);
    fn info(&self) -> Vec<(&'static str, i64)>;
    /// A copy of the game in progress as a standalone state.
    fn state(&self) -> Box<dyn DynState>;
}

/// A batch of any game.
pub trait DynBatch: Send + Sync {
    fn num_envs(&self) -> usize;
    fn num_actions(&self) -> usize;
    fn obs_len(&self) -> usize;
    fn num_info(&self) -> usize;
    fn set_threads(&mut self, threads: usize) -> Result<()>;
    fn threads(&self) -> usize;
    /// Starts every env afresh; `seed` replaces the batch seed when given.
    fn reset(&mut self, seed: Option<u64>, out: &mut BatchOut<'_>);
    /// Validates `actions` (range; legality under `illegal_action="raise"`)
    /// before touching any env: an error leaves the whole batch unchanged.
    fn validate(&self, actions: &[i64]) -> Result<()> {
        self.validate_active(actions, None)
    }
    /// As [`DynBatch::validate`], checking only the envs where `active[i]`.
    fn validate_active(&self, actions: &[i64], active: Option<&[bool]>) -> Result<()>;
    /// Steps every env with its action; call [`DynBatch::validate`] first.
    /// Returns how many games ended (terminated or truncated) at this step.
    fn step(&mut self, actions: &[i64], out: &mut BatchOut<'_>) -> usize;
    /// Steps only the envs where `active[i]` (validated first); every other
    /// env keeps its game and gets its row rewritten as it stands, with zero
    /// rewards and no flags. Lets a caller play one side of some envs (an
    /// opponent's turn) while the others wait. Returns how many games ended.
    fn step_active(&mut self, actions: &[i64], active: &[bool], out: &mut BatchOut<'_>) -> usize;
    /// As [`DynBatch::step_active`], calling `done(i)` (on the thread that
    /// stepped it) as soon as active env `i`'s rows are written.
    fn step_active_then(
        &mut self,
        actions: &[i64],
        active: &[bool],
        out: &mut BatchOut<'_>,
        done: &(dyn Fn(usize) + Sync),
    ) -> usize;
    /// `steps` decisions per env with uniformly random legal actions chosen in
    /// Rust; observations and masks are produced every step exactly as in
    /// `step` (all envs advance one decision before any advances the next, so
    /// every step writes the whole output, as a training loop would).
    fn rollout(&mut self, steps: usize, out: &mut BatchOut<'_>) -> RolloutStats;
    /// Writes one uniformly random legal action per env (chance nodes: an
    /// outcome by its probability) from each env's own policy generator.
    fn sample_actions(&mut self, actions: &mut [i64]);
    /// The seed of env `i` (its game k is seeded with `derive_seed(seed, k)`).
    fn env_seed(&self, i: usize) -> u64;
    /// A copy of env `i`'s session as a standalone state.
    fn state(&self, i: usize) -> Box<dyn DynState>;
    /// Heap and inline bytes the batch itself holds (envs, bitsets, histories),
    /// not counting output buffers nor heap memory inside game states.
    fn memory_bytes(&self) -> usize;
}

impl<'a, 'b> From<&'a (dyn DynBatch + 'b)> for Dims {
    fn from(b: &'a (dyn DynBatch + 'b)) -> Dims {
        Dims { num_envs: b.num_envs(), obs_len: b.obs_len(), num_actions: b.num_actions(), num_info: b.num_info() }
    }
}

/// A configured game: its registry entry, resolved options, and the rules
/// with the common options that sessions, envs and batches share.
pub struct ConfiguredGame<R: Rules> {
    pub entry: &'static GameEntry,
    pub options: Options,
    pub config: Arc<Configured<R>>,
}

/// The erased game of `rules` built from `entry` with `options`.
pub fn erase<R: Rules>(entry: &'static GameEntry, options: Options, rules: R) -> Arc<dyn DynGame> {
    let common = CommonOptions::from_options(&options);
    Arc::new(ConfiguredGame { entry, options, config: Arc::new(Configured::new(rules, common)) })
}

impl<R: Rules> ConfiguredGame<R> {
    fn rules(&self) -> &R {
        &self.config.rules
    }
}

impl<R: Rules> DynGame for ConfiguredGame<R> {
    fn entry(&self) -> &'static GameEntry {
        self.entry
    }
    fn spec(&self) -> &GameSpec {
        self.rules().spec()
    }
    fn options(&self) -> &Options {
        &self.options
    }
    fn common(&self) -> &CommonOptions {
        &self.config.common
    }
    fn obs_layout(&self) -> &ObsLayout {
        &self.config.obs
    }
    fn new_state(self: Arc<Self>, seed: u64) -> Box<dyn DynState> {
        let session = Session::new(self.rules(), seed);
        Box::new(StateBox { game: self, session })
    }
    fn state_from_string(self: Arc<Self>, text: &str) -> Result<Box<dyn DynState>> {
        let session = Session::from_position(self.rules(), text, 0)?;
        Ok(Box::new(StateBox { game: self, session }))
    }
    fn restore_state(self: Arc<Self>, text: &str, extras: &SessionExtras) -> Result<Box<dyn DynState>> {
        let session = Session::restore(self.rules(), text, extras)?;
        Ok(Box::new(StateBox { game: self, session }))
    }
    fn restore_env(self: Arc<Self>, snap: &EnvSnapshot) -> Result<Box<dyn DynEnv>> {
        let env = Env::from_snapshot(self.rules(), snap)?;
        Ok(Box::new(EnvBox { game: self, env }))
    }
    fn new_batch(self: Arc<Self>, num_envs: usize, seed: u64) -> Box<dyn DynBatch> {
        let batch = Batch::new(self.config.clone(), num_envs, seed);
        Box::new(BatchBox { game: self, batch })
    }
    fn new_env(self: Arc<Self>, seed: u64) -> Box<dyn DynEnv> {
        let env = Env::new(self.rules(), seed);
        Box::new(EnvBox { game: self, env })
    }
    fn new_mcts(self: Arc<Self>, config: MctsConfig, threads: usize, seed: u64) -> Result<Box<dyn DynMcts>> {
        new_search(self, config, threads, seed)
    }
}

struct StateBox<R: Rules> {
    game: Arc<ConfiguredGame<R>>,
    session: Session<R::State>,
}

impl<R: Rules> DynState for StateBox<R> {
    fn game(&self) -> Arc<dyn DynGame> {
        self.game.clone()
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(StateBox { game: self.game.clone(), session: self.session.clone() })
    }
    fn extras(&self) -> SessionExtras {
        self.session.extras()
    }
    fn to_act(&self) -> ToAct {
        self.session.to_act(self.game.rules())
    }
    fn returns(&self) -> [f32; 2] {
        self.session.returns(self.game.rules())
    }
    fn is_truncated(&self) -> bool {
        self.session.is_truncated(self.game.rules(), &self.game.config.common)
    }
    fn turns_played(&self) -> u32 {
        self.session.turns_played()
    }
    fn legal_mask(&self, mask: &mut [bool]) {
        self.session.legal_mask(self.game.rules(), &self.game.config.common, mask)
    }
    fn observe(&self, out: ObsBuf<'_>) {
        self.game.config.observe(&self.session.state, out)
    }
    fn apply(&mut self, a: i64) -> Result<Applied> {
        self.session.apply(self.game.rules(), &self.game.config.common, a)
    }
    fn apply_with_policy(&mut self, a: i64) -> Result<Ruling> {
        self.session.apply_with_policy(self.game.rules(), &self.game.config.common, a)
    }
    fn to_string(&self) -> String {
        self.session.to_position(self.game.rules())
    }
    fn legal_moves(&self) -> Vec<String> {
        self.session.legal_moves(self.game.rules())
    }
    fn board_text(&self) -> String {
        self.game.rules().board_text(&self.session.state)
    }
    fn board_view(&self) -> Option<BoardView> {
        self.game.rules().board_view(&self.session.state)
    }
    fn play(&mut self, text: &str) -> Result<()> {
        self.session.play(self.game.rules(), &self.game.config.common, text)
    }
    fn perft(&self, depth: u32) -> Result<u64> {
        Ok(self.session.perft(self.game.rules(), depth))
    }
    fn action_to_string(&self, a: i64) -> Result<String> {
        self.session.checked_action_to_string(self.game.rules(), a)
    }
    fn string_to_action(&self, text: &str) -> Result<Action> {
        self.session.string_to_action(self.game.rules(), text)
    }
    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        self.session.chance_outcomes(self.game.rules())
    }
    fn chance_player(&self) -> Option<Player> {
        let rules = self.game.rules();
        // A pending draw offer or a verdict makes the session's turn differ
        // from the rules' chance node.
        if self.session.to_act(rules) != ToAct::Chance {
            return None;
        }
        rules.chance_player(&self.session.state)
    }
    fn info(&self) -> Vec<(&'static str, i64)> {
        self.session.info(self.game.rules())
    }
    fn piece_counts(&self) -> [u32; 2] {
        self.game.rules().piece_counts(&self.session.state)
    }
    fn reset(&mut self, seed: u64) {
        self.session.reset(self.game.rules(), seed)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn alphabeta(&self, cfg: &alphabeta::Config, eval: Evaluation<'_, '_>, stop: Stop<'_>) -> Result<SearchAnswer> {
        self.searchable()?;
        let rules = self.game.rules();
        let root = &self.session.state;
        // The tree's positions carry no history: the session says which of them would draw.
        let cfg = &alphabeta::Config { repeated: self.session.repeated_twice(), ..cfg.clone() };
        let found = match eval {
            Evaluation::Builtin => alphabeta::search(rules, root, cfg, &mut Stoppable::new(Builtin, stop)),
            Evaluation::Caller(f) => alphabeta::search(rules, root, cfg, &mut Stoppable::new(self.wrap(f), stop)),
            Evaluation::Network(net) => alphabeta::search(
                rules,
                root,
                cfg,
                &mut Stoppable::new(net.evaluator(rules, &self.game.config.obs)?, stop),
            ),
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
    fn expectimax(&self, cfg: &expectimax::Config, eval: Evaluation<'_, '_>, stop: Stop<'_>) -> Result<SearchAnswer> {
        self.searchable()?;
        let rules = self.game.rules();
        let root = &self.session.state;
        let found = match eval {
            Evaluation::Builtin => expectimax::search(rules, root, cfg, &mut Stoppable::new(Builtin, stop)),
            Evaluation::Caller(f) => expectimax::search(rules, root, cfg, &mut Stoppable::new(self.wrap(f), stop)),
            Evaluation::Network(net) => expectimax::search(
                rules,
                root,
                cfg,
                &mut Stoppable::new(net.evaluator(rules, &self.game.config.obs)?, stop),
            ),
        };
        let o = found.map_err(|_| GameError::Invalid(EVAL_FAILED.into()))?;
        Ok(self.answer(o.best, o.value, Some(o.player), cfg.plies, o.nodes, o.elapsed))
    }
    fn turn_values(&self, eval: Evaluation<'_, '_>, replies: bool) -> Result<Vec<(String, f32)>> {
        self.searchable()?;
        let rules = self.game.rules();
        let root = &self.session.state;
        let Some(me) = rules.to_act(root).player() else { return Ok(Vec::new()) };
        let mut builtin = Builtin;
        let mut wrapped;
        let mut native;
        let e: &mut dyn Evaluator<R> = match eval {
            Evaluation::Builtin => &mut builtin,
            Evaluation::Caller(f) => {
                wrapped = self.wrap(f);
                &mut wrapped
            }
            Evaluation::Network(net) => {
                native = net.evaluator(rules, &self.game.config.obs)?;
                &mut native
            }
        };
        if replies && rules.explicit_chance().is_none() {
            let cfg = alphabeta::Config {
                depth: 1,
                tt_entries: 0,
                repeated: self.session.repeated_twice(),
                ..alphabeta::Config::default()
            };
            let values =
                alphabeta::turn_values(rules, root, &cfg, e).map_err(|_| GameError::Invalid(EVAL_FAILED.into()))?;
            return Ok(rules.turns(root).into_iter().map(|t| t.notation).zip(values).collect());
        }
        let repeated = self.session.repeated_twice();
        let mut out = Vec::new();
        for t in rules.turns(root) {
            let v = if rules.to_act(&t.state) == ToAct::Terminal {
                rules.returns(&t.state)[me.index()]
            } else if alphabeta::draws_by_repetition(rules, &t.state, &repeated) {
                // The third occurrence of the position: a draw, whatever the evaluation says.
                0.0
            } else {
                e.evaluate(rules, &t.state, me).map_err(|_| GameError::Invalid(EVAL_FAILED.into()))?
            };
            out.push((t.notation, v));
        }
        Ok(out)
    }
    fn evaluate(&self, eval: Evaluation<'_, '_>, player: Player) -> Result<f32> {
        self.evaluate_here(eval, player)
    }
}

impl<R: Rules> StateBox<R> {
    fn evaluate_here(&self, eval: Evaluation<'_, '_>, player: Player) -> Result<f32> {
        if self.to_act() == ToAct::Terminal {
            return Ok(self.returns()[player.index()]);
        }
        let rules = self.game.rules();
        let s = &self.session.state;
        let v = match eval {
            Evaluation::Builtin => Ok(rules.heuristic(s, player)),
            Evaluation::Caller(f) => self.wrap(f).evaluate(rules, s, player),
            Evaluation::Network(net) => net.evaluator(rules, &self.game.config.obs)?.evaluate(rules, s, player),
        };
        v.map_err(|_| GameError::Invalid(EVAL_FAILED.into()))
    }

    /// Search sees the rules' state: a position where the session has
    /// something else to settle (a draw offer to answer) is refused.
    fn searchable(&self) -> Result<()> {
        let rules = self.game.rules();
        if self.session.to_act(rules) == ToAct::Terminal && rules.to_act(&self.session.state) != ToAct::Terminal {
            // Over by the session's verdict (a repetition, a resignation, an accepted draw), not by the board.
            return Err(GameError::GameOver { hint: ": search needs a position where a player decides" });
        }
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
            let t = self.game.rules().turns(&self.session.state).swap_remove(i);
            (t.actions, t.notation)
        });
        SearchAnswer { best, value, player, depth, nodes, seconds: elapsed.as_secs_f64() }
    }
}

/// A [`DynEval`] as an evaluation of one game's states: each state is handed
/// over as a fresh standalone state (a session without history).
struct CallerEval<'f, 'g, R: Rules> {
    game: Arc<ConfiguredGame<R>>,
    f: &'f mut DynEval<'g>,
}

impl<R: Rules> Evaluator<R> for CallerEval<'_, '_, R> {
    fn evaluate(&mut self, rules: &R, s: &R::State, p: Player) -> std::result::Result<f32, Aborted> {
        let session = Session::from_state(rules, s.clone(), crate::core::rng_from_seed(0));
        (self.f)(Box::new(StateBox { game: self.game.clone(), session }), p)
    }
}

/// The session behind `s` when it is a state of a game with rules `R`.
pub fn session_of<R: Rules>(s: &dyn DynState) -> Option<&Session<R::State>> {
    s.as_any().downcast_ref::<StateBox<R>>().map(|b| &b.session)
}

struct EnvBox<R: Rules> {
    game: Arc<ConfiguredGame<R>>,
    env: Env<R::State>,
}

impl<R: Rules> DynEnv for EnvBox<R> {
    fn game(&self) -> Arc<dyn DynGame> {
        self.game.clone()
    }
    fn clone_box(&self) -> Box<dyn DynEnv> {
        Box::new(EnvBox { game: self.game.clone(), env: self.env.clone() })
    }
    fn snapshot(&self) -> EnvSnapshot {
        self.env.snapshot(self.game.rules())
    }
    fn seed(&self) -> u64 {
        self.env.seed()
    }
    fn reset(&mut self, seed: Option<u64>) {
        self.env.reset(self.game.rules(), seed)
    }
    fn step(&mut self, a: i64) -> Result<Step> {
        self.env.step(self.game.rules(), &self.game.config.common, a)
    }
    fn is_done(&self) -> bool {
        self.env.is_done()
    }
    fn to_act(&self) -> ToAct {
        self.env.session.to_act(self.game.rules())
    }
    fn turns_played(&self) -> u32 {
        self.env.session.turns_played()
    }
    fn legal_mask(&self, mask: &mut [bool]) {
        self.env.session.legal_mask(self.game.rules(), &self.game.config.common, mask)
    }
    fn observe(&self, out: ObsBuf<'_>) {
        self.game.config.observe(&self.env.session.state, out)
    }
    fn info(&self) -> Vec<(&'static str, i64)> {
        self.env.session.info(self.game.rules())
    }
    fn state(&self) -> Box<dyn DynState> {
        Box::new(StateBox { game: self.game.clone(), session: self.env.session.clone() })
    }
}

/// [`Batch`] behind [`DynBatch`]: the batch and the game its states belong to.
struct BatchBox<R: Rules> {
    game: Arc<ConfiguredGame<R>>,
    batch: Batch<R>,
}

impl<R: Rules> DynBatch for BatchBox<R> {
    fn num_envs(&self) -> usize {
        self.batch.num_envs()
    }
    fn num_actions(&self) -> usize {
        self.batch.num_actions()
    }
    fn obs_len(&self) -> usize {
        self.batch.obs_len()
    }
    fn num_info(&self) -> usize {
        self.batch.num_info()
    }
    fn set_threads(&mut self, threads: usize) -> Result<()> {
        self.batch.set_threads(threads)
    }
    fn threads(&self) -> usize {
        self.batch.threads()
    }
    fn reset(&mut self, seed: Option<u64>, out: &mut BatchOut<'_>) {
        self.batch.reset(seed, out)
    }
    fn validate_active(&self, actions: &[i64], active: Option<&[bool]>) -> Result<()> {
        self.batch.validate_active(actions, active)
    }
    fn step(&mut self, actions: &[i64], out: &mut BatchOut<'_>) -> usize {
        self.batch.step(actions, out)
    }
    fn step_active(&mut self, actions: &[i64], active: &[bool], out: &mut BatchOut<'_>) -> usize {
        self.batch.step_active(actions, active, out)
    }
    fn step_active_then(
        &mut self,
        actions: &[i64],
        active: &[bool],
        out: &mut BatchOut<'_>,
        done: &(dyn Fn(usize) + Sync),
    ) -> usize {
        self.batch.step_active_then(actions, active, out, done)
    }
    fn rollout(&mut self, steps: usize, out: &mut BatchOut<'_>) -> RolloutStats {
        self.batch.rollout(steps, out)
    }
    fn sample_actions(&mut self, actions: &mut [i64]) {
        self.batch.sample_actions(actions)
    }
    fn env_seed(&self, i: usize) -> u64 {
        self.batch.env_seed(i)
    }
    fn state(&self, i: usize) -> Box<dyn DynState> {
        Box::new(StateBox { game: self.game.clone(), session: self.batch.session(i).clone() })
    }
    fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>() - std::mem::size_of::<Batch<R>>() + self.batch.memory_bytes()
    }
}

// Monte-Carlo tree search, erased: a `Forest` behind one object-safe
// surface, for the bindings (type erasure, so it lives here, above
// `crate::search`): states of any game in, search results out. Games that
// sample chance inside `apply` (backgammon `chance="sampled"`) are searched
// with their explicit-chance copy ([`Rules::explicit_chance`]): the tree
// holds chance nodes with the dice's probabilities, and the real game keeps
// rolling its own dice.

/// A search over one configured game, of any kind.
pub trait DynMcts: Send + Sync {
    fn spec(&self) -> &GameSpec;
    /// Starts a search from `states` (all of this game, each with a player to decide).
    fn set_roots(&mut self, states: &[&dyn DynState]) -> Result<()>;
    /// The whole search with the built-in random-rollout evaluator.
    fn search_rollouts(&mut self) -> Result<()>;
    /// The same search, given up between two simulations once `stop` says
    /// so: `Ok(false)`, and a next call goes on where it stopped (the same
    /// result as one uninterrupted call).
    fn search_rollouts_until(&mut self, stop: Stop<'_>) -> Result<bool>;
    /// Runs every tree to its next leaf; the number of leaves waiting for an evaluation.
    fn select(&mut self) -> Result<usize>;
    /// Observations (in the game's `obs_format`) and legal masks of the
    /// waiting leaves, one row each.
    fn write_leaves(&self, obs: ObsBuf<'_>, mask: &mut [bool]);
    /// Expands the waiting leaves with the evaluator's logits and values.
    fn expand(&mut self, logits: &[f32], values: &[f32]) -> Result<()>;
    fn results(&mut self) -> Vec<SearchResult>;
    fn config(&self) -> &MctsConfig;
    #[cfg(test)]
    fn check_tree(&self, i: usize) -> std::result::Result<TreeCheck, String>;
    #[cfg(test)]
    fn chance_visits(&self, i: usize, min_visits: u32) -> Vec<Vec<(f32, u32)>>;
    #[cfg(test)]
    fn root_children(&self, i: usize) -> Vec<(Action, u32, f32)>;
}

struct MctsBox<R: Rules> {
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
fn new_search<R: Rules>(
    game: Arc<ConfiguredGame<R>>,
    mut config: MctsConfig,
    threads: usize,
    seed: u64,
) -> Result<Box<dyn DynMcts>> {
    config.max_turns = game.config.common.max_turns;
    let explicit = if game.config.rules.samples_chance() { game.config.rules.explicit_chance() } else { None };
    let forest = Forest::new(config, threads, seed)?;
    Ok(Box::new(MctsBox { game, explicit, forest }))
}

impl<R: Rules> DynMcts for MctsBox<R> {
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

    fn search_rollouts(&mut self) -> Result<()> {
        self.forest.search_rollouts(tree_rules(&self.explicit, &self.game))
    }

    fn search_rollouts_until(&mut self, stop: Stop<'_>) -> Result<bool> {
        self.forest.search_rollouts_until(tree_rules(&self.explicit, &self.game), stop)
    }

    fn select(&mut self) -> Result<usize> {
        self.forest.select(tree_rules(&self.explicit, &self.game))
    }

    fn write_leaves(&self, obs: ObsBuf<'_>, mask: &mut [bool]) {
        self.forest.write_leaves(tree_rules(&self.explicit, &self.game), &self.game.config.obs, obs, mask)
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
    fn check_tree(&self, i: usize) -> std::result::Result<TreeCheck, String> {
        self.forest.check_tree(i)
    }

    #[cfg(test)]
    fn chance_visits(&self, i: usize, min_visits: u32) -> Vec<Vec<(f32, u32)>> {
        self.forest.chance_visits(i, min_visits)
    }

    #[cfg(test)]
    fn root_children(&self, i: usize) -> Vec<(Action, u32, f32)> {
        self.forest.root_children(i)
    }
}
