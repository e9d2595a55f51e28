//! The one batch engine: N sessions of one game stepped together, in
//! parallel, writing straight into caller-owned output buffers.
//!
//! Auto-reset is "same-step": when a game ends (terminated or truncated) at a
//! step, that step's rewards and flags are the finished game's, its last
//! observation goes to `final_obs`, and the returned observation, mask and
//! current player already belong to the next game (seeded from the env's seed
//! and its episode number). Results do not depend on the thread count: every
//! env owns its generators.
//!
//! The hot path allocates nothing: envs are split into contiguous parts
//! (`rayon::join`, no task list), each part walks its rows in order, and the
//! legal mask an env last showed is kept as a bitset (validation never trusts
//! caller memory, and `rollout` samples from it without scanning bytes).

use crate::bits::{count_set_bits, find_nth_set_bit, has_bit};
use crate::core::{derive_seed, rng_from_seed, sample_outcome, Action, GameRng, ToAct};
use crate::error::{GameError, Result};
use crate::game::{LegalOut, ObsBuf, Rules, LISTED};
use crate::session::{Configured, Env, IllegalPolicy, Session};
use rand::RngExt;
use std::sync::Arc;

/// Where observations go: float entries, or bytes (the float formats'
/// values truncated, or the packed format).
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
    /// other envs are left untouched. Float entries in the float formats
    /// (whatever `obs`'s dtype), bytes in the packed format.
    pub final_obs: ObsOut<'a>,
}

/// Row lengths of the output buffers.
#[derive(Clone, Copy)]
struct Strides {
    obs: usize,
    mask: usize,
    info: usize,
    words: usize,
}

impl<'a> BatchOut<'a> {
    /// A shorter-lived view of the same buffers.
    pub fn reborrow(&mut self) -> BatchOut<'_> {
        BatchOut {
            obs: match &mut self.obs {
                ObsOut::F32(o) => ObsOut::F32(o),
                ObsOut::U8(o) => ObsOut::U8(o),
            },
            mask: self.mask,
            rewards: self.rewards,
            terminated: self.terminated,
            truncated: self.truncated,
            to_act: self.to_act,
            info: self.info,
            final_obs: match &mut self.final_obs {
                ObsOut::F32(o) => ObsOut::F32(o),
                ObsOut::U8(o) => ObsOut::U8(o),
            },
        }
    }

    /// Rows `[0, mid)` and `[mid, ..)`.
    fn split_at(self, mid: usize, st: Strides) -> (BatchOut<'a>, BatchOut<'a>) {
        let split = |o: ObsOut<'a>| match o {
            ObsOut::F32(o) => {
                let (a, b) = o.split_at_mut(mid * st.obs);
                (ObsOut::F32(a), ObsOut::F32(b))
            }
            ObsOut::U8(o) => {
                let (a, b) = o.split_at_mut(mid * st.obs);
                (ObsOut::U8(a), ObsOut::U8(b))
            }
        };
        let (o1, o2) = split(self.obs);
        let (m1, m2) = self.mask.split_at_mut(mid * st.mask);
        let (r1, r2) = self.rewards.split_at_mut(mid * 2);
        let (t1, t2) = self.terminated.split_at_mut(mid);
        let (u1, u2) = self.truncated.split_at_mut(mid);
        let (p1, p2) = self.to_act.split_at_mut(mid);
        let (i1, i2) = self.info.split_at_mut(mid * st.info);
        let (f1, f2) = split(self.final_obs);
        (
            BatchOut {
                obs: o1,
                mask: m1,
                rewards: r1,
                terminated: t1,
                truncated: u1,
                to_act: p1,
                info: i1,
                final_obs: f1,
            },
            BatchOut {
                obs: o2,
                mask: m2,
                rewards: r2,
                terminated: t2,
                truncated: u2,
                to_act: p2,
                info: i2,
                final_obs: f2,
            },
        )
    }

    /// Whether every buffer holds `n` rows (checked once a part, so that
    /// [`BatchOut::row`] may slice without bounds checks).
    fn holds(&self, n: usize, st: Strides) -> bool {
        let obs = |o: &ObsOut<'_>| match o {
            ObsOut::F32(o) => o.len(),
            ObsOut::U8(o) => o.len(),
        };
        // Sizes that overflow cannot be held by any slice.
        let rows = |stride: usize, len: usize| n.checked_mul(stride).is_some_and(|need| need <= len);
        rows(st.obs, obs(&self.obs))
            && rows(st.obs, obs(&self.final_obs))
            && rows(st.mask, self.mask.len())
            && rows(2, self.rewards.len())
            && rows(1, self.terminated.len())
            && rows(1, self.truncated.len())
            && rows(1, self.to_act.len())
            && rows(st.info, self.info.len())
    }

    /// The slices of row `j`.
    ///
    /// # Safety
    /// `j < n` for an `n` that [`BatchOut::holds`] accepted with these strides.
    /// (Checked slicing by row index cost about 50 instructions an env-step,
    /// 2 % of backgammon's rollout.)
    #[inline]
    unsafe fn row(&mut self, j: usize, st: Strides) -> Row<'_> {
        let (l, a, k) = (st.obs, st.mask, st.info);
        // SAFETY (every slice): row j ends at (j + 1) * stride <= n * stride <= len.
        unsafe {
            Row {
                obs: match &mut self.obs {
                    ObsOut::F32(o) => RowObs::F32(o.get_unchecked_mut(j * l..(j + 1) * l)),
                    ObsOut::U8(o) => RowObs::U8(o.get_unchecked_mut(j * l..(j + 1) * l)),
                },
                fin: match &mut self.final_obs {
                    ObsOut::F32(o) => RowObs::F32(o.get_unchecked_mut(j * l..(j + 1) * l)),
                    ObsOut::U8(o) => RowObs::U8(o.get_unchecked_mut(j * l..(j + 1) * l)),
                },
                mask: self.mask.get_unchecked_mut(j * a..(j + 1) * a),
                rewards: self.rewards.get_unchecked_mut(j * 2..j * 2 + 2),
                term: self.terminated.get_unchecked_mut(j),
                trunc: self.truncated.get_unchecked_mut(j),
                to_act: self.to_act.get_unchecked_mut(j),
                info: self.info.get_unchecked_mut(j * k..(j + 1) * k),
            }
        }
    }
}

/// Buffers owned by Rust, for tests, benches and rollouts (float
/// observations; packed layouts get their bytes as float values).
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

/// The sizes of a batch's output rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub num_envs: usize,
    pub obs_len: usize,
    pub num_actions: usize,
    pub num_info: usize,
}

impl<R: Rules> From<&Batch<R>> for Dims {
    fn from(b: &Batch<R>) -> Dims {
        b.dims()
    }
}

impl OwnedOut {
    /// Buffers for a batch (`&Batch`, or `&dyn DynBatch` above erasure).
    pub fn new(dims: impl Into<Dims>) -> Self {
        let Dims { num_envs: n, obs_len: l, num_actions: a, num_info: f } = dims.into();
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
            final_obs: ObsOut::F32(&mut self.final_obs),
        }
    }

    /// Bytes of the output buffers (what a caller allocates besides the batch).
    pub fn bytes(&self) -> usize {
        self.obs.len() * 4
            + self.mask.len()
            + self.rewards.len() * 4
            + self.terminated.len() * 2
            + self.to_act.len() * 4
            + self.info.len() * 4
            + self.final_obs.len() * 4
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

impl RolloutStats {
    /// Adds `o`'s counts to these (rollouts played in pieces).
    pub fn add(&mut self, o: &RolloutStats) {
        self.steps += o.steps;
        self.terminated += o.terminated;
        self.truncated += o.truncated;
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.draws += o.draws;
    }
}

/// Keeps the random policy's stream apart from the game's dice stream.
const POLICY_SALT: u64 = 0x005E_ED0F_0011_C7A5;

/// One env of the batch: the one-env contract plus what the batch keeps per env.
struct Slot<S> {
    env: Env<S>,
    /// Random-policy generator of `rollout`, apart from the game's own.
    policy: GameRng,
    /// Tallies of the current rollout.
    stats: RolloutStats,
    /// How many actions the env's legal bits hold, and the first of them
    /// (written with the bits).
    legal_count: u32,
    listed: [u16; LISTED],
    is_listed: bool,
}

/// N envs of one configured game (it knows no type erasure: see
/// [`crate::dynamic::DynBatch`] for the object-safe surface).
pub struct Batch<R: Rules> {
    game: Arc<Configured<R>>,
    envs: Vec<Slot<R::State>>,
    /// The legal mask each env last showed, `words` u64 per env.
    legal: Vec<u64>,
    words: usize,
    /// `None` when one thread: everything runs on the caller's thread.
    pool: Option<rayon::ThreadPool>,
    threads: usize,
}

/// The pool for `threads` requested threads. It never starts more OS threads
/// than the machine runs at once ([`default_threads`]): more cannot step
/// CPU-bound envs faster, and `num_threads=1000` would otherwise take
/// seconds to start. Results do not depend on the thread count.
fn pool(threads: usize) -> Result<Option<rayon::ThreadPool>> {
    let threads = threads.min(default_threads());
    if threads <= 1 {
        return Ok(None);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map(Some)
        .map_err(|e| GameError::Invalid(format!("could not start {threads} threads: {e}")))
}

pub fn default_threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// A contiguous run of envs with their bitsets and output rows.
struct Part<'a, S> {
    envs: &'a mut [Slot<S>],
    legal: &'a mut [u64],
    out: BatchOut<'a>,
    /// Index of `envs[0]` in the batch.
    first: usize,
}

impl<'a, S> Part<'a, S> {
    fn split(self, mid: usize, st: Strides) -> (Part<'a, S>, Part<'a, S>) {
        let (e1, e2) = self.envs.split_at_mut(mid);
        let (l1, l2) = self.legal.split_at_mut(mid * st.words);
        let (o1, o2) = self.out.split_at(mid, st);
        (
            Part { envs: e1, legal: l1, out: o1, first: self.first },
            Part { envs: e2, legal: l2, out: o2, first: self.first + mid },
        )
    }
}

/// What one env does in one round; returns whether its game ended.
trait EnvFn<R: Rules>: Fn(&Configured<R>, usize, &mut Slot<R::State>, &mut [u64], Row<'_>) -> bool + Sync {}
impl<R: Rules, F: Fn(&Configured<R>, usize, &mut Slot<R::State>, &mut [u64], Row<'_>) -> bool + Sync> EnvFn<R> for F {}

/// Runs `f` over every env of `part` (halving it on the pool while it is
/// larger than `grain`); returns how many calls reported an ended game.
fn process<R: Rules>(
    game: &Configured<R>,
    part: Part<'_, R::State>,
    st: Strides,
    grain: usize,
    f: &impl EnvFn<R>,
) -> usize {
    let n = part.envs.len();
    if n > grain {
        let (a, b) = part.split(n / 2, st);
        let (x, y) = rayon::join(|| process(game, a, st, grain, f), || process(game, b, st, grain, f));
        return x + y;
    }
    let Part { envs, legal, mut out, first } = part;
    assert!(out.holds(n, st), "output buffers shorter than {n} rows");
    let mut ended = 0;
    for (j, (env, bits)) in envs.iter_mut().zip(legal.chunks_exact_mut(st.words.max(1))).enumerate() {
        // SAFETY: j < n, and the buffers hold n rows (asserted above).
        ended += f(game, first + j, env, bits, unsafe { out.row(j, st) }) as usize;
    }
    ended
}

impl<R: Rules> Batch<R> {
    pub fn new(game: Arc<Configured<R>>, num_envs: usize, seed: u64) -> Self {
        let threads = default_threads();
        let envs = (0..num_envs)
            .map(|i| {
                let env_seed = derive_seed(seed, i as u64);
                Slot {
                    env: Env::new(&game.rules, env_seed),
                    policy: rng_from_seed(env_seed ^ POLICY_SALT),
                    stats: RolloutStats::default(),
                    legal_count: 0,
                    listed: [0; LISTED],
                    is_listed: false,
                }
            })
            .collect();
        let words = game.rules.spec().num_actions.div_ceil(64).max(1);
        // The random policy's list holds actions as u16 (the largest game has 5,188).
        assert!(game.rules.spec().num_actions <= 1 << 16, "a batch holds games of at most 65,536 actions");
        Batch {
            game,
            envs,
            legal: vec![0; num_envs * words],
            words,
            pool: pool(threads).expect("default thread pool"),
            threads,
        }
    }

    fn strides(&self) -> Strides {
        let spec = self.game.rules.spec();
        Strides { obs: self.game.obs.len(), mask: spec.num_actions, info: spec.info_fields.len(), words: self.words }
    }

    /// Runs `f` over every env in parallel on the batch's pool. Returns the
    /// number of ended games reported.
    fn each_env(&mut self, out: &mut BatchOut<'_>, f: impl EnvFn<R>) -> usize {
        let st = self.strides();
        let n = self.envs.len();
        let game = &*self.game;
        let (envs, legal) = (&mut self.envs, &mut self.legal);
        // Parts of at least 16 envs, about 4 per thread for balance; one
        // part (no splitting) without a pool.
        let grain = match &self.pool {
            Some(pool) => n.div_ceil(4 * pool.current_num_threads()).max(16),
            None => usize::MAX,
        };
        let mut run = || {
            let part = Part { envs: &mut envs[..], legal: &mut legal[..], out: out.reborrow(), first: 0 };
            process(game, part, st, grain, &f)
        };
        match &self.pool {
            // A batch that would not be split runs on the caller's thread:
            // handing it to the pool costs a thread wake-up per call.
            Some(pool) if n > grain => pool.install(run),
            _ => run(),
        }
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
    fin: RowObs<'a>,
}

enum RowObs<'a> {
    F32(&'a mut [f32]),
    U8(&'a mut [u8]),
}

impl RowObs<'_> {
    fn buf(&mut self) -> ObsBuf<'_> {
        match self {
            RowObs::F32(o) => ObsBuf::F32(o),
            RowObs::U8(o) => ObsBuf::U8(o),
        }
    }
}

impl<S: Clone> Slot<S> {
    /// Writes what the caller sees of the current decision, and keeps its
    /// mask.
    fn write_view<R: Rules<State = S>>(&mut self, game: &Configured<R>, bits: &mut [u64], row: &mut Row<'_>) {
        let rules = &game.rules;
        let session = &self.env.session;
        let to_act = session.to_act(rules);
        game.observe(&session.state, row.obs.buf());
        let mut legal = LegalOut { mask: row.mask, bits, listed: &mut self.listed, count: 0, is_listed: false };
        session.legal_out(rules, &game.common, &mut legal);
        self.legal_count = legal.count;
        self.is_listed = legal.is_listed;
        *row.to_act = to_act.code();
        rules.write_info(&session.state, row.info);
    }

    /// One decision, then the same-step auto-reset. Returns whether the game ended.
    fn advance<R: Rules<State = S>>(
        &mut self,
        game: &Configured<R>,
        a: i64,
        bits: &mut [u64],
        row: &mut Row<'_>,
    ) -> bool {
        let rules = &game.rules;
        let legal = a >= 0 && has_bit(bits, a as usize);
        let step = self.env.step_validated(rules, &game.common, a, legal);
        *row.term = step.terminated;
        *row.trunc = step.truncated;
        row.rewards.copy_from_slice(&step.rewards);
        let ended = step.ended();
        if ended {
            game.observe(&self.env.session.state, row.fin.buf());
            self.env.next_game(rules);
        }
        self.write_view(game, bits, row);
        ended
    }

    /// A uniformly random legal action from the env's policy generator
    /// (chance nodes: an outcome by its probability).
    fn random_action<R: Rules<State = S>>(&mut self, rules: &R, bits: &[u64]) -> i64 {
        if self.env.session.to_act(rules) == ToAct::Chance {
            let outcomes = rules.chance_outcomes(&self.env.session.state);
            return sample_outcome(&mut self.policy, &outcomes).map_or(0, |a| a.0 as i64);
        }
        debug_assert_eq!(count_set_bits(bits), self.legal_count, "the legal bits and their count disagree");
        let count = self.legal_count;
        if count == 0 {
            return 0;
        }
        // A uniform draw among the legal actions: from the list when it holds them all.
        let k = self.policy.random_range(0..count);
        match self.listed.get(k as usize) {
            Some(&a) if self.is_listed && count as usize <= LISTED => a as i64,
            _ => find_nth_set_bit(bits, k).map_or(0, |a| a as i64),
        }
    }
}

impl<R: Rules> Batch<R> {
    pub fn dims(&self) -> Dims {
        Dims {
            num_envs: self.num_envs(),
            obs_len: self.obs_len(),
            num_actions: self.num_actions(),
            num_info: self.num_info(),
        }
    }
    pub fn num_envs(&self) -> usize {
        self.envs.len()
    }
    pub fn num_actions(&self) -> usize {
        self.game.rules.spec().num_actions
    }
    /// Length of one observation row in the configured format.
    pub fn obs_len(&self) -> usize {
        self.game.obs.len()
    }
    pub fn num_info(&self) -> usize {
        self.game.rules.spec().info_fields.len()
    }
    pub fn set_threads(&mut self, threads: usize) -> Result<()> {
        if threads == 0 {
            return Err(GameError::Invalid("num_threads must be at least 1".into()));
        }
        self.pool = pool(threads)?;
        self.threads = threads;
        Ok(())
    }
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Starts every env afresh; `seed` replaces the batch seed when given.
    pub fn reset(&mut self, seed: Option<u64>, out: &mut BatchOut<'_>) {
        let seed_of = |i: usize| seed.map(|s| derive_seed(s, i as u64));
        for (i, env) in self.envs.iter_mut().enumerate() {
            if let Some(s) = seed_of(i) {
                env.policy = rng_from_seed(s ^ POLICY_SALT);
            }
        }
        self.each_env(out, |game, i, env, bits, mut row| {
            env.env.restart(&game.rules, seed_of(i));
            row.rewards.fill(0.0);
            *row.term = false;
            *row.trunc = false;
            env.write_view(game, bits, &mut row);
            false
        });
    }

    /// Validates `actions` (range; legality under `illegal_action="raise"`)
    /// before touching any env: an error leaves the whole batch unchanged.
    pub fn validate(&self, actions: &[i64]) -> Result<()> {
        self.validate_active(actions, None)
    }

    /// As [`Batch::validate`], checking only the envs where `active[i]`.
    pub fn validate_active(&self, actions: &[i64], active: Option<&[bool]>) -> Result<()> {
        let n = self.num_actions();
        if let Some(m) = active.filter(|m| m.len() != self.envs.len()) {
            return Err(GameError::Invalid(format!(
                "active must have shape ({},), got ({},)",
                self.envs.len(),
                m.len()
            )));
        }
        let waits = |i: usize| active.is_some_and(|m| !m[i]);
        if actions.len() != self.envs.len() {
            return Err(GameError::Invalid(format!(
                "actions must have shape ({},), got ({},)",
                self.envs.len(),
                actions.len()
            )));
        }
        // Out-of-range values first: they are bad input whatever the policy.
        if let Some((i, &a)) = actions.iter().enumerate().find(|&(i, &a)| !waits(i) && (a < 0 || a as u64 >= n as u64))
        {
            return Err(GameError::Invalid(format!(
                "actions[{i}] = {a} is out of range: expected an integer in [0, {n})"
            )));
        }
        if self.game.common.illegal == IllegalPolicy::Raise {
            for (i, (&a, bits)) in actions.iter().zip(self.legal.chunks_exact(self.words)).enumerate() {
                if !waits(i) && !has_bit(bits, a as usize) {
                    let e =
                        self.envs[i].env.session.illegal_error(&self.game.rules, &self.game.common, Action(a as u32));
                    return Err(GameError::Invalid(format!("env {i}: {e}")));
                }
            }
        }
        Ok(())
    }

    /// Steps every env with its action; call [`Batch::validate`] first.
    /// Returns how many games ended (terminated or truncated) at this step.
    pub fn step(&mut self, actions: &[i64], out: &mut BatchOut<'_>) -> usize {
        self.each_env(out, |game, i, env, bits, mut row| env.advance(game, actions[i], bits, &mut row))
    }

    /// Steps only the envs where `active[i]` (validated first); every other
    /// env keeps its game and gets its row rewritten as it stands, with zero
    /// rewards and no flags. Returns how many games ended.
    pub fn step_active(&mut self, actions: &[i64], active: &[bool], out: &mut BatchOut<'_>) -> usize {
        self.step_active_then(actions, active, out, &|_| {})
    }

    /// As [`Batch::step_active`], calling `done(i)` on the stepping thread as
    /// soon as active env `i`'s rows (its final observation included) are
    /// written, so that a reader can take finished envs while others step.
    pub fn step_active_then(
        &mut self,
        actions: &[i64],
        active: &[bool],
        out: &mut BatchOut<'_>,
        done: &(dyn Fn(usize) + Sync),
    ) -> usize {
        self.each_env(out, |game, i, env, bits, mut row| {
            if active[i] {
                let ended = env.advance(game, actions[i], bits, &mut row);
                done(i);
                return ended;
            }
            row.rewards.fill(0.0);
            *row.term = false;
            *row.trunc = false;
            env.write_view(game, bits, &mut row);
            false
        })
    }

    /// `steps` decisions per env with uniformly random legal actions chosen in
    /// Rust, every step written to `out` as by [`Batch::step`] (each env's
    /// row ends up holding its last step).
    pub fn rollout(&mut self, steps: usize, out: &mut BatchOut<'_>) -> RolloutStats {
        for env in &mut self.envs {
            env.stats = RolloutStats::default();
        }
        // Env by env: each env's game, generators and row are its own, so
        // its steps need not wait for the other envs' (the same results as
        // stepping all envs together, without a synchronisation per step,
        // and with the env's state in cache for all its steps).
        self.each_env(out, |game, _, env, bits, mut row| {
            let mut any_ended = false;
            for _ in 0..steps {
                let a = env.random_action(&game.rules, bits);
                any_ended |= env.advance(game, a, bits, &mut row);
                env.stats.steps += 1;
                if *row.term {
                    env.stats.terminated += 1;
                    match (row.rewards[0] > row.rewards[1], row.rewards[0] < row.rewards[1]) {
                        (true, _) => env.stats.wins[0] += 1,
                        (_, true) => env.stats.wins[1] += 1,
                        _ => env.stats.draws += 1,
                    }
                } else if *row.trunc {
                    env.stats.truncated += 1;
                }
            }
            any_ended
        });
        let mut total = RolloutStats::default();
        for env in &self.envs {
            total.add(&env.stats);
        }
        total
    }

    /// One uniformly random legal action per env (chance nodes: an outcome by
    /// its probability) from each env's own policy generator.
    pub fn sample_actions(&mut self, actions: &mut [i64]) {
        let rules = &self.game.rules;
        for ((env, bits), a) in self.envs.iter_mut().zip(self.legal.chunks_exact(self.words)).zip(actions) {
            *a = env.random_action(rules, bits);
        }
    }

    /// The seed of env `i` (its game k is seeded with `derive_seed(seed, k)`).
    pub fn env_seed(&self, i: usize) -> u64 {
        self.envs[i].env.seed()
    }

    /// Env `i`'s game in progress.
    pub fn session(&self, i: usize) -> &Session<R::State> {
        &self.envs[i].env.session
    }

    /// Heap and inline bytes the batch itself holds (envs, bitsets, histories),
    /// not counting output buffers nor heap memory inside game states.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.envs.capacity() * std::mem::size_of::<Slot<R::State>>()
            + self.envs.iter().map(|e| e.env.session.heap_bytes()).sum::<usize>()
            + self.legal.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::OwnedOut;
    use crate::options::OptValue;
    use crate::registry;

    #[test]
    #[should_panic(expected = "output buffers shorter than 8 rows")]
    fn output_buffers_a_row_short_are_refused_before_any_row_is_written() {
        // Rows are sliced without bounds checks once a part's buffers are known to hold them.
        let game = registry::make("backgammon", &[]).expect("default options build");
        let mut batch = game.new_batch(8, 1);
        let mut out = OwnedOut::new(&*batch);
        out.info.truncate(out.info.len() - 1);
        batch.reset(None, &mut out.view());
    }

    #[test]
    fn a_rollout_is_its_steps_taken_with_the_sampled_actions() {
        // The rollout runs each env's steps back to back; stepping every env
        // together with the actions the same policy samples must agree.
        for (id, threads) in [("checkers", 1), ("checkers", 2), ("backgammon", 2), ("tablut", 2)] {
            let game = registry::make(id, &[("max_turns".into(), OptValue::Int(30))]).expect("options build");
            let (mut a, mut b) = (game.clone().new_batch(40, 5), game.new_batch(40, 5));
            a.set_threads(threads).unwrap();
            b.set_threads(threads).unwrap();
            let (mut out_a, mut out_b) = (OwnedOut::new(&*a), OwnedOut::new(&*b));
            a.reset(None, &mut out_a.view());
            b.reset(None, &mut out_b.view());
            let stats = a.rollout(120, &mut out_a.view());
            let (mut actions, mut ends, mut wins) = (vec![0i64; 40], 0u64, [0u64; 2]);
            for _ in 0..120 {
                b.sample_actions(&mut actions);
                b.step(&actions, &mut out_b.view());
                for i in 0..40 {
                    ends += (out_b.terminated[i] || out_b.truncated[i]) as u64;
                    if out_b.terminated[i] && out_b.rewards[2 * i] != out_b.rewards[2 * i + 1] {
                        wins[(out_b.rewards[2 * i] < out_b.rewards[2 * i + 1]) as usize] += 1;
                    }
                }
            }
            assert_eq!(stats.steps, 40 * 120, "{id}");
            assert!(ends >= 40, "{id}: {ends} games ended");
            assert_eq!((stats.terminated + stats.truncated, stats.wins), (ends, wins), "{id} on {threads} threads");
            assert_eq!(
                (&out_a.obs, &out_a.mask, &out_a.to_act),
                (&out_b.obs, &out_b.mask, &out_b.to_act),
                "{id} on {threads} threads"
            );
            assert_eq!(
                (&out_a.rewards, &out_a.terminated, &out_a.info),
                (&out_b.rewards, &out_b.terminated, &out_b.info),
                "{id}"
            );
        }
    }

    #[test]
    fn the_random_policy_draws_every_legal_action_equally_often() {
        // checkers lists its actions as it finds them (the draw is taken from
        // the list); tablut counts its bits (the draw searches them); a
        // pending draw offer's two answers are listed by the session.
        for (id, offers, first) in
            [("checkers", false, None), ("tablut", false, None), ("checkers", true, Some(934 - 3))]
        {
            let game = registry::make(id, &[("draw_offers".into(), OptValue::Bool(offers))]).expect("options build");
            let mut batch = game.new_batch(1, 7);
            let mut out = OwnedOut::new(&*batch);
            batch.reset(None, &mut out.view());
            if let Some(offer) = first {
                batch.step(&[offer], &mut out.view());
            }
            let legal: Vec<usize> = (0..out.mask.len()).filter(|&a| out.mask[a]).collect();
            let per = 2000;
            let mut counts = vec![0usize; out.mask.len()];
            let mut action = [0i64];
            for _ in 0..per * legal.len() {
                batch.sample_actions(&mut action);
                counts[action[0] as usize] += 1;
            }
            let drawn: Vec<usize> = (0..counts.len()).filter(|&a| counts[a] > 0).collect();
            assert_eq!(drawn, legal, "{id}: drew other actions than the legal ones");
            // Each count is binomial with mean `per`; 5 sigma apart is a broken draw.
            let sigma = (per as f64).sqrt();
            for &a in &legal {
                assert!(
                    (counts[a] as f64 - per as f64).abs() < 5.0 * sigma,
                    "{id}: action {a} drawn {} times of {per}",
                    counts[a]
                );
            }
        }
    }
}
