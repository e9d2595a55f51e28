//! The one batch engine: N sessions of one game stepped together, in
//! parallel, writing straight into caller-owned output buffers.
//!
//! Auto-reset is "same-step": when a game ends (terminated or truncated) at a
//! step, that step's rewards and flags are the finished game's, its last
//! observation goes to `final_obs`, and the returned observation, mask and
//! current player already belong to the next game (seeded from the env's seed
//! and its episode number). Results do not depend on the thread count: every
//! env owns its generators.

use crate::core::{derive_seed, rng_from_seed, Action, GameRng};
use crate::dynamic::Handle;
use crate::error::{GameError, Result};
use crate::game::Rules;
use crate::session::{IllegalPolicy, Session};
use rand::RngExt;
use rayon::prelude::*;
use std::cell::RefCell;
use std::sync::Arc;

/// Where observations go: float planes, or the same values as bytes.
pub enum ObsOut<'a> {
    F32(&'a mut [f32]),
    U8(&'a mut [u8]),
}

/// The caller's output buffers for one step of N envs (row-major, env first).
pub struct BatchOut<'a> {
    pub obs: ObsOut<'a>,
    pub mask: &'a mut [bool],
    /// (N, 2) per-player rewards of this step.
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    /// Who acts next (0, 1, -1 chance), after any auto-reset.
    pub to_act: &'a mut [i32],
    /// (N, F) the game's info fields, after any auto-reset.
    pub info: &'a mut [i32],
    /// (N, L) the last observation of games that ended this step; rows of
    /// other envs are left untouched.
    pub final_obs: &'a mut [f32],
}

/// Buffers owned by Rust, for tests, benches and rollouts.
pub struct OwnedOut {
    pub obs: Vec<f32>,
    pub mask: Vec<bool>,
    pub rewards: Vec<f32>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub to_act: Vec<i32>,
    pub info: Vec<i32>,
    pub final_obs: Vec<f32>,
}

impl OwnedOut {
    pub fn new(batch: &dyn DynBatch) -> Self {
        let (n, l, a, f) = (batch.num_envs(), batch.obs_len(), batch.num_actions(), batch.num_info());
        OwnedOut {
            obs: vec![0.0; n * l],
            mask: vec![false; n * a],
            rewards: vec![0.0; n * 2],
            terminated: vec![false; n],
            truncated: vec![false; n],
            to_act: vec![0; n],
            info: vec![0; n * f],
            final_obs: vec![0.0; n * l],
        }
    }

    pub fn view(&mut self) -> BatchOut<'_> {
        BatchOut {
            obs: ObsOut::F32(&mut self.obs),
            mask: &mut self.mask,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            to_act: &mut self.to_act,
            info: &mut self.info,
            final_obs: &mut self.final_obs,
        }
    }
}

/// Totals of a Rust-side rollout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RolloutStats {
    /// Decisions applied, over all envs.
    pub steps: u64,
    /// Games that ended by their rules.
    pub terminated: u64,
    pub truncated: u64,
    pub wins: [u64; 2],
    pub draws: u64,
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
    fn step(&mut self, actions: &[i64], out: &mut BatchOut<'_>);
    /// Steps only the envs where `active[i]` (validated first); every other
    /// env keeps its game and gets its row rewritten as it stands, with zero
    /// rewards and no flags. Lets a caller play one side of some envs (an
    /// opponent's turn) while the others wait.
    fn step_active(&mut self, actions: &[i64], active: &[bool], out: &mut BatchOut<'_>);
    /// `steps` decisions per env with uniformly random legal actions chosen in
    /// Rust; observations and masks are produced every step as in `step`.
    fn rollout(&mut self, steps: usize, out: &mut BatchOut<'_>) -> RolloutStats;
    /// The seed of env `i` (its game k is seeded with `derive_seed(seed, k)`).
    fn env_seed(&self, i: usize) -> u64;
    /// A copy of env `i`'s session as a standalone state.
    fn state(&self, i: usize) -> Box<dyn crate::dynamic::DynState>;
}

/// Keeps the random policy's stream apart from the game's dice stream.
const POLICY_SALT: u64 = 0x5EED_0F_0011_C7A5;

struct Env<S> {
    session: Session<S>,
    /// The env's own seed; game k of this env is seeded with derive_seed(seed, k).
    seed: u64,
    episode: u64,
    /// Random-policy generator of `rollout`, apart from the game's own.
    policy: GameRng,
    /// The mask last written, kept so validation never trusts caller memory.
    legal: Vec<bool>,
}

pub struct Batch<R: Rules> {
    game: Arc<Handle<R>>,
    envs: Vec<Env<R::State>>,
    pool: rayon::ThreadPool,
    threads: usize,
}

fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| GameError::Invalid(format!("could not start {threads} threads: {e}")))
}

pub fn default_threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

impl<R: Rules> Batch<R> {
    pub fn new(game: Arc<Handle<R>>, num_envs: usize, seed: u64) -> Self {
        let threads = default_threads();
        let envs = (0..num_envs)
            .map(|i| {
                let env_seed = derive_seed(seed, i as u64);
                Env {
                    session: Session::new(&game.rules, derive_seed(env_seed, 0)),
                    seed: env_seed,
                    episode: 0,
                    policy: rng_from_seed(env_seed ^ POLICY_SALT),
                    legal: vec![false; game.rules.spec().num_actions],
                }
            })
            .collect();
        Batch { game, envs, pool: pool(threads).expect("default thread pool"), threads }
    }

    /// Runs `f(env, row)` over every env in parallel, `row` being its slices of `out`.
    fn for_each_env(&mut self, out: &mut BatchOut<'_>, f: impl Fn(usize, &Handle<R>, &mut Env<R::State>, Row<'_>) + Sync) {
        let game = &*self.game;
        let spec = game.rules.spec();
        let (l, a, k) = (spec.observation_len(), spec.num_actions, spec.info_fields.len());
        let envs = &mut self.envs;
        let BatchOut { obs, mask, rewards, terminated, truncated, to_act, info, final_obs } = out;
        // A game without info fields has an empty info buffer, which would cut
        // the zip below to zero envs: give each env an empty row of a dummy one.
        let mut no_info = Vec::new();
        let info: &mut [i32] = if k == 0 {
            no_info.resize(envs.len(), 0);
            &mut no_info
        } else {
            info
        };
        self.pool.install(|| match obs {
            ObsOut::F32(obs) => (
                envs.par_iter_mut().enumerate(),
                obs.par_chunks_mut(l.max(1)),
                mask.par_chunks_mut(a),
                rewards.par_chunks_mut(2),
                terminated.par_iter_mut(),
                truncated.par_iter_mut(),
                to_act.par_iter_mut(),
                info.par_chunks_mut(k.max(1)),
                final_obs.par_chunks_mut(l.max(1)),
            )
                .into_par_iter()
                .for_each(|((i, env), obs, mask, rewards, term, trunc, to_act, info, fin)| {
                    f(i, game, env, Row { obs: RowObs::F32(obs), mask, rewards, term, trunc, to_act, info: &mut info[..k], fin })
                }),
            ObsOut::U8(obs) => (
                envs.par_iter_mut().enumerate(),
                obs.par_chunks_mut(l.max(1)),
                mask.par_chunks_mut(a),
                rewards.par_chunks_mut(2),
                terminated.par_iter_mut(),
                truncated.par_iter_mut(),
                to_act.par_iter_mut(),
                info.par_chunks_mut(k.max(1)),
                final_obs.par_chunks_mut(l.max(1)),
            )
                .into_par_iter()
                .for_each(|((i, env), obs, mask, rewards, term, trunc, to_act, info, fin)| {
                    f(i, game, env, Row { obs: RowObs::U8(obs), mask, rewards, term, trunc, to_act, info: &mut info[..k], fin })
                }),
        });
    }
}

struct Row<'a> {
    obs: RowObs<'a>,
    mask: &'a mut [bool],
    rewards: &'a mut [f32],
    term: &'a mut bool,
    trunc: &'a mut bool,
    to_act: &'a mut i32,
    info: &'a mut [i32],
    fin: &'a mut [f32],
}

enum RowObs<'a> {
    F32(&'a mut [f32]),
    U8(&'a mut [u8]),
}

thread_local! {
    static SCRATCH: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

impl<S: Clone> Env<S> {
    /// Writes what the caller sees of the current decision.
    fn write_view<R: Rules<State = S>>(&mut self, game: &Handle<R>, row: &mut Row<'_>) {
        let rules = &game.rules;
        match &mut row.obs {
            RowObs::F32(obs) => rules.observe(&self.session.state, obs),
            RowObs::U8(obs) => SCRATCH.with(|scratch| {
                let mut scratch = scratch.borrow_mut();
                scratch.resize(obs.len(), 0.0);
                rules.observe(&self.session.state, &mut scratch);
                for (o, v) in obs.iter_mut().zip(scratch.iter()) {
                    *o = *v as u8;
                }
            }),
        }
        self.session.legal_mask(rules, &game.common, &mut self.legal);
        row.mask.copy_from_slice(&self.legal);
        *row.to_act = self.session.to_act(rules).code();
        rules.write_info(&self.session.state, row.info);
    }

    fn new_game<R: Rules<State = S>>(&mut self, game: &Handle<R>) {
        self.episode += 1;
        self.session.reset(&game.rules, derive_seed(self.seed, self.episode));
    }

    /// One decision, then the same-step auto-reset.
    fn advance<R: Rules<State = S>>(&mut self, game: &Handle<R>, a: i64, row: &mut Row<'_>) {
        let rules = &game.rules;
        let legal = a >= 0 && (a as usize) < self.legal.len() && self.legal[a as usize];
        if legal {
            self.session.apply_legal(rules, Action(a as u32));
        } else {
            // Validation let it through: the policy is lose or rules.
            let policy = if game.common.illegal == IllegalPolicy::Raise { IllegalPolicy::Lose } else { game.common.illegal };
            self.session.punish(rules, policy);
        }
        let terminated = self.session.is_terminal(rules);
        let truncated = !terminated && self.session.is_truncated(rules, &game.common);
        *row.term = terminated;
        *row.trunc = truncated;
        if terminated {
            row.rewards.copy_from_slice(&self.session.returns(rules));
        } else {
            row.rewards.fill(0.0);
        }
        if terminated || truncated {
            rules.observe(&self.session.state, row.fin);
            self.new_game(game);
        }
        self.write_view(game, row);
    }
}

impl<R: Rules> DynBatch for Batch<R> {
    fn num_envs(&self) -> usize {
        self.envs.len()
    }
    fn num_actions(&self) -> usize {
        self.game.rules.spec().num_actions
    }
    fn obs_len(&self) -> usize {
        self.game.rules.spec().observation_len()
    }
    fn num_info(&self) -> usize {
        self.game.rules.spec().info_fields.len()
    }
    fn set_threads(&mut self, threads: usize) -> Result<()> {
        if threads == 0 {
            return Err(GameError::Invalid("num_threads must be at least 1".into()));
        }
        self.pool = pool(threads)?;
        self.threads = threads;
        Ok(())
    }
    fn threads(&self) -> usize {
        self.threads
    }

    fn reset(&mut self, seed: Option<u64>, out: &mut BatchOut<'_>) {
        if let Some(seed) = seed {
            for (i, env) in self.envs.iter_mut().enumerate() {
                env.seed = derive_seed(seed, i as u64);
                env.policy = rng_from_seed(env.seed ^ POLICY_SALT);
            }
        }
        self.for_each_env(out, |_, game, env, mut row| {
            env.episode = 0;
            env.session.reset(&game.rules, derive_seed(env.seed, 0));
            row.rewards.fill(0.0);
            *row.term = false;
            *row.trunc = false;
            env.write_view(game, &mut row);
        });
    }

    fn validate_active(&self, actions: &[i64], active: Option<&[bool]>) -> Result<()> {
        let n = self.num_actions();
        if active.is_some_and(|m| m.len() != self.envs.len()) {
            return Err(GameError::Invalid(format!(
                "active must have shape ({},), got ({},)",
                self.envs.len(),
                active.map_or(0, |m| m.len())
            )));
        }
        if actions.len() != self.envs.len() {
            return Err(GameError::Invalid(format!(
                "actions must have shape ({},), got ({},)",
                self.envs.len(),
                actions.len()
            )));
        }
        for (i, (&a, env)) in actions.iter().zip(&self.envs).enumerate() {
            if active.is_some_and(|m| !m[i]) {
                continue;
            }
            if a < 0 || a as u64 >= n as u64 {
                return Err(GameError::Invalid(format!(
                    "actions[{i}] = {a} is out of range: expected an integer in [0, {n})"
                )));
            }
            if self.game.common.illegal == IllegalPolicy::Raise && !env.legal[a as usize] {
                let e = env.session.illegal_error(&self.game.rules, &self.game.common, Action(a as u32));
                return Err(GameError::Invalid(format!("env {i}: {e}")));
            }
        }
        Ok(())
    }

    fn step(&mut self, actions: &[i64], out: &mut BatchOut<'_>) {
        self.for_each_env(out, |i, game, env, mut row| env.advance(game, actions[i], &mut row));
    }

    fn step_active(&mut self, actions: &[i64], active: &[bool], out: &mut BatchOut<'_>) {
        self.for_each_env(out, |i, game, env, mut row| {
            if active[i] {
                env.advance(game, actions[i], &mut row);
            } else {
                row.rewards.fill(0.0);
                *row.term = false;
                *row.trunc = false;
                env.write_view(game, &mut row);
            }
        });
    }

    fn rollout(&mut self, steps: usize, out: &mut BatchOut<'_>) -> RolloutStats {
        let totals = std::sync::Mutex::new(RolloutStats::default());
        self.for_each_env(out, |_, game, env, mut row| {
            let mut stats = RolloutStats::default();
            for _ in 0..steps {
                let a = if env.session.to_act(&game.rules) == crate::core::ToAct::Chance {
                    // A chance node (explicit chance): outcomes by their probabilities.
                    let outcomes = game.rules.chance_outcomes(&env.session.state);
                    sample_outcome(&mut env.policy, &outcomes).map_or(0, |a| a.0 as i64)
                } else {
                    let legal = env.legal.iter().filter(|&&b| b).count();
                    let k = env.policy.random_range(0..legal);
                    env.legal.iter().enumerate().filter(|(_, &b)| b).nth(k).map(|(i, _)| i as i64).unwrap_or(0)
                };
                let before = env.episode;
                env.advance(game, a, &mut row);
                stats.steps += 1;
                if env.episode != before {
                    if *row.term {
                        stats.terminated += 1;
                        match (row.rewards[0] > row.rewards[1], row.rewards[0] < row.rewards[1]) {
                            (true, _) => stats.wins[0] += 1,
                            (_, true) => stats.wins[1] += 1,
                            _ => stats.draws += 1,
                        }
                    } else {
                        stats.truncated += 1;
                    }
                }
            }
            let mut t = totals.lock().unwrap();
            t.steps += stats.steps;
            t.terminated += stats.terminated;
            t.truncated += stats.truncated;
            t.wins[0] += stats.wins[0];
            t.wins[1] += stats.wins[1];
            t.draws += stats.draws;
        });
        totals.into_inner().unwrap()
    }

    fn env_seed(&self, i: usize) -> u64 {
        self.envs[i].seed
    }

    fn state(&self, i: usize) -> Box<dyn crate::dynamic::DynState> {
        crate::dynamic::state_from_session(self.game.clone(), self.envs[i].session.clone())
    }
}

fn sample_outcome(rng: &mut GameRng, outcomes: &[(Action, f64)]) -> Option<Action> {
    let mut x: f64 = rng.random();
    for &(a, p) in outcomes {
        if x < p {
            return Some(a);
        }
        x -= p;
    }
    outcomes.last().map(|&(a, _)| a)
}

