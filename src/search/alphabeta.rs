//! Alpha-beta over complete turns: negamax with iterative deepening, a
//! transposition table, move ordering and a capture quiescence search, for
//! the deterministic games.
//!
//! Depth counts complete turns ([`Rules::next_states`]). Values are kept for
//! a player, not by depth parity: a node whose mover is not the player the
//! value is wanted for is searched for its mover and negated, so a player who
//! moves twice in a row is handled (the games are zero-sum). A won game `p`
//! complete turns below the root is worth `1 + (MAX_PLY + 1 - p) / 128` to
//! the winner, whether the full-width search or the quiescence search found
//! it: the quicker win is always preferred and the slower loss always put
//! off; a leaf is the evaluation clamped into [-1, 1].
//!
//! The transposition table reuses a bound only from a search of the same
//! depth: the value of every node is then exactly the fixed-depth minimax
//! value (the tests check it against plain minimax), and deeper entries
//! still serve move ordering. Won and lost values are stored as distances
//! from the node rather than from the root (a chess engine's mate scores), so
//! an entry met again at another ply means the same win.

use super::eval::{state_key, Aborted, Evaluator};
use crate::core::{Player, ToAct};
use crate::game::Rules;
use std::time::{Duration, Instant};

/// Deepest search allowed, in complete turns.
pub const MAX_DEPTH: u32 = 64;
/// Capture turns the quiescence search follows at most below the horizon
/// (py-draughts' engine stops at 8 too): soplo games, where every huff is a
/// capture, would otherwise explode.
pub const MAX_QUIESCENCE: u32 = 8;
/// The deepest a game can end below the root: full-width turns, then quiescence.
pub const MAX_PLY: u32 = MAX_DEPTH + MAX_QUIESCENCE;

/// What to search.
#[derive(Clone, Debug)]
pub struct Config {
    /// Depth in complete turns (1..=[`MAX_DEPTH`]); with a time limit, the
    /// deepest iteration tried.
    pub depth: u32,
    /// Stop after this long (the deepest completed iteration answers; depth
    /// 1 always completes).
    pub time: Option<Duration>,
    /// Transposition table entries (rounded up to a power of two); 0: none.
    pub tt_entries: usize,
    /// Follow capture turns past the horizon.
    pub quiescence: bool,
    /// Search depths 1, 2, .., `depth` (the earlier ones order the moves of
    /// the later); false searches `depth` alone (tests).
    pub iterative: bool,
    /// Repetition keys ([`Rules::repetition_key`]) the game in progress has
    /// already met twice, sorted: reaching one again is the third occurrence,
    /// a draw. The positions of the tree carry no history, so without these a
    /// search would value a move that draws by repetition as the position it
    /// reaches. Repetitions within the searched line itself are not counted.
    pub repeated: Vec<u64>,
    /// What such a repetition draw costs the searching player, in (-1, 1):
    /// the draw is worth `-contempt` to it and `+contempt` to its opponent.
    /// 0 is the rules' value. A positive contempt is a chess engine's: it
    /// plays on rather than repeat in a position its evaluation finds
    /// somewhat worse than even, which against a weaker opponent is usually
    /// won (docs/search.md, "Contempt").
    pub contempt: f32,
    /// Threat quiescence, for games that tell threats ([`Rules::wins_at_once`],
    /// [`Rules::threatened`]; tablut: the king's routes to a corner): a
    /// position whose mover wins at once is won; past the horizon a threatened
    /// mover may not stand on the evaluation but searches every answer, and
    /// the turns that make a threat are followed like captures. Forced wins
    /// by a series of threats are then seen past the horizon. Off by default
    /// (the built-in `alphabeta` agent's search).
    pub threats: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            depth: 6,
            time: None,
            tt_entries: 1 << 20,
            quiescence: true,
            iterative: true,
            repeated: Vec::new(),
            contempt: 0.0,
            threats: false,
        }
    }
}

/// Whether reaching `s` draws the game by repetition (its key is one of `repeated`).
#[inline]
pub fn draws_by_repetition<R: Rules>(rules: &R, s: &R::State, repeated: &[u64]) -> bool {
    !repeated.is_empty() && rules.repetition_key(s).is_some_and(|k| repeated.binary_search(&k).is_ok())
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Index of the best turn in `rules.turns(root)` (`None` at a terminal root).
    pub best: Option<usize>,
    /// Value of the root for the player to move there.
    pub value: f32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// States visited (interior, leaves and quiescence nodes).
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Why a search could not answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The evaluation failed (the caller holds the reason).
    Aborted,
    /// The root is a chance node or the game has chance (use expectimax).
    Chance,
}

enum Stop {
    Time,
    Aborted,
    Chance,
}

impl From<Aborted> for Stop {
    fn from(_: Aborted) -> Stop {
        Stop::Aborted
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Bound {
    Exact = 0,
    Lower = 1,
    Upper = 2,
}

#[derive(Copy, Clone)]
struct Entry {
    key: u64,
    value: f32,
    /// Index of the best child in `next_states` order.
    best: u16,
    depth: u8,
    bound: Bound,
}

/// Always-replace table: the newest search of a position is the most useful
/// to the next iteration. Two arrays of plain words (key 0 = empty), so that
/// a new table is zeroed memory the system hands over lazily: a search that
/// visits a hundred nodes must not pay for clearing megabytes.
struct Table {
    keys: Vec<u64>,
    /// value (f32 bits) | best << 32 | depth << 48 | bound << 56.
    data: Vec<u64>,
}

impl Table {
    fn new(entries: usize) -> Table {
        let n = if entries == 0 { 0 } else { entries.next_power_of_two() };
        Table { keys: vec![0; n], data: vec![0; n] }
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        if self.keys.is_empty() {
            return None;
        }
        let i = key as usize & (self.keys.len() - 1);
        if self.keys[i] != key {
            return None;
        }
        let d = self.data[i];
        let bound = match d >> 56 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry { key, value: f32::from_bits(d as u32), best: (d >> 32) as u16, depth: (d >> 48) as u8, bound })
    }

    #[inline]
    fn store(&mut self, e: Entry) {
        if !self.keys.is_empty() {
            let i = e.key as usize & (self.keys.len() - 1);
            self.keys[i] = e.key;
            self.data[i] =
                e.value.to_bits() as u64 | (e.best as u64) << 32 | (e.depth as u64) << 48 | (e.bound as u64) << 56;
        }
    }
}

/// What winning `ply` complete turns below the root is worth: more than any
/// evaluation (1), and more the sooner (exact in `f32`: multiples of 1/128).
#[inline]
pub fn win_at(ply: u32) -> f32 {
    1.0 + (MAX_PLY + 1).saturating_sub(ply) as f32 / 128.0
}

/// The value for `me` of a game finished `ply` complete turns below the root.
#[inline]
pub fn terminal_value<R: Rules>(rules: &R, s: &R::State, me: Player, ply: u32) -> f32 {
    rules.returns(s)[me.index()] * win_at(ply)
}

/// Whether `v` is a won or lost game rather than an evaluation or a draw.
#[inline]
pub fn is_decided(v: f32) -> bool {
    v.abs() > 1.0
}

/// A value found `ply` turns below the root as the table keeps it: a won or
/// lost game counted from the node, so that the entry means the same at any ply.
#[inline]
fn to_table(v: f32, ply: u32) -> f32 {
    if is_decided(v) {
        v + v.signum() * ply as f32 / 128.0
    } else {
        v
    }
}

/// The inverse of [`to_table`] for a node `ply` turns below the root.
#[inline]
fn from_table(v: f32, ply: u32) -> f32 {
    if is_decided(v) {
        v - v.signum() * ply as f32 / 128.0
    } else {
        v
    }
}

/// Whether the turn `from -> to` took pieces of `mover`'s opponent, and how many.
#[inline]
pub fn captured<R: Rules>(rules: &R, from: &R::State, to: &R::State, mover: Player) -> u32 {
    let opp = mover.other().index();
    rules.piece_counts(from)[opp].saturating_sub(rules.piece_counts(to)[opp])
}

struct Search<'a, R: Rules, E: ?Sized> {
    rules: &'a R,
    eval: &'a mut E,
    tt: Table,
    quiescence: bool,
    threats: bool,
    repeated: &'a [u64],
    /// A repetition draw's value by player index (the contempt, signed).
    draw: [f32; 2],
    nodes: u64,
    deadline: Option<Instant>,
    /// Child buffers by ply, reused (search allocates nothing once warm).
    pool: Vec<Vec<R::State>>,
}

impl<'a, R: Rules, E: Evaluator<R> + ?Sized> Search<'a, R, E> {
    /// A search for `me` (the player to move at the root) by `cfg`.
    fn new(rules: &'a R, eval: &'a mut E, cfg: &'a Config, me: Player) -> Self {
        let mut draw = [cfg.contempt; 2];
        draw[me.index()] = -cfg.contempt;
        Search {
            rules,
            eval,
            tt: Table::new(cfg.tt_entries),
            quiescence: cfg.quiescence,
            threats: cfg.threats,
            repeated: &cfg.repeated,
            draw,
            nodes: 1,
            deadline: None,
            pool: Vec::new(),
        }
    }

    #[inline]
    fn tick(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    return Err(Stop::Time);
                }
            }
        }
        Ok(())
    }

    fn children(&mut self, s: &R::State) -> Vec<R::State> {
        let mut kids = self.pool.pop().unwrap_or_default();
        kids.clear();
        self.rules.next_states(s, &mut kids);
        kids
    }

    #[inline]
    fn leaf(&mut self, s: &R::State, me: Player) -> Result<f32, Stop> {
        Ok(self.eval.evaluate(self.rules, s, me)?.clamp(-1.0, 1.0))
    }

    /// The value of `s`, `ply` turns below the root, for `me` at `depth`
    /// turns, within (alpha, beta) (fail-soft).
    fn node(&mut self, s: &R::State, me: Player, depth: u32, ply: u32, mut alpha: f32, beta: f32) -> Result<f32, Stop> {
        let mover = match self.rules.to_act(s) {
            ToAct::Terminal => {
                self.nodes += 1;
                return Ok(terminal_value(self.rules, s, me, ply));
            }
            ToAct::Chance => return Err(Stop::Chance),
            ToAct::Player(p) => p,
        };
        if mover != me {
            return Ok(-self.node(s, mover, depth, ply, -beta, -alpha)?);
        }
        if draws_by_repetition(self.rules, s, self.repeated) {
            self.nodes += 1;
            return Ok(self.draw[me.index()]);
        }
        if self.threats && depth > 0 && self.rules.wins_at_once(s) {
            // Exactly the value of the winning turn's terminal child: no quicker win exists.
            self.nodes += 1;
            return Ok(win_at(ply + 1));
        }
        if depth == 0 {
            return if self.quiescence {
                self.quiesce(s, me, ply, alpha, beta, MAX_QUIESCENCE)
            } else {
                self.nodes += 1;
                self.leaf(s, me)
            };
        }
        self.tick()?;
        // 0 marks an empty slot.
        let key = state_key(s).max(1);
        let mut hint = None;
        if let Some(e) = self.tt.probe(key) {
            if e.depth as u32 == depth {
                let v = from_table(e.value, ply);
                match e.bound {
                    Bound::Exact => return Ok(v),
                    Bound::Lower if v >= beta => return Ok(v),
                    Bound::Upper if v <= alpha => return Ok(v),
                    _ => {}
                }
            }
            hint = Some(e.best as usize);
        }
        let kids = self.children(s);
        let order = self.order(s, &kids, me, hint, depth >= 2);
        let alpha0 = alpha;
        let mut best = f32::NEG_INFINITY;
        let mut best_i = 0;
        let mut result = Ok(());
        for &i in &order {
            match self.node(&kids[i], me, depth - 1, ply + 1, alpha, beta) {
                Ok(v) => {
                    if v > best {
                        best = v;
                        best_i = i;
                    }
                    alpha = alpha.max(v);
                    if alpha >= beta {
                        break;
                    }
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.pool.push(kids);
        result?;
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.store(Entry { key, value: to_table(best, ply), best: best_i as u16, depth: depth as u8, bound });
        Ok(best)
    }

    /// Children searched best-first: the table's move, then the larger
    /// captures, then (deep enough to pay) the built-in heuristic of the child.
    fn order(
        &self,
        s: &R::State,
        kids: &[R::State],
        me: Player,
        hint: Option<usize>,
        by_heuristic: bool,
    ) -> Vec<usize> {
        let mut keyed: Vec<(f32, usize)> = kids
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut k = captured(self.rules, s, c, me) as f32 * 4.0;
                if by_heuristic {
                    k += self.rules.heuristic(c, me);
                }
                if hint == Some(i) {
                    k = f32::INFINITY;
                }
                (k, i)
            })
            .collect();
        // Stable: equal keys keep the game's order (determinism).
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
        keyed.into_iter().map(|(_, i)| i).collect()
    }

    /// Past the horizon: if every turn of the mover captures (captures are
    /// compulsory and one is on), all are searched; otherwise the mover may
    /// stand on the evaluation or try its captures. With threats, a mover
    /// that wins at once has won, a threatened mover searches every turn
    /// (no standing), and the turns that threaten are tried with the captures.
    fn quiesce(&mut self, s: &R::State, me: Player, ply: u32, mut alpha: f32, beta: f32, q: u32) -> Result<f32, Stop> {
        let mover = match self.rules.to_act(s) {
            ToAct::Terminal => {
                self.nodes += 1;
                return Ok(terminal_value(self.rules, s, me, ply));
            }
            ToAct::Chance => return Err(Stop::Chance),
            ToAct::Player(p) => p,
        };
        if mover != me {
            return Ok(-self.quiesce(s, mover, ply, -beta, -alpha, q)?);
        }
        if draws_by_repetition(self.rules, s, self.repeated) {
            self.nodes += 1;
            return Ok(self.draw[me.index()]);
        }
        self.tick()?;
        if self.threats && self.rules.wins_at_once(s) {
            return Ok(win_at(ply + 1));
        }
        if q == 0 {
            return self.leaf(s, me);
        }
        let kids = self.children(s);
        let threatened = self.threats && self.rules.threatened(s);
        let mut captures = 0;
        let mut caps: Vec<(u32, usize)> = Vec::new();
        for (i, c) in kids.iter().enumerate() {
            let n = captured(self.rules, s, c, me);
            captures += (n > 0) as usize;
            if n > 0 || threatened || (self.threats && self.rules.threatened(c)) {
                caps.push((n, i));
            }
        }
        let mut best = f32::NEG_INFINITY;
        if (!threatened && captures < kids.len()) || kids.is_empty() {
            match self.leaf(s, me) {
                Ok(stand) => {
                    best = stand;
                    alpha = alpha.max(stand);
                }
                Err(e) => {
                    self.pool.push(kids);
                    return Err(e);
                }
            }
        }
        caps.sort_by_key(|c| std::cmp::Reverse(c.0));
        let mut result = Ok(());
        if alpha < beta {
            for &(_, i) in &caps {
                match self.quiesce(&kids[i], me, ply + 1, alpha, beta, q - 1) {
                    Ok(v) => {
                        best = best.max(v);
                        alpha = alpha.max(v);
                        if alpha >= beta {
                            break;
                        }
                    }
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
        }
        self.pool.push(kids);
        result.map(|_| best)
    }
}

/// Searches `root` and returns its best complete turn.
pub fn search<R: Rules, E: Evaluator<R>>(
    rules: &R,
    root: &R::State,
    cfg: &Config,
    eval: &mut E,
) -> Result<Outcome, Failure> {
    let start = Instant::now();
    if rules.explicit_chance().is_some() {
        return Err(Failure::Chance);
    }
    let me = match rules.to_act(root) {
        ToAct::Player(p) => p,
        ToAct::Chance => return Err(Failure::Chance),
        ToAct::Terminal => {
            let value = terminal_value(rules, root, Player::P0, 0);
            return Ok(Outcome { best: None, value, depth: 0, nodes: 1, elapsed: start.elapsed() });
        }
    };
    let depth = cfg.depth.clamp(1, MAX_DEPTH);
    let kids: Vec<R::State> = rules.turns(root).into_iter().map(|t| t.state).collect();
    if kids.is_empty() {
        let value = eval.evaluate(rules, root, me).map_err(|_| Failure::Aborted)?;
        return Ok(Outcome { best: None, value, depth: 0, nodes: 1, elapsed: start.elapsed() });
    }
    let mut search = Search::new(rules, eval, cfg, me);
    let mut order: Vec<usize> = search.order(root, &kids, me, None, true);
    let mut answer: Option<(usize, f32, u32)> = None;
    let first = if cfg.iterative { 1 } else { depth };
    for d in first..=depth {
        // Depth 1 always completes, so that a time limit still yields a move.
        search.deadline = if answer.is_some() { cfg.time.map(|t| start + t) } else { None };
        let mut alpha = f32::NEG_INFINITY;
        let mut best = (order[0], f32::NEG_INFINITY);
        let mut stopped = None;
        for &i in &order {
            match search.node(&kids[i], me, d - 1, 1, alpha, f32::INFINITY) {
                Ok(v) => {
                    if v > best.1 {
                        best = (i, v);
                    }
                    alpha = alpha.max(v);
                }
                Err(e) => {
                    stopped = Some(e);
                    break;
                }
            }
        }
        match stopped {
            None => {}
            Some(Stop::Time) => break,
            Some(Stop::Aborted) => return Err(Failure::Aborted),
            Some(Stop::Chance) => return Err(Failure::Chance),
        }
        answer = Some((best.0, best.1, d));
        // The next iteration starts with this one's best turn.
        let pos = order.iter().position(|&i| i == best.0).expect("best is a child");
        order[..=pos].rotate_right(1);
        if best.1 >= win_at(d) || cfg.time.is_some_and(|t| start.elapsed() >= t) {
            // A forced win within the full-width depth was found (a deeper
            // search only finds slower ones; one found by quiescence, past
            // the horizon, may still have a quicker rival) or time is up.
            break;
        }
    }
    let (best, value, depth) = answer.expect("depth 1 completes");
    Ok(Outcome { best: Some(best), value, depth, nodes: search.nodes, elapsed: start.elapsed() })
}

/// The value for the player to move at `root` of each complete turn from it,
/// in the order of `rules.turns(root)`, as a full-window search of
/// `cfg.depth - 1` turns below each (depth 1: the position the turn reaches,
/// through the capture quiescence when `cfg.quiescence`, so that the
/// opponent's captures and the recaptures they allow are seen). A turn that
/// ends the game is worth its returns scaled like every win ([`win_at`]).
pub fn turn_values<R: Rules, E: Evaluator<R> + ?Sized>(
    rules: &R,
    root: &R::State,
    cfg: &Config,
    eval: &mut E,
) -> Result<Vec<f32>, Failure> {
    if rules.explicit_chance().is_some() {
        return Err(Failure::Chance);
    }
    let me = match rules.to_act(root) {
        ToAct::Player(p) => p,
        ToAct::Chance => return Err(Failure::Chance),
        ToAct::Terminal => return Ok(Vec::new()),
    };
    let mut search = Search::new(rules, eval, cfg, me);
    let depth = cfg.depth.clamp(1, MAX_DEPTH);
    rules
        .turns(root)
        .iter()
        .map(|t| {
            search.node(&t.state, me, depth - 1, 1, f32::NEG_INFINITY, f32::INFINITY).map_err(|e| match e {
                Stop::Aborted | Stop::Time => Failure::Aborted,
                Stop::Chance => Failure::Chance,
            })
        })
        .collect()
}
