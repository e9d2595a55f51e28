//! The built-in evaluation of search (docs/search.md, "Built-in
//! evaluations"): the cubeless equity of the player on roll, in points of a
//! single game (gammons only at the end of a game).
//!
//! * Small bear-offs (each side at most [`EXACT_CHECKERS`] checkers, all
//!   home): exact winning chances from a two-sided table computed here by
//!   dynamic programming over the 21 rolls with the engine's own move
//!   generator, one table per bear-off rule (the standard game's, and the
//!   reglamento's readings of option `bear_off`).
//! * Other races: a normal approximation of the number of rolls each side
//!   needs (renewal theory: one roll moves 49/6 pips on average with variance
//!   665/36), applied to Keith-adjusted pip counts (Tom Keith, "The Keith
//!   Count", bkgm.com, 2004: +2 per checker beyond the first on the 1 point,
//!   +1 per checker beyond the first on the 2 point, +1 per checker beyond
//!   the third on the 3 point, +1 per empty 4, 5 or 6 point). This is the
//!   model behind Kleinman's race formula; the player on roll wins ties.
//! * Contact: the same formula on raw pip counts shifted by positional terms
//!   in pips (made home and outfield points, primes, hittable blots, checkers
//!   on the bar), documented at [`CONTACT`].

use super::board::{BearOff, Pos, Side, Variant, BAR, CHECKERS, OFF};
use super::movegen::distinct_ends_in;
use super::state::{Phase, State};
use crate::core::Player;
use std::sync::LazyLock;

/// Mean pips of one roll (doubles count four times).
const ROLL_MEAN: f64 = 49.0 / 6.0;
/// Variance of the pips of one roll: E[X^2] = 3066/36, minus the mean squared.
const ROLL_VAR: f64 = 3066.0 / 36.0 - ROLL_MEAN * ROLL_MEAN;
/// Bear-offs with at most this many checkers a side are evaluated exactly.
pub const EXACT_CHECKERS: u32 = 3;

/// Positional terms of contact positions, in pips of race lead (a roll is
/// about 8 pips): per made home-board point, per made point 7 to 9, per
/// point of the longest prime beyond two, per blot within 11 pips in front
/// of an enemy checker, per checker on the bar.
pub const CONTACT: Contact = Contact { home_point: 3.0, outfield_point: 1.5, prime: 3.0, blot: 5.0, bar: 4.0 };

pub struct Contact {
    pub home_point: f64,
    pub outfield_point: f64,
    pub prime: f64,
    pub blot: f64,
    pub bar: f64,
}

/// Cube decisions from the evaluation (option `cube`; docs/games/backgammon.md,
/// "Cube decisions of the built-in agents"): the player on roll doubles from
/// this cubeless winning chance on (a money-game doubling point without
/// gammons, between the 68% and 70% of the usual rules of thumb) ...
pub const DOUBLE_POINT: f64 = 0.70;
/// ... and the opponent takes while its own chance is at least this (the
/// dead-cube take point: taking loses 2 cubes instead of 1 when behind).
pub const TAKE_POINT: f64 = 0.25;

/// The equity of `s` for `player` under the standard bear-off ([`heuristic_in`]).
pub fn heuristic(s: &State, player: Player) -> f32 {
    heuristic_in(s, player, BearOff::Standard)
}

/// The equity of `s` for `player`: the on-roll equity of the player whose
/// turn it is, negated for the other; a finished game is worth its points;
/// between two games of a match, the score lead over the match length.
/// Small bear-offs are exact under the bear-off rule `bear_off`.
pub fn heuristic_in(s: &State, player: Player, bear_off: BearOff) -> f32 {
    match s.phase {
        Phase::Over => {
            let winner = s.turn.other();
            let points = if s.match_length <= 1 { s.last_points as f32 } else { 1.0 };
            if player == winner {
                points
            } else {
                -points
            }
        }
        Phase::Opening => {
            let (me, opp) = (s.score[player.index()] as f32, s.score[player.other().index()] as f32);
            (me - opp) / s.match_length.max(1) as f32
        }
        Phase::Doubled => {
            // For the doubler (on roll): the opponent drops when the doubler's
            // chance is above 1 - TAKE_POINT, else takes (the doubled cube); a
            // double below DOUBLE_POINT is valued one cube worse than rolling,
            // so that the agents keep the cube there.
            let p = on_roll_wins_in(&s.pos(), bear_off);
            let cube = s.cube_value() as f64;
            let e = 2.0 * p - 1.0;
            let v = if p > 1.0 - TAKE_POINT {
                cube
            } else if p >= DOUBLE_POINT {
                2.0 * cube * e
            } else {
                cube * e - cube
            } as f32;
            if player == s.turn {
                v
            } else {
                -v
            }
        }
        Phase::ToRoll | Phase::Move | Phase::Cube => {
            // In points: the cubeless equity times the cube (1 without the cube option).
            let v = ((2.0 * on_roll_wins_in(&s.pos(), bear_off) - 1.0) * s.cube_value() as f64) as f32;
            if player == s.turn {
                v
            } else {
                -v
            }
        }
    }
}

/// Equity of the player on roll in `p` (no gammons): `2 P(win) - 1`.
pub fn on_roll_equity(p: &Pos) -> f64 {
    2.0 * on_roll_wins(p) - 1.0
}

/// Winning chances of the player on roll (standard bear-off).
pub fn on_roll_wins(p: &Pos) -> f64 {
    on_roll_wins_in(p, BearOff::Standard)
}

/// Winning chances of the player on roll, small bear-offs exact under the
/// rule `bear_off`. Larger races use the Keith count for every rule: a
/// freer bear-off only adds choices to a roll, it moves no more pips.
pub fn on_roll_wins_in(p: &Pos, bear_off: BearOff) -> f64 {
    let (hi_me, hi_opp) = (highest(&p.me), highest(&p.opp));
    if hi_me == 0 {
        return 1.0;
    }
    if hi_opp == 0 {
        return 0.0;
    }
    // The opponent's point q is our 25 - q: no contact once our rearmost
    // checker has passed theirs.
    if hi_me + hi_opp <= 25 {
        if hi_me <= 6 && hi_opp <= 6 && in_play(&p.me) <= EXACT_CHECKERS && in_play(&p.opp) <= EXACT_CHECKERS {
            let table = match bear_off {
                BearOff::Standard => &EXACT,
                BearOff::OnePoint => &EXACT_ONE_POINT,
                BearOff::AtLeast => &EXACT_AT_LEAST,
            };
            return table.wins(&p.me, &p.opp);
        }
        return race_wins(keith(&p.me), keith(&p.opp));
    }
    let lead = pips(&p.opp) - pips(&p.me) + contact_terms(&p.me, &p.opp) - contact_terms(&p.opp, &p.me);
    race_wins(pips(&p.me), pips(&p.me) + lead)
}

/// P(the player on roll needing `me` pips bears off no later than the one needing `opp`).
pub fn race_wins(me: f64, opp: f64) -> f64 {
    let (me, opp) = (me.max(1.0), opp.max(1.0));
    let sd = ((me + opp) * ROLL_VAR / ROLL_MEAN.powi(3)).sqrt();
    normal_cdf(((opp - me) / ROLL_MEAN + 0.5) / sd)
}

fn highest(side: &Side) -> usize {
    (1..=BAR).rev().find(|&i| side[i] > 0).unwrap_or(0)
}

fn in_play(side: &Side) -> u32 {
    CHECKERS as u32 - side[OFF] as u32
}

fn pips(side: &Side) -> f64 {
    (1..=BAR).map(|i| i * side[i] as usize).sum::<usize>() as f64
}

/// Pip count with Keith's wastage adjustments.
pub fn keith(side: &Side) -> f64 {
    let beyond = |i: usize, n: u8| side[i].saturating_sub(n) as f64;
    let gaps = (4..=6).filter(|&i| side[i] == 0).count() as f64;
    pips(side) + 2.0 * beyond(1, 1) + beyond(2, 1) + beyond(3, 3) + gaps
}

/// Positional terms of `me` against `opp` (each in its own numbering), in pips.
fn contact_terms(me: &Side, opp: &Side) -> f64 {
    let c = &CONTACT;
    let made = |i: usize| me[i] >= 2;
    let mut score = 0.0;
    score += c.home_point * (1..=6).filter(|&i| made(i)).count() as f64;
    score += c.outfield_point * (7..=9).filter(|&i| made(i)).count() as f64;
    let (mut run, mut longest) = (0u32, 0u32);
    for i in 1..=24 {
        run = if made(i) { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    score += c.prime * longest.saturating_sub(2) as f64;
    // An enemy checker on its point q stands on our 25 - q and moves towards
    // our 24; the bar is our 0. A blot is hittable from 1 to 11 pips behind it.
    let enemy: Vec<usize> = (1..=BAR).filter(|&q| opp[q] > 0).map(|q| 25 - q.min(25)).collect();
    let blots = (1..=24).filter(|&i| me[i] == 1 && enemy.iter().any(|&e| e < i && i - e <= 11)).count() as f64;
    score -= c.blot * blots;
    score -= c.bar * me[BAR] as f64;
    score
}

/// The standard normal distribution function (Abramowitz and Stegun 7.1.26,
/// absolute error below 1.5e-7).
pub fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// Exact winning chances of small bear-offs, both sides at most
/// [`EXACT_CHECKERS`] checkers on points 1..6.
struct Exact {
    /// Side (counts on points 1..6, base 4) -> index into `sides`.
    index: Vec<u16>,
    sides: Vec<[u8; 6]>,
    /// `wins[a * n + b]`: P(win) of side `a` on roll against side `b`.
    wins: Vec<f64>,
}

static EXACT: LazyLock<Exact> = LazyLock::new(|| Exact::build(Variant::STANDARD));
static EXACT_ONE_POINT: LazyLock<Exact> =
    LazyLock::new(|| Exact::build(Variant { bear_off: BearOff::OnePoint, ..Variant::REGLAMENTO }));
static EXACT_AT_LEAST: LazyLock<Exact> =
    LazyLock::new(|| Exact::build(Variant { bear_off: BearOff::AtLeast, ..Variant::REGLAMENTO }));

impl Exact {
    fn key(c: &[u8; 6]) -> usize {
        c.iter().rev().fold(0, |k, &n| k * 4 + n as usize)
    }

    fn side(c: &[u8; 6]) -> Side {
        let mut s = [0u8; 26];
        s[1..=6].copy_from_slice(c);
        s[OFF] = CHECKERS - c.iter().sum::<u8>();
        s
    }

    /// The table under the movement rules `v` (in a bear-off only the bear-off rule matters).
    fn build(v: Variant) -> Exact {
        let mut sides = Vec::new();
        for k in 0..4096usize {
            let c: [u8; 6] = std::array::from_fn(|i| (k >> (2 * i) & 3) as u8);
            if c.iter().map(|&n| n as u32).sum::<u32>() <= EXACT_CHECKERS {
                sides.push(c);
            }
        }
        let pip = |c: &[u8; 6]| c.iter().enumerate().map(|(i, &n)| (i + 1) * n as usize).sum::<usize>();
        let mut index = vec![u16::MAX; 4096];
        for (i, c) in sides.iter().enumerate() {
            index[Exact::key(c)] = i as u16;
        }
        let n = sides.len();
        // Every move lowers the mover's pips: solve pairs by total pips.
        let mut pairs: Vec<(usize, usize)> = (0..n).flat_map(|a| (0..n).map(move |b| (a, b))).collect();
        pairs.sort_by_key(|&(a, b)| pip(&sides[a]) + pip(&sides[b]));
        let mut wins = vec![0.0; n * n];
        let mut buf = Vec::new();
        for (a, b) in pairs {
            wins[a * n + b] = if pip(&sides[a]) == 0 {
                1.0
            } else if pip(&sides[b]) == 0 {
                0.0
            } else {
                let me = Exact::side(&sides[a]);
                let mut total = 0.0;
                for (hi, lo, prob) in rolls() {
                    let dice: &[u8] = if hi == lo { &[hi; 4] } else { &[hi, lo] };
                    distinct_ends_in(v, false, &Pos { me, opp: [0; 26] }, dice, &mut buf);
                    let best = buf
                        .iter()
                        .map(|end| {
                            let c: [u8; 6] = std::array::from_fn(|i| end.me[i + 1]);
                            let a2 = index[Exact::key(&c)] as usize;
                            1.0 - wins[b * n + a2]
                        })
                        .fold(0.0, f64::max);
                    total += prob * best;
                }
                total
            };
        }
        Exact { index, sides, wins }
    }

    fn wins(&self, me: &Side, opp: &Side) -> f64 {
        let at = |s: &Side| self.index[Exact::key(&std::array::from_fn(|i| s[i + 1]))] as usize;
        debug_assert!(self.sides.len() * self.sides.len() == self.wins.len());
        self.wins[at(me) * self.sides.len() + at(opp)]
    }
}

/// The 21 rolls as (larger die, smaller die, probability).
pub fn rolls() -> impl Iterator<Item = (u8, u8, f64)> {
    (1..=6u8).flat_map(|hi| (1..=hi).map(move |lo| (hi, lo, if hi == lo { 1.0 / 36.0 } else { 2.0 / 36.0 })))
}
