//! Monte-Carlo tree search over any [`Rules`]: PUCT (AlphaZero) or Gumbel
//! root selection with sequential halving (Gumbel MuZero), Dirichlet noise,
//! temperature, visit-count policy targets, tree reuse, chance nodes, and
//! many trees searched together so that one evaluator call serves the leaves
//! of every tree ([`Forest`]).
//!
//! A simulation walks from the root to a leaf: a decision node not yet
//! evaluated (it waits for the evaluator: prior logits over the legal actions
//! and a value for the player to decide there), a terminal node (its value is
//! the game's `returns`) or a node where `max_turns` complete turns were
//! played (valued 0, as a draw: the environments truncate there with zero
//! rewards). Chance nodes are expanded when reached (their children are
//! [`Rules::chance_outcomes`] with their probabilities); they are evaluated
//! only with [`MctsConfig::evaluate_chance`]: then a chance node's first
//! visit ends there, waiting for the evaluator like a decision leaf, and its
//! value (for [`Rules::chance_player`]) is backed up; later visits descend
//! through its outcomes.
//!
//! Search works on the rules state only: draw offers and resignation are not
//! searched (their actions are never legal in the tree), nor is repetition
//! (positions repeated inside the tree are not drawn; the session's history
//! still rules the real game).

use super::eval::{never, Stop};
use super::mcts_random::{dirichlet, gumbel};
use super::tree::{sign, Kind, Tree};
use crate::core::{derive_seed, rng_from_seed, Action, Applied, GameRng, Player, ToAct};
use crate::error::{GameError, Result};
use crate::game::{write_obs, ObsBuf, ObsFormat, ObsLayout, Rules};
use rand::RngExt;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// How the root chooses what to simulate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RootSelection {
    /// AlphaZero's PUCT everywhere; the move is the most visited action (or
    /// sampled with the temperature).
    Puct,
    /// Gumbel MuZero: Gumbel-top-k at the root with sequential halving,
    /// the deterministic "improved policy minus visits" rule inside the tree;
    /// the move is the surviving action, the policy target the improved policy.
    Gumbel,
}

/// How a chance node picks the outcome a simulation follows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChanceSelection {
    /// The outcome least visited relative to its probability: the largest
    /// `p(o) * (N + 1) - n(o)` (ties to a random one of them, from the
    /// search's seed); after `N` visits every outcome has `p(o) N` visits
    /// up to one.
    Stratified,
    /// An outcome sampled by its probability.
    Sample,
}

/// Search options (see `docs/search.md` for what each changes).
#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// Simulations per search (per tree), root evaluation not counted.
    pub simulations: u32,
    pub root: RootSelection,
    /// PUCT exploration constant.
    pub c_puct: f32,
    /// Dirichlet noise at the root (PUCT only): `prior <- (1 - fraction) prior + fraction Dir(alpha)`.
    pub dirichlet_alpha: f32,
    pub dirichlet_fraction: f32,
    /// PUCT move choice: 0 plays the most visited action, otherwise samples
    /// an action with probability proportional to `visits^(1/temperature)`.
    pub temperature: f32,
    /// Gumbel: actions considered at the root (the `m` of Gumbel MuZero).
    pub considered: u32,
    /// Gumbel: scale of the root Gumbel noise (0: plain top-k of the prior).
    pub gumbel_scale: f32,
    /// Gumbel: `sigma(q) = (c_visit + max visits) * c_scale * q`.
    pub c_visit: f32,
    pub c_scale: f32,
    pub chance: ChanceSelection,
    /// Keep the subtree of the new root between searches (PUCT only: Gumbel
    /// plans its halving from zero visits and always starts afresh).
    pub reuse_tree: bool,
    /// Complete turns after which a game is truncated (0: never).
    pub max_turns: u32,
    /// Evaluate a chance node when a simulation first reaches it (its value
    /// for [`Rules::chance_player`]) instead of descending to one outcome:
    /// a move that completes the turn is valued before the dice, over all
    /// rolls at once, as TD-Gammon values afterstates.
    pub evaluate_chance: bool,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            simulations: 800,
            root: RootSelection::Puct,
            c_puct: 1.25,
            dirichlet_alpha: 0.3,
            dirichlet_fraction: 0.0,
            temperature: 0.0,
            considered: 16,
            gumbel_scale: 1.0,
            c_visit: 50.0,
            c_scale: 0.1,
            chance: ChanceSelection::Stratified,
            reuse_tree: false,
            max_turns: 0,
            evaluate_chance: false,
        }
    }
}

impl MctsConfig {
    /// Every option in range, or an error naming the first one that is not.
    pub fn validate(&self) -> Result<()> {
        let bad = |name: &str, want: &str, got: String| {
            Err(GameError::Invalid(format!("search option {name}: expected {want}, got {got}")))
        };
        if self.simulations == 0 {
            return bad("simulations", "an integer >= 1", "0".into());
        }
        if !(self.c_puct.is_finite() && self.c_puct >= 0.0) {
            return bad("c_puct", "a finite number >= 0", self.c_puct.to_string());
        }
        if !(self.dirichlet_alpha.is_finite() && self.dirichlet_alpha > 0.0) {
            return bad("dirichlet_alpha", "a finite number > 0", self.dirichlet_alpha.to_string());
        }
        if !(0.0..=1.0).contains(&self.dirichlet_fraction) {
            return bad("dirichlet_fraction", "a number in [0, 1]", self.dirichlet_fraction.to_string());
        }
        if !(self.temperature.is_finite() && self.temperature >= 0.0) {
            return bad("temperature", "a finite number >= 0", self.temperature.to_string());
        }
        if self.considered == 0 {
            return bad("considered", "an integer >= 1", "0".into());
        }
        for (name, v) in [("gumbel_scale", self.gumbel_scale), ("c_visit", self.c_visit), ("c_scale", self.c_scale)] {
            if !(v.is_finite() && v >= 0.0) {
                return bad(name, "a finite number >= 0", v.to_string());
            }
        }
        Ok(())
    }
}

/// Where a search starts: a position with a player to decide, and the
/// complete turns already played (for truncation).
#[derive(Clone, Debug)]
pub struct Root<S> {
    pub state: S,
    pub turns: u32,
}

/// What one tree's search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The action to play (one decision).
    pub action: Action,
    /// Every legal root action with its visits and its policy-target weight
    /// (visit frequencies under PUCT, the improved policy under Gumbel).
    pub children: Vec<(Action, u32, f32)>,
    /// The root's value from the side of the player to decide there.
    pub value: f32,
    /// The player to decide at the root.
    pub player: Player,
}

/// One tree and the bookkeeping of its search in progress.
struct TreeSearch<S> {
    tree: Tree<S>,
    rng: GameRng,
    /// Simulations completed in the current search.
    done: u32,
    /// The path of the leaf waiting for its evaluation (empty: none).
    path: Vec<u32>,
    /// Whether the waiting leaf counts as a simulation (the root's first
    /// evaluation does not).
    counted: bool,
    /// Root noise applied in the current search.
    root_ready: bool,
    /// Gumbel noise per root child (Gumbel selection).
    root_gumbel: Vec<f32>,
    /// Visits each considered action must have to be simulated next, per
    /// simulation index (sequential halving).
    halving: Vec<u32>,
    mask: Vec<bool>,
    /// Why the search cannot go on (a chance node without a player to
    /// value it for, under `evaluate_chance`); reported by `select`.
    failed: Option<GameError>,
    /// The most a game can return to a player ([`Rules::max_return`]): a
    /// node with a child proven worth this much to its decider is won.
    win: f32,
    /// Masks by decision depth for the walk of a node's complete turns.
    walk_masks: Vec<Vec<bool>>,
}

/// Many trees searched together: one per game of a batch. Each wave runs
/// one simulation in every tree up to its leaf; the leaves are evaluated
/// together ([`Forest::write_leaves`], [`Forest::expand`]), so one evaluator
/// call serves the whole batch. Trees are walked in parallel; each tree has
/// its own generator, so the result does not depend on the thread count.
pub struct Forest<R: Rules> {
    config: MctsConfig,
    trees: Vec<TreeSearch<R::State>>,
    pool: Option<rayon::ThreadPool>,
    seed: u64,
    /// Searches run so far (fresh noise for every search).
    searches: u64,
}

impl<R: Rules> Forest<R> {
    /// A forest with `threads` worker threads (1: the caller's thread only).
    pub fn new(config: MctsConfig, threads: usize, seed: u64) -> Result<Self> {
        config.validate()?;
        let pool = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| GameError::Invalid(format!("cannot start {threads} search threads: {e}")))?,
            )
        } else {
            None
        };
        Ok(Forest { config, trees: Vec::new(), pool, seed, searches: 0 })
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    pub fn num_trees(&self) -> usize {
        self.trees.len()
    }

    /// Starts a search from `roots` (one tree each). With `reuse_tree`, a
    /// root found in the previous search's tree of the same index keeps its
    /// subtree. Every root must have a player to decide.
    pub fn set_roots(&mut self, rules: &R, roots: Vec<Root<R::State>>) -> Result<()> {
        if rules.samples_chance() {
            return Err(GameError::Invalid(
                "search needs explicit chance nodes: search the rules' explicit_chance() copy".into(),
            ));
        }
        let mut players = Vec::with_capacity(roots.len());
        for (i, r) in roots.iter().enumerate() {
            match rules.to_act(&r.state) {
                ToAct::Player(p) => players.push(p),
                ToAct::Chance => {
                    return Err(GameError::Invalid(format!(
                        "state {i} is at a chance node: search starts where a player decides (apply the chance outcome first)"
                    )))
                }
                ToAct::Terminal => {
                    return Err(GameError::GameOver { hint: ": search needs a position where a player decides" })
                }
            }
        }
        let reuse = self.config.reuse_tree && self.config.root == RootSelection::Puct;
        let old = std::mem::take(&mut self.trees);
        let mut old = old.into_iter();
        let num_actions = rules.spec().num_actions;
        for (i, (root, player)) in roots.into_iter().zip(players).enumerate() {
            let previous = old.next();
            let tree = match previous.filter(|_| reuse).and_then(|t| find_subtree(rules, &t.tree, &root)) {
                Some(t) => t,
                None => Tree::with_root(root.state, player, root.turns),
            };
            let seed = derive_seed(self.seed, derive_seed(self.searches, i as u64));
            self.trees.push(TreeSearch {
                tree,
                rng: rng_from_seed(seed),
                done: 0,
                path: Vec::new(),
                counted: false,
                root_ready: false,
                root_gumbel: Vec::new(),
                halving: Vec::new(),
                mask: vec![false; num_actions],
                failed: None,
                win: rules.max_return(),
                walk_masks: Vec::new(),
            });
        }
        self.searches += 1;
        Ok(())
    }

    fn for_each_tree<F>(&mut self, f: F)
    where
        F: Fn(usize, &mut TreeSearch<R::State>) + Send + Sync,
    {
        match &self.pool {
            Some(pool) => pool.install(|| self.trees.par_iter_mut().enumerate().for_each(|(i, t)| f(i, t))),
            None => self.trees.iter_mut().enumerate().for_each(|(i, t)| f(i, t)),
        }
    }

    /// Runs every tree to its next leaf that needs an evaluation (simulations
    /// ending at terminal or truncated nodes are backed up on the way).
    /// Returns how many trees wait for an evaluation; 0 when the search is
    /// over. Under `evaluate_chance`, a chance node of a game that names no
    /// player for it ([`Rules::chance_player`]) is an error.
    pub fn select(&mut self, rules: &R) -> Result<usize> {
        let config = &self.config.clone();
        self.for_each_tree(|_, t| {
            t.advance(rules, config);
        });
        self.failure()?;
        Ok(self.trees.iter().filter(|t| !t.path.is_empty()).count())
    }

    /// The first tree's failure, if any (the search cannot go on).
    fn failure(&self) -> Result<()> {
        match self.trees.iter().find_map(|t| t.failed.clone()) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Indices of the trees waiting for an evaluation, in order.
    pub fn waiting(&self) -> Vec<usize> {
        (0..self.trees.len()).filter(|&i| !self.trees[i].path.is_empty()).collect()
    }

    /// Writes the observation (in `layout`'s format, the game's
    /// `obs_format`: what its environments give, so that a network trained
    /// on them reads the same rows) and legal mask of every waiting leaf,
    /// one row each in the order of [`Forest::waiting`]. A waiting chance
    /// node (`evaluate_chance`) has an all-false mask: no player decides
    /// there, and the logits answered for it are not read.
    pub fn write_leaves(&self, rules: &R, layout: &ObsLayout, obs: ObsBuf<'_>, mask: &mut [bool]) {
        let spec = rules.spec();
        let alen = spec.num_actions;
        let olen = layout.len();
        let rows: Box<dyn Iterator<Item = ObsBuf<'_>>> = match obs {
            ObsBuf::F32(o) => Box::new(o.chunks_exact_mut(olen).map(ObsBuf::F32)),
            ObsBuf::U8(o) => Box::new(o.chunks_exact_mut(olen).map(ObsBuf::U8)),
        };
        let waiting = self.trees.iter().filter(|t| !t.path.is_empty());
        for ((t, o), m) in waiting.zip(rows).zip(mask.chunks_exact_mut(alen)) {
            let leaf = &t.tree.nodes[*t.path.last().expect("waiting") as usize];
            let state = leaf.state.as_ref().expect("a leaf has its state");
            write_obs(rules, layout, state, o);
            if let Kind::ChanceLeaf(_) = leaf.kind {
                m.fill(false);
                continue;
            }
            rules.legal_mask(state, m);
            // Offer actions are never searched.
            m[spec.num_game_actions()..].fill(false);
        }
    }

    /// Expands every waiting leaf with its row of `logits` (`num_actions`
    /// per leaf, read at the legal actions) and its value (for the player
    /// to decide at the leaf), and backs the value up. Logits must be finite
    /// at legal actions and values finite, otherwise nothing is changed and
    /// the error says which row is wrong.
    pub fn expand(&mut self, rules: &R, logits: &[f32], values: &[f32]) -> Result<()> {
        let a = rules.spec().num_actions;
        let waiting = self.waiting();
        if logits.len() != waiting.len() * a || values.len() != waiting.len() {
            return Err(GameError::Invalid(format!(
                "evaluate must answer logits of shape ({}, {a}) and values of shape ({},), got {} logits and {} values",
                waiting.len(),
                waiting.len(),
                logits.len(),
                values.len()
            )));
        }
        for (row, &i) in waiting.iter().enumerate() {
            if !values[row].is_finite() {
                return Err(GameError::Invalid(format!(
                    "evaluate returned a non-finite value {} in row {row}",
                    values[row]
                )));
            }
            let t = &self.trees[i];
            let leaf = &t.tree.nodes[*t.path.last().expect("waiting") as usize];
            if let Kind::ChanceLeaf(_) = leaf.kind {
                continue;
            }
            let mut mask = vec![false; a];
            rules.legal_mask(leaf.state.as_ref().expect("a leaf has its state"), &mut mask);
            let row_logits = &logits[row * a..(row + 1) * a];
            if let Some(k) = (0..rules.spec().num_game_actions()).find(|&k| mask[k] && !row_logits[k].is_finite()) {
                return Err(GameError::Invalid(format!(
                    "evaluate returned a non-finite logit {} for legal action {k} in row {row}",
                    row_logits[k]
                )));
            }
        }
        let mut rows = vec![usize::MAX; self.trees.len()];
        for (row, &i) in waiting.iter().enumerate() {
            rows[i] = row;
        }
        let config = &self.config.clone();
        self.for_each_tree(|i, t| {
            let row = rows[i];
            if row != usize::MAX {
                t.expand_leaf(rules, config, &logits[row * a..(row + 1) * a], values[row]);
            }
        });
        Ok(())
    }

    /// The whole search with an evaluator called once per wave with the
    /// leaves' full float observations and masks (`rows` leaves) and
    /// answering logits and values.
    pub fn search_with<E>(&mut self, rules: &R, mut evaluate: E) -> Result<()>
    where
        E: FnMut(&[f32], &[bool], usize) -> Result<(Vec<f32>, Vec<f32>)>,
    {
        let spec = rules.spec();
        let layout = ObsLayout::new(rules, ObsFormat::Full);
        loop {
            let n = self.select(rules)?;
            if n == 0 {
                return Ok(());
            }
            let mut obs = vec![0.0; n * spec.observation_len()];
            let mut mask = vec![false; n * spec.num_actions];
            self.write_leaves(rules, &layout, ObsBuf::F32(&mut obs), &mut mask);
            let (logits, values) = evaluate(&obs, &mask, n)?;
            self.expand(rules, &logits, &values)?;
        }
    }

    /// The whole search with the built-in evaluator: a uniform prior over
    /// the legal actions and the return of one uniformly random playout.
    /// Trees are searched in parallel, each to the end without waiting for
    /// the others. A waiting chance node (`evaluate_chance`) is valued by a
    /// playout from it too.
    pub fn search_rollouts(&mut self, rules: &R) -> Result<()> {
        self.search_rollouts_until(rules, &never).map(|_| ())
    }

    /// [`Forest::search_rollouts`] that gives up once `stop` says so, asked
    /// by every tree before each of its simulations (from the search's
    /// threads): `Ok(false)` then, each tree left between two simulations,
    /// and a next call goes on where they stopped (each tree's simulations
    /// and generator are its own, so the result is an uninterrupted one's).
    pub fn search_rollouts_until(&mut self, rules: &R, stop: Stop<'_>) -> Result<bool> {
        let config = &self.config.clone();
        let stopped = AtomicBool::new(false);
        self.for_each_tree(|_, t| {
            let a = rules.spec().num_actions;
            let zeros = vec![0.0f32; a];
            let mut buf = vec![false; a];
            loop {
                if stop() {
                    stopped.store(true, Ordering::Relaxed);
                    break;
                }
                if !t.advance(rules, config) {
                    break;
                }
                let leaf = &t.tree.nodes[*t.path.last().expect("waiting") as usize];
                let (state, turns) = (leaf.state.clone().expect("a leaf has its state"), leaf.turns);
                let player = leaf.kind.waiting_player().expect("a waiting leaf");
                let v0 = rollout(rules, state, turns, config.max_turns, &mut t.rng, &mut buf);
                t.expand_leaf(rules, config, &zeros, sign(player) * v0);
            }
        });
        self.failure()?;
        Ok(!stopped.into_inner())
    }

    /// The result of every tree (call after the search).
    pub fn results(&mut self, _rules: &R) -> Vec<SearchResult> {
        let config = self.config.clone();
        self.trees.iter_mut().map(|t| t.result(&config)).collect()
    }
}

/// The node of `old` whose position is `root`'s (same position string and
/// turn count), as a tree of its own.
fn find_subtree<R: Rules>(rules: &R, old: &Tree<R::State>, root: &Root<R::State>) -> Option<Tree<R::State>> {
    let want = rules.to_position(&root.state);
    let found = old.nodes.iter().position(|n| {
        matches!(n.kind, Kind::Leaf(_) | Kind::Decision(_))
            && n.turns == root.turns
            && n.state.as_ref().is_some_and(|s| rules.to_position(s) == want)
    })?;
    Some(old.subtree(found))
}

/// Player 0's return of one uniformly random playout from `state` (chance
/// outcomes by their probabilities), 0 if `max_turns` is reached first.
pub fn rollout<R: Rules>(
    rules: &R,
    mut state: R::State,
    mut turns: u32,
    max_turns: u32,
    rng: &mut GameRng,
    mask: &mut [bool],
) -> f32 {
    let game_actions = rules.spec().num_game_actions();
    // A guard for games without a turn limit whose random playouts could cycle.
    for _ in 0..1_000_000 {
        let action = match rules.to_act(&state) {
            ToAct::Terminal => return rules.returns(&state)[0],
            ToAct::Chance => sample_outcome(&rules.chance_outcomes(&state), rng),
            ToAct::Player(_) => {
                rules.legal_mask(&state, mask);
                Action(random_true(&mask[..game_actions], rng) as u32)
            }
        };
        if rules.apply(&mut state, action, rng) == Applied::TurnOver {
            turns += 1;
            if max_turns > 0 && turns >= max_turns && rules.to_act(&state) != ToAct::Terminal {
                return 0.0;
            }
        }
    }
    0.0
}

/// The index of a uniformly random `true` of `mask` (which has one).
/// Masks are long and sparse (934 entries for `checkers`, a handful legal):
/// eight entries are read at a time as one 64-bit word, and a word's count
/// of `true` bytes (each 0 or 1) is the top byte of `word * 0x0101..01`, no
/// popcount needed (the wheel's baseline x86-64 has none).
fn random_true(mask: &[bool], rng: &mut GameRng) -> usize {
    // SAFETY: bool has the size and alignment of u8 and is 0 or 1.
    let bytes: &[u8] = unsafe { std::slice::from_raw_parts(mask.as_ptr().cast::<u8>(), mask.len()) };
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    let count = |c: &[u8]| {
        let w = u64::from_le_bytes(c.try_into().expect("eight bytes"));
        (w.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    };
    let n = words.clone().map(count).sum::<u32>() + tail.iter().map(|&b| b as u32).sum::<u32>();
    let mut k = rng.random_range(0..n);
    for (i, c) in words.enumerate() {
        let ones = count(c);
        if k < ones {
            return i * 8 + c.iter().enumerate().filter(|(_, &b)| b != 0).nth(k as usize).expect("k < ones").0;
        }
        k -= ones;
    }
    let done = bytes.len() - tail.len();
    done + tail.iter().enumerate().filter(|(_, &b)| b != 0).nth(k as usize).expect("k < n").0
}

fn sample_outcome(outcomes: &[(Action, f64)], rng: &mut GameRng) -> Action {
    let total: f64 = outcomes.iter().map(|o| o.1).sum();
    let mut x = rng.random::<f64>() * total;
    for &(a, p) in outcomes {
        if x < p {
            return a;
        }
        x -= p;
    }
    outcomes.last().expect("a chance node has outcomes").0
}

/// Decisions a walk of one node's complete turns tries at most: a capture
/// maze of the alquerque games can hold a great many hop orders, and the
/// walk only spares simulations (an unproven node is searched as before).
const WALK_DECISIONS: usize = 4096;

/// The first decision of a complete turn from `s` that ends the game with
/// `p` getting `win` or more, and what `p` gets: a depth-first walk of the
/// turn's decisions that stops at the first such end.
fn winning_turn<R: Rules>(
    rules: &R,
    s: &R::State,
    p: Player,
    win: f32,
    masks: &mut Vec<Vec<bool>>,
) -> Option<(Action, f32)> {
    let mut walk = TurnWalk { rules, p, win, masks, budget: WALK_DECISIONS, rng: rng_from_seed(0), first: Action(0) };
    walk.from(s, 0).map(|v| (walk.first, v))
}

struct TurnWalk<'a, R: Rules> {
    rules: &'a R,
    p: Player,
    win: f32,
    masks: &'a mut Vec<Vec<bool>>,
    budget: usize,
    /// For `apply` (the tree's rules roll no dice).
    rng: GameRng,
    /// The first decision of the winning turn found.
    first: Action,
}

impl<R: Rules> TurnWalk<'_, R> {
    /// What `p` gets from the first winning end of the turn in progress at `s`.
    fn from(&mut self, s: &R::State, depth: usize) -> Option<f32> {
        let spec = self.rules.spec();
        if self.masks.len() <= depth {
            self.masks.push(vec![false; spec.num_actions]);
        }
        let mut mask = std::mem::take(&mut self.masks[depth]);
        self.rules.legal_mask(s, &mut mask);
        let mut found = None;
        for a in (0..spec.num_game_actions()).filter(|&a| mask[a]) {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            let mut next = s.clone();
            let applied = self.rules.apply(&mut next, Action(a as u32), &mut self.rng);
            found = match self.rules.to_act(&next) {
                ToAct::Terminal => Some(self.rules.returns(&next)[self.p.index()]).filter(|&v| v >= self.win),
                ToAct::Player(q) if q == self.p && applied != Applied::TurnOver => self.from(&next, depth + 1),
                _ => None,
            };
            if found.is_some() {
                if depth == 0 {
                    self.first = Action(a as u32);
                }
                break;
            }
        }
        self.masks[depth] = mask;
        found
    }
}

/// `softmax(x)` over `xs`.
fn softmax(xs: &[f32]) -> Vec<f32> {
    let max = xs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f32> = xs.iter().map(|&x| (x - max).exp()).collect();
    let total: f32 = e.iter().sum();
    e.into_iter().map(|x| x / total).collect()
}

/// The visits each considered action must have to be simulated next, per
/// simulation index, for `considered` actions and `simulations` simulations
/// (mctx's `get_sequence_of_considered_visits`): rounds of equal visits,
/// then the considered set is halved, down to two.
pub fn halving_sequence(considered: u32, simulations: u32) -> Vec<u32> {
    if considered <= 1 {
        return (0..simulations).collect();
    }
    let log2max = (considered as f64).log2().ceil() as u32;
    let mut seq = Vec::with_capacity(simulations as usize);
    let mut visits = vec![0u32; considered as usize];
    let mut k = considered as usize;
    while seq.len() < simulations as usize {
        let extra = (simulations as usize / (log2max as usize * k)).max(1);
        for _ in 0..extra {
            seq.extend_from_slice(&visits[..k]);
            visits[..k].iter_mut().for_each(|v| *v += 1);
        }
        k = (k / 2).max(2);
    }
    seq.truncate(simulations as usize);
    seq
}

impl<S: Clone + Send + Sync> TreeSearch<S> {
    /// Runs simulations until one reaches a leaf to evaluate (true) or the
    /// search is over (false).
    fn advance<R: Rules<State = S>>(&mut self, rules: &R, config: &MctsConfig) -> bool {
        if self.failed.is_some() {
            return false;
        }
        if !self.path.is_empty() {
            return true;
        }
        if let Kind::Leaf(_) = self.tree.nodes[0].kind {
            self.path.push(0);
            self.counted = false;
            return true;
        }
        if !self.root_ready {
            self.prepare_root(config);
        }
        while self.done < config.simulations {
            match self.simulate(rules, config) {
                Ok(true) => {
                    self.counted = true;
                    return true;
                }
                Ok(false) => self.done += 1,
                Err(e) => {
                    self.path.clear();
                    self.failed = Some(e);
                    return false;
                }
            }
        }
        false
    }

    /// Root noise for this search: Dirichlet noise in the priors (PUCT) or
    /// the Gumbel draws and the halving plan (Gumbel).
    fn prepare_root(&mut self, config: &MctsConfig) {
        self.root_ready = true;
        let children = self.tree.nodes[0].children();
        match config.root {
            RootSelection::Puct => {
                if config.dirichlet_fraction > 0.0 && !children.is_empty() {
                    let noise = dirichlet(&mut self.rng, config.dirichlet_alpha as f64, children.len());
                    let f = config.dirichlet_fraction;
                    for (c, n) in self.tree.nodes[children].iter_mut().zip(noise) {
                        c.prior = (1.0 - f) * c.prior + f * n as f32;
                    }
                }
            }
            RootSelection::Gumbel => {
                self.root_gumbel =
                    children.clone().map(|_| config.gumbel_scale * gumbel(&mut self.rng) as f32).collect();
                let k = config.considered.min(children.len() as u32);
                self.halving = halving_sequence(k, config.simulations);
            }
        }
    }

    /// One simulation from the root; true if it stopped at a leaf waiting
    /// for its evaluation (its path kept), false if it was backed up.
    fn simulate<R: Rules<State = S>>(&mut self, rules: &R, config: &MctsConfig) -> Result<bool> {
        self.path.clear();
        self.path.push(0);
        let mut cur = 0usize;
        loop {
            let next = match self.tree.nodes[cur].kind {
                // A node proven won goes down its winning line.
                Kind::Decision(p) => match self.winning_child(cur, p) {
                    Some(child) => child,
                    None => match config.root {
                        RootSelection::Puct => self.select_puct(cur, p, config),
                        RootSelection::Gumbel if cur == 0 => self.select_gumbel_root(config),
                        RootSelection::Gumbel => self.select_gumbel_interior(cur, p, config),
                    },
                },
                Kind::Chance => self.select_chance(cur, config),
                Kind::Terminal(v0) => {
                    self.backup(v0);
                    return Ok(false);
                }
                Kind::Truncated => {
                    self.backup(0.0);
                    return Ok(false);
                }
                Kind::Leaf(_) | Kind::ChanceLeaf(_) => return Ok(true),
                Kind::Unreached => unreachable!("a selected node is reached first"),
            };
            self.reach(rules, cur, next, config)?;
            self.path.push(next as u32);
            cur = next;
        }
    }

    /// Gives `child` its state and kind the first time a simulation enters it.
    fn reach<R: Rules<State = S>>(
        &mut self,
        rules: &R,
        parent: usize,
        child: usize,
        config: &MctsConfig,
    ) -> Result<()> {
        if self.tree.nodes[child].kind != Kind::Unreached {
            return Ok(());
        }
        let p = &self.tree.nodes[parent];
        let mut state = p.state.clone().expect("a parent has its state");
        let mut turns = p.turns;
        if rules.apply(&mut state, self.tree.nodes[child].action, &mut self.rng) == Applied::TurnOver {
            turns += 1;
        }
        let truncated = config.max_turns > 0 && turns >= config.max_turns;
        let kind = match rules.to_act(&state) {
            ToAct::Terminal => Kind::Terminal(rules.returns(&state)[0]),
            _ if truncated => Kind::Truncated,
            ToAct::Chance => {
                let waiting = if config.evaluate_chance {
                    let p = rules.chance_player(&state).ok_or_else(|| {
                        GameError::Invalid(format!(
                            "evaluate_chance: the chance node at {} has no player whose value the evaluator could give (the game names none there); search without evaluate_chance",
                            crate::error::clip(&rules.to_position(&state))
                        ))
                    })?;
                    Some(p)
                } else {
                    None
                };
                let outcomes = rules.chance_outcomes(&state);
                self.tree.add_children(child, outcomes.into_iter().map(|(a, p)| (a, p as f32, 0.0)));
                waiting.map_or(Kind::Chance, Kind::ChanceLeaf)
            }
            ToAct::Player(p) => Kind::Leaf(p),
        };
        let node = &mut self.tree.nodes[child];
        node.state = Some(state);
        node.turns = turns;
        node.kind = kind;
        node.exact = match kind {
            Kind::Terminal(v0) => Some(v0),
            Kind::Truncated => Some(0.0),
            _ => None,
        };
        Ok(())
    }

    fn backup(&mut self, v0: f32) {
        for &i in &self.path {
            let n = &mut self.tree.nodes[i as usize];
            n.visits += 1;
            n.value0 += v0 as f64;
        }
        self.prove_path();
        self.path.clear();
    }

    /// The solver: proofs climb the path from its end while each node's
    /// newly proven value proves its parent.
    fn prove_path(&mut self) {
        for k in (0..self.path.len()).rev() {
            let i = self.path[k] as usize;
            if self.tree.nodes[i].exact.is_some() {
                continue;
            }
            match self.proven_value(i) {
                Some(v0) => self.tree.nodes[i].exact = Some(v0),
                None => break,
            }
        }
    }

    /// Node `i`'s exact value from player 0's side if its children prove it:
    /// a decision with a child worth the most the game gives to its decider,
    /// or with every child proven (the best of them); a chance node with
    /// every outcome proven (their mean by probability).
    fn proven_value(&self, i: usize) -> Option<f32> {
        let n = &self.tree.nodes[i];
        let kids = &self.tree.nodes[n.children()];
        if kids.is_empty() {
            return None;
        }
        match n.kind {
            Kind::Decision(p) => {
                let mut best = f32::NEG_INFINITY;
                for c in kids {
                    let v = sign(p) * c.exact?;
                    if v >= self.win {
                        return Some(sign(p) * v);
                    }
                    best = best.max(v);
                }
                Some(sign(p) * best)
            }
            Kind::Chance => {
                kids.iter().map(|c| c.exact.map(|v0| c.prior as f64 * v0 as f64)).sum::<Option<f64>>().map(|v| v as f32)
            }
            _ => None,
        }
    }

    /// At a node proven won for `p`: the child that wins (proven, or the
    /// first decision of the winning turn its expansion found).
    fn winning_child(&self, node: usize, p: Player) -> Option<usize> {
        let n = &self.tree.nodes[node];
        if !n.proven_win(p, self.win) {
            return None;
        }
        let kids = n.children();
        kids.clone()
            .find(|&i| self.tree.nodes[i].proven_win(p, self.win))
            .or_else(|| n.winning.and_then(|a| kids.clone().find(|&i| self.tree.nodes[i].action == a)))
    }

    /// Expands the waiting leaf with the evaluator's answer and backs up.
    /// A waiting chance node keeps its outcomes and takes the value only.
    fn expand_leaf<R: Rules<State = S>>(&mut self, rules: &R, config: &MctsConfig, logits: &[f32], value: f32) {
        let leaf = *self.path.last().expect("a leaf waits") as usize;
        if let Kind::ChanceLeaf(player) = self.tree.nodes[leaf].kind {
            let v0 = sign(player) * value;
            let node = &mut self.tree.nodes[leaf];
            node.kind = Kind::Chance;
            node.raw0 = v0;
            self.backup(v0);
            // The root is never a chance node: this was a simulation.
            self.done += 1;
            return;
        }
        let Kind::Leaf(player) = self.tree.nodes[leaf].kind else { unreachable!("only leaves wait") };
        rules.legal_mask(self.tree.nodes[leaf].state.as_ref().expect("a leaf has its state"), &mut self.mask);
        let legal: Vec<usize> = (0..rules.spec().num_game_actions()).filter(|&a| self.mask[a]).collect();
        let chosen: Vec<f32> = legal.iter().map(|&a| logits[a]).collect();
        let priors = softmax(&chosen);
        self.tree.add_children(leaf, legal.iter().zip(priors).zip(chosen).map(|((&a, p), l)| (Action(a as u32), p, l)));
        let v0 = sign(player) * value;
        let won = if self.win.is_finite() {
            let state = self.tree.nodes[leaf].state.as_ref().expect("a leaf has its state");
            winning_turn(rules, state, player, self.win, &mut self.walk_masks)
        } else {
            None
        };
        let node = &mut self.tree.nodes[leaf];
        node.kind = Kind::Decision(player);
        node.raw0 = v0;
        if let Some((first, v)) = won {
            node.exact = Some(sign(player) * v);
            node.winning = Some(first);
        }
        self.backup(v0);
        if self.counted {
            self.done += 1;
        } else if leaf == 0 {
            self.prepare_root(config);
        }
    }

    fn select_puct(&self, node: usize, p: Player, config: &MctsConfig) -> usize {
        let n = &self.tree.nodes[node];
        // Unvisited children are valued like their parent (first-play urgency).
        let fpu = n.q(p);
        let scale = config.c_puct * (n.visits as f32).sqrt();
        let mut best = (f32::NEG_INFINITY, n.first_child as usize);
        // A child proven lost is not tried while another may not be.
        let open = n.children().any(|i| !self.tree.nodes[i].proven_loss(p, self.win));
        for i in n.children() {
            let c = &self.tree.nodes[i];
            if open && c.proven_loss(p, self.win) {
                continue;
            }
            let q = if c.visits == 0 && c.exact.is_none() { fpu } else { c.worth(p) };
            let score = q + scale * c.prior / (1.0 + c.visits as f32);
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }

    fn select_chance(&mut self, node: usize, config: &MctsConfig) -> usize {
        let n = &self.tree.nodes[node];
        match config.chance {
            ChanceSelection::Stratified => {
                // Ties (every outcome of equal probability at a node's first
                // visit) go to a random one of them: always taking the first
                // made each new node of a chain of passes (both sides on the
                // bar, each failing to enter with the same first roll) pick
                // the same roll, so one simulation descended without end.
                // An evaluated chance node's own evaluation is one of its
                // visits but no outcome's.
                let descents = if config.evaluate_chance { n.visits.saturating_sub(1) } else { n.visits };
                let total = descents as f32 + 1.0;
                let (mut best, mut pick, mut ties) = (f32::NEG_INFINITY, n.first_child as usize, 0u32);
                for i in n.children() {
                    let c = &self.tree.nodes[i];
                    let deficit = c.prior * total - c.visits as f32;
                    if deficit > best + 1e-6 {
                        (best, pick, ties) = (deficit, i, 1);
                    } else if deficit >= best - 1e-6 {
                        ties += 1;
                        if self.rng.random_range(0..ties) == 0 {
                            pick = i;
                        }
                    }
                }
                pick
            }
            ChanceSelection::Sample => {
                let mut x = self.rng.random::<f32>();
                for i in n.children() {
                    x -= self.tree.nodes[i].prior;
                    if x < 0.0 {
                        return i;
                    }
                }
                n.children().end - 1
            }
        }
    }

    /// mctx's `qtransform_completed_by_mix_value`: children's values from
    /// `p`'s side, unvisited ones completed by the mixed value, rescaled to
    /// [0, 1] and scaled by `(c_visit + max visits) * c_scale`.
    fn completed_q(&self, node: usize, p: Player, config: &MctsConfig) -> Vec<f32> {
        let n = &self.tree.nodes[node];
        let children = &self.tree.nodes[n.children()];
        let total: u32 = children.iter().map(|c| c.visits).sum();
        let visited_prior: f32 = children.iter().filter(|c| c.visits > 0).map(|c| c.prior.max(f32::MIN_POSITIVE)).sum();
        let weighted_q: f32 = if visited_prior > 0.0 {
            children.iter().filter(|c| c.visits > 0).map(|c| c.prior.max(f32::MIN_POSITIVE) * c.worth(p)).sum::<f32>()
                / visited_prior
        } else {
            0.0
        };
        let raw = sign(p) * n.raw0;
        let mixed = (raw + total as f32 * weighted_q) / (total as f32 + 1.0);
        let q: Vec<f32> = children.iter().map(|c| if c.visits > 0 { c.worth(p) } else { mixed }).collect();
        let (lo, hi) = q.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        let max_visits = children.iter().map(|c| c.visits).max().unwrap_or(0);
        let scale = (config.c_visit + max_visits as f32) * config.c_scale;
        q.iter().map(|&x| scale * (x - lo) / (hi - lo).max(1e-8)).collect()
    }

    fn select_gumbel_interior(&self, node: usize, p: Player, config: &MctsConfig) -> usize {
        let n = &self.tree.nodes[node];
        let children = &self.tree.nodes[n.children()];
        let q = self.completed_q(node, p, config);
        let logits: Vec<f32> = children.iter().zip(&q).map(|(c, q)| c.logit + q).collect();
        let pi = softmax(&logits);
        let total: u32 = children.iter().map(|c| c.visits).sum();
        let mut best = (f32::NEG_INFINITY, 0);
        // A child proven lost is not tried while another may not be.
        let open = children.iter().any(|c| !c.proven_loss(p, self.win));
        for (k, c) in children.iter().enumerate() {
            if open && c.proven_loss(p, self.win) {
                continue;
            }
            let score = pi[k] - c.visits as f32 / (1.0 + total as f32);
            if score > best.0 {
                best = (score, k);
            }
        }
        n.first_child as usize + best.1
    }

    /// Scores of the root children for sequential halving: `gumbel + logit +
    /// sigma(q)` among the children whose visits equal `considered_visit`.
    fn gumbel_root_scores(&self, considered_visit: u32, config: &MctsConfig) -> Vec<f32> {
        let root = &self.tree.nodes[0];
        let Kind::Decision(p) = root.kind else { unreachable!("the root is evaluated") };
        let q = self.completed_q(0, p, config);
        let children = &self.tree.nodes[root.children()];
        let max_logit = children.iter().map(|c| c.logit).fold(f32::NEG_INFINITY, f32::max);
        children
            .iter()
            .enumerate()
            .map(|(k, c)| {
                if c.visits == considered_visit {
                    (self.root_gumbel[k] + c.logit - max_logit + q[k]).max(-1e9)
                } else {
                    f32::NEG_INFINITY
                }
            })
            .collect()
    }

    fn select_gumbel_root(&self, config: &MctsConfig) -> usize {
        let root = &self.tree.nodes[0];
        let sim: u32 = self.tree.nodes[root.children()].iter().map(|c| c.visits).sum();
        let considered_visit = self.halving.get(sim as usize).or(self.halving.last()).copied().unwrap_or(0);
        root.first_child as usize + argmax(&self.gumbel_root_scores(considered_visit, config))
    }

    fn result(&mut self, config: &MctsConfig) -> SearchResult {
        let root = &self.tree.nodes[0];
        let player = match root.kind {
            Kind::Decision(p) | Kind::Leaf(p) => p,
            _ => unreachable!("a root has a player to decide"),
        };
        let children = &self.tree.nodes[root.children()];
        let visits: Vec<u32> = children.iter().map(|c| c.visits).collect();
        let total: u32 = visits.iter().sum();
        let (policy, best) = match config.root {
            RootSelection::Gumbel => {
                let q = self.completed_q(0, player, config);
                let logits: Vec<f32> = children.iter().zip(&q).map(|(c, q)| c.logit + q).collect();
                let max_visits = visits.iter().copied().max().unwrap_or(0);
                (softmax(&logits), argmax(&self.gumbel_root_scores(max_visits, config)))
            }
            RootSelection::Puct => {
                let policy: Vec<f32> = if total > 0 {
                    visits.iter().map(|&v| v as f32 / total as f32).collect()
                } else {
                    children.iter().map(|c| c.prior).collect()
                };
                let best = if config.temperature > 0.0 && total > 0 {
                    let weights: Vec<f64> = visits
                        .iter()
                        .map(|&v| (v as f64 / total as f64).powf(1.0 / config.temperature as f64))
                        .collect();
                    let sum: f64 = weights.iter().sum();
                    let outcomes: Vec<(Action, f64)> =
                        weights.iter().enumerate().map(|(k, w)| (Action(k as u32), w / sum)).collect();
                    sample_outcome(&outcomes, &mut self.rng).index()
                } else {
                    // Most visited; ties to the higher prior, then the first.
                    let keys: Vec<(u32, f32)> = children.iter().map(|c| (c.visits, c.prior)).collect();
                    (0..keys.len())
                        .max_by(|&a, &b| {
                            keys[a].0.cmp(&keys[b].0).then(keys[a].1.total_cmp(&keys[b].1)).then(b.cmp(&a))
                        })
                        .unwrap_or(0)
                };
                (policy, best)
            }
        };
        // A proven win is played whatever the visits or the temperature say;
        // a move proven lost only when every move is.
        let best = match self.winning_child(0, player) {
            Some(i) => i - root.first_child as usize,
            None if children[best].proven_loss(player, self.win) => (0..children.len())
                .filter(|&k| !children[k].proven_loss(player, self.win))
                .max_by(|&a, &b| {
                    visits[a].cmp(&visits[b]).then(children[a].prior.total_cmp(&children[b].prior)).then(b.cmp(&a))
                })
                .unwrap_or(best),
            None => best,
        };
        let children_out = children.iter().zip(&visits).zip(&policy).map(|((c, &v), &w)| (c.action, v, w)).collect();
        let value = match root.exact {
            Some(v0) => sign(player) * v0,
            None if root.visits > 0 => root.q(player),
            None => 0.0,
        };
        SearchResult { action: children[best].action, children: children_out, value, player }
    }
}

/// Index of the largest entry (the first among equals).
fn argmax(xs: &[f32]) -> usize {
    let mut best = (f32::NEG_INFINITY, 0);
    for (k, &x) in xs.iter().enumerate() {
        if x > best.0 {
            best = (x, k);
        }
    }
    best.1
}

/// What [`Forest::check_tree`] counted.
#[cfg(test)]
#[derive(Debug, Default)]
pub struct TreeCheck {
    pub nodes: usize,
    pub chance_nodes_checked: usize,
    /// Consecutive decisions of one player found in the tree.
    pub same_player_edges: usize,
}

#[cfg(test)]
#[test]
fn random_true_is_uniform_over_the_true_entries() {
    let mut rng = rng_from_seed(3);
    let mut mask = vec![false; 934];
    for a in [0, 7, 8, 63, 64, 500, 933] {
        mask[a] = true;
    }
    let mut counts = std::collections::BTreeMap::new();
    for _ in 0..70_000 {
        *counts.entry(random_true(&mask, &mut rng)).or_insert(0u32) += 1;
    }
    assert_eq!(counts.keys().copied().collect::<Vec<_>>(), [0, 7, 8, 63, 64, 500, 933]);
    assert!(counts.values().all(|&c| (9_000..11_000).contains(&c)), "{counts:?}");
}

#[cfg(test)]
impl<R: Rules> Forest<R> {
    /// Checks tree `i`: every node's visits and values are its own
    /// evaluation plus its children's (the backup adds each value once on
    /// every node of its path, whoever decides there); and under stratified
    /// chance selection, every chance node's outcomes have `p N` visits up to one.
    pub fn check_tree(&self, i: usize) -> std::result::Result<TreeCheck, String> {
        let nodes = &self.trees[i].tree.nodes;
        let mut check = TreeCheck { nodes: nodes.len(), ..TreeCheck::default() };
        for (k, n) in nodes.iter().enumerate() {
            let children = &nodes[n.children()];
            let (own_visits, own_value) = match n.kind {
                Kind::Decision(_) => (1, n.raw0 as f64),
                Kind::Chance if self.config.evaluate_chance => (1, n.raw0 as f64),
                Kind::Chance => (0, 0.0),
                Kind::Terminal(v) => (n.visits, v as f64 * n.visits as f64),
                Kind::Truncated => (n.visits, 0.0),
                Kind::Leaf(_) | Kind::ChanceLeaf(_) | Kind::Unreached => (0, 0.0),
            };
            let visits = own_visits + children.iter().map(|c| c.visits).sum::<u32>();
            let value = own_value + children.iter().map(|c| c.value0).sum::<f64>();
            if visits != n.visits || (value - n.value0).abs() > 1e-3 * (1.0 + n.visits as f64) {
                return Err(format!(
                    "node {k} {:?}: visits {} value {} but children give {visits} {value}",
                    n.kind, n.visits, n.value0
                ));
            }
            if let Kind::Decision(p) = n.kind {
                check.same_player_edges +=
                    children.iter().filter(|c| matches!(c.kind, Kind::Decision(q) | Kind::Leaf(q) if q == p)).count();
            }
            if n.kind == Kind::Chance && self.config.chance == ChanceSelection::Stratified {
                let descents = n.visits - own_visits;
                for c in children {
                    let want = c.prior as f64 * descents as f64;
                    if (c.visits as f64 - want).abs() > 1.0 + 1e-4 {
                        return Err(format!(
                            "chance node {k}: outcome {:?} has {} visits of {descents}, p = {}",
                            c.action, c.visits, c.prior
                        ));
                    }
                }
                check.chance_nodes_checked += 1;
            }
        }
        Ok(check)
    }

    /// Each root child of tree `i`: its action, visits and mean value from
    /// the root player's side.
    pub fn root_children(&self, i: usize) -> Vec<(Action, u32, f32)> {
        let nodes = &self.trees[i].tree.nodes;
        let p = nodes[0].kind.waiting_player().or(match nodes[0].kind {
            Kind::Decision(p) => Some(p),
            _ => None,
        });
        let p = p.expect("a root has a player");
        nodes[nodes[0].children()].iter().map(|c| (c.action, c.visits, c.q(p))).collect()
    }

    /// Every node of tree `i` the solver proved: its state, the turns played
    /// to it and its exact value from player 0's side.
    pub fn proven(&self, i: usize) -> Vec<(R::State, u32, f32)> {
        let nodes = &self.trees[i].tree.nodes;
        nodes.iter().filter_map(|n| Some((n.state.clone()?, n.turns, n.exact?))).collect()
    }

    /// Visits of each outcome of every chance node with at least `min_visits`.
    pub fn chance_visits(&self, i: usize, min_visits: u32) -> Vec<Vec<(f32, u32)>> {
        let nodes = &self.trees[i].tree.nodes;
        nodes
            .iter()
            .filter(|n| n.kind == Kind::Chance && n.visits >= min_visits)
            .map(|n| nodes[n.children()].iter().map(|c| (c.prior, c.visits)).collect())
            .collect()
    }
}
