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

use crate::core::{derive_seed, rng_from_seed, Action, GameRng, ToAct};
use crate::dynamic::Handle;
use crate::error::{GameError, Result};
use crate::game::Rules;
use crate::session::{IllegalPolicy, Session};
use rand::RngExt;
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
            final_obs: self.final_obs,
        }
    }

    /// Rows `[0, mid)` and `[mid, ..)`.
    fn split_at(self, mid: usize, st: Strides) -> (BatchOut<'a>, BatchOut<'a>) {
        let (o1, o2) = match self.obs {
            ObsOut::F32(o) => {
                let (a, b) = o.split_at_mut(mid * st.obs);
                (ObsOut::F32(a), ObsOut::F32(b))
            }
            ObsOut::U8(o) => {
                let (a, b) = o.split_at_mut(mid * st.obs);
                (ObsOut::U8(a), ObsOut::U8(b))
            }
        };
        let (m1, m2) = self.mask.split_at_mut(mid * st.mask);
        let (r1, r2) = self.rewards.split_at_mut(mid * 2);
        let (t1, t2) = self.terminated.split_at_mut(mid);
        let (u1, u2) = self.truncated.split_at_mut(mid);
        let (p1, p2) = self.to_act.split_at_mut(mid);
        let (i1, i2) = self.info.split_at_mut(mid * st.info);
        let (f1, f2) = self.final_obs.split_at_mut(mid * st.obs);
        (
            BatchOut { obs: o1, mask: m1, rewards: r1, terminated: t1, truncated: u1, to_act: p1, info: i1, final_obs: f1 },
            BatchOut { obs: o2, mask: m2, rewards: r2, terminated: t2, truncated: u2, to_act: p2, info: i2, final_obs: f2 },
        )
    }

    /// The slices of row `j`.
    fn row(&mut self, j: usize, st: Strides) -> Row<'_> {
        let (l, a, k) = (st.obs, st.mask, st.info);
        Row {
            obs: match &mut self.obs {
                ObsOut::F32(o) => RowObs::F32(&mut o[j * l..(j + 1) * l]),
                ObsOut::U8(o) => RowObs::U8(&mut o[j * l..(j + 1) * l]),
            },
            mask: &mut self.mask[j * a..(j + 1) * a],
            rewards: &mut self.rewards[j * 2..j * 2 + 2],
            term: &mut self.terminated[j],
            trunc: &mut self.truncated[j],
            to_act: &mut self.to_act[j],
            info: &mut self.info[j * k..(j + 1) * k],
            fin: &mut self.final_obs[j * l..(j + 1) * l],
        }
    }
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
    fn add(&mut self, o: &RolloutStats) {
        self.steps += o.steps;
        self.terminated += o.terminated;
        self.truncated += o.truncated;
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.draws += o.draws;
    }
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
    fn state(&self, i: usize) -> Box<dyn crate::dynamic::DynState>;
    /// Heap and inline bytes the batch itself holds (envs, bitsets, histories),
    /// not counting output buffers nor heap memory inside game states.
    fn memory_bytes(&self) -> usize;
}

/// Keeps the random policy's stream apart from the game's dice stream.
const POLICY_SALT: u64 = 0x005E_ED0F_0011_C7A5;

struct Env<S> {
    session: Session<S>,
    /// The env's own seed; game k of this env is seeded with derive_seed(seed, k).
    seed: u64,
    episode: u64,
    /// Random-policy generator of `rollout`, apart from the game's own.
    policy: GameRng,
    /// Tallies of the current rollout.
    stats: RolloutStats,
    /// Who acts at the decision last written (a game's `to_act` may search
    /// for a legal move: asked once per step, not by every reader).
    to_act: ToAct,
}

pub struct Batch<R: Rules> {
    game: Arc<Handle<R>>,
    envs: Vec<Env<R::State>>,
    /// The legal mask each env last showed, `words` u64 per env.
    legal: Vec<u64>,
    words: usize,
    /// `None` when one thread: everything runs on the caller's thread.
    pool: Option<rayon::ThreadPool>,
    threads: usize,
}

fn pool(threads: usize) -> Result<Option<rayon::ThreadPool>> {
    if threads == 1 {
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
    envs: &'a mut [Env<S>],
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
        (Part { envs: e1, legal: l1, out: o1, first: self.first }, Part { envs: e2, legal: l2, out: o2, first: self.first + mid })
    }
}

/// What one env does in one round; returns whether its game ended.
trait EnvFn<R: Rules>: Fn(&Handle<R>, usize, &mut Env<R::State>, &mut [u64], Row<'_>) -> bool + Sync {}
impl<R: Rules, F: Fn(&Handle<R>, usize, &mut Env<R::State>, &mut [u64], Row<'_>) -> bool + Sync> EnvFn<R> for F {}

/// Runs `f` over every env of `part` (halving it on the pool while it is
/// larger than `grain`); returns how many calls reported an ended game.
fn process<R: Rules>(game: &Handle<R>, part: Part<'_, R::State>, st: Strides, grain: usize, f: &impl EnvFn<R>) -> usize {
    let n = part.envs.len();
    if n > grain {
        let (a, b) = part.split(n / 2, st);
        let (x, y) = rayon::join(|| process(game, a, st, grain, f), || process(game, b, st, grain, f));
        return x + y;
    }
    let Part { envs, legal, mut out, first } = part;
    let mut ended = 0;
    for (j, (env, bits)) in envs.iter_mut().zip(legal.chunks_exact_mut(st.words.max(1))).enumerate() {
        ended += f(game, first + j, env, bits, out.row(j, st)) as usize;
    }
    ended
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
                    stats: RolloutStats::default(),
                    to_act: ToAct::Terminal,
                }
            })
            .collect();
        let words = game.rules.spec().num_actions.div_ceil(64).max(1);
        Batch { game, envs, legal: vec![0; num_envs * words], words, pool: pool(threads).expect("default thread pool"), threads }
    }

    fn strides(&self) -> Strides {
        let spec = self.game.rules.spec();
        Strides { obs: spec.observation_len(), mask: spec.num_actions, info: spec.info_fields.len(), words: self.words }
    }

    /// Runs `f` over every env, `rounds` times (all envs finish a round
    /// before any starts the next), in parallel on the batch's pool.
    /// Returns the number of ended games reported.
    fn each_env(&mut self, out: &mut BatchOut<'_>, rounds: usize, f: impl EnvFn<R>) -> usize {
        let st = self.strides();
        let n = self.envs.len();
        let game = &*self.game;
        let (envs, legal) = (&mut self.envs, &mut self.legal);
        // Parts of at least 16 envs, about 4 per thread for balance; one
        // part (no splitting) without a pool.
        let grain = if self.pool.is_some() { n.div_ceil(4 * self.threads).max(16) } else { usize::MAX };
        let mut run = || {
            let mut ended = 0;
            for _ in 0..rounds {
                let part = Part { envs: &mut envs[..], legal: &mut legal[..], out: out.reborrow(), first: 0 };
                ended += process(game, part, st, grain, &f);
            }
            ended
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
    fin: &'a mut [f32],
}

enum RowObs<'a> {
    F32(&'a mut [f32]),
    U8(&'a mut [u8]),
}

thread_local! {
    static SCRATCH: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// `dst[i] = src[i] as u8` (saturating, NaN to 0), 16 values at a time:
/// the compiler's scalar saturating casts cost more than the observation.
#[inline]
fn f32_to_u8(src: &[f32], dst: &mut [u8]) {
    let n = src.len().min(dst.len());
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        while done + 16 <= n {
            // SAFETY: SSE2 is part of the x86_64 baseline; loads and the store
            // stay inside `src[done..done + 16]` and `dst[done..done + 16]`.
            unsafe {
                let top = _mm_set1_ps(255.0);
                let p = src.as_ptr().add(done);
                // min(255, v): v above 255 or infinite becomes 255; NaN stays
                // NaN and truncates to i32::MIN, which saturates to 0 below.
                let i = |k: usize| _mm_cvttps_epi32(_mm_min_ps(top, _mm_loadu_ps(p.add(4 * k))));
                let lo = _mm_packs_epi32(i(0), i(1));
                let hi = _mm_packs_epi32(i(2), i(3));
                _mm_storeu_si128(dst.as_mut_ptr().add(done).cast(), _mm_packus_epi16(lo, hi));
            }
            done += 16;
        }
    }
    for (o, v) in dst[done..n].iter_mut().zip(&src[done..n]) {
        *o = *v as u8;
    }
}

/// Packs a bool mask into bits (bit j of word w = mask[64 w + j]).
#[inline]
fn pack_mask(mask: &[bool], bits: &mut [u64]) {
    // SAFETY: bool has the size and alignment of u8, with values 0 and 1.
    let bytes: &[u8] = unsafe { std::slice::from_raw_parts(mask.as_ptr().cast::<u8>(), mask.len()) };
    let mut chunks = bytes.chunks_exact(64);
    for (word, chunk) in bits.iter_mut().zip(chunks.by_ref()) {
        *word = pack64(chunk.try_into().unwrap());
    }
    if let Some(last) = bits.get_mut(bytes.len() / 64) {
        let mut w = 0u64;
        for (i, &b) in chunks.remainder().iter().enumerate() {
            w |= ((b & 1) as u64) << i;
        }
        *last = w;
    }
}

/// 64 bytes of 0/1 as the bits of one word.
#[inline]
fn pack64(chunk: &[u8; 64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_loadu_si128, _mm_movemask_epi8, _mm_slli_epi16};
        let mut w = 0u64;
        for k in 0..4 {
            // SAFETY: SSE2 is part of the x86_64 baseline; the load reads
            // 16 bytes inside `chunk`. Shifting each 16-bit lane left by 7
            // moves every byte's bit 0 to its bit 7, which movemask collects.
            let m = unsafe {
                let v = _mm_loadu_si128(chunk.as_ptr().add(16 * k).cast());
                _mm_movemask_epi8(_mm_slli_epi16::<7>(v)) as u32 as u64
            };
            w |= m << (16 * k);
        }
        w
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut w = 0u64;
        for (k, c) in chunk.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(c.try_into().unwrap());
            // Byte i (0 or 1) lands on bit 56 + i of the product.
            w |= (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
        }
        w
    }
}

#[inline]
fn bit(bits: &[u64], a: usize) -> bool {
    bits.get(a / 64).is_some_and(|w| w >> (a % 64) & 1 == 1)
}

/// A uniformly random set bit of `bits` (`None` when none is set).
#[inline]
fn random_set_bit(bits: &[u64], rng: &mut GameRng) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has popcnt (checked just above; the answer is cached).
            return unsafe { random_set_bit_popcnt(bits, rng) };
        }
    }
    random_set_bit_portable(bits, rng)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn random_set_bit_popcnt(bits: &[u64], rng: &mut GameRng) -> Option<usize> {
    random_set_bit_portable(bits, rng)
}

/// Same code for both: compiled with the hardware popcount when called
/// from [`random_set_bit_popcnt`] (the wheel's baseline x86-64 lacks it).
#[inline(always)]
fn random_set_bit_portable(bits: &[u64], rng: &mut GameRng) -> Option<usize> {
    let legal: u32 = bits.iter().map(|w| w.count_ones()).sum();
    if legal == 0 {
        return None;
    }
    nth_set_bit(bits, rng.random_range(0..legal))
}

/// The `k`-th set bit (0-based) of `bits`.
#[inline(always)]
fn nth_set_bit(bits: &[u64], mut k: u32) -> Option<usize> {
    for (i, &w) in bits.iter().enumerate() {
        let c = w.count_ones();
        if k < c {
            // Narrow to the half, quarter, eighth holding the k-th bit.
            let (mut w, mut at) = (w, 0);
            for half in [32u32, 16, 8] {
                let low = (w & ((1u64 << half) - 1)).count_ones();
                if k >= low {
                    k -= low;
                    w >>= half;
                    at += half;
                }
            }
            for _ in 0..k {
                w &= w - 1;
            }
            return Some(i * 64 + (at + w.trailing_zeros()) as usize);
        }
        k -= c;
    }
    None
}

impl<S: Clone> Env<S> {
    /// Writes what the caller sees of the current decision, and keeps its
    /// mask and who acts. `to_act`: the session's, when the caller has it.
    fn write_view<R: Rules<State = S>>(&mut self, game: &Handle<R>, to_act: Option<ToAct>, bits: &mut [u64], row: &mut Row<'_>) {
        let rules = &game.rules;
        let to_act = to_act.unwrap_or_else(|| self.session.to_act(rules));
        self.to_act = to_act;
        match &mut row.obs {
            RowObs::F32(obs) => rules.observe(&self.session.state, obs),
            RowObs::U8(obs) => SCRATCH.with(|scratch| {
                let mut scratch = scratch.borrow_mut();
                scratch.resize(obs.len(), 0.0);
                rules.observe(&self.session.state, &mut scratch);
                f32_to_u8(&scratch, obs);
            }),
        }
        self.session.legal_mask_at(rules, &game.common, to_act, row.mask);
        pack_mask(row.mask, bits);
        *row.to_act = to_act.code();
        rules.write_info(&self.session.state, row.info);
    }

    fn new_game<R: Rules<State = S>>(&mut self, game: &Handle<R>) {
        self.episode += 1;
        self.session.reset(&game.rules, derive_seed(self.seed, self.episode));
    }

    /// One decision, then the same-step auto-reset. Returns whether the game ended.
    fn advance<R: Rules<State = S>>(&mut self, game: &Handle<R>, a: i64, bits: &mut [u64], row: &mut Row<'_>) -> bool {
        let rules = &game.rules;
        if a >= 0 && bit(bits, a as usize) {
            self.session.apply_legal(rules, Action(a as u32));
        } else {
            // Validation let it through: the policy is lose or rules.
            let policy = if game.common.illegal == IllegalPolicy::Raise { IllegalPolicy::Lose } else { game.common.illegal };
            self.session.punish(rules, policy);
        }
        let to_act = self.session.to_act(rules);
        let terminated = to_act == ToAct::Terminal;
        let truncated = !terminated && self.session.turn_limit_reached(&game.common);
        *row.term = terminated;
        *row.trunc = truncated;
        if terminated {
            row.rewards.copy_from_slice(&self.session.returns(rules));
        } else {
            row.rewards.fill(0.0);
        }
        let ended = terminated || truncated;
        if ended {
            rules.observe(&self.session.state, row.fin);
            self.new_game(game);
            self.write_view(game, None, bits, row);
        } else {
            self.write_view(game, Some(to_act), bits, row);
        }
        ended
    }

    /// A uniformly random legal action from the env's policy generator
    /// (chance nodes: an outcome by its probability).
    fn random_action<R: Rules<State = S>>(&mut self, rules: &R, bits: &[u64]) -> i64 {
        if self.to_act == ToAct::Chance {
            let outcomes = rules.chance_outcomes(&self.session.state);
            return sample_outcome(&mut self.policy, &outcomes).map_or(0, |a| a.0 as i64);
        }
        random_set_bit(bits, &mut self.policy).map_or(0, |a| a as i64)
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
        self.each_env(out, 1, |game, _, env, bits, mut row| {
            env.episode = 0;
            env.session.reset(&game.rules, derive_seed(env.seed, 0));
            row.rewards.fill(0.0);
            *row.term = false;
            *row.trunc = false;
            env.write_view(game, None, bits, &mut row);
            false
        });
    }

    fn validate_active(&self, actions: &[i64], active: Option<&[bool]>) -> Result<()> {
        let n = self.num_actions();
        if let Some(m) = active.filter(|m| m.len() != self.envs.len()) {
            return Err(GameError::Invalid(format!("active must have shape ({},), got ({},)", self.envs.len(), m.len())));
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
        if let Some((i, &a)) = actions.iter().enumerate().find(|&(i, &a)| !waits(i) && (a < 0 || a as u64 >= n as u64)) {
            return Err(GameError::Invalid(format!("actions[{i}] = {a} is out of range: expected an integer in [0, {n})")));
        }
        if self.game.common.illegal == IllegalPolicy::Raise {
            for (i, (&a, bits)) in actions.iter().zip(self.legal.chunks_exact(self.words)).enumerate() {
                if !waits(i) && !bit(bits, a as usize) {
                    let e = self.envs[i].session.illegal_error(&self.game.rules, &self.game.common, Action(a as u32));
                    return Err(GameError::Invalid(format!("env {i}: {e}")));
                }
            }
        }
        Ok(())
    }

    fn step(&mut self, actions: &[i64], out: &mut BatchOut<'_>) -> usize {
        self.each_env(out, 1, |game, i, env, bits, mut row| env.advance(game, actions[i], bits, &mut row))
    }

    fn step_active(&mut self, actions: &[i64], active: &[bool], out: &mut BatchOut<'_>) -> usize {
        self.each_env(out, 1, |game, i, env, bits, mut row| {
            if active[i] {
                return env.advance(game, actions[i], bits, &mut row);
            }
            row.rewards.fill(0.0);
            *row.term = false;
            *row.trunc = false;
            env.write_view(game, Some(env.to_act), bits, &mut row);
            false
        })
    }

    fn rollout(&mut self, steps: usize, out: &mut BatchOut<'_>) -> RolloutStats {
        for env in &mut self.envs {
            env.stats = RolloutStats::default();
        }
        self.each_env(out, steps, |game, _, env, bits, mut row| {
            let a = env.random_action(&game.rules, bits);
            let ended = env.advance(game, a, bits, &mut row);
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
            ended
        });
        let mut total = RolloutStats::default();
        for env in &self.envs {
            total.add(&env.stats);
        }
        total
    }

    fn sample_actions(&mut self, actions: &mut [i64]) {
        let rules = &self.game.rules;
        for ((env, bits), a) in self.envs.iter_mut().zip(self.legal.chunks_exact(self.words)).zip(actions) {
            *a = env.random_action(rules, bits);
        }
    }

    fn env_seed(&self, i: usize) -> u64 {
        self.envs[i].seed
    }

    fn state(&self, i: usize) -> Box<dyn crate::dynamic::DynState> {
        crate::dynamic::state_from_session(self.game.clone(), self.envs[i].session.clone())
    }

    fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.envs.capacity() * std::mem::size_of::<Env<R::State>>()
            + self.envs.iter().map(|e| e.session.heap_bytes()).sum::<usize>()
            + self.legal.capacity() * 8
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_to_u8_saturates_like_as() {
        let special = [0.0, 1.0, 0.5, 1.99, 2.0, 254.9, 255.0, 255.5, 256.0, 1e9, -0.5, -1.0, -1e9];
        let mut src: Vec<f32> = special.to_vec();
        src.extend([f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 3e38, -3e38, 7.0 / 15.0]);
        src.extend((0..300).map(|i| i as f32 * 0.9));
        for len in [0, 5, 16, 17, 33, src.len()] {
            let mut dst = vec![9u8; len];
            f32_to_u8(&src[..len], &mut dst);
            let want: Vec<u8> = src[..len].iter().map(|&v| v as u8).collect();
            assert_eq!(dst, want, "len {len}");
        }
    }

    #[test]
    fn pack_mask_matches_bools() {
        let mut rng = rng_from_seed(3);
        for len in [1usize, 7, 8, 9, 63, 64, 65, 130, 934, 5188] {
            let mask: Vec<bool> = (0..len).map(|_| rng.random_range(0..3) == 0).collect();
            let mut bits = vec![u64::MAX; len.div_ceil(64)];
            pack_mask(&mask, &mut bits);
            for (a, &m) in mask.iter().enumerate() {
                assert_eq!(bit(&bits, a), m, "len {len} bit {a}");
            }
            assert!(!bit(&bits, len), "past the end");
            let set: Vec<usize> = (0..len).filter(|&a| mask[a]).collect();
            for (k, &a) in set.iter().enumerate() {
                assert_eq!(nth_set_bit(&bits, k as u32), Some(a));
            }
            assert_eq!(nth_set_bit(&bits, set.len() as u32), None);
        }
    }
}
